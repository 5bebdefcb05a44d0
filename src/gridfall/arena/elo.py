"""Match statistics: score share and Elo difference with a 95% interval.

With W wins, D draws and L losses in N games, the score share is
``s = (W + D/2) / N`` and the Elo difference ``-400 log10(1/s - 1)``.  The
interval comes from the standard error of the mean game result (1, 1/2, 0),
``sqrt(var / N)``, mapped through the same formula; a share of 0 or 1 has an
infinite difference, reported as such.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gridfall.words import counted


def elo_from_share(s: float) -> float:
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


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
        margin = 1.959964 * math.sqrt(var / n)
        if margin == 0.0:  # every game the same: the rule of three bounds the share within 3/n
            margin = 3.0 / n
        return elo_from_share(s), elo_from_share(s - margin), elo_from_share(s + margin)

    def describe(self) -> str:
        elo, low, high = self.elo()
        return (f"W {self.wins} / D {self.draws} / L {self.losses} ({counted(self.games, 'game')}), "
                f"score {100 * self.share:.1f}%, Elo {elo_text(elo)} [95%: {elo_text(low)}, {elo_text(high)}]")
