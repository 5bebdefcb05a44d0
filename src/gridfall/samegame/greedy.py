"""A pure-Python line for SameGame, on the rules of record: no numba, ready at once.

The most common colour is kept for last (it gathers into one big group); every other move
removes the largest group of another colour; once only the kept colour has groups, the largest
of them.  It is what gridfall's bot plays when its search kernels are not compiled in time, and
the ``deadline`` lets it stop early with the moves found so far.
"""

from __future__ import annotations

import time

from gridfall.samegame.rules import COLOURS, Board, Cell


def greedy_line(board: Board, deadline: float = float("inf")) -> list[Cell]:
    """Moves from ``board`` until the game is over or ``time.monotonic()`` passes ``deadline``."""
    counts = board.colour_counts()
    kept = max(range(COLOURS), key=lambda c: (counts[c], -c))
    line: list[Cell] = []
    while not board.is_over() and time.monotonic() < deadline:
        groups = board.groups()
        others = [g for g in groups if g.colour != kept] or groups
        best = max(others, key=lambda g: (g.size, -g.x, -g.y))
        board, _ = board.play(best.x, best.y)
        line.append((best.x, best.y))
    return line
