"""The SameGame line value object: its text round-trips, and it plays under the rules of record."""

import pytest

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.line import Line

from .test_rules import reference_solutions

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_text_round_trips_and_reads_what_the_referee_reads():
    line = Line([(9, 0), (0, 4), (14, 14)])
    assert line.text() == "9 0;0 4;14 14" and Line.from_text(line.text()) == line
    assert Line.from_text(" 9 0;0 4 a message;14 14;; ") == line  # trailing separators dropped
    assert line.text(limit=2) == "9 0;0 4" and len(line) == 3 and list(line)[0] == (9, 0)
    assert Line.from_text("") == Line() and Line().text() == ""


@pytest.mark.parametrize("text", ["1 2; 3 4", "1;2", "a b", "1 2;;3 4"])
def test_from_text_refuses_what_the_referee_refuses(text):
    with pytest.raises(rules.ActionFormatError):
        Line.from_text(text)


def test_play_scores_the_reference_solutions():
    for number, score, _, _, moves in list(reference_solutions())[:5]:
        board, total = Line.from_text(moves).play(load_board(f"standard:{number}"))
        assert total == score
    with pytest.raises(rules.IllegalMove):
        Line([(14, 14)]).play(load_board("standard:1"))
