"""NRPA's colour strategy: which colours each search keeps for last, and how the time is shared.

Which colour is kept for last decides whether a board can be cleared, so :func:`nrpa_solve`
shares its time over a portfolio of colour choices (:data:`TABU_PORTFOLIO`) and answers with
the best line of any:

* a colour :data:`LEAD` cells ahead of every other is kept for last with the whole portfolio's
  time;
* the last share of the time (:data:`RESCUE_SHARE`) tries a third choice if no line so far
  cleared the board, and otherwise continues from the best line;
* a search can continue from a line found before (``guide``, such as the store's best): the
  colour choice whose playouts could have played it starts one level up from it.

The NRPA algorithm itself is :mod:`gridfall.samegame.search.nrpa`.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np

from gridfall.samegame import engine
from gridfall.samegame.search.colours import colour_lead
from gridfall.samegame.search.found import Found
from gridfall.samegame.search.nrpa import NRPA, new_policy

STAGE_SEED_STEP = 7919  # seeds of a portfolio's later stages: seed + k * STAGE_SEED_STEP


def can_play(start: np.ndarray, moves: list[tuple[int, int]], tabu_rank: int, protect: int = 1, spare: int = 0) -> bool:
    """Could playouts with this colour choice have played ``moves``?"""
    return NRPA(start, protect=protect, tabu_rank=tabu_rank, spare=spare).replay(moves) is not None


def tabu_rank_of(start: np.ndarray, moves: list[tuple[int, int]], protect: int = 1, spare: int = 0) -> int | None:
    """The colour choice (``tabu_rank``) whose playouts could have played ``moves``, or None."""
    return next((rank for rank in range(start.shape[0]) if can_play(start, moves, rank, protect, spare)), None)


# (tabu_rank, share of the budget), searched one after the other: the second
# most common colour kept for last clears boards the most common never does.
TABU_PORTFOLIO = ((0, 0.6), (1, 0.4))

# A colour this many cells ahead of every other is kept for last with the whole
# portfolio's time: on such a board (standard 6, 9 and 16-20, with 65 cells of
# one colour against 40) keeping a smaller colour for last rarely pays.
LEAD = 15

# The share of the budget held back from the portfolio, to rescue a board that
# neither choice cleared with a third one (the third most common colour kept for
# last); once a choice has cleared it, the same time continues from its best line.
RESCUE_SHARE = 0.15


def clears(start: np.ndarray, line: list[tuple[int, int]]) -> bool:
    """Does ``line`` clear the board?  Replayed on the engine: the rules' replay took 3 ms, which
    the rescue stage's choice spent past a short deadline."""
    b, scratch = start.copy(), np.zeros(6, dtype=np.uint64)
    for x, y in line:
        engine.play_xy(b, x, y, scratch)
    return bool(engine.is_cleared(b))


def nrpa_solve(start: np.ndarray, deadline: float, *, seed: int = 0, on_improve=None, level: int = 3, iterations: int = 100,
               alpha: float = 1.0, bias: float = 0.3, protect: int = 1, tabu_rank: int | None = None,
               soft: float = 0.0, spare: int = 0, colour_rate: float = 0.3, max_runs: int | None = None, max_playouts: float = math.inf,
               guide: list[tuple[int, int]] | None = None, favour: float = 0.0, favour_rank: int = 0,
               rescue: float = RESCUE_SHARE, lead: float = LEAD):
    """Run level-``level`` NRPA searches, restarting each time one completes, until ``deadline``
    (or ``max_playouts`` playouts, or ``max_runs`` complete runs).

    ``tabu_rank=None`` shares the budget over the colour choices of
    :data:`TABU_PORTFOLIO` (each gets its share of the time and of
    ``max_playouts``, and ``max_runs`` runs) and keeps ``rescue`` of it for
    a last stage (:data:`RESCUE_SHARE`): the next colour choice if no line
    so far clears the board, else a continuation of the best line.  When
    the most common colour has at least ``lead`` cells more than any other
    (:data:`LEAD`), the portfolio is that colour kept for last alone, the
    rescue stage as before.  An int ``tabu_rank`` searches that one choice
    only, with the whole budget.

    ``guide`` continues from a line found before (a stored best): a colour
    choice whose playouts could have played it first runs one
    level-``level + 1`` search that starts from it, so each level-``level``
    run begins from a policy drawn further towards the best line so far.  The
    answer is never worse than the guide; a colour choice that could not have
    played it searches as usual.

    ``colour_rate`` defaults to 0.3 here (docs/samegame-experiments.md has why); pass 0 for
    plain NRPA.

    Returns the best line and the playouts of all stages.
    """
    if not 0 <= rescue < 1:
        raise ValueError(f"rescue must be a share of the budget in [0, 1), not {rescue}")
    if tabu_rank is not None:
        rescue = 0.0
    portfolio: tuple[tuple[int, float], ...]
    if tabu_rank is not None:
        portfolio = ((tabu_rank, 1.0),)
    elif colour_lead(start) >= lead:
        portfolio = ((0, 1.0),)
    else:
        portfolio = TABU_PORTFOLIO
    shares = [share * (1 - rescue) for _, share in portfolio] + ([rescue] if rescue else [])
    ends = list(itertools.accumulate(shares))  # of the budget, per stage
    started = time.monotonic()
    reported = [-1]
    rate = [0.0]  # level-1 iterations a second: a stage's first call is sized by the last stage's

    def improved(score: int) -> None:  # report only what beats every stage so far
        if score > reported[0]:
            reported[0] = score
            if on_improve is not None:
                on_improve(score)

    def search_stage(stage: int, rank: int, line) -> NRPA:
        """Stage ``stage``'s searches with colour choice ``rank``, continuing from ``line`` if its
        playouts could play it; the last stage runs to the deadline itself."""
        last = stage == len(shares) - 1
        stage_deadline = deadline if last or math.isinf(deadline) else started + ends[stage] * (deadline - started)
        search = NRPA(start, seed=seed + STAGE_SEED_STEP * stage, iterations=iterations, alpha=alpha, bias=bias,
                      protect=protect, tabu_rank=rank, soft=soft, spare=spare, colour_rate=colour_rate, on_improve=improved,
                      max_playouts=shares[stage] * max_playouts, favour=favour, favour_rank=favour_rank)
        search.rate = rate[0]  # at 5 ms, three stages' unmeasured first calls ran 10 ms past it
        runs = 0
        known = search.replay(line) if line else None
        if known is not None:
            search.run(level + 1, new_policy(), stage_deadline, known)
            runs += 1
        while not search._out_of_budget(stage_deadline) and (max_runs is None or runs < max_runs):
            search.run(level, new_policy(), stage_deadline)
            runs += 1
        rate[0] = search.rate
        return search

    best_score, best_line, best_rank = -1, [], 0
    playouts = 0
    for stage, (rank, _) in enumerate(portfolio):
        search = search_stage(stage, rank, guide)
        playouts += search.playouts
        if search.best_score > best_score:
            best_score, best_line, best_rank = search.best_score, search.best_line, rank
    if rescue:
        cleared = clears(start, best_line)
        rank, line = (best_rank, best_line) if cleared else (len(portfolio), guide)
        search = search_stage(len(portfolio), rank, line)
        playouts += search.playouts
        if search.best_score > best_score:
            best_score, best_line = search.best_score, search.best_line
    return Found(best_score, best_line, playouts)
