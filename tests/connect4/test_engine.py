"""The numba engine against the rules of record, over random games of several sizes."""

import random

import numpy as np
import pytest

from gridfall.connect4 import engine, rules

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


@pytest.mark.parametrize("size", [(7, 6), (9, 5), (10, 6), (9, 7)])
def test_engine_agrees_with_rules(size):
    w, h = size
    g = engine.geometry(w, h)
    rnd = random.Random(w * 100 + h)
    positions = 0
    for _ in range(150):
        steal = rnd.random() < 0.5
        game = rules.Game(w, h, steal=steal)
        while not game.is_terminal():
            p = game.current_player()
            cur, mask = engine.from_position(game.position, p)
            cur64, mask64 = np.uint64(cur), np.uint64(mask)
            # playable cells, one per non-full column
            playable = int(engine.playable(mask64, g))
            expected = 0
            for x in game.position.playable_columns():
                expected |= engine.bit(w, h, x, game.position.column_height(x))
            assert playable == expected
            # winning cells: every empty cell where p's chip would make four
            wins = int(engine.winning_cells(cur64, mask64, g))
            for x in range(w):
                for y in range(h):
                    if game.position.cell(x, y) is None:
                        stones = list(game.position.stones)
                        stones[p] |= game.position.bit(x, y)
                        four = rules.Position(w, h, tuple(stones)).has_four(p)
                        assert four == bool((wins >> (x * h + y)) & 1)
            assert bool(engine.has_four(np.uint64(cur ^ mask), g)) == game.position.has_four(1 - p)
            action = rnd.choice(game.legal_actions())
            game.apply_action(action)
            positions += 1
    assert positions > 1500


def test_non_losing_moves_never_allow_an_immediate_loss():
    g = engine.geometry(7, 6)
    rnd = random.Random(3)
    for _ in range(300):
        game = rules.Game(7, 6, steal=False)
        while not game.is_terminal():
            cur, mask = engine.from_position(game.position, game.current_player())
            safe = int(engine.non_losing_moves(np.uint64(cur), np.uint64(mask), g))
            me = game.current_player()
            for x in game.position.playable_columns():
                move = engine.bit(7, 6, x, game.position.column_height(x))
                if safe & move:
                    after = game.position.drop(me, x)
                    if after.has_four(me):
                        continue
                    for y in after.playable_columns():
                        assert not after.drop(1 - me, y).has_four(1 - me)
            game.apply_action(rnd.choice(game.legal_actions()))


def test_geometry_refuses_boards_that_do_not_fit():
    with pytest.raises(ValueError):
        engine.geometry(9, 8)
    assert engine.geometry(8, 8)[engine.BOARD] == np.uint64(2**64 - 1)


@pytest.mark.parametrize("size", [(9, 7), (7, 6), (4, 16), (16, 4)])
def test_lowest_in_columns_keeps_the_lowest_cell_of_each_column(size):
    w, h = size
    g = engine.geometry(w, h)
    rnd = random.Random(w * 100 + h)
    for _ in range(500):
        density = rnd.choice([0.05, 0.2, 0.5])
        cells = sum(1 << i for i in range(w * h) if rnd.random() < density)
        expected = 0
        for x in range(w):
            column = cells & (((1 << h) - 1) << (x * h))
            expected |= column & -column  # the lowest bit of the column
        assert int(engine.lowest_in_columns(np.uint64(cells), g)) == expected
