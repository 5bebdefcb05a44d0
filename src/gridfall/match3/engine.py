"""The fast Match-3 engine: numba kernels on an ``int8[N, N]`` grid.

``grid[r, c]`` is the jewel (0..6 for A..G) at row r (0 = top) and column c,
or -1 for a hole.  Moves are ``(r, c, d)`` with ``d = 0`` for a swap to the
right and ``d = 1`` for a swap down (every swap is one of those two from one
of its cells); the public 1-based (col, row, dir) form is in :mod:`rules`.

The trick that keeps move generation cheap: a swap can only create a line
through the two cells it touches, so legality is a look at most two cells
away in four directions, and only legal moves are ever simulated.
"""

from __future__ import annotations

import numpy as np

from gridfall.jit import below, njit

HOLE = -1
JEWEL_TYPES = 7
RIGHT, DOWN = 0, 1
LCG_MODULUS = 2097152


def from_board(board) -> np.ndarray:
    """The int8 grid of a rules Board."""
    n = board.size
    grid = np.empty((n, n), dtype=np.int8)
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            grid[r, c] = HOLE if ch == "*" else ord(ch) - ord("A")
    return grid


def to_board(grid: np.ndarray):
    from gridfall.match3.rules import Board

    return Board(tuple("".join("*" if v < 0 else chr(ord("A") + v) for v in row) for row in grid))


def new_moves(n: int) -> np.ndarray:
    return np.zeros((2 * n * n, 3), dtype=np.int64)


@njit(inline="always")
def _run(g, r, c, dr, dc):
    """Length of the run of g[r, c]'s jewel through (r, c) along (dr, dc)."""
    n = g.shape[0]
    jewel = g[r, c]
    run = 1
    rr, cc = r - dr, c - dc
    while 0 <= rr < n and 0 <= cc < n and g[rr, cc] == jewel:
        run += 1
        rr -= dr
        cc -= dc
    rr, cc = r + dr, c + dc
    while 0 <= rr < n and 0 <= cc < n and g[rr, cc] == jewel:
        run += 1
        rr += dr
        cc += dc
    return run


@njit(nogil=True, cache=True)
def in_line(g, r, c):
    """Is (r, c) in a horizontal or vertical line of 3+ (holes never are)?"""
    if g[r, c] < 0:
        return False
    return _run(g, r, c, 0, 1) >= 3 or _run(g, r, c, 1, 0) >= 3


@njit(nogil=True, cache=True)
def is_legal(g, r, c, d):
    """Does swapping (r, c) right (d=0) or down (d=1) make a line?"""
    n = g.shape[0]
    r2, c2 = (r, c + 1) if d == RIGHT else (r + 1, c)
    if r2 >= n or c2 >= n or g[r, c] == g[r2, c2] or g[r, c] < 0 or g[r2, c2] < 0:
        return False
    g[r, c], g[r2, c2] = g[r2, c2], g[r, c]
    legal = in_line(g, r, c) or in_line(g, r2, c2)
    g[r, c], g[r2, c2] = g[r2, c2], g[r, c]
    return legal


@njit(nogil=True, cache=True)
def legal_moves(g, out):
    """Write every legal move (r, c, d) into out; return how many."""
    n = g.shape[0]
    k = 0
    for r in range(n):
        for c in range(n):
            for d in range(2):
                if is_legal(g, r, c, d):
                    out[k, 0], out[k, 1], out[k, 2] = r, c, d
                    k += 1
    return k


@njit(nogil=True, cache=True)
def _explode(g, marks):
    """Mark and remove every jewel in a line; return how many."""
    n = g.shape[0]
    count = 0
    for r in range(n):
        for c in range(n):
            marks[r, c] = in_line(g, r, c)
    for r in range(n):
        for c in range(n):
            if marks[r, c]:
                g[r, c] = HOLE
                count += 1
    return count


@njit(nogil=True, cache=True)
def _shake_down(g):
    n = g.shape[0]
    for c in range(n):
        write = n - 1
        for r in range(n - 1, -1, -1):
            if g[r, c] >= 0:
                g[write, c] = g[r, c]
                write -= 1
        for r in range(write, -1, -1):
            g[r, c] = HOLE


@njit(nogil=True, cache=True)
def play(g, r, c, d, marks, cascades):
    """Play a legal move in place (no refill): swap, explode and shake down until stable.

    Returns the jewels removed in all; ``cascades[i]`` gets cascade i's count
    and ``cascades[len - 1]`` is not touched beyond the cascades that happen.
    """
    r2, c2 = (r, c + 1) if d == RIGHT else (r + 1, c)
    g[r, c], g[r2, c2] = g[r2, c2], g[r, c]
    total = 0
    k = 0
    while True:
        removed = _explode(g, marks)
        if removed == 0:
            break
        if k < len(cascades):
            cascades[k] = removed
        k += 1
        total += removed
        _shake_down(g)
    return total


@njit(nogil=True, cache=True)
def fill_random(g, rng):
    """Fill holes with uniformly random jewels, top to bottom, left to right, redrawing line-makers."""
    n = g.shape[0]
    for r in range(n):
        for c in range(n):
            if g[r, c] < 0:
                g[r, c] = below(rng, JEWEL_TYPES)
                while in_line(g, r, c):
                    g[r, c] = below(rng, JEWEL_TYPES)


@njit(nogil=True, cache=True)
def fill_lcg(g, state):
    """Fill holes exactly as :func:`rules.fill` does with CodeAbbey's generator (state[0] is X)."""
    n = g.shape[0]
    for r in range(n):
        for c in range(n):
            if g[r, c] < 0:
                while True:
                    state[0] = (445 * state[0] + 700001) % LCG_MODULUS
                    g[r, c] = state[0] * JEWEL_TYPES // LCG_MODULUS
                    if not in_line(g, r, c):
                        break
