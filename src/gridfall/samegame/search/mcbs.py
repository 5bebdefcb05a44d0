"""Monte Carlo beam search (after Cazenave 2012) for SameGame.

A beam search whose children are ranked by their score plus the best of
``playouts`` tabu-colour random playouts from them: the playouts say how much
a position still holds (chiefly, whether the tabu colour can still gather into
one big group), which no cheap static evaluation says as well.  Every playout
is a complete game, so the best one seen is remembered with its moves and the
search is anytime from its first level.

It finds good lines sooner than NRPA and different ones, so :func:`solve`'s
``auto`` runs it first and NRPA after (``benchmarks/samegame_search.py``).
"""

from __future__ import annotations

import time

import numpy as np

from gridfall.jit import new_rng, njit
from gridfall.samegame import engine
from gridfall.samegame.engine import COLOURS, MAX_GROUPS, WORDS
from gridfall.samegame.search import clock
from gridfall.samegame.search.clock import work_for_call
from gridfall.samegame.search.beam import select
from gridfall.samegame.search.colours import most_common_colour
from gridfall.samegame.search.found import Found
from gridfall.samegame.search.nmcs import tabu_playout
from gridfall.samegame.search.ranges import MCBS_WIDEST


@njit(nogil=True, cache=True)
def expand(parents, scores, i, j, hi, budget, k, moves, playout_moves, child, work, out_eval, out_score, out_parent,
           out_cell, out_hash, tabu, playouts, rng, best, best_cells, seq):
    """Children of parents[i:hi], from move ``j`` of parent ``i`` on, ranked by score + best
    playout and written from index k on, until about ``budget`` playouts are spent.

    best = [score, parent, cell, playout length] of the best complete game
    seen (parent -1: a finished parent itself); its playout moves go to
    best_cells.  Returns (children written so far, the parent and move to go on from):
    the parent is ``hi`` when the level is done.
    """
    spent = 0
    while i < hi:
        m = engine.list_moves(parents[i], moves)  # the same order when a parent is taken up again
        if m == 0 and scores[i] > best[0]:
            best[0], best[1], best[2], best[3] = scores[i], i, -1, 0
        while j < m:
            child[:, :] = parents[i]
            s = scores[i] + engine.play_move(child, moves[j])
            x, y = engine.canonical_cell(moves[j])
            cell = 16 * x + y
            top = 0
            for _ in range(playouts):
                work[:, :] = child
                rest, length = tabu_playout(work, tabu, rng, playout_moves, seq, 0)
                if rest > top:
                    top = rest
                if s + rest > best[0]:
                    best[0], best[1], best[2], best[3] = s + rest, i, cell, length
                    best_cells[:length] = seq[:length]
            out_score[k] = s
            out_eval[k] = s + top
            out_parent[k] = i
            out_cell[k] = cell
            out_hash[k] = engine.board_hash(child)
            k += 1
            j += 1
            spent += playouts
            if spent >= budget:
                if j == m:
                    i, j = i + 1, 0
                return k, i, j
        i, j = i + 1, 0
    return k, i, j


# Playouts between two looks at the clock (tens of milliseconds): a level at width 64 is
# thousands of playouts, and one child may be given thousands (``playouts``).  Fewer when the
# time left is shorter, by the rate measured: a call of 1024 ran 20 ms past a deadline 5 ms
# away.  The split does not change the search: expand goes on from the child it stopped at.
PLAYOUTS_PER_CHECK = 1024
FIRST_CHECK = 64  # the playouts of the first call, before any rate is measured (the rate outlives a run)


def mcbs_solve(start: np.ndarray, deadline: float, *, seed: int = 0, on_improve=None, width: int = 64,
               playouts: int = 4, widen: bool = True, max_runs: int | None = None) -> Found:
    """Monte Carlo beam search until ``deadline``.

    A finished search starts again, four times wider if that fits in the time
    left (``widen``), else as wide with a new seed.  With ``max_runs`` (a budget of work, so
    that the same seed gives the same line on any machine fast enough) it stops after that many
    runs, and widening does not look at the clock: each run is four times wider (``widen``) or
    as wide.
    """
    rng = new_rng(seed)
    tabu = most_common_colour(start)
    moves, playout_moves = engine.new_moves(), engine.new_moves()
    child, work = engine.new_board(), engine.new_board()
    scratch = np.zeros(6, dtype=np.uint64)
    seq = np.zeros(MAX_GROUPS, dtype=np.int64)
    best_cells = np.zeros(MAX_GROUPS, dtype=np.int64)
    best_score, best_line = -1, []
    run = 0
    rate = 0.0  # playouts a second, once measured
    while True:
        run_started = time.monotonic()
        boards: np.ndarray = start.reshape(1, COLOURS, WORDS).copy()  # of any shape: numpy 2.2's stubs give
        scores: np.ndarray = np.zeros(1, dtype=np.int64)  # a slice another type than the array it cuts
        history: list[tuple[np.ndarray, np.ndarray]] = []
        cap = width * MAX_GROUPS
        evals, child_scores = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
        parents, cells = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
        hashes = np.zeros(cap, dtype=np.uint64)
        best = np.array([best_score, -1, -1, 0], dtype=np.int64)
        out_of_time = False
        while not out_of_time:
            # expand the level a budget of playouts at a time, looking at the clock between,
            # so the deadline holds mid-level and even mid-parent
            k, i, j = 0, 0, 0
            while i < len(scores):
                left = deadline - time.monotonic()
                budget = FIRST_CHECK if rate == 0.0 else work_for_call(rate, left, 1, PLAYOUTS_PER_CHECK)
                began = time.monotonic()
                k, i, j = expand(boards, scores, i, j, len(scores), budget, k, moves, playout_moves,
                                 child, work, evals, child_scores, parents, cells, hashes, tabu, playouts, rng, best,
                                 best_cells, seq)
                if i < len(scores):  # it stopped at its budget: a level that ended sooner spent less
                    rate = budget / max(time.monotonic() - began, 1e-6)
                out_of_time = clock.now() >= deadline and best[0] >= 0  # best[0] starts at best_score
                if out_of_time:
                    break
            if best[0] > best_score:
                # the path to the parent, then the child's move, then the playout
                index, prefix = int(best[1]), []
                for level_parent, level_cell in reversed(history):
                    prefix.append(int(level_cell[index]))
                    index = int(level_parent[index])
                line = prefix[::-1] + ([int(best[2])] if best[2] >= 0 else []) + [int(c) for c in best_cells[: best[3]]]
                best_score, best_line = int(best[0]), [(c >> 4, c & 15) for c in line]
                if on_improve is not None:
                    on_improve(best_score)
            if k == 0 or out_of_time:
                break
            w = min(width, k)
            next_boards = np.empty((w, COLOURS, WORDS), dtype=np.uint64)
            next_scores, level_parent, level_cell = (np.empty(w, dtype=np.int64) for _ in range(3))
            kept = select(boards, k, w, evals, child_scores, parents, cells, hashes, next_boards, next_scores,
                          level_parent, level_cell, scratch)
            boards, scores = next_boards[:kept], next_scores[:kept]
            history.append((level_parent[:kept], level_cell[:kept]))
        now = clock.now()
        if now >= deadline or (max_runs is not None and run + 1 >= max_runs):
            return Found(best_score, best_line)
        # widen only if a run four times wider (about four times longer) fits in the time left
        if widen and (max_runs is not None or 4 * (now - run_started) < deadline - now):
            width = min(4 * width, MCBS_WIDEST)
        run += 1
        rng = new_rng(seed * 1_000_003 + run)
