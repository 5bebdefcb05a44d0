"""A pure-Python line for SameGame: no numba, ready at once.

The most common colour is kept for last (it gathers into one big group); every other move
removes the largest group of another colour; once only the kept colour has groups, the largest
of them.  It is what gridfall's bot plays when its search kernels are not compiled in time, and
how the exported bot's beam finishes a pass that the clock stops.
"""

from __future__ import annotations

import time

from gridfall.samegame import columns
from gridfall.samegame.columns import Columns
from gridfall.samegame.rules import COLOURS, Board, Cell


def kept_colour(position: Columns) -> int:
    """The most common colour (the lowest on a tie)."""
    counts = columns.colour_counts(position, COLOURS)
    return max(range(COLOURS), key=lambda c: (counts[c], -c))


def greedy_finish(position: Columns, kept: int, deadline: float = float("inf")) -> tuple[list[Cell], int]:
    """The greedy moves from ``position`` until the game is over or ``time.monotonic()`` passes
    ``deadline``, and their points."""
    line, total = [], 0
    while time.monotonic() < deadline:
        found = columns.groups(position)
        if not found:
            break
        _, members, _, _ = max([g for g in found if g[0] != kept] or found, key=lambda g: (len(g[1]), -min(g[1])))
        position = columns.remove(position, members)
        total += columns.move_points(len(members), not position)
        line.append(columns.cell(members))
    return line, total


def greedy_line(board: Board, deadline: float = float("inf")) -> list[Cell]:
    """The greedy moves from ``board`` (see :func:`greedy_finish`)."""
    position = columns.from_board(board)
    return greedy_finish(position, kept_colour(position), deadline)[0]
