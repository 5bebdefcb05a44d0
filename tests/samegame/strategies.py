"""Hypothesis strategies for settled SameGame boards of every shape."""

from hypothesis import strategies as st

from gridfall.samegame import rules


@st.composite
def settled_boards(draw, max_colours=rules.COLOURS):
    """Settled boards: 0..15 filled columns of height 1..15, few or many colours."""
    colours = draw(st.integers(1, max_colours))
    width = draw(st.integers(0, rules.WIDTH))
    columns = []
    for _ in range(width):
        height = draw(st.integers(1, rules.HEIGHT))
        column = draw(st.lists(st.integers(0, colours - 1), min_size=height, max_size=height))
        columns.append(column + [rules.EMPTY] * (rules.HEIGHT - height))
    columns += [[rules.EMPTY] * rules.HEIGHT] * (rules.WIDTH - width)
    return rules.Board(tuple(tuple(c) for c in columns))
