"""MCTS and MCTS-Solver: the solver's proofs agree with the exact solver, and the plain tree proves nothing."""

from importlib import resources

import pytest

from gridfall.connect4.agents import make_agent
from gridfall.connect4.mcts import (
    MCTS,
    RESULT_DRAW,
    RESULT_LOSS,
    RESULT_NONE,
    RESULT_WIN,
)
from gridfall.connect4.rules import STEAL, Game
from gridfall.connect4.solver import Solver

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def scored(name):
    text = resources.files("gridfall").joinpath("data", "connect4", "scored", f"{name}.txt").read_text()
    return [(m, int(s)) for m, s in (line.split() for line in text.splitlines() if line.strip())]


@pytest.fixture(scope="module")
def solver():
    return Solver(7, 6, 20)


def test_solver_proofs_agree_with_the_exact_scores(solver):
    mcts = MCTS(7, 6, seed=1, solver=True)
    proven = 0
    for moves, score in scored("7x6/endgame_L1")[::25][:40]:
        cur, mask = solver.position(moves)
        column, _ = mcts.choose(cur, mask, seconds=2.0)
        status = mcts.root_status()  # for the player who moved into the root: the opponent of the side to move
        if status == RESULT_NONE:
            continue
        proven += 1
        expected = RESULT_LOSS if score > 0 else RESULT_WIN if score < 0 else RESULT_DRAW
        assert status == expected, moves
        if score > 0:  # a proven win is played: the move wins at once or leaves the opponent lost
            after = moves + str(column)
            game = Game(7, 6, steal=False)
            for m in after:
                game.apply_action(int(m))
            assert game.winner is not None or solver.solve_moves(after).score < 0, moves
    assert proven >= 35  # endgames a few plies deep are proven well inside two seconds


def test_plain_mcts_proves_nothing(solver):
    mcts = MCTS(7, 6, seed=1)
    moves, _ = scored("7x6/endgame_L1")[0]
    mcts.choose(*solver.position(moves), seconds=0.05)
    assert mcts.root_status() == RESULT_NONE


def test_mcts_solver_takes_a_win_in_one_and_blocks_a_loss_in_one():
    agent = make_agent("mcts-solver", seed=3)
    game = Game()  # 9x7 with STEAL
    for x in (0, 8, 0, 8, 0, 7):  # the first player has three in column 0
        game.apply_action(x)
    assert agent.act(game, 0.05) == 0
    game = Game()
    for x in (0, 8, 0, 8, 0):  # the second player must block column 0
        game.apply_action(x)
    assert agent.act(game, 0.05) == 0


def test_mcts_solver_may_steal_and_never_returns_an_illegal_action():
    agent = make_agent("mcts-solver", seed=5)
    game = Game()
    game.apply_action(4)
    action = agent.act(game, 0.05)
    assert action in game.legal_actions()
    assert STEAL in game.legal_actions()


@pytest.mark.parametrize("spec", ["mcts:700", "mcts-solver:700"])
def test_a_number_of_iterations_plays_the_same_game_whatever_the_time(spec):
    # mcts thinks for the turn's time: a faster machine gave another game; mcts:N runs N a move
    games = []
    for seconds in (0.001, 2.0):
        agent, game = make_agent(spec, seed=7), Game()
        while not game.is_terminal() and len(game.history) < 12:
            game.apply_action(agent.act(game, seconds))
        games.append(list(game.history))
    assert games[0] == games[1] and len(games[0]) == 12
    _, runs = make_agent(spec, seed=7).mcts.choose(0, 0, 10.0, iterations=700)
    assert runs == 700
