import pytest

from gridfall.words import counted, said_once

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_one_is_singular_and_every_other_number_plural():
    assert counted(1, "board") == "1 board"
    assert [counted(n, "board") for n in (0, 2)] == ["0 boards", "2 boards"]
    assert counted(3, "board pass", "board passes") == "3 board passes"
    assert counted(12345, "game") == "12,345 games"


def test_a_verdict_that_its_detail_names_again_is_said_once():
    assert said_once("Region of size 1: turn 2: Region of size 1 (x=1, y=0)") == "turn 2: Region of size 1 (x=1, y=0)"
    assert said_once("Timeout: no answer line in time") == "Timeout: no answer line in time"
    assert said_once("Bot crashed") == "Bot crashed"
    assert said_once("board 2, move 1: time limit exceeded (no answer within 1.000 s)").startswith("board 2, move 1: ")
