"""A SameGame line as clicks on *tiles*: the start position's cells, followed as they fall.

A line is usually written as cells ``(x, y)`` of the board at the time of each
click, so changing one early move changes what every later cell names.  Here
each click names the tile that was clicked instead (tile ``15 * x + y`` of the
start position, wherever gravity has carried it since), and a replay skips a
click whose tile is gone or alone.  An edited line then still means what it
meant: "remove the group this tile is in, now".  That is what lets
:mod:`.anneal` move a click later or earlier, drop it or add one, and replay
thousands of such edits a second.

A board here is a tile grid: ``grid[15 * x + y]`` is the tile at (x, y) or -1,
``heights[x]`` the height of column x, and ``posx``/``posy`` where each tile is
(``posx = -1`` once it is removed).  ``colours[t]`` is tile t's colour (-1 for
a cell empty at the start).  A kernel's scratch comes from the caller in a
:data:`Scratch`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from gridfall.jit import njit
from gridfall.samegame import rules

W = rules.WIDTH
H = rules.HEIGHT
CELLS = W * H
CLEAR_BONUS = rules.CLEAR_BONUS

# grid, heights, posx, posy: the board; stack: a flood's work list, then the
# group's cells (from CELLS on); mark: which cells a flood has seen (a cell is
# seen when mark == the flood's stamp, stamps only grow, so nothing is ever
# cleared: stamp[0] is the next one); touched: columns a removal touched.
Scratch = namedtuple("Scratch", "grid heights posx posy stack mark stamp touched")

# The positions along a line, before each of its clicks and after the last:
# tile grid, column heights, number of columns and score so far.
Snapshots = namedtuple("Snapshots", "grid heights columns score")
MAX_CLICKS = CELLS // 2  # a click removes two tiles or more


def new_scratch() -> Scratch:
    return Scratch(
        np.full(CELLS, -1, dtype=np.int64), np.zeros(W, dtype=np.int64),
        np.full(CELLS, -1, dtype=np.int64), np.zeros(CELLS, dtype=np.int64),
        np.zeros(2 * CELLS, dtype=np.int64), np.zeros(CELLS, dtype=np.int64),
        np.ones(1, dtype=np.int64), np.zeros(W, dtype=np.int64),
    )


def new_snapshots(clicks: int = MAX_CLICKS) -> Snapshots:
    """Room for the positions of a line of up to ``clicks`` clicks (0: none, for replays that
    record nothing)."""
    rows = clicks + 1 if clicks else 0
    return Snapshots(np.zeros((rows, CELLS), dtype=np.int64), np.zeros((rows, W), dtype=np.int64),
                     np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64))


NO_SNAPSHOTS = new_snapshots(0)


def colours_of(board: rules.Board) -> np.ndarray:
    """Each start tile's colour (-1 where the start cell is empty)."""
    colours = np.full(CELLS, -1, dtype=np.int64)
    for x, column in enumerate(board.cells):
        for y, colour in enumerate(column):
            colours[H * x + y] = colour
    return colours


@njit(cache=True)
def setup(colours, grid, heights, posx, posy):
    """Put the start position on a tile board; returns its number of columns."""
    columns = 0
    for x in range(W):
        h = 0
        for y in range(H):
            t = H * x + y
            if colours[t] >= 0:
                grid[t] = t
                posx[t] = x
                posy[t] = y
                h += 1
            else:
                grid[t] = -1
                posx[t] = -1
        heights[x] = h
        if h:
            columns = x + 1
    return columns


# The kernels below take the board's arrays one by one: passed as one tuple to a
# function called for every cell, numba counts references to each array on each
# call, which made a replay fifteen times slower.  Public kernels take a Scratch
# and unpack it once.


@njit(cache=True)
def flood(colours, grid, heights, columns, stack, mark, x0, y0, stamp):
    """The group at (x0, y0): its size, its cells at stack[CELLS:CELLS + size]."""
    p0 = H * x0 + y0
    colour = colours[grid[p0]]
    mark[p0] = stamp
    stack[0] = p0
    top = 1
    size = 0
    while top:
        top -= 1
        p = stack[top]
        stack[CELLS + size] = p
        size += 1
        x, y = p // H, p % H
        # a neighbour exists when it is under its column's height (the board is settled)
        if x > 0 and y < heights[x - 1]:
            q = p - H
            if mark[q] != stamp and colours[grid[q]] == colour:
                mark[q] = stamp
                stack[top] = q
                top += 1
        if x + 1 < columns and y < heights[x + 1]:
            q = p + H
            if mark[q] != stamp and colours[grid[q]] == colour:
                mark[q] = stamp
                stack[top] = q
                top += 1
        if y > 0:
            q = p - 1
            if mark[q] != stamp and colours[grid[q]] == colour:
                mark[q] = stamp
                stack[top] = q
                top += 1
        if y + 1 < heights[x]:
            q = p + 1
            if mark[q] != stamp and colours[grid[q]] == colour:
                mark[q] = stamp
                stack[top] = q
                top += 1
    return size


@njit(cache=True)
def remove(grid, heights, posx, posy, stack, touched, columns, size):
    """Remove the group a flood left in the stack, let the columns fall and close the empty
    ones.  Returns the new number of columns."""
    for k in range(size):
        p = stack[CELLS + k]
        posx[grid[p]] = -1
        grid[p] = -1
        touched[p // H] = 1
    for x in range(columns):
        if touched[x]:
            touched[x] = 0
            h = 0
            for y in range(heights[x]):
                t = grid[H * x + y]
                if t >= 0:
                    grid[H * x + h] = t
                    posy[t] = h
                    h += 1
            for y in range(h, heights[x]):
                grid[H * x + y] = -1
            heights[x] = h
    kept = 0
    for x in range(columns):
        if heights[x] == 0:
            continue
        if kept != x:  # slide left over the empty columns
            for y in range(heights[x]):
                t = grid[H * x + y]
                grid[H * kept + y] = t
                grid[H * x + y] = -1
                posx[t] = kept
            heights[kept] = heights[x]
            heights[x] = 0
        kept += 1
    return kept


@njit(cache=True)
def _largest_group(colours, grid, heights, columns, stack, mark, stamp, kept_colour):
    """The cell of the largest group, a kept-colour group only when no other is left (-1: none)."""
    best, best_size, best_kept = -1, 1, True
    for x in range(columns):
        for y in range(heights[x]):
            p = H * x + y
            if mark[p] == stamp:
                continue
            size = flood(colours, grid, heights, columns, stack, mark, x, y, stamp)
            if size < 2:
                continue
            kept = colours[grid[p]] == kept_colour
            if best < 0 or (best_kept and not kept) or (best_kept == kept and size > best_size):
                best, best_size, best_kept = p, size, kept
    return best


@njit(cache=True)
def _save(snaps, k, grid, heights, columns, score):
    snaps.grid[k, :] = grid
    snaps.heights[k, :] = heights
    snaps.columns[k] = columns
    snaps.score[k] = score


@njit(cache=True)
def _play(colours, clicks, first, n, kept_colour, out, played, score, columns, s, snaps, record):
    """Play clicks[first:n] on the scratch board (``played`` clicks and ``score`` points so far),
    then the greedy finish; with ``record``, the position before each click is saved."""
    grid, heights, posx, posy, stack, mark, touched = s.grid, s.heights, s.posx, s.posy, s.stack, s.mark, s.touched
    stamp = s.stamp[0]
    for k in range(first, n):
        t = clicks[k]
        if posx[t] < 0:
            continue
        stamp += 1
        size = flood(colours, grid, heights, columns, stack, mark, posx[t], posy[t], stamp)
        if size < 2:
            continue
        if record:
            _save(snaps, played, grid, heights, columns, score)
        out[played] = t
        played += 1
        score += (size - 2) * (size - 2)
        columns = remove(grid, heights, posx, posy, stack, touched, columns, size)
    while columns:
        stamp += 1
        p = _largest_group(colours, grid, heights, columns, stack, mark, stamp, kept_colour)
        if p < 0:
            break
        if record:
            _save(snaps, played, grid, heights, columns, score)
        stamp += 1
        out[played] = grid[p]
        played += 1
        size = flood(colours, grid, heights, columns, stack, mark, p // H, p % H, stamp)
        score += (size - 2) * (size - 2)
        columns = remove(grid, heights, posx, posy, stack, touched, columns, size)
    if record:
        _save(snaps, played, grid, heights, columns, score)
    s.stamp[0] = stamp + 1
    if columns == 0 and played:  # the bonus is a move's: an empty start earns nothing
        score += CLEAR_BONUS
    return score, played


@njit(cache=True)
def replay(colours, clicks, n, kept_colour, out, s, snaps, record):
    """Play the clicks (tiles) in order, skipping a tile that is gone or alone, then finish
    greedily: the largest group each time, the kept colour's last.

    The clicks that removed a group, the finish's included, go to ``out``.  With
    ``record``, ``snaps`` keeps the position before each of them (and the final one)
    for :func:`replay_from`.  Returns (score, number of clicks in out).
    """
    columns = setup(colours, s.grid, s.heights, s.posx, s.posy)
    return _play(colours, clicks, 0, n, kept_colour, out, 0, 0, columns, s, snaps, record)


@njit(cache=True)
def replay_from(colours, clicks, first, n, kept_colour, out, s, snaps, record):
    """:func:`replay`, starting from the position ``snaps`` recorded before click ``first``
    of a line whose first ``first`` clicks ``clicks`` and ``out`` both start with.

    An edit that changes a line from its k-th click on only needs the replay from there:
    on average that halves the work.
    """
    grid, heights, posx, posy = s.grid, s.heights, s.posx, s.posy
    grid[:] = snaps.grid[first]
    heights[:] = snaps.heights[first]
    posx[:] = -1
    for p in range(CELLS):
        t = grid[p]
        if t >= 0:
            posx[t] = p // H
            posy[t] = p % H
    return _play(colours, clicks, first, n, kept_colour, out, first, snaps.score[first], snaps.columns[first], s,
                 snaps, record)


@njit(cache=True)
def to_cells(colours, clicks, n, cells, s):
    """The canonical cell (16x + y, the group's smallest (x, y)) of each click as it is played;
    every click must remove a group (as :func:`replay`'s output does).  Returns -1 on one that
    does not, else n."""
    grid, heights, posx, posy, stack, mark, touched = s.grid, s.heights, s.posx, s.posy, s.stack, s.mark, s.touched
    stamp = s.stamp[0]
    columns = setup(colours, grid, heights, posx, posy)
    for k in range(n):
        t = clicks[k]
        if posx[t] < 0:
            return -1
        stamp += 1
        size = flood(colours, grid, heights, columns, stack, mark, posx[t], posy[t], stamp)
        if size < 2:
            return -1
        low = CELLS
        for i in range(size):
            low = min(low, stack[CELLS + i])  # 15x + y orders cells as (x, y) does
        cells[k] = 16 * (low // H) + low % H
        columns = remove(grid, heights, posx, posy, stack, touched, columns, size)
    s.stamp[0] = stamp + 1
    return n


@njit(cache=True)
def from_cells(colours, cells, n, clicks, s):
    """The tile under each cell (16x + y) of a line as it is played; -1 at the first click that
    is not a group (then the line is not legal), else n."""
    grid, heights, posx, posy, stack, mark, touched = s.grid, s.heights, s.posx, s.posy, s.stack, s.mark, s.touched
    stamp = s.stamp[0]
    columns = setup(colours, grid, heights, posx, posy)
    for k in range(n):
        x, y = cells[k] >> 4, cells[k] & 15
        if x >= columns or y >= heights[x]:
            return -1
        stamp += 1
        size = flood(colours, grid, heights, columns, stack, mark, x, y, stamp)
        if size < 2:
            return -1
        clicks[k] = grid[H * x + y]
        columns = remove(grid, heights, posx, posy, stack, touched, columns, size)
    s.stamp[0] = stamp + 1
    return n


def line_to_tiles(board: rules.Board, moves: list[tuple[int, int]]) -> np.ndarray:
    """A legal line as clicks on tiles; ValueError if the line is not legal."""
    cells = np.array([16 * x + y for x, y in moves], dtype=np.int64)
    clicks = np.zeros(len(moves), dtype=np.int64)
    if from_cells(colours_of(board), cells, len(moves), clicks, new_scratch()) < 0:
        raise ValueError("the line has a click that removes no group")
    return clicks


def tiles_to_line(board: rules.Board, clicks: np.ndarray) -> list[tuple[int, int]]:
    """Clicks on tiles (each removing a group) as a line of canonical cells."""
    cells = np.zeros(len(clicks), dtype=np.int64)
    if to_cells(colours_of(board), clicks, len(clicks), cells, new_scratch()) < 0:
        raise ValueError("a click removes no group")
    return [(int(c) >> 4, int(c) & 15) for c in cells]
