"""Single-player bots on the same boards: paired differences and a bootstrap interval.

Each board (or seed) is played by both bots, so what varies between boards cancels out of the
difference ``A - B`` on that board.  The mean of those differences gets a 95% interval by the
paired bootstrap: draw the boards again with replacement, ``RESAMPLES`` times (seeded, so the
interval is reproducible), and take the 2.5th and 97.5th percentiles of the resampled means.
A is called better when the whole interval is above 0, B when it is below; otherwise the data
cannot tell yet (more boards, or longer runs, may).

More than two bots are ranked by their mean score (:func:`rank`), each compared, pair by pair,
with the first: the first is called better than a bot only when their interval says so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

RESAMPLES = 10_000


@dataclass
class Comparison:
    names: tuple[str, str]
    differences: list[float]  # A - B, board by board
    low: float  # the bootstrap 95% interval of the mean difference
    high: float
    unit: str = "board"  # what the differences are taken on: "board", or "seed" for Match-3

    @property
    def mean(self) -> float:
        return sum(self.differences) / len(self.differences) if self.differences else 0.0

    @property
    def wins(self) -> int:
        return sum(d > 0 for d in self.differences)

    @property
    def ties(self) -> int:
        return sum(d == 0 for d in self.differences)

    @property
    def losses(self) -> int:
        return sum(d < 0 for d in self.differences)

    def verdict(self) -> str:
        a, b = self.names
        if len(self.differences) < 2:
            return f"the data cannot tell yet (fewer than two {self.unit}s)"
        if self.low > 0:
            return f"{a} is better (the 95% interval of the mean difference is above 0)"
        if self.high < 0:
            return f"{b} is better (the 95% interval of the mean difference is below 0)"
        return "the data cannot tell yet (the 95% interval of the mean difference contains 0)"

    def to_json(self) -> dict:
        return {"a": self.names[0], "b": self.names[1], "mean_difference": self.mean, "low": self.low,
                "high": self.high, "wins": self.wins, "ties": self.ties, "losses": self.losses,
                "verdict": self.verdict()}


def bootstrap_interval(differences: list[float], resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """The percentile bootstrap 95% interval of the mean of ``differences``."""
    n = len(differences)
    if n == 0:
        return 0.0, 0.0
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(differences, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * (resamples - 1))], means[int(0.975 * (resamples - 1))]


def compare(names: tuple[str, str], a: list[float], b: list[float], seed: int = 0, unit: str = "board") -> Comparison:
    """A against B on the same boards (or seeds: ``unit``), in the same order."""
    if len(a) != len(b):
        raise ValueError(f"{len(a)} scores for {names[0]} but {len(b)} for {names[1]}: compare them on the same boards")
    differences = [x - y for x, y in zip(a, b)]
    low, high = bootstrap_interval(differences, seed=seed)
    return Comparison(names, differences, low, high, unit)


@dataclass
class Place:
    """A bot's place in a ranking: its mean, the boards where no bot scored more, and its
    comparison with the first (None for the first itself)."""

    name: str
    mean: float
    best_on: int
    against_first: Comparison | None

    def verdict(self) -> str:
        if self.against_first is None:
            return "first"
        first = self.against_first.names[0]
        if len(self.against_first.differences) < 2:
            return f"cannot tell yet (fewer than two {self.against_first.unit}s)"
        if self.against_first.low > 0:
            return f"{first} is better"
        return f"cannot tell from {first} yet"

    def to_json(self) -> dict:
        return {"bot": self.name, "mean": self.mean, "best_on": self.best_on, "verdict": self.verdict(),
                "against_first": None if self.against_first is None else self.against_first.to_json()}


def rank(scores: dict[str, list[float]], seed: int = 0, unit: str = "board") -> list[Place]:
    """The bots by mean score, highest first (ties in the order given), each compared with the first;
    every list holds the same boards in the same order."""
    names = list(scores)
    count = len(scores[names[0]]) if names else 0
    means = {name: sum(values) / count if count else 0.0 for name, values in scores.items()}
    order = sorted(names, key=lambda name: -means[name])
    best = {name: sum(1 for k in range(count) if scores[name][k] == max(scores[n][k] for n in names)) for name in names}
    first = order[0]
    return [Place(name, means[name], best[name],
                  None if name == first else compare((first, name), scores[first], scores[name], seed, unit))
            for name in order]
