"""Exact play: the move kept is one that keeps the position's exact result."""

from importlib import resources

import pytest

from gridfall.connect4.endgame import exact_move
from gridfall.connect4.rules import Game
from gridfall.connect4.solver import Solver

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def scored(name):
    text = resources.files("gridfall").joinpath("data", "connect4", "scored", f"{name}.txt").read_text()
    return [(m, int(s)) for m, s in (line.split() for line in text.splitlines() if line.strip())]


@pytest.fixture(scope="module")
def solvers():
    return Solver(7, 6, 20), Solver(7, 6, 20)  # one plays, one checks


def sign(v):
    return (v > 0) - (v < 0)


def test_the_move_keeps_the_exact_result(solvers):
    player, judge = solvers
    checked = 0
    for moves, score in scored("7x6/midgame_L1")[::40][:30]:
        cur, mask = player.position(moves)
        preferred = Game.from_moves(moves, 7, 6, steal=False).legal_actions()[0]  # often a poor move
        column = exact_move(player, cur, mask, 5.0, preferred)
        assert column is not None, moves
        after = moves + str(column)
        if sign(score) < 0:
            assert column == preferred  # lost anyway: the search's move stands
            continue
        try:
            child = judge.solve_moves(after).score
        except ValueError:  # the move won at once
            assert sign(score) > 0
            continue
        assert -sign(child) == sign(score), (moves, column)
        checked += 1
    assert checked >= 10  # the rest are lost positions or immediate wins


def test_a_winning_preferred_move_is_kept(solvers):
    player, judge = solvers
    for moves, score in scored("7x6/endgame_L1")[:40]:
        if score <= 0:
            continue
        analysis = judge.analyze(moves)
        winning = [x for x, v in analysis.items() if isinstance(v, int) and v > 0]
        cur, mask = player.position(moves)
        assert exact_move(player, cur, mask, 5.0, winning[-1]) == winning[-1]


def test_out_of_time_it_says_none(solvers):
    player, _ = solvers
    cur, mask = player.position("")  # the empty 7x6 board: far beyond a millisecond
    assert exact_move(player, cur, mask, 0.001, 3) is None


def test_a_table_kept_from_earlier_solves_gives_the_same_results(solvers):
    """The bot keeps the solver's table from turn to turn: entries from other positions, and from
    solves cut short by the clock, are bounds that hold, so every answer stays exact."""
    player, judge = solvers
    player.table.new_search()
    assert exact_move(player, *player.position(""), 0.005, 3, keep_table=True) is None  # cut short
    checked = 0
    for moves, score in scored("7x6/midgame_L1")[5::40][:20]:
        cur, mask = player.position(moves)
        preferred = Game.from_moves(moves, 7, 6, steal=False).legal_actions()[0]
        column = exact_move(player, cur, mask, 5.0, preferred, keep_table=True)
        assert column is not None, moves
        if sign(score) < 0:
            continue
        try:
            child = judge.solve_moves(moves + str(column)).score
        except ValueError:  # the move won at once
            continue
        assert -sign(child) == sign(score), (moves, column)
        checked += 1
    assert checked >= 5


def test_the_bot_keeps_its_solver_table_within_a_game_and_forgets_it_at_the_next():
    from gridfall.connect4.agents import make_agent
    from gridfall.connect4.solver import GENERATION

    agent = make_agent("gridfall")
    generation = lambda: int(agent.solver.table.stats[GENERATION])  # noqa: E731
    game = Game.from_moves("40358")
    agent.act(game, 0.02)
    first = generation()
    game.apply_action(agent.act(game, 0.02))
    game.apply_action(game.legal_actions()[0])
    agent.act(game, 0.02)
    assert generation() == first  # the same game: the table is kept
    agent.act(Game.from_moves("44"), 0.02)
    assert generation() == first + 1  # fewer chips: a new game, a fresh table
