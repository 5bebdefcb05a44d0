"""An exact Connect Four solver: negamax, alpha-beta and a transposition table.

Scores (the convention of the bundled scored positions): a win with the n-th
chip of the game is worth ``1 + (cells - n) // 2`` to the winner, so faster
wins score more; a draw is 0; a loss is the negated score of the opponent's
win.  The score is from the side to move.

The search, in the design of Pascal Pons' solver (written anew here):

* the side to move never plays a move that lets the opponent win at once
  (:func:`engine.non_losing_moves`); the search only ever sees positions where
  the side to move cannot win at once, which the caller checks first;
* bounds: after ``n`` chips no result is better than winning with the next
  chip but one, nor worse than losing to the opponent's next-but-one, so the
  window is narrowed before any move is tried;
* moves are tried in order of the threats (winning cells) they create, centre
  columns first on ties;
* the transposition table stores upper *and* lower bounds, keyed by a 64-bit
  hash of the position and a generation number, so a new search forgets the
  last one in O(1);
* the root runs null-window searches (alpha, alpha + 1), bisecting the score
  range towards 0, which costs far fewer nodes than one wide-window search;
* each null-window search runs in slices of at most :data:`SLICE` seconds: the
  kernel reads the CPU's cycle counter every 1024 nodes and aborts (storing
  nothing from the unfinished node up), and the next slice starts the same
  search again from a table that kept every finished subtree.  So a time limit,
  progress and Ctrl-C are honoured within a slice, and on time-out the answer is
  the range of scores proven so far;
* a limit in nodes instead of seconds slices by nodes (:data:`SLICE_NODES`), so
  that the same solve does the same work, and gives the same answer, on any
  machine and under any load.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from gridfall.connect4 import engine, stopping
from gridfall.connect4.engine import H, W
from gridfall.connect4.rules import Game
from gridfall.jit import cycle_counter, deadline_ticks, njit, uint64
from gridfall.main_thread import off_the_main_thread

BOUND_RANGE = 64  # scores lie in [-32, 32]; tt values: 1..65 upper bounds, 66..130 lower bounds
OFFSET = 33


NODES, GENERATION, ABORTED, DEADLINE, BUDGET = 0, 1, 2, 3, 4  # fields of the stats array
SLICE = 0.25  # seconds a kernel call may run before Python looks at the clock and Ctrl-C again
SLICE_NODES = 1 << 20  # nodes a kernel call may visit under a node limit (about a quarter second)
NEVER = 1 << 62  # a deadline in counter ticks that never comes


class Table:
    """A transposition table: ``2**bits`` slots of (key, value), plus search counters."""

    def __init__(self, bits: int = 22):
        # np.full, not np.zeros: touch every page now rather than fault them in during a timed search
        self.keys = np.full(1 << bits, 0, dtype=np.uint64)
        self.values = np.full(1 << bits, 0, dtype=np.uint8)
        self.stats = np.zeros(5, dtype=np.int64)  # nodes, generation, aborted, deadline (cycle counter), budget
        self.stats[DEADLINE] = self.stats[BUDGET] = NEVER

    def new_search(self) -> None:
        """Forget every entry (by moving to a new generation) and zero the node count."""
        self.stats[NODES] = 0
        self.stats[GENERATION] += 1

    @property
    def nodes(self) -> int:
        return int(self.stats[0])


@njit(inline="always")
def _slot(cur, mask, keys, stats):
    key = (engine.position_key(cur, mask) ^ (uint64(stats[1]) * uint64(0x9E3779B97F4A7C15))) | uint64(1)
    return key, np.int64(key & uint64(len(keys) - 1))


@njit(nogil=True, cache=True)
def negamax(cur, mask, alpha, beta, g, keys, values, stats):
    """The score of (cur, mask) if it lies in (alpha, beta), else a bound beyond.

    The side to move must not be able to win at once.
    """
    stats[NODES] += 1
    if stats[NODES] > stats[BUDGET] or ((stats[NODES] & 1023) == 0 and np.int64(cycle_counter()) > stats[DEADLINE]):
        stats[ABORTED] = 1
    if stats[ABORTED]:
        return alpha  # the caller throws the unfinished search away
    cells = np.int64(g[W] * g[H])
    n = engine.moves_played(mask)
    possible = engine.non_losing_moves(cur, mask, g)
    if possible == 0:
        return -((cells - n) // 2)
    if n >= cells - 2:
        return 0
    low = -((cells - 2 - n) // 2)  # we cannot lose sooner than this
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - n) // 2  # we cannot win sooner than this
    key, slot = _slot(cur, mask, keys, stats)
    if keys[slot] == key:
        v = np.int64(values[slot])
        if v > BOUND_RANGE + 1:  # a lower bound
            lower = v - BOUND_RANGE - 1 - OFFSET
            if alpha < lower:
                alpha = lower
                if alpha >= beta:
                    return alpha
        else:
            upper = v - OFFSET
            if high > upper:
                high = upper
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    moves = np.zeros(16, dtype=np.uint64)
    count = engine.ordered_moves(cur, mask, possible, uint64(0), g, moves)

    for i in range(count):
        v = -negamax(cur ^ mask, mask | moves[i], -beta, -alpha, g, keys, values, stats)
        if stats[ABORTED]:
            return alpha  # nothing stored: an unfinished node proves nothing
        if v >= beta:
            keys[slot] = key
            values[slot] = np.uint8(v + OFFSET + BOUND_RANGE + 1)
            return v
        if v > alpha:
            alpha = v
    keys[slot] = key
    values[slot] = np.uint8(alpha + OFFSET)
    return alpha


def root_range(cur: int, mask: int, cells: int, weak: bool) -> tuple[int, int]:
    """The scores a position can have, before any search: [low, high]."""
    n = bin(mask).count("1")
    if weak:
        return -1, 1
    return -((cells - n) // 2), (cells + 1 - n) // 2


def probe(low: int, high: int) -> int:
    """The next null-window point: the middle, pulled towards 0 (most positions score near it)."""
    med = low + (high - low) // 2
    if med <= 0 and int(low / 2) < med:
        med = int(low / 2)
    elif med >= 0 and int(high / 2) > med:
        med = int(high / 2)
    return med


@dataclass
class Result:
    score: int  # for the side to move; with weak=True only its sign is meaningful; a bound if not exact
    nodes: int
    seconds: float
    exact: bool = True  # False: time (or the nodes) ran out, or Ctrl-C; the score lies in [low, high]
    low: int = 0
    high: int = 0


_KERNELS_LOADED: list[bool] = []


class Solver:
    """Solves positions of one board size; keeps its table between calls."""

    def __init__(self, width: int = 9, height: int = 7, table_bits: int = 22):
        self.width, self.height = width, height
        self.g = engine.geometry(width, height)
        self.table = Table(table_bits)
        if not _KERNELS_LOADED:
            # numba loads a cached kernel at its first call (0.23 s on a 2026 Xeon, 6x a 7x6
            # solve of 181,358 nodes): solving the empty 4x4 board (1 ms) does it here, so that
            # the first solve's seconds and nodes per second measure the search alone.  From a
            # cold cache that is a compile of 5 s, off the main thread, where a Ctrl-C is not lost
            _KERNELS_LOADED.append(True)
            off_the_main_thread(lambda: Solver(4, 4, 10).solve_moves(""))

    @property
    def cells(self) -> int:
        return self.width * self.height

    def position(self, moves: str) -> tuple[int, int]:
        """(cur, mask) after MOVES (column digits, read by the rules of record), refusing a won game."""
        game = Game.from_moves(moves, self.width, self.height, steal=False)
        if game.winner is not None:
            raise ValueError(f"{moves!r}: the last move already won the game")
        return engine.from_game(game)

    def solve(self, cur: int, mask: int, weak: bool = False, seconds: float | None = None,
              on_progress=None, keep_table: bool = False, nodes: int | None = None) -> Result:
        """The score of (cur, mask) for the side to move; within ``seconds`` if given, or within
        ``nodes`` (then the clock is not read: the same work and answer on every machine), else exact.

        ``on_progress(low, high, nodes, elapsed)`` is called between slices.  Out of time, the
        result is the proven range (``exact`` False, ``score`` its middle).  Ctrl-C raises
        KeyboardInterrupt within a slice, with ``self.last`` holding the range proven so far.
        ``keep_table`` keeps what earlier solves stored (every entry is a true bound of its
        position, whatever the root): solving a position's children after it is then cheap.
        """
        if keep_table:
            self.table.stats[NODES] = 0
        else:
            self.table.new_search()
        start = time.perf_counter()
        stats = self.table.stats
        cells = self.cells
        if engine.can_win_next(np.uint64(cur), np.uint64(mask), self.g):
            score = (cells + 1 - bin(mask).count("1")) // 2
            return Result(score, 0, 0.0, True, score, score)
        low, high = root_range(cur, mask, cells, weak)
        deadline_ticks(0.0)  # calibrate the cycle counter outside the clock
        self.last = Result(0, 0, 0.0, False, low, high)
        while low < high:
            med = probe(low, high)
            while True:
                if nodes is not None:
                    left = float(nodes - self.table.nodes)
                    stats[BUDGET], stats[DEADLINE] = self.table.nodes + min(int(left), SLICE_NODES), NEVER
                else:
                    left = SLICE if seconds is None else min(SLICE, seconds - (time.perf_counter() - start))
                    stats[BUDGET], stats[DEADLINE] = NEVER, min(deadline_ticks(max(left, 0.0)), NEVER)
                stopping.check()
                if left <= 0:  # nodes or seconds: none left
                    mid = low + (high - low) // 2
                    return Result(mid, self.table.nodes, time.perf_counter() - start, False, low, high)
                stats[ABORTED] = 0
                r = int(negamax(np.uint64(cur), np.uint64(mask), med, med + 1, self.g,
                                self.table.keys, self.table.values, stats))
                if not stats[ABORTED]:
                    break
                if on_progress is not None:
                    on_progress(low, high, self.table.nodes, time.perf_counter() - start)
            if r <= med:
                high = r
            else:
                low = r
            self.last = Result(low, self.table.nodes, time.perf_counter() - start, low == high, low, high)
        return Result(low, self.table.nodes, time.perf_counter() - start, True, low, low)

    def solve_moves(self, moves: str, weak: bool = False, seconds: float | None = None, on_progress=None) -> Result:
        return self.solve(*self.position(moves), weak=weak, seconds=seconds, on_progress=on_progress)

    def analyze(self, moves: str, weak: bool = False, seconds: float | None = None,
                on_progress=None) -> dict[int, int | tuple[int, int] | None]:
        """The score of each column for the side to move (None: column full).  With ``seconds``
        each open column gets an equal share; a column not solved in its share is (low, high)."""
        cur, mask = self.position(moves)
        out: dict[int, int | tuple[int, int] | None] = {}
        n = bin(mask).count("1")
        open_columns = [x for x in range(self.width) if int(engine.column_move(np.uint64(mask), x, self.g))]
        share = None if seconds is None else seconds / max(len(open_columns), 1)
        for x in range(self.width):
            move = int(engine.column_move(np.uint64(mask), x, self.g))
            if move == 0:
                out[x] = None
            elif engine.has_four(np.uint64(cur | move), self.g):
                out[x] = (self.cells + 1 - n) // 2
            else:
                result = self.solve(cur ^ mask, mask | move, weak=weak, seconds=share, on_progress=on_progress)
                out[x] = -result.score if result.exact else (-result.high, -result.low)
        return out
