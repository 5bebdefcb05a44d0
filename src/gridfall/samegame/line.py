"""A SameGame line: clicks in order, with its text, the one-turn answer ``x y;x y;...``.

    line = Line.from_text("9 0;0 4;6 5")      # refuses a malformed action, naming it
    line.text()                               # "9 0;0 4;6 5"
    Line(solution.moves).play(board)          # (final board, score) under the rules of record

The store, the bots, the CLI and the benchmarks read and write lines through this class only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from gridfall.samegame.rules import Board, Cell, action_text, parse_action, play_sequence, split_one_turn


@dataclass(frozen=True)
class Line:
    moves: tuple[Cell, ...]

    def __init__(self, moves: Iterable[Cell] = ()):
        object.__setattr__(self, "moves", tuple((int(x), int(y)) for x, y in moves))

    @classmethod
    def from_text(cls, text: str) -> "Line":
        """Parse ``x y;x y;...`` as the referee splits it; ActionFormatError naming a bad action."""
        return cls(parse_action(action) for action in split_one_turn(text))

    def text(self, limit: int | None = None) -> str:
        """The one-turn answer; ``limit`` keeps the first moves only (the platform reads 150)."""
        return ";".join(action_text(x, y) for x, y in self.moves[:limit])

    def play(self, board: Board) -> tuple[Board, int]:
        """The final board and the score; IllegalMove if the rules refuse a click."""
        return play_sequence(board, self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.moves)

    def __str__(self) -> str:
        return self.text()
