"""The fast SameGame engine: numba kernels on per-colour bitboards.

Representation
--------------
A board is a ``uint64`` array of shape ``(5, 4)``: one 240-bit mask per colour.
Cell (x, y) is bit ``16 * x + y`` of its colour's mask, spread little-endian
over four words (word ``x // 4``, bit ``16 * (x % 4) + y``).  Each column is a
16-bit *lane*: rows 0..14 use bits 0..14 and bit 15 is always zero, as is the
16th lane (column 15) of the last word.  Those always-zero bits are the trick
that keeps every kernel short:

* neighbours are shifts: up ``<< 1``, down ``>> 1``, right ``<< 16``, left
  ``>> 16`` (with a carry between words).  A shift that leaves the board lands
  on an always-zero bit, so ``& mask`` cleans it for free;
* ``(m + g) ^ m`` floods a seed ``g`` up its column through the run of ``m``
  above it in one addition, because the carry stops at the zero bit 15;
* the lowest set bit of a group is its smallest (x, y): the canonical cell
  that names a move, the same one :class:`rules.Group` uses;
* gravity removes bits from a lane; an empty column is dropped by shifting the
  240-bit masks above it down one lane.

Kernels mutate the board array in place and take scratch arrays from the
caller, so a search's inner loop allocates nothing.  Move lists are ``uint64[MAX_GROUPS, 7]``
arrays: four words of cells, then the colour, the size and the move's code.
"""

from __future__ import annotations

import numpy as np

from gridfall.jit import below, ctz, njit, popcount, uint64
from gridfall.samegame import rules

COLOURS = rules.COLOURS
WORDS = 4
MAX_GROUPS = 113  # at most 225 // 2 disjoint regions of two or more cells
COLOUR = 4  # column of a move list holding the colour
SIZE = 5  # column of a move list holding the size
CODE = 6  # column of a move list holding the move's code (:func:`move_code`)
MOVE_FIELDS = 7
CLEAR_BONUS = rules.CLEAR_BONUS

# Return codes of play_xy for a click the rules refuse.
EMPTY_TILE = -1
REGION_OF_ONE = -2

_ONE = uint64(1)
_LANE = uint64(0xFFFF)


def new_board() -> np.ndarray:
    return np.zeros((COLOURS, WORDS), dtype=np.uint64)


def new_scratch() -> np.ndarray:
    """Scratch for :func:`play_listed`: the seeds of new floods, then the cells each colour's groups must not touch."""
    return np.zeros((2 * COLOURS, WORDS), dtype=np.uint64)


def new_moves() -> np.ndarray:
    return np.zeros((MAX_GROUPS, MOVE_FIELDS), dtype=np.uint64)


# --- conversions (plain Python, not hot) ------------------------------------


def from_board(board: rules.Board) -> np.ndarray:
    """The bitboard of a rules Board (which must be settled, as boards.py checks)."""
    masks = [0] * COLOURS
    for x, column in enumerate(board.cells):
        for y, colour in enumerate(column):
            if colour != rules.EMPTY:
                masks[colour] |= 1 << (16 * x + y)
    out = new_board()
    for c, mask in enumerate(masks):
        for w in range(WORDS):
            out[c, w] = (mask >> (64 * w)) & (2**64 - 1)
    return out


def to_board(b: np.ndarray) -> rules.Board:
    cells = [[rules.EMPTY] * rules.HEIGHT for _ in range(rules.WIDTH)]
    for c in range(COLOURS):
        mask = _as_int(b[c])
        while mask:
            bit = (mask & -mask).bit_length() - 1
            cells[bit >> 4][bit & 15] = c
            mask &= mask - 1
    return rules.Board(tuple(tuple(col) for col in cells))


def _as_int(words) -> int:
    return sum(int(words[w]) << (64 * w) for w in range(WORDS))


def cells_of(move: np.ndarray) -> frozenset[tuple[int, int]]:
    """The (x, y) cells of one row of a move list."""
    mask, out = _as_int(move), set()
    while mask:
        bit = (mask & -mask).bit_length() - 1
        out.add((bit >> 4, bit & 15))
        mask &= mask - 1
    return frozenset(out)


def cell_of(move: np.ndarray) -> tuple[int, int]:
    """The canonical cell (smallest x, then smallest y) of one row of a move list."""
    x, y = canonical_cell(move)
    return int(x), int(y)


# --- bit kernels ---------------------------------------------------------------


@njit(inline="always")
def _neighbours(a0, a1, a2, a3):
    """Cells next to the set a (may include always-zero bits; mask the result)."""
    n0 = (a0 << 1) | (a0 >> 1) | (a0 << 16) | (a0 >> 16) | (a1 << 48)
    n1 = (a1 << 1) | (a1 >> 1) | (a1 << 16) | (a0 >> 48) | (a1 >> 16) | (a2 << 48)
    n2 = (a2 << 1) | (a2 >> 1) | (a2 << 16) | (a1 >> 48) | (a2 >> 16) | (a3 << 48)
    n3 = (a3 << 1) | (a3 >> 1) | (a3 << 16) | (a2 >> 48) | (a3 >> 16)
    return n0, n1, n2, n3


@njit(inline="always")
def _flood(m0, m1, m2, m3, g0, g1, g2, g3):
    """Grow the seed g (a subset of m) to its 4-connected region inside m."""
    while True:
        # up the columns in one addition each, then one step in every direction
        g0 |= ((m0 + g0) ^ m0) & m0
        g1 |= ((m1 + g1) ^ m1) & m1
        g2 |= ((m2 + g2) ^ m2) & m2
        g3 |= ((m3 + g3) ^ m3) & m3
        n0, n1, n2, n3 = _neighbours(g0, g1, g2, g3)
        n0 = (n0 & m0) | g0
        n1 = (n1 & m1) | g1
        n2 = (n2 & m2) | g2
        n3 = (n3 & m3) | g3
        if n0 == g0 and n1 == g1 and n2 == g2 and n3 == g3:
            return g0, g1, g2, g3
        g0, g1, g2, g3 = n0, n1, n2, n3


@njit(inline="always")
def _lowest(p0, p1, p2, p3):
    """The lowest set bit of a 4-word set, as a 4-word set."""
    z = uint64(0)
    if p0:
        return p0 & (~p0 + _ONE), z, z, z
    if p1:
        return z, p1 & (~p1 + _ONE), z, z
    if p2:
        return z, z, p2 & (~p2 + _ONE), z
    return z, z, z, p3 & (~p3 + _ONE)


@njit(inline="always")
def _append_groups(moves, n, c, m0, m1, m2, m3, p0, p1, p2, p3):
    """Append the group of every seed p in the colour-c cells m; return the new count."""
    while p0 | p1 | p2 | p3:
        s0, s1, s2, s3 = _lowest(p0, p1, p2, p3)
        g0, g1, g2, g3 = _flood(m0, m1, m2, m3, s0, s1, s2, s3)
        moves[n, 0], moves[n, 1], moves[n, 2], moves[n, 3] = g0, g1, g2, g3
        moves[n, COLOUR] = c
        moves[n, SIZE] = popcount(g0) + popcount(g1) + popcount(g2) + popcount(g3)
        moves[n, CODE] = move_code(moves[n])
        p0 &= ~g0
        p1 &= ~g1
        p2 &= ~g2
        p3 &= ~g3
        n += 1
    return n


@njit(cache=True)
def list_moves(b, moves):
    """Fill ``moves`` with every legal move (region of 2+ cells); return how many.

    Ordered by colour, then by canonical cell.  Only cells with a same-colour
    neighbour can start a region, so single cells cost no flood at all.
    """
    n = 0
    for c in range(COLOURS):
        m0, m1, m2, m3 = b[c, 0], b[c, 1], b[c, 2], b[c, 3]
        q0, q1, q2, q3 = _neighbours(m0, m1, m2, m3)
        n = _append_groups(moves, n, c, m0, m1, m2, m3, q0 & m0, q1 & m1, q2 & m2, q3 & m3)
    return n


@njit(cache=True)
def has_moves(b):
    """True if some region of 2+ cells remains."""
    for c in range(COLOURS):
        m0, m1, m2, m3 = b[c, 0], b[c, 1], b[c, 2], b[c, 3]
        q0, q1, q2, q3 = _neighbours(m0, m1, m2, m3)
        if (q0 & m0) | (q1 & m1) | (q2 & m2) | (q3 & m3):
            return True
    return False


@njit(cache=True)
def is_cleared(b):
    """(0, 0) is empty: the board is empty."""
    for c in range(COLOURS):
        if b[c, 0] & _ONE:
            return False
    return True


@njit(cache=True)
def cell_count(b):
    n = 0
    for c in range(COLOURS):
        for w in range(WORDS):
            n += popcount(b[c, w])
    return n


@njit(cache=True)
def canonical_cell(move):
    """(x, y) of the lowest set bit of a move's cells."""
    for w in range(WORDS):
        if move[w]:
            bit = 64 * w + ctz(move[w])
            return bit >> 4, bit & 15
    return -1, -1


# --- gravity -------------------------------------------------------------------


@njit(inline="always")
def _drop_column(b, x):
    """Remove empty column x: every mask's lanes above x move down one lane."""
    w = x >> 2
    below_x = (_ONE << uint64(16 * (x & 3))) - _ONE  # lanes left of x inside word w
    for c in range(COLOURS):
        v0, v1, v2, v3 = b[c, 0], b[c, 1], b[c, 2], b[c, 3]
        t0 = (v0 >> 16) | (v1 << 48)
        t1 = (v1 >> 16) | (v2 << 48)
        t2 = (v2 >> 16) | (v3 << 48)
        t3 = v3 >> 16
        if w == 0:
            b[c, 0] = (v0 & below_x) | (t0 & ~below_x)
            b[c, 1], b[c, 2], b[c, 3] = t1, t2, t3
        elif w == 1:
            b[c, 1] = (v1 & below_x) | (t1 & ~below_x)
            b[c, 2], b[c, 3] = t2, t3
        elif w == 2:
            b[c, 2] = (v2 & below_x) | (t2 & ~below_x)
            b[c, 3] = t3
        else:
            b[c, 3] = (v3 & below_x) | (t3 & ~below_x)


@njit(cache=True)
def remove_cells(b, cells):
    """Remove the cells (a 4-word set) and let the board settle.

    Returns a bit set of the columns that became empty (and were dropped).
    """
    emptied = 0  # bit x set: column x became empty
    for w in range(WORDS):
        r_word = cells[w]
        if r_word == 0:
            continue
        for lane in range(4):
            shift = uint64(16 * lane)
            r = (r_word >> shift) & _LANE
            if r == 0:
                continue
            lane_mask = _LANE << shift
            removed = uint64(0)  # cells already removed below in this column
            while r:
                start = ctz(r)
                length = ctz(~(r >> start))
                r &= ~(((_ONE << length) - _ONE) << start)
                # in the already-compacted column the run starts lower by `removed`
                keep_below = (_ONE << (shift + start - removed)) - _ONE
                for c in range(COLOURS):
                    v = b[c, w]
                    col = v & lane_mask
                    b[c, w] = (v & ~lane_mask) | (col & keep_below) | ((col >> length) & ~keep_below & lane_mask)
                removed += length
            occupied = uint64(0)
            for c in range(COLOURS):
                occupied |= b[c, w] & lane_mask
            if occupied == 0:
                emptied |= 1 << (4 * w + lane)
    # drop emptied columns from the right so the indices of the others hold
    for x in range(14, -1, -1):
        if (emptied >> x) & 1:
            _drop_column(b, x)
    return emptied


@njit(inline="always")
def _points(b, size):
    """The points of removing a group of ``size`` that left board b: (size-2)^2, plus the bonus if b is empty."""
    gained = (size - 2) * (size - 2)
    if is_cleared(b):
        gained += CLEAR_BONUS
    return gained


@njit(cache=True)
def play_move(b, move):
    """Play one row of a move list; return the points (clear bonus included)."""
    remove_cells(b, move)
    return _points(b, np.int64(move[SIZE]))


@njit(cache=True)
def region_at(b, x, y, out):
    """Write the region of (x, y) into out[0:4]; return its colour, or -1 if empty."""
    bit = uint64(16 * x + y)
    w = bit >> uint64(6)
    seed = _ONE << (bit & uint64(63))
    for c in range(COLOURS):
        if b[c, w] & seed:
            z = uint64(0)
            s0 = seed if w == 0 else z
            s1 = seed if w == 1 else z
            s2 = seed if w == 2 else z
            s3 = seed if w == 3 else z
            g0, g1, g2, g3 = _flood(b[c, 0], b[c, 1], b[c, 2], b[c, 3], s0, s1, s2, s3)
            out[0], out[1], out[2], out[3] = g0, g1, g2, g3
            out[COLOUR] = c
            out[SIZE] = popcount(g0) + popcount(g1) + popcount(g2) + popcount(g3)
            return c
    return -1


@njit(cache=True)
def play_xy(b, x, y, scratch):
    """Click (x, y): the points, or EMPTY_TILE / REGION_OF_ONE (board unchanged).

    ``scratch`` is a uint64[6] array that receives the removed region.
    """
    if region_at(b, x, y, scratch) < 0:
        return EMPTY_TILE
    if scratch[SIZE] < 2:
        return REGION_OF_ONE
    return play_move(b, scratch)


# --- incremental move lists ------------------------------------------------------
#
# A move disturbs only the columns it touches, and in each of them only the
# cells at or above its lowest removed cell (the set D): everything else stays
# where it was.  A listed group with no cell in D and no same-colour neighbour
# in D after the move is still a group, cell for cell.  Every other group of
# the new position has a cell in D or in a dropped group, so only those cells
# seed floods: about a third of the work of listing from scratch.  (An emptied
# column shifts every column right of it; then the list is rebuilt, which is
# cheap that late in a game.)

# Rows s..14 of every lane: where a row may land when shifted up by s inside its lane.
_UP1 = uint64(0x7FFE7FFE7FFE7FFE)
_UP2 = uint64(0x7FFC7FFC7FFC7FFC)
_UP4 = uint64(0x7FF07FF07FF07FF0)
_UP8 = uint64(0x7F007F007F007F00)


@njit(inline="always")
def _at_and_above(r):
    """In each 16-bit lane of r, every row at or above the lane's lowest set bit.

    Every set bit is smeared up its lane by 1, 2, 4 and 8 rows (15 in all); the
    masks keep each shifted row inside rows 0..14 of its own lane.
    """
    r |= (r << uint64(1)) & _UP1
    r |= (r << uint64(2)) & _UP2
    r |= (r << uint64(4)) & _UP4
    r |= (r << uint64(8)) & _UP8
    return r


@njit(cache=True)
def _refresh_moves(b, moves, n, d0, d1, d2, d3, seeds):
    """Bring the list of n groups up to date after the cells d (at or above a move) moved.

    A listed group stays as it is unless it has a cell in d or a new
    same-colour neighbour there.  Every group that changed or is new has a
    cell in d or in a dropped group, so only those cells seed new floods.
    ``seeds`` is a scratch array from :func:`new_scratch`.
    """
    # A group has a same-colour neighbour in d exactly when it has a cell next to
    # d's cells of its colour: so each colour's touched set, d and the neighbours
    # of d & b[c], is made once, and then a listed group costs one AND.
    seeds[:COLOURS, :] = 0
    touched = seeds[COLOURS:]
    for c in range(COLOURS):
        e0, e1, e2, e3 = _neighbours(d0 & b[c, 0], d1 & b[c, 1], d2 & b[c, 2], d3 & b[c, 3])
        touched[c, 0], touched[c, 1], touched[c, 2], touched[c, 3] = d0 | e0, d1 | e1, d2 | e2, d3 | e3
    kept = 0
    for i in range(n):
        g0, g1, g2, g3 = moves[i, 0], moves[i, 1], moves[i, 2], moves[i, 3]
        colour = np.int64(moves[i, COLOUR])
        drop = ((g0 & touched[colour, 0]) | (g1 & touched[colour, 1]) | (g2 & touched[colour, 2])
                | (g3 & touched[colour, 3]))
        if drop:
            seeds[colour, 0] |= g0
            seeds[colour, 1] |= g1
            seeds[colour, 2] |= g2
            seeds[colour, 3] |= g3
        else:
            if kept != i:
                for k in range(MOVE_FIELDS):
                    moves[kept, k] = moves[i, k]
            kept += 1
    n = kept
    for c in range(COLOURS):
        m0, m1, m2, m3 = b[c, 0], b[c, 1], b[c, 2], b[c, 3]
        q0, q1, q2, q3 = _neighbours(m0, m1, m2, m3)
        p0 = q0 & m0 & (d0 | seeds[c, 0])
        p1 = q1 & m1 & (d1 | seeds[c, 1])
        p2 = q2 & m2 & (d2 | seeds[c, 2])
        p3 = q3 & m3 & (d3 | seeds[c, 3])
        n = _append_groups(moves, n, c, m0, m1, m2, m3, p0, p1, p2, p3)
    return n


@njit(cache=True)
def play_listed(b, moves, n, i, seeds):
    """Play ``moves[i]`` of the n listed moves and update the list in place.

    Returns (points, number of moves now listed).  The list holds the same
    groups :func:`list_moves` would give, in another order.  ``seeds`` is
    scratch from :func:`new_scratch`.
    """
    d0 = _at_and_above(moves[i, 0])
    d1 = _at_and_above(moves[i, 1])
    d2 = _at_and_above(moves[i, 2])
    d3 = _at_and_above(moves[i, 3])
    size = np.int64(moves[i, SIZE])
    emptied = remove_cells(b, moves[i])
    gained = _points(b, size)
    if emptied:
        return gained, list_moves(b, moves)
    return gained, _refresh_moves(b, moves, n, d0, d1, d2, d3, seeds)


# --- hashing -------------------------------------------------------------------


@njit(cache=True)
def board_hash(b):
    """A 64-bit hash of the position (for transposition tables)."""
    h = uint64(0x243F6A8885A308D3)
    for c in range(COLOURS):
        for w in range(WORDS):
            h = (h ^ b[c, w]) * uint64(0x9E3779B97F4A7C15)
            h ^= h >> 32
    return h


@njit(cache=True)
def move_code(move):
    """A 64-bit code for a move: its exact cells and colour (NRPA's policy key)."""
    h = uint64(move[COLOUR]) * uint64(0xD6E8FEB86659FD93) + uint64(0x1F)
    for w in range(WORDS):
        h = (h ^ move[w]) * uint64(0x9E3779B97F4A7C15)
        h ^= h >> 29
    return h


# --- playouts ------------------------------------------------------------------


@njit(inline="always")
def pick_avoiding(moves, n, tabu, rng):
    """A uniformly random move of the n, avoiding colour ``tabu`` while any other exists."""
    if tabu < 0:
        return below(rng, n)
    free = 0
    for i in range(n):
        if np.int64(moves[i, COLOUR]) != tabu:
            free += 1
    if free == 0 or free == n:
        return below(rng, n)
    k = below(rng, free)
    for i in range(n):
        if np.int64(moves[i, COLOUR]) != tabu:
            if k == 0:
                return i
            k -= 1
    return 0


@njit(cache=True)
def random_playout(b, rng, tabu, moves):
    """Play random moves to the end; return the points scored.

    With the tabu-colour policy (Schadd et al.) moves of colour ``tabu`` are
    avoided while any other move exists, which lets that colour grow into one
    big region; ``tabu = -1`` plays uniformly.  Mutates ``b``.
    """
    score = 0
    seeds = np.zeros((2 * COLOURS, WORDS), dtype=np.uint64)
    n = list_moves(b, moves)
    while n:
        gained, n = play_listed(b, moves, n, pick_avoiding(moves, n, tabu, rng), seeds)
        score += gained
    return score
