"""Beam search with transposition elimination, on the engine.

Each level expands every position of the beam by every legal move, ranks the
children by ``score + potential`` and keeps the best ``width`` distinct ones
(two move orders that reach the same board count once: a 64-bit board hash).
The kernels expand a level a few parents a call; the Python loop around them
owns the deadline and the move history, so a search can stop mid-level and
still return the best line so far: the last whole level's, finished greedily.

Children are ranked by their score plus a *potential*: the points their
current groups would give if each were taken now (see :func:`potential`).
"""

from __future__ import annotations

import math
import time

import numpy as np

from gridfall.jit import below, new_rng, njit, popcount, uint64
from gridfall.samegame import engine
from gridfall.samegame.engine import COLOUR, COLOURS, MAX_GROUPS, SIZE, WORDS
from gridfall.samegame.search import clock
from gridfall.samegame.search.clock import work_for_call
from gridfall.samegame.search.found import Found


@njit(nogil=True, cache=True)
def potential(b, moves):
    """The points the position's current groups would give if each were taken now.

    Tuned on the tuning boards against colour-count potentials, which it beats
    by far: it rewards positions whose groups are already large.
    """
    total = np.int64(0)
    m = engine.list_moves(b, moves)
    for j in range(m):
        size = np.int64(moves[j, SIZE])
        total += (size - 2) * (size - 2)
    return total


@njit(nogil=True, cache=True)
def expand(parents, scores, first, last, k, best_done, moves, child_moves, child, out_eval, out_score, out_parent,
           out_cell, out_hash, rng, noise):
    """Children of parents[first:last], written from index ``k`` on, given ``k`` children and the
    best finished parent (or -1) of the parents before ``first``; returns both, updated.  A level
    is expanded a few parents a call, and the calls' split changes nothing: they draw the noise in
    the same order."""
    for i in range(first, last):
        m = engine.list_moves(parents[i], moves)
        if m == 0:
            if best_done < 0 or scores[i] > scores[best_done]:
                best_done = i
            continue
        for j in range(m):
            child[:, :] = parents[i]
            s = scores[i] + engine.play_move(child, moves[j])
            out_score[k] = s
            out_eval[k] = s + potential(child, child_moves) + (below(rng, noise) if noise > 0 else 0)
            out_parent[k] = i
            x, y = engine.canonical_cell(moves[j])
            out_cell[k] = 16 * x + y
            out_hash[k] = engine.board_hash(child)
            k += 1
    return k, best_done


@njit(nogil=True, cache=True)
def select(parents, k, width, cand_eval, cand_score, cand_parent, cand_cell, cand_hash, out_boards, out_scores, out_parent, out_cell, scratch):
    """Keep the best ``width`` distinct children; build their boards; return how many."""
    order = np.argsort(-cand_eval[:k], kind="mergesort")
    size = 1
    while size < 4 * width:
        size *= 2
    table = np.zeros(size, dtype=np.uint64)  # open addressing; 0 = empty slot
    kept = 0
    for t in range(k):
        if kept == width:
            break
        c = order[t]
        h = cand_hash[c] | uint64(1)
        slot = np.int64(h & uint64(size - 1))
        duplicate = False
        while table[slot] != 0:
            if table[slot] == h:
                duplicate = True
                break
            slot = (slot + 1) & (size - 1)
        if duplicate:
            continue
        table[slot] = h
        out_boards[kept, :, :] = parents[cand_parent[c]]
        engine.play_xy(out_boards[kept], cand_cell[c] >> 4, cand_cell[c] & 15, scratch)
        out_scores[kept] = cand_score[c]
        out_parent[kept] = cand_parent[c]
        out_cell[kept] = cand_cell[c]
        kept += 1
    return kept


@njit(nogil=True, cache=True)
def greedy_finish(b, moves, out_cells):
    """Finish a game by always taking the move that scores most now.

    Ties (and the many 0-point pairs) go to the move whose colour is most
    common, which keeps rare colours from being stranded.  Returns
    (points, number of moves); the moves' cells go to out_cells.
    """
    total = 0
    count = 0
    while True:
        m = engine.list_moves(b, moves)
        if m == 0:
            return total, count
        best = 0
        best_key = np.int64(-1)
        for j in range(m):
            size = np.int64(moves[j, SIZE])
            n = 0
            for w in range(WORDS):
                n += popcount(b[moves[j, COLOUR], w])
            key = (size - 2) * (size - 2) * 1000 + n
            if key > best_key:
                best, best_key = j, key
        x, y = engine.canonical_cell(moves[best])
        out_cells[count] = 16 * x + y
        count += 1
        total += engine.play_move(b, moves[best])


NOISE = 4  # seeded tie-breaking: up to 3 points of noise on each child's rank
# Parents a kernel call expands before the search looks at the clock: the first call's, then as
# many as fit in a call of about 20 ms (or the time left) at the rate measured.  A whole level of
# 2,048 parents took 73 ms, and ran that far past a deadline that came while it was expanded.
FIRST_PARENTS = 16


class BeamSearch:
    """A beam search of one width, run level by level; see :func:`beam_solve`."""

    def __init__(self, start: np.ndarray, width: int, seed: int = 0, noise: int = 0, rate: float = 0.0):
        self.width = width
        self.rate = rate  # parents expanded a second, once measured
        self.rng = new_rng(seed)
        self.noise = noise
        self.boards: np.ndarray = start.reshape(1, COLOURS, WORDS).copy()  # of any shape: numpy 2.2's stubs give
        self.scores: np.ndarray = np.zeros(1, dtype=np.int64)  # a slice another type than the array it cuts
        self.history: list[tuple[np.ndarray, np.ndarray]] = []  # per level: (parent, cell)
        cap = width * MAX_GROUPS
        self._eval = np.zeros(cap, dtype=np.int64)
        self._score = np.zeros(cap, dtype=np.int64)
        self._parent = np.zeros(cap, dtype=np.int64)
        self._cell = np.zeros(cap, dtype=np.int64)
        self._hash = np.zeros(cap, dtype=np.uint64)
        self._moves = engine.new_moves()
        self._child_moves = engine.new_moves()
        self._child = engine.new_board()
        self._scratch = np.zeros(6, dtype=np.uint64)
        self.best_score = -1
        self.best_line: list[tuple[int, int]] = []
        self.done = False

    def _line(self, level: int, index: int) -> list[tuple[int, int]]:
        cells = []
        for parent, cell in reversed(self.history[:level]):
            cells.append(int(cell[index]))
            index = int(parent[index])
        return [(c >> 4, c & 15) for c in reversed(cells)]

    def step(self, deadline: float = math.inf) -> None:
        """Expand one level, unless ``deadline`` passes first: then the level is dropped, and the
        beam stays the last whole level's (its finished lines still count)."""
        n = len(self.scores)
        k, done, i, cut = 0, -1, 0, False
        while i < n and not cut:
            size = FIRST_PARENTS if self.rate == 0.0 else work_for_call(self.rate, deadline - time.monotonic(), 1, n)
            last = min(n, i + size)
            began = time.monotonic()
            k, done = expand(
                self.boards, self.scores, i, last, k, done, self._moves, self._child_moves, self._child,
                self._eval, self._score, self._parent, self._cell, self._hash, self.rng, self.noise,
            )
            self.rate = (last - i) / max(time.monotonic() - began, 1e-6)
            i = last
            cut = clock.now() >= deadline  # after the last call too: choosing the level takes a third as long
        if done >= 0 and self.scores[done] > self.best_score:
            self.best_score = int(self.scores[done])
            self.best_line = self._line(len(self.history), done)
        if cut:
            return
        if k == 0:
            self.done = True
            return
        w = min(self.width, k)
        boards = np.empty((w, COLOURS, WORDS), dtype=np.uint64)
        scores = np.empty(w, dtype=np.int64)
        parent = np.empty(w, dtype=np.int64)
        cell = np.empty(w, dtype=np.int64)
        kept = select(
            self.boards, k, w, self._eval, self._score, self._parent, self._cell, self._hash,
            boards, scores, parent, cell, self._scratch,
        )
        self.boards, self.scores = boards[:kept], scores[:kept]
        self.history.append((parent[:kept], cell[:kept]))

    def finish_greedily(self) -> None:
        """Complete the most promising unfinished line greedily (for an early stop)."""
        if self.done or len(self.scores) == 0:
            return
        i = int(np.argmax(self.scores))
        b = self.boards[i].copy()
        cells = np.zeros(MAX_GROUPS, dtype=np.int64)
        gained, count = greedy_finish(b, self._moves, cells)
        total = int(self.scores[i]) + int(gained)
        if total > self.best_score:
            self.best_score = total
            self.best_line = self._line(len(self.history), i) + [(int(c) >> 4, int(c) & 15) for c in cells[:count]]


def beam_solve(start: np.ndarray, deadline: float, *, seed: int = 0, on_improve=None, max_width: int = 1 << 16) -> Found:
    """Anytime beam search: widths 1, 2, 4, ... until ``deadline`` (time.monotonic()).

    Returns the best line found.  A width cut short by the
    deadline still contributes its best line, finished greedily.
    """
    best_score, best_line = -1, []
    width, rate = 1, 0.0
    while width <= max_width:
        search = BeamSearch(start, width, seed=seed * 7919 + width, noise=NOISE, rate=rate)
        while not search.done and clock.now() < deadline:
            search.step(deadline)
        rate = search.rate
        if not search.done:
            search.finish_greedily()
        if search.best_score > best_score:
            best_score, best_line = search.best_score, search.best_line
            if on_improve is not None:
                on_improve(best_score)
        if clock.now() >= deadline:
            break
        width *= 2
    return Found(best_score, best_line)
