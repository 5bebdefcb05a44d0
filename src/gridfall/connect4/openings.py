"""The opening table: gridfall's first move and its STEAL decisions, computed and shipped.

For each column c the table holds a score: the value, for the player to move
(the second player), of the position after the first player's chip in c,
measured by self-play (:func:`build`): 100 x (1/2 - the first player's score
share).  Deep searches were tried first and rejected: their scores swing by
more than the differences between openings from one depth to the next.  Stealing turns that chip into the
second player's own and hands the move back, so the second player steals
exactly when the position is better for the chip's owner: score < 0.  As the
first player, gridfall opens where that score is closest to 0 from below: the
best opening the opponent should not want to steal.

``python -m gridfall connect4 openings --rebuild`` recomputes the table
(:mod:`.openings_build`); the JSON file records how it was computed.  Standard library only: the
exported bot carries this module, with the table as data (:meth:`OpeningTable.from_data`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from gridfall.connect4.rules import STEAL, Game

TABLE_FILE = "openings-9x7.json"


@dataclass
class OpeningTable:
    width: int
    height: int
    scores: dict[int, int]  # column -> score for the player to move after the first chip there
    method: str

    @classmethod
    def load(cls) -> "OpeningTable":
        """The table shipped in the package."""
        return cls.from_data(json.loads(resources.files("gridfall").joinpath("data", "connect4", TABLE_FILE).read_text()))

    @classmethod
    def from_data(cls, data: dict) -> "OpeningTable":
        """The table from its JSON object (as the package ships it)."""
        return cls(data["width"], data["height"], {int(k): v for k, v in data["scores"].items()}, data["method"])

    def covers(self, game: Game) -> bool:
        return game.width == self.width and game.height == self.height and game.steal

    @property
    def first_move(self) -> int:
        """The opening least worth stealing: the best score for us (the chip owner) that is still <= 0 for them."""
        safe = [x for x, s in self.scores.items() if s >= 0]
        if safe:
            return min(safe, key=lambda x: (self.scores[x], abs(2 * x - (self.width - 1))))
        return max(self.scores, key=lambda x: self.scores[x])

    def should_steal(self, column: int) -> bool:
        return self.scores.get(column, 0) < 0

    def decide(self, game: Game) -> int | None:
        """The table's action in this game: the first move, or STEAL when the first chip is worth
        stealing; None when the search decides."""
        if not self.covers(game):
            return None
        if game.turn == 0:
            return self.first_move
        if game.turn == 1 and game.steal and self.should_steal(first_chip_column(game)):
            return STEAL
        return None


def first_chip_column(game: Game) -> int:
    """The column of the first player's chip, at turn index 1 (from the history, else the board)."""
    if game.history:
        return game.history[0]
    for x in range(game.width):
        if game.position.cell(x, 0) is not None:
            return x
    raise ValueError("no chip on the board")
