"""Exact play: the move kept is one that keeps the position's exact result."""

from importlib import resources

import pytest

from gridfall.connect4.endgame import exact_move
from gridfall.connect4.rules import Game
from gridfall.connect4.solver import Solver


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
