"""Nested Monte-Carlo Search (Cazenave 2009) for SameGame.

At each step a level-L search tries every legal move, scores it by a
level-(L-1) search from the position it leads to (level 0 is one tabu-colour
playout), and plays the next move of the best line seen so far, which it
remembers across steps so that a lucky line is never lost.

Level 1 is a numba kernel, called some moves of playouts at a time (about 20 ms of them,
fewer as the deadline nears: it goes on where it stopped, so the split changes
nothing); higher levels are Python loops over level-1 searches.  The deadline
is checked between kernel calls.  When time runs out the best line seen so far
is a complete game, so the search is anytime.
"""

from __future__ import annotations

import time

import numpy as np

from gridfall.jit import new_rng, njit
from gridfall.samegame import engine
from gridfall.samegame.engine import MAX_GROUPS
from gridfall.samegame.search import clock
from gridfall.samegame.search.clock import work_for_call
from gridfall.samegame.search.colours import most_common_colour
from gridfall.samegame.search.found import Found

MAX_MOVES = MAX_GROUPS
# The work of a level-1 call is counted in moves played, since a playout from a full board is
# many times longer than one near the end: a rate in playouts, measured late in one level-1
# search, sized the next one's first call several times too long.  A whole level-1 search from a
# full board (a playout for each move of each step) took 13-20 ms, and ran that far past its
# deadline; now a search's first call, before its rate is measured, plays this many moves (8 or 9
# playouts from a full board, about 0.2 ms).
FIRST_MOVES = 500
# what a level-1 search's progress array holds between calls
BEST, BEST_LEN, SCORE, PLAYED, NEXT = range(5)


@njit(nogil=True, cache=True)
def tabu_playout(b, tabu, rng, moves, seq, start_len):
    """Uniform playout avoiding the tabu colour while possible; moves go to seq[start_len:].

    Returns (score, new length).  Mutates b.
    """
    score = 0
    length = start_len
    seeds = np.zeros((2 * engine.COLOURS, engine.WORDS), dtype=np.uint64)
    n = engine.list_moves(b, moves)
    while n:
        pick = engine.pick_avoiding(moves, n, tabu, rng)
        x, y = engine.canonical_cell(moves[pick])
        seq[length] = 16 * x + y
        length += 1
        gained, n = engine.play_listed(b, moves, n, pick, seeds)
        score += gained
    return score, length


@njit(nogil=True, cache=True)
def level1(b, tabu, rng, best_seq, progress, budget, moves, child_moves, child, seq):
    """More playouts of a level-1 NMCS, until they have played ``budget`` moves or more.  ``b`` is
    the position it has reached (it follows the best line, in place); ``progress`` holds the best
    score, its length in ``best_seq``, the score and moves played so far, and the next move to try
    there: -1, 0, 0, 0, 0 to begin.  Returns whether the search is over, and the moves played."""
    used = 0
    best_score, best_len = progress[BEST], progress[BEST_LEN]
    score, played, j = progress[SCORE], progress[PLAYED], progress[NEXT]
    n = engine.list_moves(b, moves)
    while n > 0 and used < budget:
        while j < n and used < budget:
            child[:, :] = b
            gained = engine.play_move(child, moves[j])
            x, y = engine.canonical_cell(moves[j])
            seq[:played] = best_seq[:played]
            seq[played] = 16 * x + y
            rest, length = tabu_playout(child, tabu, rng, child_moves, seq, played + 1)
            total = score + gained + rest
            if total > best_score:
                best_score = total
                best_len = length
                best_seq[:length] = seq[:length]
            j += 1
            used += length - played
        if j == n:  # every move tried: follow the best line one step
            cell = best_seq[played]
            for m in range(n):
                x, y = engine.canonical_cell(moves[m])
                if 16 * x + y == cell:
                    score += engine.play_move(b, moves[m])
                    break
            played += 1
            j = 0
            n = engine.list_moves(b, moves)
    if n == 0 and best_score < 0:  # it began over: the empty line, worth 0 (not -1, which lost a move's points)
        best_score = 0
    progress[BEST], progress[BEST_LEN] = best_score, best_len
    progress[SCORE], progress[PLAYED], progress[NEXT] = score, played, j
    return n == 0, used


class NMCS:
    """Nested Monte-Carlo Search of any level >= 1 with a deadline."""

    def __init__(self, start: np.ndarray, *, seed: int = 0, tabu: bool = True):
        self.start = start
        self.rng = new_rng(seed)
        self.tabu = most_common_colour(start) if tabu else -1
        self.best_score = -1
        self.best_line: list[tuple[int, int]] = []
        self.rate = 0.0  # moves of level-1 playouts a second, once measured
        self._moves, self._child_moves = engine.new_moves(), engine.new_moves()
        self._child = engine.new_board()
        self._seq = np.zeros(MAX_MOVES, dtype=np.int64)

    def search(self, b: np.ndarray, level: int, deadline: float) -> tuple[int, list[int]]:
        """Best (score, cells) of a level-``level`` search from b (score counted from b)."""
        if level == 1:
            return self.level1(b, deadline)
        moves = engine.new_moves()
        scratch = np.zeros(6, dtype=np.uint64)
        b = b.copy()
        best_score, best_cells = -1, []
        score = 0
        played: list[int] = []
        while True:
            n = engine.list_moves(b, moves)
            if n == 0:
                break
            for j in range(n):
                if clock.now() >= deadline and best_score >= 0:
                    break
                child = b.copy()
                gained = engine.play_move(child, moves[j].copy())
                x, y = engine.cell_of(moves[j])
                rest, cells = self.search(child, level - 1, deadline)
                if score + gained + rest > best_score:
                    best_score = score + gained + rest
                    best_cells = played + [16 * x + y] + cells
            cell = best_cells[len(played)]
            score += engine.play_xy(b, cell >> 4, cell & 15, scratch)
            played.append(cell)
            if clock.now() >= deadline:
                break  # the best line is complete: stop following it step by step
        if best_score < 0:  # b was over: the empty line
            return 0, []
        return best_score, best_cells

    def level1(self, b: np.ndarray, deadline: float) -> tuple[int, list[int]]:
        """A level-1 search from b, cut at ``deadline`` once it has a line (after one playout)."""
        b, best_seq = b.copy(), np.zeros(MAX_MOVES, dtype=np.int64)
        progress = np.array([-1, 0, 0, 0, 0], dtype=np.int64)
        while True:
            budget = (FIRST_MOVES if self.rate == 0.0 else
                      work_for_call(self.rate, deadline - time.monotonic(), 1, 1 << 30))
            began = time.monotonic()
            over, used = level1(b, self.tabu, self.rng, best_seq, progress, budget, self._moves, self._child_moves,
                                self._child, self._seq)
            if not over:  # it stopped at its budget: a search that ended sooner played fewer
                self.rate = used / max(time.monotonic() - began, 1e-6)
            if over or clock.now() >= deadline:
                return int(progress[BEST]), [int(c) for c in best_seq[:progress[BEST_LEN]]]


def nmcs_solve(start: np.ndarray, deadline: float, *, seed: int = 0, on_improve=None, level: int = 2,
               max_runs: int | None = None) -> Found:
    """Run NMCS at ``level``, again with new seeds while time remains (at most ``max_runs`` runs:
    a budget of work, so that the same seed gives the same line on any machine fast enough)."""
    best_score, best_line = -1, []
    run = 0
    while (clock.now() < deadline or best_score < 0) and (max_runs is None or run < max_runs):
        search = NMCS(start, seed=seed * 1_000_003 + run)
        score, cells = search.search(start, level, deadline)
        if score > best_score:
            best_score, best_line = score, [(c >> 4, c & 15) for c in cells]
            if on_improve is not None:
                on_improve(best_score)
        run += 1
    return Found(best_score, best_line)
