import pytest

from gridfall.words import counted

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_one_is_singular_and_every_other_number_plural():
    assert counted(1, "board") == "1 board"
    assert [counted(n, "board") for n in (0, 2)] == ["0 boards", "2 boards"]
    assert counted(3, "board pass", "board passes") == "3 board passes"
    assert counted(12345, "game") == "12,345 games"
