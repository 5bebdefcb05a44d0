"""The exported file's opening book: its move in every position it can reach in its first few
moves, chosen by the numba search to a fixed depth (``gridfall connect4 book --rebuild``).

The exported file searches about 8 plies in a turn; the numba search reaches 14 in a quarter
of a second in the opening.  Games against ``mcts`` were mostly lost by the 15th ply, before
the exact solver could say where, so the file plays the deeper search's move while the book
has the position.

A position is keyed by its chips seen from the side to move, as Pons' solver keys them:
``current + mask + bottom row`` (unique: the bottom row's bit marks each column's first empty
cell above the chips), written in base 36.  A position reached in another order finds the same
entry, and the position after the first chip finds the entry made after a stolen one: they
are the same position from the side to move.

Standard library only: the exported file carries this module, with the book as data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

BOOK_FILE = "book-9x7.json"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def position_key(current: int, mask: int, width: int, height: int) -> str:
    """The book's key of a position: (current, mask) as the file lays them out
    (:meth:`.portable.Board.position_of`: ``height + 1`` bits a column, bottom first)."""
    bottom = sum(1 << (x * (height + 1)) for x in range(width))
    number, text = current + mask + bottom, ""
    while number:
        number, digit = divmod(number, 36)
        text = DIGITS[digit] + text
    return text


@dataclass
class Book:
    width: int
    height: int
    moves: dict[str, int]  # position key -> the column to play
    method: str
    depth: int = 0  # the plies each position was searched to
    turns: int = 0  # the positions the file can reach with up to this many actions played

    @classmethod
    def load(cls) -> "Book":
        """The book shipped in the package."""
        return cls.from_data(json.loads(resources.files("gridfall").joinpath("data", "connect4", BOOK_FILE).read_text()))

    @classmethod
    def from_data(cls, data: dict) -> "Book":
        """The book from its JSON object: ``moves`` is one text of ``KEY:COLUMN`` entries, comma-separated
        (the exported file carries it, and CodinGame allows 100,000 characters)."""
        entries = (entry.split(":") for entry in data["moves"].split(",") if entry)
        return cls(data["width"], data["height"], {key: int(column) for key, column in entries}, data["method"],
                   data.get("depth", 0), data.get("turns", 0))

    def to_data(self) -> dict:
        return {"width": self.width, "height": self.height, "method": self.method, "depth": self.depth,
                "turns": self.turns, "moves": ",".join(f"{key}:{column}" for key, column in sorted(self.moves.items()))}

    def move(self, current: int, mask: int, width: int, height: int) -> int | None:
        """The book's column in this position (side to move first), or None."""
        if (width, height) != (self.width, self.height):
            return None
        return self.moves.get(position_key(current, mask, width, height))
