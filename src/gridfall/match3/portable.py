"""Portable Match-3 players for CodeAbbey problem 370: standard library only, Python 3.6 syntax.

This file is gridfall's own ``plan``, ``greedy`` and ``fast`` agents, and also what
``gridfall match3 export`` writes out (with AGENT and TIME_BUDGET set):
one self-contained file defining ``suggest(board, boardNo, move, elapsed)``
that CodeAbbey accepts.  Keep it free of imports beyond the standard library
and of syntax newer than Python 3.6.

board   : N strings of N letters A-G, the top row first
returns : (col, row, dir), 1-based, row 1 at the top, dir R or D; or dir Q to
          end this board's game
elapsed : seconds this run has spent in suggest so far
"""

import time

AGENT = "plan"  # "plan", "fast" or "greedy"
TIME_BUDGET = 1.0  # seconds for the whole run (four boards)
MAX_MOVES = 1000  # moves per board
SAFETY = 0.92  # fraction of the budget actually used (fast, greedy)
PLAN_SHARES = (0.02, 0.03, 0.05, 0.90)  # plan: the run's time for boards 1-4 (8, 11, 12, 13 cells a side)
PLAN_SAFETY = 0.95  # plan: fraction of each board's time it may use
PLAN_MARGIN = 0.01  # plan: seconds kept back before the last move of a board


def _grid(board):
    """A flat list of jewel codes 0..6, row-major, and the board size."""
    n = len(board)
    return [ord(ch) - 65 for row in board for ch in row], n


def _run(g, n, i, step, limit_lo, limit_hi):
    """Length of the run of g[i]'s jewel through index i, stepping by step within [limit_lo, limit_hi]."""
    jewel = g[i]
    run = 1
    j = i - step
    while j >= limit_lo and g[j] == jewel:
        run += 1
        j -= step
    j = i + step
    while j <= limit_hi and g[j] == jewel:
        run += 1
        j += step
    return run


def _lines_through(g, n, i):
    """Jewels in lines of 3+ through cell i (0 if none; the cell counted once)."""
    if g[i] < 0:
        return 0
    r = i // n
    h = _run(g, n, i, 1, r * n, r * n + n - 1)
    v = _run(g, n, i, n, i % n, i % n + n * (n - 1))
    return (h if h >= 3 else 0) + (v if v >= 3 else 0) - (1 if h >= 3 and v >= 3 else 0)


def _swap_score(g, n, i, j):
    """First-cascade jewels made by swapping cells i and j (0: the swap is illegal)."""
    if g[i] == g[j]:
        return 0
    g[i], g[j] = g[j], g[i]
    score = _lines_through(g, n, i) + _lines_through(g, n, j)
    g[i], g[j] = g[j], g[i]
    return score


def _line_cells(g, n, i, out):
    """Add to ``out`` the cells of every line of 3+ through cell i (holes never match)."""
    jewel = g[i]
    if jewel < 0:
        return
    r, c = divmod(i, n)
    lo = c
    while lo > 0 and g[r * n + lo - 1] == jewel:
        lo -= 1
    hi = c
    while hi < n - 1 and g[r * n + hi + 1] == jewel:
        hi += 1
    if hi - lo >= 2:
        out.update(range(r * n + lo, r * n + hi + 1))
    lo = r
    while lo > 0 and g[(lo - 1) * n + c] == jewel:
        lo -= 1
    hi = r
    while hi < n - 1 and g[(hi + 1) * n + c] == jewel:
        hi += 1
    if hi - lo >= 2:
        out.update(range(lo * n + c, (hi + 1) * n + c, n))


def cascade(g, n, i, j):
    """Swap i and j on g (in place) and run every cascade, holes left as -1; return the jewels removed.

    The board before the swap has no line (the referee's boards never do), so every new line
    passes through a cell that just changed: the two swapped, then the cells that fell or
    emptied.  Only those are examined, which makes this several times faster than scanning
    the whole board after each explosion.
    """
    g[i], g[j] = g[j], g[i]
    changed = [i, j]
    total = 0
    while True:
        marked = set()  # type: set
        for k in changed:
            _line_cells(g, n, k, marked)
        if not marked:
            return total
        total += len(marked)
        lowest = {}  # type: dict  # column -> the lowest row that lost a jewel
        for k in marked:
            g[k] = -1
            r, c = divmod(k, n)
            if lowest.get(c, -1) < r:
                lowest[c] = r
        changed = []
        for c, bottom in lowest.items():
            column = [g[r * n + c] for r in range(bottom + 1) if g[r * n + c] >= 0]
            column = [-1] * (bottom + 1 - len(column)) + column
            for r in range(bottom + 1):
                if g[r * n + c] != column[r]:
                    g[r * n + c] = column[r]
                    changed.append(r * n + c)


def simulate(g, n, i, j):
    """Jewels removed over all cascades by swapping i and j (on a copy)."""
    return cascade(list(g), n, i, j)


_NEIGHBOURS = {}  # type: dict  # board size -> each cell's neighbours


def _neighbours(n):
    """For each cell of an n x n board, the cells beside it (left, right, up, down, where the
    board has them): made once a size."""
    table = _NEIGHBOURS.get(n)
    if table is None:
        table = [tuple(s for s, inside in ((t - 1, t % n > 0), (t + 1, t % n < n - 1), (t - n, t >= n),
                                           (t + n, t < n * n - n)) if inside)
                 for t in range(n * n)]
        _NEIGHBOURS[n] = table
    return table


def legal_swaps(g, n):
    """The legal swaps on g, a board with no line (holes, -1, never match), as (cell, neighbour)
    pairs in scan order: row by row, R (neighbour cell + 1) before D (cell + n).

    Found from the lines a swap could complete, not by trying each of the 2n(n-1) swaps: a new
    line through the cell a jewel moves into needs two of that jewel there already, side by side
    (``xx.``, ``.xx``) or around it (``x.x``), and the board holds few such pairs.  Each kind of
    pair is found by one comparison of the flat board with itself shifted (by 1, 2, n or 2n
    cells), a comprehension with no other work; only the few pairs found are looked at further.
    The inner loop of every player here.
    """
    last = n * n
    targets = []  # (the cell a jewel x would move into, x, the two cells of the line it completes)
    for k in [k for k in range(last - 1) if g[k] == g[k + 1]]:  # side by side in a row
        c = k % n
        if c < n - 1:  # not the end of one row and the start of the next
            if c > 0:
                targets.append((k - 1, g[k], k, k + 1))
            if c + 2 < n:
                targets.append((k + 2, g[k], k, k + 1))
    for k in [k for k in range(last - 2) if g[k] == g[k + 2]]:  # one apart in a row
        if k % n < n - 2:
            targets.append((k + 1, g[k], k, k + 2))
    for k in [k for k in range(last - n) if g[k] == g[k + n]]:  # side by side in a column
        if k >= n:
            targets.append((k - n, g[k], k, k + n))
        if k + 2 * n < last:
            targets.append((k + 2 * n, g[k], k, k + n))
    for k in [k for k in range(last - 2 * n) if g[k] == g[k + 2 * n]]:  # one apart in a column
        targets.append((k + n, g[k], k, k + 2 * n))
    neighbours = _neighbours(n)
    found = set()  # type: set
    for t, x, a, b in targets:
        if x < 0 or g[t] < 0 or g[t] == x:  # holes never match nor move; a jewel swapped with its own kind
            continue
        for s in neighbours[t]:  # a neighbour outside the line brings the third x
            if g[s] == x and s != a and s != b:
                found.add((s, t) if s < t else (t, s))
    return sorted(found)


def _named(i, j, n):
    """Swap (cell, neighbour) as CodeAbbey names it: (col, row, dir), 1-based, dir R or D."""
    return i % n + 1, i // n + 1, "R" if j == i + 1 else "D"


def greedy_move(board):
    """The move removing the most jewels over all its cascades; the first in scan order on ties."""
    g, n = _grid(board)
    best, best_total = None, 0
    for i, j in legal_swaps(g, n):
        total = simulate(g, n, i, j)
        if total > best_total:
            best, best_total = _named(i, j, n), total
    return best


def _after(g, n, i, j):
    """The board after swapping i and j and every cascade, holes left as -1."""
    g = list(g)
    cascade(g, n, i, j)
    return g


SURVIVAL_CHECK = 6  # look ahead for dead ends when this few moves are left
SURVIVAL_MARGIN = 3  # a move leaving this many legal moves is safe enough


def fast_move(board):
    """Cheap and effective: the lowest move on the board, then the largest first explosion.

    No cascade is simulated for ordinary moves, so a move costs a fraction of
    a millisecond and a whole run fits in a second: moves low on the board let
    the most jewels fall, which is what makes cascades, and the exponential
    points, likely.  Only when few legal moves are left does it simulate each
    one, preferring moves that leave legal moves behind (a game with none
    left is over).
    """
    g, n = _grid(board)
    candidates = []
    for i, j in legal_swaps(g, n):
        col, row, d = _named(i, j, n)
        candidates.append(((row + (1 if d == "D" else 0), _swap_score(g, n, i, j)), i, j, (col, row, d)))
    if not candidates:
        return None
    if len(candidates) <= SURVIVAL_CHECK:
        return max(((min(len(legal_swaps(_after(g, n, i, j), n)), SURVIVAL_MARGIN),) + key, move)
                   for key, i, j, move in candidates)[1]
    return max(candidates)[3]


def _best_cascade(g, n):
    """The most jewels one move removes on g (holes never match): what the board holds ready."""
    best = 0
    for i, j in legal_swaps(g, n):
        removed = simulate(g, n, i, j)
        if removed > best:
            best = removed
    return best


def plan_move(board):
    """Two plies, exactly on the known board: a move is worth its own points plus the points of
    the best move it leaves ready.

    A move's cascade is exact (the refill comes after it), and the refill only fills the holes
    at the top, never completing a line, so what a move leaves ready below stays ready.  With
    points 2^(removed-3), a move that makes a ready cascade one jewel bigger doubles its worth:
    the agent keeps growing one large cascade instead of cashing small ones, and the caller
    cashes it (:func:`greedy_move`) when the board's time is up.  Ties go to the lowest move.
    """
    g, n = _grid(board)
    best, best_value = None, None
    for i, j in legal_swaps(g, n):
        col, row, d = _named(i, j, n)
        first = _swap_score(g, n, i, j)
        after = list(g)
        own = cascade(after, n, i, j)
        ready = _best_cascade(after, n)
        value = (2.0 ** (own - 3) + (2.0 ** (ready - 3) if ready else 0.0), row + (1 if d == "D" else 0), first)
        if best_value is None or value > best_value:
            best, best_value = (col, row, d), value
    return best


_PLAN = {"cashed": 0, "last": 0.0}  # the board whose cascade was cashed; the last plan move's seconds


def plan_suggest(board, board_no, move, elapsed, time_budget):
    """plan moves while the board's share of the run lasts, then the largest cascade, then Q (None)."""
    if move == 1:
        _PLAN["last"], _PLAN["cashed"] = 0.0, 0
    if _PLAN["cashed"] == board_no:
        return None
    end = time_budget * PLAN_SAFETY * sum(PLAN_SHARES[:board_no])
    if elapsed + 1.5 * _PLAN["last"] + PLAN_MARGIN > end or move >= MAX_MOVES:
        _PLAN["cashed"] = board_no  # out of time (or moves): cash the cascade grown so far
        return greedy_move(board)
    start = time.perf_counter()
    choice = plan_move(board)
    _PLAN["last"] = time.perf_counter() - start
    return choice


def suggest(board, boardNo=1, move=1, elapsed=0.0):
    """CodeAbbey's entry point: this board's next move, or Q when out of time or moves."""
    if AGENT == "plan":
        choice = plan_suggest(board, boardNo, move, elapsed, TIME_BUDGET)
        return choice if choice is not None else (1, 1, "Q")
    if move > MAX_MOVES or elapsed > TIME_BUDGET * SAFETY * boardNo / 4.0:
        return 1, 1, "Q"
    choice = greedy_move(board) if AGENT == "greedy" else fast_move(board)
    return choice if choice is not None else (1, 1, "Q")
