"""columns.py (the exported bot's fast positions) against the rules of record, on random games."""

import random

import pytest

from gridfall.samegame import columns
from gridfall.samegame.boards import load_board

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def _as_sets(found):
    return sorted((colour, sorted(columns.cell([i]) for i in members)) for colour, members, _, _ in found)


@pytest.mark.parametrize("spec", ["tuning:1", "tuning:2", "standard:3", "random:7"])
def test_positions_groups_and_points_agree_with_the_rules_move_by_move(spec):
    rng = random.Random(spec)
    for game in range(15):
        board = load_board(spec)
        position = columns.from_board(board)
        found = columns.groups(position)
        while not board.is_over():
            assert columns.to_board(position) == board
            assert _as_sets(found) == sorted((g.colour, sorted(g.cells)) for g in board.groups())
            for colour, members, first, last in found:
                assert (first, last) == (min(members) // 15, max(members) // 15)
            move = rng.choice(found)
            x, y = columns.cell(move[1])
            board, gained = board.play(x, y)
            after = columns.remove(position, move[1])
            assert columns.move_points(len(move[1]), not after) == gained
            found = columns.regroup(found, move, after, len(position))  # the incremental list...
            assert _as_sets(found) == _as_sets(columns.groups(after))  # ...is the whole flood's
            position = after
        assert found == [] and columns.to_board(position) == board


def test_a_removed_column_closes_up_and_the_groups_right_of_it_move_with_it():
    board = load_board("tuning:4")
    position = columns.from_board(board)
    # play until some move empties a column, then check the groups right of it
    rng = random.Random(0)
    found = columns.groups(position)
    emptied = 0
    while found:
        move = rng.choice(found)
        after = columns.remove(position, move[1])
        if len(after) < len(position):
            emptied += 1
        found = columns.regroup(found, move, after, len(position))
        assert _as_sets(found) == _as_sets(columns.groups(after))
        position = after
    assert emptied > 0
