"""Match-3 players, each a ``suggest(board, boardNo, move, elapsed)`` like a CodeAbbey submission.

* ``plan``: two plies on the known board, growing one large cascade and cashing it
  when the board's share of the run's second is spent; most of the second goes to the
  largest board (pure Python, exportable: what ``gridfall match3 export`` writes);
* ``greedy``: the move removing the most jewels now (pure Python, exportable);
* ``fast``: the largest first explosion, lowest on the board, no cascade
  simulation: quick enough to play every move of a run in a second
  (pure Python, exportable);
* ``strong``: two-ply expectimax on the numba engine: every own move is
  simulated exactly, the refill it leads to is sampled (the generator's state
  is not the player's to know), and a move is worth its points plus the
  expected points of the best move after the refill; a board with no legal
  move left is worth nothing more.  It samples until it has 16 refills per
  move or half its budget per move is spent (8 at least, unless another pair of
  refills would pass the budget: a budget under the time of 8 is kept).
"""

from __future__ import annotations

import time

import numpy as np

from gridfall.jit import new_rng, njit
from gridfall.match3 import AGENTS, PORTABLE_AGENTS, engine, portable


class PortableAgent:
    """greedy, fast or plan from the portable module, with the same time schedule as an exported file."""

    def __init__(self, name: str, time_budget: float = 1.0, max_moves: int = 1000):
        self.name, self.time_budget, self.max_moves = name, time_budget, max_moves

    def suggest(self, board, board_no=1, move=1, elapsed=0.0):
        if self.name == "plan":
            choice = portable.plan_suggest(board, board_no, move, elapsed, self.time_budget)
            return choice if choice is not None else (1, 1, "Q")
        if move > self.max_moves or elapsed > self.time_budget * portable.SAFETY * board_no / 4.0:
            return 1, 1, "Q"
        choice = portable.greedy_move(board) if self.name == "greedy" else portable.fast_move(board)
        return choice if choice is not None else (1, 1, "Q")


@njit(nogil=True, cache=True)
def _sample_values(g, moves, count, samples, rng, values, after, work, marks, cascades, next_moves):
    """Add ``samples`` samples of each candidate's value to values[i] (sums, not means).

    after[i] holds candidate i's board after its own move (holes unfilled).
    """
    for i in range(count):
        for _ in range(samples):
            work[:, :] = after[i]
            engine.fill_random(work, rng)
            m = engine.legal_moves(work, next_moves)
            best = 0
            for j in range(m):
                trial = work.copy()
                removed = engine.play(trial, next_moves[j, 0], next_moves[j, 1], next_moves[j, 2], marks, cascades)
                if removed > best:
                    best = removed
            if best > 0:
                values[i] += 2.0 ** (best - 3)


class StrongAgent:
    """Two-ply expectimax with sampled refills; ``budget`` seconds per move."""

    name = "strong"

    def __init__(self, budget: float = 1.0, seed: int = 0, min_samples: int = 8, max_samples: int = 16):
        self.budget = budget
        self.rng = new_rng(seed)
        self.min_samples = min_samples
        self.max_samples = max_samples  # enough to rank the moves; the budget is a ceiling

    def suggest(self, board, board_no=1, move=1, elapsed=0.0):
        start = time.perf_counter()
        g = np.array([[ord(ch) - 65 for ch in row] for row in board], dtype=np.int8)
        n = g.shape[0]
        moves = engine.new_moves(n)
        count = engine.legal_moves(g, moves)
        if count == 0:
            return 1, 1, "Q"
        marks = np.zeros((n, n), dtype=np.bool_)
        cascades = np.zeros(64, dtype=np.int64)
        after = np.empty((count, n, n), dtype=np.int8)
        own = np.empty(count, dtype=np.float64)
        for i in range(count):
            after[i] = g
            own[i] = 2.0 ** (engine.play(after[i], moves[i, 0], moves[i, 1], moves[i, 2], marks, cascades) - 3)
        values = np.zeros(count, dtype=np.float64)
        work = np.empty((n, n), dtype=np.int8)
        next_moves = engine.new_moves(n)
        samples = 0
        batch = 2
        while True:
            _sample_values(g, moves, count, batch, self.rng, values, after, work, marks, cascades, next_moves)
            samples += batch
            if samples >= self.max_samples:
                break
            spent = time.perf_counter() - start
            if samples >= self.min_samples and spent > self.budget * 0.5:
                break  # another batch would take about as long again
            # a budget too small for min_samples: one batch more would pass it (a batch takes as
            # long as the batches so far did on average), so answer from what is sampled
            if spent * (samples + batch) / samples > self.budget:
                break
        best = int(np.argmax(own + values / samples))
        r, c, d = moves[best]
        return int(c) + 1, int(r) + 1, "RD"[int(d)]


def make_agent(name: str, *, budget: float = 1.0, seed: int = 0, time_budget: float = 1.0):
    """An agent from its name (one of AGENTS)."""
    if name in PORTABLE_AGENTS:
        return PortableAgent(name, time_budget=time_budget)
    if name == "strong":
        return StrongAgent(budget=budget, seed=seed)
    raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
