"""The exported bot's pure-Python planner: known lines up to recolouring, and a beam search that
keeps its deadline and beats the greedy line."""

import time

import pytest

from gridfall.samegame.boards import board_key, load_board
from gridfall.samegame.greedy import greedy_line
from gridfall.samegame.line import Line
from gridfall.samegame.portable import PortablePlanner, beam_line
from gridfall.samegame.rules import play_sequence

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_the_beam_keeps_its_deadline_and_beats_the_greedy_line():
    board = load_board("tuning:5")
    for seconds in (0.05, 1.0):
        started = time.monotonic()
        line = beam_line(board, started + seconds)
        assert time.monotonic() - started < seconds + 0.1
        final, score = play_sequence(board, line)
        assert final.is_over()
    assert score > play_sequence(board, greedy_line(board))[1]


def test_a_known_line_is_played_on_a_recoloured_board_and_a_bad_one_is_not():
    board, recoloured = load_board("standard:1"), load_board("codingame:31")
    line = Line(beam_line(board, time.monotonic() + 0.2))
    planner = PortablePlanner({board_key(board): line.text()})
    assert planner(recoloured, 0.5) == list(line)
    bad = PortablePlanner({board_key(board): "14 14;14 14"})
    moves = bad(board, 0.2)
    assert play_sequence(board, moves)[0].is_over()  # searched instead: a legal line
