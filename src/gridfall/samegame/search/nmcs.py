"""Nested Monte-Carlo Search (Cazenave 2009) for SameGame.

At each step a level-L search tries every legal move, scores it by a
level-(L-1) search from the position it leads to (level 0 is one tabu-colour
playout), and plays the next move of the best line seen so far, which it
remembers across steps so that a lucky line is never lost.

Level 1 is a numba kernel; higher levels are Python loops over level-1 calls,
which is where the deadline is checked.  When time runs out the best line
seen so far is a complete game, so the search is anytime.
"""

from __future__ import annotations


import numpy as np

from gridfall.jit import new_rng, njit
from gridfall.samegame import engine
from gridfall.samegame.engine import MAX_GROUPS, MOVE_FIELDS
from gridfall.samegame.search import clock
from gridfall.samegame.search.colours import most_common_colour
from gridfall.samegame.search.found import Found

MAX_MOVES = MAX_GROUPS


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
def level1(start, tabu, rng, best_seq):
    """A level-1 NMCS from start; returns (best score, length of best_seq)."""
    moves = np.zeros((MAX_GROUPS, MOVE_FIELDS), dtype=np.uint64)
    child_moves = np.zeros((MAX_GROUPS, MOVE_FIELDS), dtype=np.uint64)
    b = start.copy()
    child = start.copy()
    seq = np.zeros(MAX_MOVES, dtype=np.int64)
    best_score = -1
    best_len = 0
    score = 0
    played = 0
    while True:
        n = engine.list_moves(b, moves)
        if n == 0:
            break
        for j in range(n):
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
        # follow the best line one step
        cell = best_seq[played]
        for j in range(n):
            x, y = engine.canonical_cell(moves[j])
            if 16 * x + y == cell:
                score += engine.play_move(b, moves[j])
                break
        played += 1
    return best_score, best_len


class NMCS:
    """Nested Monte-Carlo Search of any level >= 1 with a deadline."""

    def __init__(self, start: np.ndarray, *, seed: int = 0, tabu: bool = True):
        self.start = start
        self.rng = new_rng(seed)
        self.tabu = most_common_colour(start) if tabu else -1
        self.best_score = -1
        self.best_line: list[tuple[int, int]] = []

    def search(self, b: np.ndarray, level: int, deadline: float) -> tuple[int, list[int]]:
        """Best (score, cells) of a level-``level`` search from b (score counted from b)."""
        if level == 1:
            seq = np.zeros(MAX_MOVES, dtype=np.int64)
            score, length = level1(b, self.tabu, self.rng, seq)
            return int(score), [int(c) for c in seq[:length]]
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
        return best_score, best_cells


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
