import pytest

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board


def board_from_columns(columns):
    """A settled board from columns listed bottom to top (shorter lists are padded)."""
    cols = [list(c) + [rules.EMPTY] * (rules.HEIGHT - len(c)) for c in columns]
    cols += [[rules.EMPTY] * rules.HEIGHT] * (rules.WIDTH - len(cols))
    return rules.Board(tuple(tuple(c) for c in cols))


@pytest.fixture
def standard1():
    return load_board("standard:1")
