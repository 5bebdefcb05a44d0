"""The opening table's decisions: the first move, and STEAL exactly where the chip is worth it."""

from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.rules import STEAL, Game


def table(scores):
    return OpeningTable(9, 7, scores, "test")


def test_the_first_move_is_the_best_opening_not_worth_stealing():
    t = table({0: -3, 1: 2, 2: 5, 3: -20, 4: -25, 5: -20, 6: 5, 7: 2, 8: -3})
    assert t.first_move == 1 and t.decide(Game()) == 1  # score >= 0 for the stealer, the lowest, centre first
    all_negative = table({x: -10 + abs(x - 4) for x in range(9)})
    assert all_negative.first_move in (0, 8)  # every chip is worth stealing: the least worth it


def test_steal_where_the_score_is_negative_then_the_search_decides():
    t = table({x: (-5 if x == 4 else 3) for x in range(9)})
    game = Game()
    game.apply_action(4)
    assert t.decide(game) == STEAL
    other = Game()
    other.apply_action(2)
    assert t.decide(other) is None
    game.apply_action(STEAL)
    assert t.decide(game) is None
    assert t.decide(Game(7, 6, steal=True)) is None  # not the table's board
