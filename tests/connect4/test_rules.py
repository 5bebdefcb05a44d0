"""Connect Four rules of record: gravity, fours, draws and the STEAL rule."""

import random

import pytest

from gridfall.connect4.rules import STEAL, Game, IllegalAction, Position

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


@pytest.mark.parametrize("moves, cells", [
    ("0101010", [(0, 0), (0, 1), (0, 2), (0, 3)]),  # vertical
    ("0011223", [(0, 0), (1, 0), (2, 0), (3, 0)]),  # horizontal
    ("01122323433", [(0, 0), (1, 1), (2, 2), (3, 3)]),  # diagonal /
    ("65544343233", [(6, 0), (5, 1), (4, 2), (3, 3)]),  # diagonal \
])
def test_four_in_a_row_wins_in_every_direction(moves, cells):
    game = Game.from_moves(moves[:-1], 7, 6, steal=False)
    assert game.winner is None
    game.apply_action(int(moves[-1]))
    assert game.winner == 0 and game.is_terminal() and game.returns() == (10, 0)
    assert all(game.position.cell(x, y) == 0 for x, y in cells)


def random_games(width, height, count, seed):
    rnd = random.Random(seed)
    for _ in range(count):
        game = Game(width, height, steal=False)
        while not game.is_terminal():
            game.apply_action(rnd.choice(game.legal_actions()))
        yield game


def test_full_board_is_a_draw_and_a_win_on_the_last_cell_is_a_win():
    games = list(random_games(4, 4, 3000, seed=1))
    draws = [g for g in games if g.winner is None]
    last_cell_wins = [g for g in games if g.winner is not None and len(g.history) == 16]
    assert draws and last_cell_wins
    assert all(g.position.is_full() and g.returns() == (5, 5) for g in draws)
    assert all(g.returns() in ((10, 0), (0, 10)) for g in last_cell_wins)


def test_steal_only_at_turn_one_and_the_turn_index_decides_who_moves():
    game = Game()
    game.apply_action(4)
    assert STEAL in game.legal_actions()
    game.apply_action(STEAL)
    assert game.position.stones == (0, game.position.bit(4, 0))
    assert game.current_player() == 0 and game.turn == 2
    with pytest.raises(IllegalAction, match="STEAL"):
        game.apply_action(STEAL)
    game.apply_action(4)
    assert game.position.cell(4, 1) == 0


def test_steal_refused_when_disabled_or_late():
    game = Game(steal=False)
    game.apply_action(0)
    assert STEAL not in game.legal_actions()
    with pytest.raises(IllegalAction):
        game.apply_action(STEAL)
    with pytest.raises(IllegalAction):
        Game().apply_action(STEAL)


def test_full_and_outside_columns_are_refused():
    game = Game(7, 6, steal=False)
    for _ in range(6):
        game.apply_action(3) if not game.is_terminal() else None
    with pytest.raises(IllegalAction, match="full|over"):
        game.apply_action(3)
    with pytest.raises(IllegalAction, match="outside"):
        Game().apply_action(9)


def test_protocol_rows_round_trip():
    game = Game()
    for a in (4, STEAL, 3, 3):
        game.apply_action(a)
    rows = game.position.rows_text()
    assert rows[-1] == "...01...." and rows[-2] == "...1....." and rows[0] == "........."
    again = Game.from_protocol(rows, game.turn)
    assert again.position == game.position and again.current_player() == game.current_player()


@pytest.mark.parametrize("size", [(7, 6), (9, 5), (10, 6), (9, 7)])
def test_any_board_size(size):
    w, h = size
    game = Game(w, h, steal=False)
    for x in range(w):
        assert x in game.legal_actions()
    assert Position(w, h).bit(w - 1, h - 1) == 1 << ((w - 1) * (h + 1) + h - 1)
