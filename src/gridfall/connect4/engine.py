"""The fast Connect Four engine: numba kernels on one 64-bit bitboard pair.

A position is ``(cur, mask)``: the chips of the player to move and all chips,
as in Pascal Pons' solver.  To fit the CodinGame board (9 x 7 = 63 cells) and
10 x 6 in one word, columns are packed with stride ``height`` and *no* spare
bit between them: cell (x, y) is bit ``x * height + y``.  The price is that a
shift along a line could run off the top of one column into the bottom of the
next; so every shift first masks away the rows it would push off the board
(``up(p, k)`` keeps rows ``y < height - k`` before shifting by ``k``).

The board shape travels as a small ``uint64`` array made by :func:`geometry`,
so one compiled kernel serves every size up to 64 cells.

The three tricks that make it fast:

* ``(mask + bottom) & ~mask`` is the playable cell of every column at once
  (the carry climbs each column to its first empty cell; full columns are
  left out of ``bottom`` first);
* :func:`winning_cells` finds every empty cell that would complete four for a
  player, with a dozen shifts and no loops over cells;
* a move is one bit; playing it is ``cur ^= mask; mask |= move`` (the player
  to move swaps without a branch).
"""

from __future__ import annotations

import numpy as np

from gridfall import splitmix
from gridfall.jit import mix_u64, njit, popcount, uint64

# fields of a geometry array
W, H, BOARD, BOTTOM, TOP = 0, 1, 2, 3, 4
BELOW = 4  # BELOW + k (k = 1..3): cells with y < height - k, which may move up k rows
ABOVE = 7  # ABOVE + k (k = 1..3): cells with y >= k, which may move down k rows
COLUMN = 11  # COLUMN + x: the cells of column x
ORDER = 32  # ORDER + i: the i-th column to try (centre first)
EVEN_ROWS = 48  # the cells of rows 0, 2, 4, ... (counted from the bottom)
GEOMETRY_SIZE = 49

MAX_CELLS = 64


def geometry(width: int, height: int) -> np.ndarray:
    """The masks describing a width x height board (width <= 16, width * height <= 64)."""
    if not (4 <= width <= 16 and 4 <= height and width * height <= MAX_CELLS):
        raise ValueError(f"a {width}x{height} board does not fit the engine (4..16 columns, at most 64 cells)")
    g = np.zeros(GEOMETRY_SIZE, dtype=np.uint64)
    column = (1 << height) - 1
    g[W], g[H] = width, height
    g[BOARD] = (1 << (width * height)) - 1
    g[BOTTOM] = sum(1 << (x * height) for x in range(width))
    g[TOP] = int(g[BOTTOM]) << (height - 1)
    for k in (1, 2, 3):
        g[BELOW + k] = sum(((1 << (height - k)) - 1) << (x * height) for x in range(width))
        g[ABOVE + k] = sum((column & ~((1 << k) - 1)) << (x * height) for x in range(width))
    for x in range(width):
        g[COLUMN + x] = column << (x * height)
    order = sorted(range(width), key=lambda x: (abs(2 * x - (width - 1)), x))
    for i, x in enumerate(order):
        g[ORDER + i] = x
    g[EVEN_ROWS] = sum(int(g[BOTTOM]) << y for y in range(0, height, 2))
    return g


def bit(width: int, height: int, x: int, y: int) -> int:
    return 1 << (x * height + y)


# --- line shifts (each masks the rows it would push off the board) -----------


@njit(inline="always")
def _up(p, k, g):
    return (p & g[BELOW + k]) << uint64(k)


@njit(inline="always")
def _right(p, k, g):
    return (p << (uint64(k) * g[H])) & g[BOARD]


@njit(inline="always")
def _left(p, k, g):
    return p >> (uint64(k) * g[H])


@njit(inline="always")
def _up_right(p, k, g):
    return ((p & g[BELOW + k]) << (uint64(k) * (g[H] + uint64(1)))) & g[BOARD]


@njit(inline="always")
def _down_left(p, k, g):
    return (p & g[ABOVE + k]) >> (uint64(k) * (g[H] + uint64(1)))


@njit(inline="always")
def _down_right(p, k, g):
    return ((p & g[ABOVE + k]) << (uint64(k) * (g[H] - uint64(1)))) & g[BOARD]


@njit(inline="always")
def _up_left(p, k, g):
    return (p & g[BELOW + k]) >> (uint64(k) * (g[H] - uint64(1)))


@njit(inline="always")
def _line_wins(a1, a2, a3, b1, b2, b3):
    """Cells c with own chips at c+d, c+2d, c+3d (a) or c-d, c-2d, c-3d (b), mixed."""
    return (a1 & a2 & a3) | (b1 & a1 & a2) | (b2 & b1 & a1) | (b3 & b2 & b1)


@njit(nogil=True, cache=True)
def winning_cells(p, mask, g):
    """Empty cells where a chip would give the owner of ``p`` four in a row."""
    # vertical: three own chips right below
    r = _up(p, 1, g) & _up(p, 2, g) & _up(p, 3, g)
    # horizontal: chips at c + k (moved left k columns) and c - k (moved right)
    r |= _line_wins(_left(p, 1, g), _left(p, 2, g), _left(p, 3, g), _right(p, 1, g), _right(p, 2, g), _right(p, 3, g))
    # diagonal /: the chip at c + k(1, 1) comes down-left to c
    r |= _line_wins(_down_left(p, 1, g), _down_left(p, 2, g), _down_left(p, 3, g),
                    _up_right(p, 1, g), _up_right(p, 2, g), _up_right(p, 3, g))
    # diagonal \: the chip at c + k(1, -1) comes up-left to c
    r |= _line_wins(_up_left(p, 1, g), _up_left(p, 2, g), _up_left(p, 3, g),
                    _down_right(p, 1, g), _down_right(p, 2, g), _down_right(p, 3, g))
    return r & g[BOARD] & ~mask


@njit(nogil=True, cache=True)
def lowest_in_columns(cells, g):
    """The lowest cell of ``cells`` in each column (one bit a column at most)."""
    # every cell at or above one of its column's cells: a prefix-or up the columns, shifting by
    # 1, 2, 3, 3, ... rows until a whole column is covered (6 rows in three steps on 9x7); there
    # is no spare bit between columns, so _up() drops what would spill into the next column
    above = cells
    covered = 0
    while covered < np.int64(g[H]) - 1:
        shift = min(covered + 1, 3)
        above |= _up(above, shift, g)
        covered += shift
    return cells & ~_up(above, 1, g)


@njit(nogil=True, cache=True)
def has_four(p, g):
    """Four chips of p in a row anywhere."""
    m = p & _up(p, 1, g)
    if m & _up(m, 2, g):
        return True
    m = p & _right(p, 1, g)
    if m & _right(m, 2, g):
        return True
    m = p & _up_right(p, 1, g)
    if m & _up_right(m, 2, g):
        return True
    m = p & _down_right(p, 1, g)
    return (m & _down_right(m, 2, g)) != 0


@njit(nogil=True, cache=True)
def playable(mask, g):
    """One bit per non-full column: the cell a chip dropped there lands on."""
    full = (mask & g[TOP]) >> (g[H] - uint64(1))
    return (mask + (g[BOTTOM] & ~full)) & ~mask & g[BOARD]


@njit(inline="always")
def column_move(mask, x, g):
    """The landing bit of column x (0 if full)."""
    return playable(mask, g) & g[COLUMN + x]


@njit(nogil=True, cache=True)
def can_win_next(cur, mask, g):
    return (winning_cells(cur, mask, g) & playable(mask, g)) != 0


@njit(nogil=True, cache=True)
def non_losing_moves(cur, mask, g):
    """Playable cells that do not hand the opponent an immediate win.

    If the opponent has two immediate wins, nothing saves the game (returns 0);
    if it has one, that cell must be blocked.  Never play right below an
    opponent's winning cell either.
    """
    possible = playable(mask, g)
    opp_wins = winning_cells(cur ^ mask, mask, g)
    forced = possible & opp_wins
    if forced:
        if forced & (forced - uint64(1)):
            return uint64(0)
        possible = forced
    below_opp_wins = (opp_wins & ~g[BOTTOM]) >> uint64(1)
    return possible & ~below_opp_wins


@njit(inline="always")
def ordered_moves(cur, mask, possible, first, g, moves):
    """Write the moves of ``possible`` into ``moves``, best first; return how many.

    ``first`` (a move bit, or 0) leads; then moves making more threats
    (winning cells) for the side to move; ties keep the centre-first order.
    An insertion sort: there are at most 16 moves.
    """
    scores = np.zeros(16, dtype=np.int64)
    count = 0
    for i in range(np.int64(g[W])):
        move = possible & g[COLUMN + g[ORDER + i]]
        if move:
            score = 1 << 20 if move == first else np.int64(popcount(winning_cells(cur | move, mask, g)))
            j = count
            while j > 0 and scores[j - 1] < score:
                moves[j] = moves[j - 1]
                scores[j] = scores[j - 1]
                j -= 1
            moves[j] = move
            scores[j] = score
            count += 1
    return count


@njit(nogil=True, cache=True)
def position_key(cur, mask):
    """A 64-bit key for (cur, mask), for transposition tables (never 0)."""
    return mix_u64(mask * uint64(splitmix.GAMMA) + mix_u64(cur)) | uint64(1)


@njit(nogil=True, cache=True)
def moves_played(mask):
    return np.int64(popcount(mask))


# --- conversions (Python side) ---------------------------------------------------


def from_position(position, player_to_move: int) -> tuple[int, int]:
    """(cur, mask) of a rules Position with ``player_to_move`` to move."""
    w, h = position.width, position.height
    cur = mask = 0
    for x in range(w):
        for y in range(h):
            owner = position.cell(x, y)
            if owner is not None:
                mask |= bit(w, h, x, y)
                if owner == player_to_move:
                    cur |= bit(w, h, x, y)
    return cur, mask


def from_game(game) -> tuple[int, int]:
    """(cur, mask) of a rules Game, from the side of the player to move."""
    return from_position(game.position, game.current_player())
