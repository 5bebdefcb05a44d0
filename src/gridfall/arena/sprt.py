"""A sequential probability ratio test on game pairs, in pentanomial form (as fishtest counts them).

Two engines play pairs of games from one opening, seats swapped.  A pair scores 0, 1/2, 1, 3/2 or
2 points for the new engine: the pentanomial counts are how many pairs fell in each of the five
(LL, LD+DL, LW+DD+WL, DW+WD, WW).  Counting pairs rather than games removes the opening's bias
from the variance, so the test decides sooner.

The test is the generalised SPRT (GSPRT): for each hypothesis, Elo ``elo0`` and ``elo1``, take the
pentanomial distribution of largest likelihood whose mean score is that Elo's expected score
(logistic: ``1 / (1 + 10^(-elo/400))``), and add up the log-likelihood ratio of the pairs played.
Wald's bounds, ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``, stop the test: H1 (the
new engine is ``elo1`` better) is accepted above the upper one, H0 below the lower one.

The distribution of largest likelihood with a given mean ``s`` is ``p_i = q_i / (1 + lam (a_i - s))``,
``q`` the observed frequencies and ``a_i`` the five scores per game (0, 1/4, 1/2, 3/4, 1): the
Lagrange condition of maximising ``sum q log p`` under ``sum p = 1`` and ``sum p a = s``.  ``lam`` is
found by bisection (the condition is monotone in it).  As in fishtest, every empty cell first
gets a small count (``PSEUDO``), so that such a distribution exists for any mean in (0, 1) and
both hypotheses are judged on the same frequencies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from gridfall.arena.elo import MatchScore, elo_interval_of, elo_text

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's points per game, by pentanomial cell
PSEUDO = 1e-3  # the count an empty cell gets (fishtest's regularisation)
# The hypotheses' Elo lie within +-ELO_LIMIT: an expected score of 0.00001 to 0.99999.  Much further
# out, 1 - score loses its digits (at +6,400 it is 0.0 and the hypothesis has no distribution).
ELO_LIMIT = 2000.0


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def pair_cell(first: float, second: float) -> int:
    """The pentanomial cell of a pair, from the new engine's points in its two games (1, 1/2 or 0)."""
    return round(2 * (first + second))


def frequencies(counts: Sequence[float]) -> tuple[float, list[float]]:
    """(N, frequencies): fishtest's regularisation first, an empty cell counts ``PSEUDO``, so that
    every hypothesis's mean lies strictly between the lowest and the highest score."""
    counts = [n if n > 0 else PSEUDO for n in counts]
    total = sum(counts)
    return total, [n / total for n in counts]


def most_likely(q: list[float], mean: float) -> list[float]:
    """The pentanomial distribution with this mean score that makes frequencies ``q`` most likely
    (``mean`` strictly between the lowest and the highest score with a frequency)."""
    shifts = [a - mean for a in SCORES]
    # 1 + lam * shift must stay positive on every cell with q > 0: lam lies in (low, high)
    low = max(-1.0 / d for d, f in zip(shifts, q) if f > 0 and d > 0)
    high = min(-1.0 / d for d, f in zip(shifts, q) if f > 0 and d < 0)

    def slope(lam: float) -> float:  # sum q d / (1 + lam d): decreasing in lam, zero at the optimum
        return sum(f * d / (1.0 + lam * d) for f, d in zip(q, shifts) if f > 0)

    for _ in range(200):
        lam = (low + high) / 2
        if slope(lam) > 0:
            low = lam
        else:
            high = lam
    lam = (low + high) / 2
    return [f / (1.0 + lam * d) for f, d in zip(q, shifts)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (Elo ``elo1``) over H0 (``elo0``):
    ``N sum_i q_i log(p1_i / p0_i)`` on the regularised frequencies ``q``."""
    if sum(counts) == 0:
        return 0.0
    total, q = frequencies(counts)
    p0, p1 = (most_likely(q, expected_score(elo)) for elo in (elo0, elo1))
    return total * sum(f * math.log(b / a) for f, a, b in zip(q, p0, p1))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def elo_interval(counts: Sequence[float]) -> tuple[float, float, float]:
    """(Elo, 95% low, 95% high) from the pairs: the mean score per game, and its variance over
    pairs, in Wilson's score interval (``elo.elo_interval_of``)."""
    pairs = sum(counts)
    if pairs == 0:
        return 0.0, -math.inf, math.inf
    mean = sum(a * n for a, n in zip(SCORES, counts)) / pairs
    variance = sum(n * (a - mean) ** 2 for a, n in zip(SCORES, counts)) / pairs
    return elo_interval_of(mean, variance / pairs, round(2 * pairs))


@dataclass
class SPRT:
    """The state of one test: its settings and the pentanomial counts so far."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError(f"alpha and beta must lie between 0 and 1 (got {self.alpha}, {self.beta})")
        if self.alpha + self.beta >= 1:
            # Wald's lower bound log(beta / (1 - alpha)) then lies at or above the upper one, and the
            # empty test (LLR 0) would already accept H1.
            raise ValueError(f"alpha + beta must be below 1 (got {self.alpha} + {self.beta})")
        if self.elo1 <= self.elo0:
            raise ValueError(f"elo1 must be above elo0 (got elo0 {self.elo0}, elo1 {self.elo1})")
        if not (-ELO_LIMIT <= self.elo0 and self.elo1 <= ELO_LIMIT):
            raise ValueError(f"elo0 and elo1 must lie within +-{ELO_LIMIT:g} (got {self.elo0}, {self.elo1})")
        self.penta = [0, 0, 0, 0, 0]
        self.games = MatchScore()

    def add_pair(self, first: float, second: float) -> None:
        """A finished pair: the new engine's points in its two games (1, 1/2 or 0 each)."""
        self.penta[pair_cell(first, second)] += 1
        self.games.add(first)
        self.games.add(second)

    @property
    def llr(self) -> float:
        return llr(self.penta, self.elo0, self.elo1)

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def verdict(self) -> str | None:
        """``"H1"`` (accepted: the new engine is better by elo1), ``"H0"``, or None (play on)."""
        low, high = self.bounds
        value = self.llr
        return "H1" if value >= high else "H0" if value <= low else None

    def report(self) -> str:
        """fishtest's block: Elo with its interval, LLR with bounds, games, pentanomial counts."""
        elo, low, high = elo_interval(self.penta)
        lower, upper = self.bounds
        g = self.games
        if math.isfinite(high - low):
            elo_line = (f"Elo: {elo_text(elo, 2)} ± {(high - low) / 2:.1f} (95%)  "
                        f"[{elo_text(low, 1)}, {elo_text(high, 1)}]")
        else:
            elo_line = f"Elo: {elo_text(elo, 2)} (95%: [{elo_text(low, 1)}, {elo_text(high, 1)}])"
        return "\n".join([
            elo_line,
            f"LLR: {self.llr:.2f} ({lower:.2f}, {upper:.2f}) [{self.elo0:g}, {self.elo1:g}]",
            f"Games: {g.games} W: {g.wins} L: {g.losses} D: {g.draws}",
            f"Penta: [{', '.join(str(n) for n in self.penta)}]",
        ])
