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

import sys
import time

AGENT = "plan"  # "plan", "fast" or "greedy"
TIME_BUDGET = 1.0  # seconds for the whole run (four boards)
MAX_MOVES = 1000  # moves per board
SAFETY = 0.92  # fraction of the budget actually used (fast, greedy)
PLAN_SHARES = (0.02, 0.03, 0.05, 0.90)  # plan: the run's time for boards 1-4 (8, 11, 12, 13 cells a side)
PLAN_SAFETY = 0.95  # plan: fraction of each board's time it may use
PLAN_MARGIN = 0.01  # plan: seconds kept back before the last move of a board
READS_PAY = sys.implementation.name != "pypy"  # plan: reuse second-ply results (see plan_move)


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


_COLUMN_TOPS = {}  # type: dict  # board size -> for each cell, its column from the top row down to it


def _column_tops(n):
    """For each cell k of an n x n board, the bit mask of k and the cells above it in its column
    (bit k for cell k): made once a size, for :func:`cascade_reads`."""
    table = _COLUMN_TOPS.get(n)
    if table is None:
        table = []
        for k in range(n * n):
            table.append((table[k - n] if k >= n else 0) | (1 << k))
        _COLUMN_TOPS[n] = table
    return table


def cascade(g, n, i, j):
    """Swap i and j on g (in place) and run every cascade, holes left as -1; return the jewels removed.

    The board before the swap has no line (the referee's boards never do), so every new line
    passes through a cell that just changed: the two swapped, then the cells that fell or
    emptied.  Only those are examined, which makes this several times faster than scanning
    the whole board after each explosion.
    """
    return _cascade(g, n, i, j, None)[0]


def cascade_reads(g, n, i, j):
    """:func:`cascade`, and the bit mask of every cell it read or changed (bit k: cell k).

    Those cells alone decide the cascade: on any board where they hold the same jewels, the same
    swap removes the same jewels (:func:`plan_move` reuses results so)."""
    return _cascade(g, n, i, j, _column_tops(n))


def _cascade(g, n, i, j, tops):
    """cascade's work; with ``tops`` (:func:`_column_tops`) it also gathers the cells it reads."""
    g[i], g[j] = g[j], g[i]
    changed = [i, j]
    total = 0
    last = n - 1
    read = (1 << i) | (1 << j)
    while True:
        marked = set()  # type: set
        for k in changed:  # the lines through k: its run along the row, then along the column
            jewel = g[k]
            if jewel < 0:  # holes never match
                continue
            c = k % n
            start, end = k - c, k - c + last
            lo = hi = k
            while lo > start and g[lo - 1] == jewel:
                lo -= 1
            while hi < end and g[hi + 1] == jewel:
                hi += 1
            if tops is not None:  # the run and the cells that ended it: a row's bits are contiguous
                read |= (2 << (hi + 1 if hi < end else hi)) - (1 << (lo - 1 if lo > start else lo))
            if hi - lo >= 2:
                marked.update(range(lo, hi + 1))
            bottom = c + n * last
            lo = hi = k
            while lo >= n and g[lo - n] == jewel:
                lo -= n
            while hi < bottom and g[hi + n] == jewel:
                hi += n
            if tops is not None:
                top = lo - n if lo >= n else lo
                read |= tops[hi + n if hi < bottom else hi] ^ (tops[top - n] if top >= n else 0)
            if hi - lo >= 2 * n:
                marked.update(range(lo, hi + 1, n))
        if not marked:
            return total, read
        total += len(marked)
        lowest = {}  # type: dict  # column -> its lowest cell that lost a jewel
        for k in marked:
            g[k] = -1
            c = k % n
            if lowest.get(c, -1) < k:
                lowest[c] = k
        changed = []  # the cells that took another jewel: a hole never starts a line
        for c, k in lowest.items():  # each jewel of the column down to k falls to the lowest free cell
            if tops is not None:
                read |= tops[k]
            free = k
            for above in range(k, -1, -n):
                jewel = g[above]
                if jewel >= 0:
                    if g[free] != jewel:
                        g[free] = jewel
                        changed.append(free)
                    free -= n
            for above in range(free, -1, -n):  # then the cells it left are holes
                g[above] = -1


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


def _changed_cells(before, after):
    """The bit mask of the cells whose jewel differs between two boards."""
    mask = 0
    for k in [k for k in range(len(before)) if before[k] != after[k]]:
        mask |= 1 << k
    return mask


def _best_cascade(g, n, known, changed):
    """The most jewels one move removes on g (holes never match): what the board holds ready.

    ``known`` maps a swap to what it removed on the board before the move that made g, with
    the cells it read then (:func:`cascade_reads`); ``changed``, the cells that move changed.
    A swap that read none of them removes the same here and is not simulated again.
    """
    best = 0
    for swap in legal_swaps(g, n):
        before = known.get(swap)
        if before is not None and not before[1] & changed:
            removed = before[0]
        else:
            removed = simulate(g, n, swap[0], swap[1])
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

    The second ply is most of the work, and most of its moves lie away from what the first
    move changed: each is simulated once on this board, and again only where the first move
    changed a cell it reads (about half of them on 13x13 boards).  Under CPython that makes a
    13x13 move 1.4x faster; under PyPy, whose compiled loops simulate faster than it keeps the
    masks of 169 bits, 0.9x, so there every move is simulated (``READS_PAY``;
    ``benchmarks/match3_plan.py``).
    """
    g, n = _grid(board)
    firsts = []  # (swap, jewels it removes, the board it leaves)
    known = {}  # type: dict  # swap -> (jewels it removes here, the cells it reads)
    for i, j in legal_swaps(g, n):
        after = list(g)
        if READS_PAY:
            own, reads = cascade_reads(after, n, i, j)
            known[(i, j)] = (own, reads)
        else:
            own = cascade(after, n, i, j)
        firsts.append(((i, j), own, after))
    best, best_value = None, None
    for (i, j), own, after in firsts:
        col, row, d = _named(i, j, n)
        first = _swap_score(g, n, i, j)
        ready = _best_cascade(after, n, known, _changed_cells(g, after) if known else 0)
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
