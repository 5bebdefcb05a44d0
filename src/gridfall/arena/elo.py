"""Match statistics: score share and Elo difference with a 95% interval.

With W wins, D draws and L losses in N games, the score share is
``s = (W + D/2) / N`` and the Elo difference ``-400 log10(1/s - 1)``; a share of
0 or 1 has an infinite difference, reported as such.

The 95% interval is Wilson's score interval for the share, mapped through the
same formula.  The textbook interval, ``s +- 1.96 sqrt(var / N)``, is
symmetric, so near a share of 0 or 1 it runs past the end: 31 wins in 34
games gave ``[+259, +inf]``, although 3 losses bound the share away from 1,
and 2 wins in 2 games gave ``[-inf, +inf]``.  Wilson's interval solves
``(s - p)^2 = z^2 p (1 - p) / n`` for the true share ``p`` instead, so it
stays inside (0, 1) and is finite wherever the games seen allow.  Draws (and
the pairing of games) change the variance: ``n`` is the *effective* number of
games, ``s (1 - s)`` over the variance of the mean seen, which is the games
played when there are no draws.  When every game scored the same the variance
seen is 0; then ``n`` is the games played, and a perfect share's low end is
``n / (n + z^2)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gridfall.words import counted

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def elo_from_share(s: float) -> float:
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_interval_of(share: float, variance_of_mean: float, games: int) -> tuple[float, float, float]:
    """(Elo, 95% low, 95% high) of a mean score ``share`` whose estimate has this variance, from
    ``games`` games: Wilson's score interval on the effective number of games (module notes)."""
    if games <= 0:
        return 0.0, -math.inf, math.inf
    binomial = share * (1.0 - share)
    n = binomial / variance_of_mean if variance_of_mean > 0 and binomial > 0 else games
    z2 = Z95 * Z95 / n
    centre = (share + z2 / 2) / (1 + z2)
    half = math.sqrt(binomial / n + z2 / (4 * n)) * Z95 / (1 + z2)
    # at a share of exactly 0 or 1 the interval touches that end; rounding must not move it
    low = 0.0 if share <= 0.0 else centre - half
    high = 1.0 if share >= 1.0 else centre + half
    return elo_from_share(share), elo_from_share(low), elo_from_share(high)


def elo_text(v: float, digits: int = 0) -> str:
    """An Elo difference as printed: signed, to ``digits`` decimals (``+12``, ``+0`` never ``-0``),
    or ``+inf`` / ``-inf``."""
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return f"{round(v, digits) + 0.0:+.{digits}f}"  # + 0.0 turns a rounded -0.0 into 0.0


@dataclass
class MatchScore:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: float) -> None:
        """One more game: 1 a win, 1/2 a draw, 0 a loss."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def share(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def elo(self) -> tuple[float, float, float]:
        """(Elo difference, 95% low, 95% high)."""
        n = self.games
        if n == 0:
            return 0.0, -math.inf, math.inf
        s = self.share
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        return elo_interval_of(s, var / n, n)

    def describe(self) -> str:
        elo, low, high = self.elo()
        return (f"W {self.wins} / D {self.draws} / L {self.losses} ({counted(self.games, 'game')}), "
                f"score {100 * self.share:.1f}%, Elo {elo_text(elo)} [95%: {elo_text(low)}, {elo_text(high)}]")
