"""The opening table's decisions (the pie rule written down in openings.py): the first move, and
STEAL where the chip is surely worth more than the answer."""

import pytest

from gridfall.connect4.openings import OpeningTable, OpeningValue
from gridfall.connect4.rules import STEAL, Game

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def table(values):
    """Columns -> (share, low, high) of the player to move after the first chip there."""
    return OpeningTable(9, 7, {x: OpeningValue(*v, pairs=1000) for x, v in values.items()}, "test")


def symmetric(edge, next_, middle, near, centre):
    return table({0: edge, 8: edge, 1: next_, 7: next_, 2: middle, 6: middle, 3: near, 5: near, 4: centre})


def test_the_first_move_is_the_opening_whose_worst_case_is_best():
    t = symmetric((0.47, 0.45, 0.49), (0.46, 0.44, 0.48), (0.40, 0.38, 0.42), (0.35, 0.33, 0.37), (0.30, 0.28, 0.32))
    assert t.first_move == 0 and t.decide(Game()) == 0  # the edge chip: the stealer gains least
    # a chip the mover answers better than the owner is just as good for the first player when the
    # stealer's gain is as small: 0.52 means the opponent plays on and gets 0.52
    t = symmetric((0.45, 0.43, 0.47), (0.52, 0.51, 0.53), (0.40, 0.38, 0.42), (0.35, 0.33, 0.37), (0.30, 0.28, 0.32))
    assert t.first_move == 1  # floor 0.47 (1 - 0.53) against 0.43 at the edge; of 1 and 7 the lower


def test_the_uncertainty_counts_against_an_opening():
    # column 4 looks best (0.5) but its interval is wide; column 3 is a sure 0.47
    t = symmetric((0.30, 0.28, 0.32), (0.30, 0.28, 0.32), (0.30, 0.28, 0.32), (0.47, 0.46, 0.48), (0.50, 0.35, 0.65))
    assert t.first_move in (3, 5)
    assert t.values[3].first_player_floor == 0.46 and t.values[4].first_player_floor == 0.35


def test_ties_go_to_the_centre():
    same = (0.45, 0.44, 0.46)
    assert symmetric(same, same, same, same, same).first_move == 4


def test_steal_where_the_whole_interval_is_below_one_half_then_the_search_decides():
    t = symmetric((0.52, 0.50, 0.54), (0.51, 0.45, 0.57), (0.49, 0.43, 0.55), (0.40, 0.38, 0.42), (0.30, 0.28, 0.32))
    assert [x for x in range(9) if t.should_steal(x)] == [3, 4, 5]
    game = Game()
    game.apply_action(4)
    assert t.decide(game) == STEAL
    for column in (1, 2):  # 0.51 and 0.49, both intervals holding 1/2: no sure gain, so play on
        other = Game()
        other.apply_action(column)
        assert t.decide(other) is None
    game.apply_action(STEAL)
    assert t.decide(game) is None
    assert t.decide(Game(7, 6, steal=True)) is None  # not the table's board


def test_the_shipped_table_is_whole_and_symmetric():
    t = OpeningTable.load()
    assert sorted(t.values) == list(range(9))
    for x in range(9):
        v = t.values[x]
        assert v == t.values[8 - x] and 0 <= v.low <= v.share <= v.high <= 1
        assert v.pairs >= 1000  # the method asks for 1,000 seat-swapped pairs an opening
    assert "pairs" in t.method
    assert OpeningTable.from_data(t.to_data()) == t
