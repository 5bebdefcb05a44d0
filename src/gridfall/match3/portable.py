"""Portable Match-3 players for CodeAbbey problem 370: standard library only, Python 3.6 syntax.

This file is gridfall's own ``greedy`` and ``fast`` agents, and also what
``gridfall match3 export`` writes out (with AGENT and TIME_BUDGET set):
one self-contained file defining ``suggest(board, boardNo, move, elapsed)``
that CodeAbbey accepts.  Keep it free of imports beyond the standard library
and of syntax newer than Python 3.6.

board   : N strings of N letters A-G, the top row first
returns : (col, row, dir), 1-based, row 1 at the top, dir R or D; or dir Q to
          end this board's game
elapsed : seconds this run has spent in suggest so far
"""

AGENT = "fast"  # "fast" or "greedy"
TIME_BUDGET = 1.0  # seconds for the whole run (four boards)
MAX_MOVES = 1000  # moves per board
SAFETY = 0.92  # fraction of the budget actually used


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


def _explode(g, n):
    """Remove every jewel in a line; return how many."""
    marked = set()
    for r in range(n):
        base = r * n
        c = 0
        while c < n:
            jewel = g[base + c]
            end = c + 1
            while end < n and g[base + end] == jewel:
                end += 1
            if jewel >= 0 and end - c >= 3:
                marked.update(range(base + c, base + end))
            c = end
    for c in range(n):
        r = 0
        while r < n:
            jewel = g[r * n + c]
            end = r + 1
            while end < n and g[end * n + c] == jewel:
                end += 1
            if jewel >= 0 and end - r >= 3:
                marked.update(range(r * n + c, end * n + c, n))
            r = end
    for i in marked:
        g[i] = -1
    return len(marked)


def _shake(g, n):
    for c in range(n):
        column = [g[r * n + c] for r in range(n) if g[r * n + c] >= 0]
        column = [-1] * (n - len(column)) + column
        for r in range(n):
            g[r * n + c] = column[r]


def simulate(g, n, i, j):
    """Jewels removed over all cascades by swapping i and j (on a copy)."""
    g = list(g)
    g[i], g[j] = g[j], g[i]
    total = 0
    while True:
        removed = _explode(g, n)
        if not removed:
            return total
        total += removed
        _shake(g, n)


def _moves(n):
    """Every swap as (cell, neighbour, col, row, dir) in scan order: row by row, R before D."""
    out = []
    for r in range(n):
        for c in range(n):
            i = r * n + c
            if c + 1 < n:
                out.append((i, i + 1, c + 1, r + 1, "R"))
            if r + 1 < n:
                out.append((i, i + n, c + 1, r + 1, "D"))
    return out


_MOVES = {}


def greedy_move(board):
    """The move removing the most jewels over all its cascades; the first in scan order on ties."""
    g, n = _grid(board)
    moves = _MOVES.get(n) or _MOVES.setdefault(n, _moves(n))
    best, best_total = None, 0
    for i, j, col, row, d in moves:
        if _swap_score(g, n, i, j):
            total = simulate(g, n, i, j)
            if total > best_total:
                best, best_total = (col, row, d), total
    return best


def _after(g, n, i, j):
    """The board after swapping i and j and every cascade, holes left as -1."""
    g = list(g)
    g[i], g[j] = g[j], g[i]
    while _explode(g, n):
        _shake(g, n)
    return g


def _legal_count(g, n, moves, enough):
    """Legal moves on g (holes never match), counted up to ``enough``."""
    count = 0
    for i, j, _, _, _ in moves:
        if g[i] >= 0 and g[j] >= 0 and _swap_score(g, n, i, j):
            count += 1
            if count >= enough:
                break
    return count


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
    moves = _MOVES.get(n) or _MOVES.setdefault(n, _moves(n))
    candidates = []
    for i, j, col, row, d in moves:
        score = _swap_score(g, n, i, j)
        if score:
            candidates.append(((row + (1 if d == "D" else 0), score), i, j, (col, row, d)))
    if not candidates:
        return None
    if len(candidates) <= SURVIVAL_CHECK:
        return max(((_legal_count(_after(g, n, i, j), n, moves, SURVIVAL_MARGIN),) + key, move)
                   for key, i, j, move in candidates)[1]
    return max(candidates)[3]


def suggest(board, boardNo=1, move=1, elapsed=0.0):
    """CodeAbbey's entry point: this board's next move, or Q when out of time or moves."""
    if move > MAX_MOVES or elapsed > TIME_BUDGET * SAFETY * boardNo / 4.0:
        return 1, 1, "Q"
    choice = greedy_move(board) if AGENT == "greedy" else fast_move(board)
    return choice if choice is not None else (1, 1, "Q")
