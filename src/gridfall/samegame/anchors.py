"""Published results on the 20 standard boards, to print beside gridfall's own.

CodinGame scoring: sum of (n-2)^2, +1000 for a cleared board, no penalty for
leftover cells.  Totals over the 20 boards of the academic test set.
"""

OFFLINE = [
    ("SP-MCTS (Schadd et al. 2008)", 73_998),
    ("NMCS level 3 (Cazenave 2009)", 77_934),
    ("tuned SP-MCTS (Schadd et al. 2012)", 78_012),
    ("HGSTS (Edelkamp et al. 2010), best documented algorithm", 84_718),
    ("best entry of a public high-score list (method unknown)", 87_842),
]

# Measured side by side on this kind of machine: 20 s per board, one core each.
ONLINE_20S = [
    ("C++ beam search", 55_973),
    ("C++ NMCS level 2", 64_311),
    ("C++ NRPA (second implementation)", 64_889),
    ("C++ NRPA level 3, tabu colour (published)", 69_976),
    ("best of the four C++ programs on each board", 72_236),
]
