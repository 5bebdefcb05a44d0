"""A league's table: Weng-Lin ratings (openskill) for everyone, an Elo interval for every pairing.

openskill's Plackett-Luce model (Weng and Lin, "A Bayesian Approximation Method for Online
Ranking", JMLR 2011) gives each bot a skill ``mu`` and an uncertainty ``sigma``, updated game by
game; the table is ordered by ``mu - 3 sigma`` (openskill's ``ordinal``), a skill the bot is
very likely above, so a bot with few games does not top the table by luck.  Beside it, the Elo
difference of every pairing with its 95% interval, from the games those two played
(:class:`~gridfall.arena.elo.MatchScore`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gridfall.arena.elo import MatchScore


@dataclass
class Standing:
    name: str
    mu: float
    sigma: float
    score: MatchScore = field(default_factory=MatchScore)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict:
        return {"name": self.name, "rating": round(self.ordinal, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "games": self.score.games, "wins": self.score.wins,
                "draws": self.score.draws, "losses": self.score.losses, "score": round(self.score.share, 4)}


class League:
    """Ratings of named bots, fed one game at a time."""

    def __init__(self, names: list[str]):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = {name: self.model.rating(name=name) for name in names}
        self.scores = {name: MatchScore() for name in names}
        self.pairs: dict[tuple[str, str], MatchScore] = {}  # (a, b) with a before b in ``names``
        self.order = {name: i for i, name in enumerate(names)}

    def add(self, first: str, second: str, first_points: float) -> None:
        """One game between two bots: the first one's points (1, 1/2 or 0)."""
        ranks: list[float] = [0, 0] if first_points == 0.5 else [0, 1] if first_points == 1 else [1, 0]
        [[a], [b]] = self.model.rate([[self.ratings[first]], [self.ratings[second]]], ranks=ranks)
        self.ratings[first], self.ratings[second] = a, b
        self.scores[first].add(first_points)
        self.scores[second].add(1 - first_points)
        key, points = ((first, second), first_points) if self.order[first] < self.order[second] \
            else ((second, first), 1 - first_points)
        self.pairs.setdefault(key, MatchScore()).add(points)

    def unplayed(self, leaving=frozenset()) -> list[tuple[str, str]]:
        """The pairings with no game yet, in the bots' order, but those of the bots ``leaving``
        (retired: they will never play them); a short league schedules fewer pairs than pairings."""
        names = [name for name in self.order if name not in leaving]
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if (a, b) not in self.pairs]

    def standings(self) -> list[Standing]:
        """Best first (by mu - 3 sigma)."""
        table = [Standing(name, r.mu, r.sigma, self.scores[name]) for name, r in self.ratings.items()]
        return sorted(table, key=lambda s: -s.ordinal)
