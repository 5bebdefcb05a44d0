"""SameGame players and solvers on the engine.

:func:`solve` is the one entry point: a board, a time budget and a seed in, the
best legal line found out, checked against the rules of record before it is
returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from gridfall.samegame import engine, rules

ALGORITHMS = ("beam",)


@dataclass
class Solution:
    """A line of play and what it scores under the rules of record."""

    score: int
    moves: list[tuple[int, int]]
    cleared: bool
    algo: str
    seconds: float
    seed: int
    notes: dict = field(default_factory=dict)

    def actions(self) -> str:
        """The moves as the one-turn protocol line ``x y;x y;...``."""
        return ";".join(f"{x} {y}" for x, y in self.moves)


def solve(board: rules.Board, seconds: float, *, algo: str = "beam", seed: int = 0, on_improve=None) -> Solution:
    """Search ``board`` for ``seconds`` and return the best line found.

    ``on_improve(score)`` is called whenever the best score so far improves.
    The returned line is replayed on the rules of record, so its score is
    exactly what the referee will give.
    """
    if algo not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algo!r}; choose from {', '.join(ALGORITHMS)}")
    from gridfall.samegame.search.beam import beam_solve

    start = time.monotonic()
    score, moves = beam_solve(engine.from_board(board), start + seconds, seed=seed, on_improve=on_improve)
    final, replayed = rules.play_sequence(board, moves)
    if replayed != score:
        raise AssertionError(f"search claimed {score} but the line scores {replayed}")
    return Solution(replayed, moves, final.is_cleared(), algo, time.monotonic() - start, seed)
