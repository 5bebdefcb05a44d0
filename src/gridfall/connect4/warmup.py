"""Call every Connect Four kernel once (solver, search, MCTS), so that numba compiles and caches it."""

from __future__ import annotations


def warm() -> None:
    from gridfall.connect4.agents import GridfallAgent, MCTSAgent
    from gridfall.connect4.rules import Game
    from gridfall.connect4.solver import Solver

    Solver(7, 6, 16).solve_moves("4455")
    game = Game()
    game.apply_action(4)
    GridfallAgent().act(game, 0.01)
    MCTSAgent().act(game, 0.01)
    MCTSAgent(solver=True).act(game, 0.01)
