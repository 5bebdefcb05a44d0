"""Call every Match-3 kernel once (the engine and the strong player), so that numba compiles and caches it."""

from __future__ import annotations


def warm() -> None:
    from gridfall.match3.agents import StrongAgent
    from gridfall.match3.rules import Generator, new_board

    board = new_board(8, Generator(1))
    StrongAgent(budget=0.001, seed=1, min_samples=2, max_samples=2).suggest(list(board.rows))
