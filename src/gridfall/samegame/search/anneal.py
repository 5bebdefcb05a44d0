"""Simulated annealing on a line's clicks, for SameGame.

NRPA and the other searches build a line move by move; a long NRPA search
ends in a basin it cannot leave, because what it learns about a group is lost
when the group changes.  This search edits a whole line instead.  The line is
written as clicks on tiles (:mod:`.tiles`), so an edit keeps the meaning of
every other click, and each candidate is replayed whole (``benchmarks/samegame_continue.py``
measures the rate and the gains):

* move one click to another place in the line (later, so that its group can
  grow; earlier, so that it stops joining others), or a run of two to four;
* swap a click with one of the next few;
* drop a click (its tiles go with a later group, or are left to the finish);
* add a click somewhere, on a tile that is in a group there.

The replay skips clicks that no longer remove a group and finishes the line
greedily (largest group first, the kept colour last), so every candidate is a
complete legal line with an exact score.  A worse candidate is taken with
probability exp(delta / T), the temperature T falling geometrically from
``temp_from`` to ``temp_to`` over a *sweep*; each sweep starts again from the
best line so far, with a new stream of edits.
"""

from __future__ import annotations

import math
import time

import numpy as np

from gridfall.jit import below, new_rng, njit, uniform
from gridfall.samegame import engine, rules
from gridfall.samegame.search import clock, tiles
from gridfall.samegame.search.clock import work_for_call
from gridfall.samegame.search.tiles import CELLS, H
from gridfall.samegame.search.found import Found

SWEEP = 2_000_000  # edits a sweep (about 20 s on one core)
CHUNK = 20_000  # edits a kernel call at most (and 100 at least): the deadline is checked between calls
TEMP_FROM = 30.0
TEMP_TO = 1.0
SWAP_REACH = 5  # a swap exchanges a click with one of the next SWAP_REACH

# what a state array holds: the current line's length and score, the best's
N_CURRENT, CURRENT, N_BEST, BEST = range(4)

MOVE, SWAP, DROP, ADD, SEGMENT = range(5)
OPS = 5
SEGMENT_MAX = 4  # a segment move carries 2..SEGMENT_MAX clicks in a row
ADD_TRIES = 8  # cells drawn to find one in a group, for an added click


@njit(inline="always")
def _move_segment(current, n, i, length, j, candidate):
    """current[:n] with current[i:i + length] taken out and put back before the j-th of the
    others; returns the first index where candidate differs from current."""
    k = 0
    for a in range(n):
        if i <= a < i + length:
            continue
        if k == j:
            for b in range(length):
                candidate[k + b] = current[i + b]
            k += length
        candidate[k] = current[a]
        k += 1
    if k < n:  # put back after all the others
        for b in range(length):
            candidate[k + b] = current[i + b]
    return min(i, j)


@njit(inline="always")
def _tile_in_a_group(colours, snaps, j, rng):
    """A tile that is in a group of two or more before click j of the current line (from the
    recorded positions), or -1 if ADD_TRIES random cells found none."""
    columns = snaps.columns[j]
    if columns == 0:
        return -1
    grid = snaps.grid[j]
    heights = snaps.heights[j]
    for _ in range(ADD_TRIES):
        x = below(rng, columns)
        y = below(rng, heights[x])
        t = grid[H * x + y]
        c = colours[t]
        if (y + 1 < heights[x] and colours[grid[H * x + y + 1]] == c) or (y > 0 and colours[grid[H * x + y - 1]] == c) \
                or (x + 1 < columns and y < heights[x + 1] and colours[grid[H * (x + 1) + y]] == c) \
                or (x > 0 and y < heights[x - 1] and colours[grid[H * (x - 1) + y]] == c):
            return t
    return -1


@njit(inline="always")
def _edit(op, current, n, candidate, rng, colours, snaps):
    """Write an edited copy of current[:n] to candidate; returns its length and the first
    click where the two differ (the replay starts there)."""
    if op == MOVE and n > 1:
        return n, _move_segment(current, n, below(rng, n), 1, below(rng, n), candidate)
    if op == SEGMENT and n > SEGMENT_MAX:
        length = 2 + below(rng, SEGMENT_MAX - 1)
        i = below(rng, n - length + 1)
        return n, _move_segment(current, n, i, length, below(rng, n - length + 1), candidate)
    if op == SWAP and n > 1:
        candidate[:n] = current[:n]
        i = below(rng, n - 1)
        j = min(i + 1 + below(rng, SWAP_REACH), n - 1)
        candidate[i], candidate[j] = current[j], current[i]
        return n, i
    if op == DROP and n > 1:
        i = below(rng, n)
        candidate[:i] = current[:i]
        candidate[i:n - 1] = current[i + 1:n]
        return n - 1, i
    # ADD: a click on a tile that is in a group there (the current line's position before click j)
    j = below(rng, n + 1)
    t = _tile_in_a_group(colours, snaps, j, rng)
    candidate[:j] = current[:j]
    if t < 0:  # none found: the candidate is the current line
        candidate[j:n] = current[j:n]
        return n, n
    candidate[j] = t
    candidate[j + 1:n + 1] = current[j:n]
    return n + 1, j


@njit(nogil=True, cache=True)
def sweep_part(colours, kept_colour, state, current, best, edits, done, total, temp_from, temp_to, rng,
               candidate, out, s, snaps):
    """``edits`` edits of a sweep of ``total``, ``done`` of them made before: the temperature at
    edit e of the sweep is temp_from * (temp_to / temp_from) ** (e / total).  Updates the
    current and best lines (tiles) and their lengths and scores in ``state``; ``snaps`` holds
    the positions along the current line."""
    ratio = temp_to / temp_from
    for e in range(edits):
        temp = temp_from * ratio ** ((done + e) / total)
        n, first = _edit(below(rng, OPS), current, state[N_CURRENT], candidate, rng, colours, snaps)
        out[:first] = current[:first]
        score, played = tiles.replay_from(colours, candidate, first, n, kept_colour, out, s, snaps, False)
        delta = score - state[CURRENT]
        if delta >= 0 or uniform(rng) < math.exp(delta / temp):
            tiles.replay_from(colours, out, first, played, kept_colour, out, s, snaps, True)  # its positions
            current[:played] = out[:played]
            state[N_CURRENT] = played
            state[CURRENT] = score
            if score > state[BEST]:
                best[:played] = out[:played]
                state[N_BEST] = played
                state[BEST] = score


def kept_colour_of(board: rules.Board, moves: list[tuple[int, int]]) -> int:
    """The colour a line gathers for last: that of its largest group (the most common colour
    for an empty line)."""
    groups = rules.removed_groups(board, moves)
    if groups:
        return max(groups, key=lambda g: g.size).colour
    counts = board.colour_counts()
    return max(range(rules.COLOURS), key=lambda c: (counts[c], -c))


class Annealer:
    """Annealing sweeps over one board, from one line, with its own seed and scratch."""

    def __init__(self, board: rules.Board, guide: list[tuple[int, int]] | None = None, *, seed: int = 0,
                 kept_colour: int | None = None, temp_from: float = TEMP_FROM, temp_to: float = TEMP_TO,
                 sweep: int = SWEEP, on_improve=None):
        if not 0 < temp_to <= temp_from:
            raise ValueError(f"temperatures must fall: temp_from={temp_from}, temp_to={temp_to}")
        if sweep < 1:
            raise ValueError(f"sweep must be at least one edit, not {sweep}")
        guide = guide or []
        self.board = board
        self.colours = tiles.colours_of(board)
        self.kept_colour = kept_colour_of(board, guide) if kept_colour is None else kept_colour
        self.temp_from, self.temp_to, self.sweep = temp_from, temp_to, sweep
        self.on_improve = on_improve
        self.rng = new_rng(seed)
        self._s = tiles.new_scratch()
        self._snaps = tiles.new_snapshots()
        self._candidate = np.zeros(2 * CELLS, dtype=np.int64)
        self._out = np.zeros(CELLS, dtype=np.int64)
        self.current = np.zeros(2 * CELLS, dtype=np.int64)
        self.best = np.zeros(CELLS, dtype=np.int64)
        clicks = tiles.line_to_tiles(board, guide)
        score, played = tiles.replay(self.colours, clicks, len(clicks), self.kept_colour, self._out, self._s,
                                     tiles.NO_SNAPSHOTS, False)
        self.best[:played] = self._out[:played]
        self.state = np.array([0, 0, played, score], dtype=np.int64)
        self.edits = 0
        self.rate = 0.0  # edits a second, once measured

    @property
    def best_score(self) -> int:
        return int(self.state[BEST])

    @property
    def best_line(self) -> list[tuple[int, int]]:
        return tiles.tiles_to_line(self.board, self.best[: self.state[N_BEST]])

    def run(self, deadline: float, max_edits: float = math.inf) -> None:
        """Sweeps from the best line until ``deadline`` or ``max_edits`` edits.  Without a work
        budget, a sweep that the deadline would cut short is shortened to what the rate measured
        in it allows, so that it still cools down to ``temp_to``."""
        while self.edits < max_edits:
            began = time.monotonic()
            left = deadline - began
            if left <= 0 or clock.now() >= deadline:  # the clock's, too: a stop (clock.stop) ends the run
                return
            total = int(min(self.sweep, max_edits - self.edits))
            n = self.state[N_BEST]
            self.current[:n] = self.best[:n]
            self.state[N_CURRENT], self.state[CURRENT] = n, self.state[BEST]
            tiles.replay(self.colours, self.current, n, self.kept_colour, self._out, self._s, self._snaps, True)
            done = 0
            while done < total and clock.now() < deadline:
                # a call sized to the time left: a sweep begun just before the deadline ran a
                # 20 ms call past it (load_player's anneal given 5 ms took 23 ms)
                edits = min(total - done, work_for_call(self.rate, deadline - time.monotonic(), 100, CHUNK))
                before = self.state[BEST]
                sweep_part(self.colours, self.kept_colour, self.state, self.current, self.best, edits, done, total,
                           self.temp_from, self.temp_to, self.rng, self._candidate, self._out, self._s, self._snaps)
                done += edits
                if self.state[BEST] > before and self.on_improve is not None:
                    self.on_improve(self.best_score)
                self.rate = done / max(time.monotonic() - began, 1e-6)
                # as many edits as fit in the time left at the sweep's start; not under a work
                # budget, whose sweeps must not depend on the machine's speed (or on a first call
                # that loads the kernel): the same seed and budget then anneal the same way anywhere
                if not math.isinf(deadline) and math.isinf(max_edits):
                    total = max(done, int(min(total, self.rate * left)))  # int() last: the product may be inf
            self.edits += done


def anneal_solve(start: np.ndarray, deadline: float, *, seed: int = 0, on_improve=None,
                 guide: list[tuple[int, int]] | None = None, temp_from: float = TEMP_FROM, temp_to: float = TEMP_TO,
                 sweep: int = SWEEP, max_edits: float = math.inf) -> Found:
    """Anneal ``guide`` (else the greedy line: largest group first, the most common colour last)
    until ``deadline`` or ``max_edits``; never worse than the guide."""
    annealer = Annealer(engine.to_board(start), guide, seed=seed, temp_from=temp_from, temp_to=temp_to, sweep=sweep,
                        on_improve=on_improve)
    if on_improve is not None:
        on_improve(annealer.best_score)
    annealer.run(deadline, max_edits)
    return Found(annealer.best_score, annealer.best_line)
