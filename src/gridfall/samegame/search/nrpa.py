"""Nested Rollout Policy Adaptation (Rosin 2011) for SameGame.

A level-0 search is one playout that samples each move with probability
proportional to ``exp(policy[code(move)]) * exp(bias * (size - 2))``.  A
level-L search runs ``iterations`` level-(L-1) searches, each from a copy of
its own policy, keeps the best line and after each one *adapts* its policy
towards that line: the weight of every move of the line grows by ``alpha``
and the weight of every alternative shrinks by ``alpha`` times its probability.

SameGame specifics:

* a move is coded by the exact group it removes (its cells and colour, hashed
  into a table of ``2**POLICY_BITS`` weights), so a group that survives many
  moves keeps its weight;
* the tabu colour (the most common colour of the start position) is never
  played while another move exists, so that it can gather into one big group;
  more generally the ``protect`` most common colours are played last, the most
  common very last (:func:`colour_ranks`);
* ``spare=2`` lets the kept colours give up their pairs at any time (the
  selective policy of Cazenave 2016; it pays offline, not at 20 s);
* ``colour_rate > 0`` also learns one weight per colour and phase of the game
  (moves 0-7, 8-15, ...), added to each move's code weight and adapted at
  ``colour_rate`` times ``alpha``: what NRPA learns about a group is lost when
  the group gains a cell, what it learns about playing a colour early carries
  over (it learns which colours to gather, a soft tabu of its own; ``portfolio.nrpa_solve``
  uses 0.3 unless told otherwise, the :class:`NRPA` class 0);
* ``favour > 0`` makes the search climb a shaped score in which the points
  of the most common colour not kept back (the ``favour_rank``-th most common
  of them, 0 first) count ``1 + favour`` times (:func:`colour_gains`): lines
  that gather a second colour win the adaptation more often, while the best
  line by *true* score is tracked apart and is what a search reports (offline);
* the bias (GNRPA, Cazenave 2020) leans playouts towards larger groups;
* a search can continue from a line found before: :meth:`NRPA.replay` records the
  line as a playout would have, and a search one level up starts from it.

Which colours to keep for last, and how to share the time between such choices, is
:mod:`gridfall.samegame.search.portfolio`; the colour facts are :mod:`~gridfall.samegame.search.colours`.

The trick that makes it fast: a playout *records* every step's candidate moves
(codes and prior weights) in a :data:`Line`, so adapting towards a line is arithmetic
on that record, with no move generation.  Adaptation then costs a fraction of
a playout instead of as much again.

Level 1 is a numba kernel, called some iterations at a time (about 20 ms of
them, fewer as the deadline nears: its state is in arrays and four numbers, so
the split changes nothing); level 2 and up are Python loops over level-1
searches.  Deadlines are checked between kernel calls.  Kernels release the
GIL, so independent searches run in parallel threads.
"""

from __future__ import annotations

import math
import time
from collections import namedtuple

import numpy as np

from gridfall.jit import new_rng, njit, uint64, uniform
from gridfall.samegame import engine, rules
from gridfall.samegame.engine import CODE, COLOUR, MAX_GROUPS, SIZE
from gridfall.samegame.search import clock
from gridfall.samegame.search.clock import work_for_call
from gridfall.samegame.search.colours import colour_gains, colour_ranks

POLICY_BITS = 16
POLICY_MASK = uint64((1 << POLICY_BITS) - 1)
# With colour_rate > 0, each candidate also has a weight for its colour in the
# current phase of the game (moves 0-7, 8-15, ..., 56 on), stored past the codes.
PHASE_MOVES = 8
PHASES = 8
FEATURE_BASE = 1 << POLICY_BITS
MAX_MOVES = MAX_GROUPS  # longest possible game: 225 cells, two a move
MAX_CANDIDATES = MAX_MOVES * MAX_GROUPS
# Iterations of a search's first level-1 call, before its rate is measured (about 0.4 ms from a
# full board).  A whole level-1 search, 100 iterations, took about 5 ms, and with three stages and
# the rescue stage's choice, NRPA given 5 ms took 26.
FIRST_ITERATIONS = 8

# A recorded line: step t played cells[t] (16x+y) whose policy index is
# chosen[t] (colour-phase index chosen_features[t]); its candidates are
# codes[offsets[t]:offsets[t+1]], each with its colour-phase index (features,
# same slice) and the prior weight it was sampled with (priors): bias and soft tabu.
Line = namedtuple("Line", "cells chosen codes priors offsets features chosen_features")


def new_line() -> Line:
    return Line(
        np.zeros(MAX_MOVES, dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.int64),
        np.zeros(MAX_CANDIDATES, dtype=np.int64),
        np.zeros(MAX_CANDIDATES, dtype=np.float64),
        np.zeros(MAX_MOVES + 1, dtype=np.int64),
        np.zeros(MAX_CANDIDATES, dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.int64),
    )


def new_policy() -> np.ndarray:
    """Row 0: the weights (logits); row 1: their exponentials, kept in step.
    Codes first, then the colour-phase weights (FEATURE_BASE on)."""
    policy = np.zeros((2, FEATURE_BASE + engine.COLOURS * PHASES), dtype=np.float64)
    policy[1, :] = 1.0
    return policy


def bias_table(bias: float) -> np.ndarray:
    """exp(bias * (size - 2)) for every group size, looked up instead of computed."""
    sizes = np.arange(226, dtype=np.float64)
    return np.exp(np.minimum(bias * (sizes - 2.0), 600.0))


@njit(nogil=True, cache=True)
def copy_line(src, dst, length):
    n = src.offsets[length]
    dst.cells[:length] = src.cells[:length]
    dst.chosen[:length] = src.chosen[:length]
    dst.codes[:n] = src.codes[:n]
    dst.priors[:n] = src.priors[:n]
    dst.offsets[: length + 1] = src.offsets[: length + 1]
    dst.features[:n] = src.features[:n]
    dst.chosen_features[:length] = src.chosen_features[:length]


@njit(inline="always")
def _lowest_rank(moves, n, ranks):
    """The lowest colour rank among the n listed moves: its moves are the candidates."""
    lowest = 1 << 30
    for j in range(n):
        lowest = min(lowest, ranks[moves[j, COLOUR]])
    return lowest


@njit(inline="always")
def _feature(moves, j, step):
    """The policy index of a listed move's colour in the phase of the game at ``step``."""
    return FEATURE_BASE + moves[j, COLOUR] * PHASES + min(step // PHASE_MOVES, PHASES - 1)


@njit(inline="always")
def _prior(moves, j, ranks, lowest, soft, spare, biases):
    """A listed move's prior weight: its size bias, times ``soft`` off the lowest rank
    (0 there with a hard tabu: no candidate).  A kept colour's groups of at most
    ``spare`` cells count as the lowest rank's: see :func:`playout`."""
    rank = ranks[moves[j, COLOUR]]
    factor = 1.0 if rank == lowest or (rank > 0 and moves[j, SIZE] <= spare) else soft
    return biases[moves[j, SIZE]] * factor


@njit(inline="always")
def _shaped_extra(moves, j, gains):
    """What a listed move adds to the shaped score beyond its points (0 when its colour's gain is 1)."""
    size = moves[j, SIZE]
    return (gains[moves[j, COLOUR]] - 1.0) * (size - 2) * (size - 2)


@njit(nogil=True, cache=True)
def playout(start, policy, ranks, soft, spare, biases, gains, rng, moves, b, seeds, weights, line):
    """One policy playout from start, recorded in line; returns (score, shaped score, length).

    The shaped score, which the search climbs, weights each group's points by
    ``gains[colour]`` (the clear bonus as it is): the score when all gains are 1.

    Moves of the lowest colour rank present are candidates (ranks[c]: 0 for
    free colours, higher for protected ones: the tabu colour last).  With
    ``soft > 0`` the others are candidates too, their weight multiplied by
    ``soft`` (a soft tabu that the policy can learn to overrule).

    ``spare=2`` lets a kept colour's pairs be played at any time (the
    selective policy of Cazenave 2016): a pair adds nothing to the big group
    the colour is kept for, and taking a stray one can join the groups of
    other colours around it.
    """
    b[:, :] = start
    score = 0
    shaped = 0.0
    length = 0
    at = 0
    line.offsets[0] = 0
    n = engine.list_moves(b, moves)
    while n:
        lowest = _lowest_rank(moves, n, ranks)
        z = 0.0
        first = at
        for j in range(n):
            prior = _prior(moves, j, ranks, lowest, soft, spare, biases)
            if prior == 0.0:
                weights[j] = 0.0
                continue
            code = np.int64(moves[j, CODE] & POLICY_MASK)
            feature = _feature(moves, j, length)
            line.codes[at] = code
            line.features[at] = feature
            line.priors[at] = prior
            at += 1
            weights[j] = policy[1, code] * policy[1, feature] * prior
            z += weights[j]
        if not 0.0 < z < math.inf:
            # weights past a float's range (alpha far past its use: exp overflowed or underflowed,
            # perhaps to inf * 0): no sample is defined, and pick -1 would write past the arrays,
            # so every candidate gets an even chance
            z = 0.0
            for j in range(n):
                weights[j] = 1.0 if _prior(moves, j, ranks, lowest, soft, spare, biases) != 0.0 else 0.0
                z += weights[j]
        r = uniform(rng) * z
        pick = -1
        k = first - 1
        for j in range(n):
            if weights[j] > 0.0:
                k += 1
                pick = j
                r -= weights[j]
                if r < 0.0:
                    break
        x, y = engine.canonical_cell(moves[pick])
        line.cells[length] = 16 * x + y
        line.chosen[length] = line.codes[k]
        line.chosen_features[length] = line.features[k]
        length += 1
        line.offsets[length] = at
        shaped += _shaped_extra(moves, pick, gains)
        gained, n = engine.play_listed(b, moves, n, pick, seeds)
        score += gained
        shaped += gained
    return score, shaped, length


@njit(nogil=True, cache=True)
def replay(start, cells, ranks, soft, spare, biases, gains, moves, b, seeds, line):
    """Record a given line (cells as 16x+y) as a playout would have: candidates, priors, choices.

    Returns (score, shaped score, length), or (-1, 0, t) when move t is no candidate a playout
    could pick: not a group, or a colour the ranks keep for later.
    """
    b[:, :] = start
    score = 0
    shaped = 0.0
    at = 0
    line.offsets[0] = 0
    n = engine.list_moves(b, moves)
    for t in range(cells.shape[0]):
        bit = cells[t]
        w, mask = bit >> 6, uint64(1) << uint64(bit & 63)
        lowest = _lowest_rank(moves, n, ranks)
        pick = -1
        for j in range(n):
            prior = _prior(moves, j, ranks, lowest, soft, spare, biases)
            if prior == 0.0:
                continue
            code = np.int64(moves[j, CODE] & POLICY_MASK)
            line.codes[at] = code
            line.features[at] = _feature(moves, j, t)
            line.priors[at] = prior
            if moves[j, w] & mask:
                pick = j
                line.chosen[t] = code
                line.chosen_features[t] = line.features[at]
            at += 1
        if pick < 0:
            return -1, 0.0, t
        x, y = engine.canonical_cell(moves[pick])
        line.cells[t] = 16 * x + y
        line.offsets[t + 1] = at
        shaped += _shaped_extra(moves, pick, gains)
        gained, n = engine.play_listed(b, moves, n, pick, seeds)
        score += gained
        shaped += gained
    return score, shaped, cells.shape[0]


@njit(nogil=True, cache=True)
def adapt(policy, line, length, alpha, colour_rate, idx, delta):
    """Move the policy towards a recorded line (probabilities from the old policy);
    the colour-phase weights move ``colour_rate`` times as far as the codes'."""
    k = 0
    for step in range(length):
        lo, hi = line.offsets[step], line.offsets[step + 1]
        z = 0.0
        for t in range(lo, hi):
            z += policy[1, line.codes[t]] * policy[1, line.features[t]] * line.priors[t]
        # weights past a float's range (see playout) define no probabilities: then only the
        # chosen move's weight grows
        scale = -alpha / z if 0.0 < z < math.inf else 0.0
        for t in range(lo, hi if scale != 0.0 else lo):
            share = scale * policy[1, line.codes[t]] * policy[1, line.features[t]] * line.priors[t]
            idx[k] = line.codes[t]
            delta[k] = share
            k += 1
            if colour_rate > 0.0:
                idx[k] = line.features[t]
                delta[k] = share * colour_rate
                k += 1
        idx[k] = line.chosen[step]
        delta[k] = alpha
        k += 1
        if colour_rate > 0.0:
            idx[k] = line.chosen_features[step]
            delta[k] = alpha * colour_rate
            k += 1
    # A group is a candidate at many steps of a line: update its exponential
    # once, marking it stale with -1 (an exponential is never negative).
    for t in range(k):
        policy[0, idx[t]] += delta[t]
        policy[1, idx[t]] = -1.0
    for t in range(k):
        if policy[1, idx[t]] < 0.0:
            policy[1, idx[t]] = math.exp(policy[0, idx[t]])


@njit(nogil=True, cache=True)
def level1(start, policy, ranks, soft, spare, biases, gains, alpha, colour_rate, iterations, best_score, best_len,
           true_score, true_len, rng, best, current, true_best, moves, b, seeds, weights, idx, delta):
    """``iterations`` more of a level-1 search (adapts ``policy`` in place), which has found so
    far the best shaped score ``best_score`` (its line in ``best``, ``best_len`` long) and the
    best true score ``true_score`` (its cells in ``true_best``); -1.0, 0, -1, 0 to begin.

    Returns (best shaped score, its length, best true score, its length).
    """
    for _ in range(iterations):
        score, shaped, length = playout(start, policy, ranks, soft, spare, biases, gains, rng, moves, b, seeds, weights, current)
        if score > true_score:  # the true score, kept apart from what the search climbs
            true_score = score
            true_len = length
            true_best.cells[:length] = current.cells[:length]
        if shaped >= best_score:
            best_score = shaped
            best_len = length
            copy_line(current, best, length)
        adapt(policy, best, best_len, alpha, colour_rate, idx, delta)
    return best_score, best_len, true_score, true_len


class NRPA:
    """One NRPA search thread over a start position, with its own seed and scratch."""

    def __init__(self, start: np.ndarray, *, seed: int = 0, iterations: int = 100, alpha: float = 1.0,
                 bias: float = 0.0, protect: int = 1, tabu_rank: int = 0, soft: float = 0.0, spare: int = 0, colour_rate: float = 0.0,
                 favour: float = 0.0, favour_rank: int = 0, on_improve=None, max_playouts: float = math.inf):
        self.start = start
        self.rng = new_rng(seed)
        self.iterations = iterations
        self.alpha = alpha
        self.biases = bias_table(bias)
        self.ranks = colour_ranks(start, protect, tabu_rank)
        self.soft = soft
        self.spare = spare
        self.colour_rate = colour_rate
        self.gains = colour_gains(start, self.ranks, favour, favour_rank)
        self._true = new_line()  # the best line by true score, where the search climbs the shaped one
        self.on_improve = on_improve
        self.max_playouts = max_playouts  # a work budget, for reproducible experiments
        self.best_score = -1
        self.best_line: list[tuple[int, int]] = []
        self.playouts = 0
        self.rate = 0.0  # level-1 iterations a second, once measured
        self._moves = engine.new_moves()
        self._board = engine.new_board()
        self._seeds = engine.new_scratch()
        self._weights = np.zeros(MAX_GROUPS, dtype=np.float64)
        self._idx = np.zeros(2 * (MAX_CANDIDATES + MAX_MOVES), dtype=np.int64)  # codes and colour-phase weights
        self._delta = np.zeros(2 * (MAX_CANDIDATES + MAX_MOVES), dtype=np.float64)
        self._current = new_line()
        self._spare: dict[int, Line] = {}  # one best line per level, made when first needed
        self._policies: dict[int, np.ndarray] = {}  # one working policy per level, reused

    def _record(self, score: int, line: Line, length: int) -> None:
        if score > self.best_score:
            self.best_score = int(score)
            self.best_line = [(int(c) >> 4, int(c) & 15) for c in line.cells[:length]]
            if self.on_improve is not None:
                self.on_improve(self.best_score)

    def _out_of_budget(self, deadline: float) -> bool:
        return self.best_score >= 0 and (clock.now() >= deadline or self.playouts >= self.max_playouts)

    def replay(self, moves: list[tuple[int, int]]) -> tuple[float, Line, int] | None:
        """A given line recorded as this search's playouts would have played it, as
        (shaped score, line, length); None if they never could (a move this search's
        colour ranks keep for later, or no group).  Its true score is recorded."""
        if not all(0 <= x < rules.WIDTH and 0 <= y < rules.HEIGHT for x, y in moves):
            return None
        cells = np.array([16 * x + y for x, y in moves], dtype=np.int64)
        line = new_line()
        score, shaped, length = replay(self.start, cells, self.ranks, self.soft, self.spare, self.biases, self.gains,
                               self._moves, self._board, self._seeds, line)
        if score < 0:
            return None
        self._record(score, line, length)
        return shaped, line, length

    def run(self, level: int, policy: np.ndarray, deadline: float,
            known: tuple[float, Line, int] | None = None) -> tuple[float, Line, int]:
        """A level-``level`` search (>= 1) that stops early at ``deadline``; adapts ``policy``.

        ``known`` (shaped score, line, length), for level 2 and up, is a line to
        start from as if this level's first iteration had found it.  Returns (best
        shaped score, its recorded line, its length); the best true score and line
        so far are in ``best_score`` and ``best_line``.  A level-1 search is cut at the
        deadline after one iteration or more (its best line is a whole game), so the
        deadline is met to within one kernel call, sized to the time left.
        """
        if level not in self._spare:
            self._spare[level] = new_line()
        best = self._spare[level]
        if level == 1:
            found, done = (-1.0, 0, -1, 0), 0  # best shaped score, its length, best true score, its length
            while done < self.iterations:
                size = (FIRST_ITERATIONS if self.rate == 0.0 else
                        work_for_call(self.rate, deadline - time.monotonic(), 1, self.iterations))
                size = min(size, self.iterations - done)
                began = time.monotonic()
                found = level1(self.start, policy, self.ranks, self.soft, self.spare, self.biases, self.gains,
                               self.alpha, self.colour_rate, size, *found, self.rng, best, self._current, self._true,
                               self._moves, self._board, self._seeds, self._weights, self._idx, self._delta)
                self.rate = size / max(time.monotonic() - began, 1e-6)
                done += size
                if clock.now() >= deadline:
                    break
            self.playouts += done
            score, length, true_score, true_len = found
            self._record(true_score, self._true, true_len)
            return score, best, length
        best_score, best_len = -1.0, 0
        if known is not None:
            best_score, best_len = known[0], known[2]
            copy_line(known[1], best, best_len)
            adapt(policy, best, best_len, self.alpha, self.colour_rate, self._idx, self._delta)
        for _ in range(self.iterations):
            if self._out_of_budget(deadline):
                break
            if level - 1 not in self._policies:
                self._policies[level - 1] = new_policy()
            child = self._policies[level - 1]
            child[:, :] = policy  # the child starts from this level's policy (copied, not allocated)
            score, line, length = self.run(level - 1, child, deadline)
            if score >= best_score:
                best_score, best_len = score, length
                copy_line(line, best, length)
            adapt(policy, best, best_len, self.alpha, self.colour_rate, self._idx, self._delta)
        return best_score, best, best_len
