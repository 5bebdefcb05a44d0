"""SameGame positions for a pure-Python search: the rules of record, stored to be fast.

:mod:`gridfall.samegame.rules` is written to be read; this module plays the same game about ten
times faster without numba, for the exported bot (CodinGame runs no numba).  The tests require
it to agree with the rules on random games, group for group and board for board.

The tricks:

* A position is a tuple of the non-empty columns, each a ``bytes`` of colours from the bottom
  up.  Gravity is then free (a column is its cells in order) and a removed column just drops
  out; a move rebuilds only the columns it touches and shares the others.  The tuple is
  hashable, so a search can merge equal positions cheaply.
* Finding the groups reads the position once as one flat ``bytes`` (each column padded to the
  full height with ``GAP``) and floods each cell that has a neighbour of its colour, with the
  neighbours of every flat index computed once at import.
"""

from __future__ import annotations

from gridfall.samegame.rules import CLEAR_BONUS, EMPTY, HEIGHT, WIDTH, Board, Cell

Columns = tuple[bytes, ...]
GAP = 0xFF  # an empty cell in the flat view

# the 4-neighbours of flat index x * HEIGHT + y
_NEIGHBOURS = [
    [(nx * HEIGHT + ny) for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
     if 0 <= nx < WIDTH and 0 <= ny < HEIGHT]
    for x in range(WIDTH) for y in range(HEIGHT)
]


def from_board(board: Board) -> Columns:
    return tuple(bytes(c for c in column if c != EMPTY) for column in board.cells if column[0] != EMPTY)


def to_board(columns: Columns) -> Board:
    padded = [list(column) + [EMPTY] * (HEIGHT - len(column)) for column in columns]
    padded += [[EMPTY] * HEIGHT] * (WIDTH - len(columns))
    return Board(tuple(tuple(column) for column in padded))


def colour_counts(columns: Columns, colours: int = 5) -> list[int]:
    return [sum(column.count(c) for column in columns) for c in range(colours)]


Group = tuple[int, list[int], int, int]  # colour, flat indices, first and last column


def groups(columns: Columns) -> list[Group]:
    """Every legal move as ``(colour, flat indices, first column, last column)``.  ``min`` of the
    indices is the group's canonical cell, ``divmod(index, HEIGHT)`` its (x, y)."""
    return _flood(columns, 0, len(columns) - 1, [])


def regroup(before: list[Group], move: Group, after: Columns, columns_before: int) -> list[Group]:
    """The groups of ``after``, the position ``move`` led to from a position whose groups are
    ``before``, without a flood of the whole board.

    Only the columns the move touched changed, so a group two columns or more away from them is
    unchanged (its cells, and their neighbours, are as they were); when a column emptied, the
    columns right of it moved, and everything from the move rightwards is flooded again."""
    _, _, first, last = move
    low = first - 1
    high = last + 1 if len(after) == columns_before else WIDTH
    kept = [group for group in before if group[3] < low or group[2] > high]
    return _flood(after, max(low, 0), min(high, len(after) - 1), kept)


def _flood(columns: Columns, low: int, high: int, found: list[Group]) -> list[Group]:
    """``found`` plus the groups met by a flood from each cell of columns ``low..high``."""
    flat = b"".join(column.ljust(HEIGHT, b"\xff") for column in columns).ljust(WIDTH * HEIGHT, b"\xff")
    neighbours = _NEIGHBOURS
    seen = bytearray(WIDTH * HEIGHT)
    for start in range(low * HEIGHT, (high + 1) * HEIGHT):
        colour = flat[start]
        if colour == GAP or seen[start]:
            continue
        members = [start]
        seen[start] = 1
        for index in members:  # the list grows while it is read: a breadth-first flood
            for n in neighbours[index]:
                if flat[n] == colour and not seen[n]:
                    seen[n] = 1
                    members.append(n)
        if len(members) > 1:
            found.append((colour, members, min(members) // HEIGHT, max(members) // HEIGHT))
    return found


def remove(columns: Columns, members: list[int]) -> Columns:
    """The position after removing a group's cells (flat indices): columns fall and close up."""
    out = list(columns)
    for index in sorted(members, reverse=True):  # from the top down, so lower rows keep their place
        x, y = divmod(index, HEIGHT)
        column = out[x]
        out[x] = column[:y] + column[y + 1:]
    return tuple(column for column in out if column)


def move_points(size: int, cleared: bool) -> int:
    return (size - 2) ** 2 + (CLEAR_BONUS if cleared else 0)


def cell(members: list[int]) -> Cell:
    """A group's canonical cell: the smallest (x, y)."""
    return divmod(min(members), HEIGHT)
