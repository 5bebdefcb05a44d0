"""The opening table: gridfall's first move and its STEAL decisions, from the pie rule's values.

For each column c the table holds a value with its 95% interval: the expected score share
(win 1, draw 1/2) of the player to move after the first player's chip in c, if that player
does not steal.  The values are measured (:mod:`.pie`, ``gridfall connect4 openings
--rebuild``); the JSON file records how.

The rule that follows from them:

* **STEAL** turns the chip into the second player's own and hands the move back, so the
  stealer gets 1 - value.  The second player steals when the whole interval is below 1/2.
  When the interval holds 1/2 both choices are worth the same within what was measured, and
  it plays on.  The first player's own opening is such a chip (column 1 on the shipped table,
  below), so after it is stolen the first player has the move in the very position the second
  player gets by playing on, and the opening book goes deepest there (:mod:`.book`).  Against
  the numba bot, which opens in column 1, the exported file as second player scored 16.0%
  stealing it and 53.5% playing on (docs/connect4-experiments.md, 2026-11-29).
* **The first move.**  Against an opponent who steals when it pays, the first player gets
  min(value, 1 - value) from an opening: the opponent takes the better side.  gridfall opens
  where the worst case over the interval, min(low, 1 - high), is largest: the opening the
  opponent cannot gain by stealing, or gain least, even at the edge of the measurement.  Ties
  go to the column nearer the centre, then to the lower one.

Standard library only: the exported bot carries this module, with the table as data
(:meth:`OpeningTable.from_data`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from gridfall.connect4.rules import STEAL, Game

TABLE_FILE = "openings-9x7.json"


@dataclass(frozen=True)
class OpeningValue:
    """The mover's expected share after a first chip, with its 95% interval and sample size."""

    share: float
    low: float
    high: float
    pairs: int = 0

    @property
    def first_player_floor(self) -> float:
        """The first player's share against a correct stealer, at the worst end of the interval."""
        return min(self.low, 1.0 - self.high)


@dataclass
class OpeningTable:
    width: int
    height: int
    values: dict[int, OpeningValue]  # column -> value for the player to move after the first chip there
    method: str

    @classmethod
    def load(cls) -> "OpeningTable":
        """The table shipped in the package."""
        return cls.from_data(json.loads((resources.files("gridfall") / "data" / "connect4" / TABLE_FILE).read_text()))

    @classmethod
    def from_data(cls, data: dict) -> "OpeningTable":
        """The table from its JSON object (as the package ships it)."""
        values = {int(k): OpeningValue(v["share"], v["low"], v["high"], v.get("pairs", 0))
                  for k, v in data["columns"].items()}
        return cls(data["width"], data["height"], values, data["method"])

    def to_data(self) -> dict:
        return {"width": self.width, "height": self.height, "method": self.method,
                "columns": {str(x): {"share": round(v.share, 4), "low": round(v.low, 4), "high": round(v.high, 4),
                                     "pairs": v.pairs} for x, v in sorted(self.values.items())}}

    def covers(self, game: Game) -> bool:
        return game.width == self.width and game.height == self.height and game.steal

    @property
    def first_move(self) -> int:
        """The opening whose worst case against a correct stealer is best (on ties the column nearer
        the centre, then the lower one)."""
        return max(self.values, key=lambda x: (self.values[x].first_player_floor, -abs(2 * x - (self.width - 1)), -x))

    def should_steal(self, column: int) -> bool:
        """Whether the chip is surely worth more than the move: its whole interval below 1/2."""
        value = self.values.get(column)
        return value is not None and value.high < 0.5

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
