"""Colour facts of a SameGame position (per-colour bitboards), for the colour strategies of the searches.

Which colour to keep for last decides whether a board can be cleared: the searches play the
``protect`` most common colours last (their *ranks*), and NRPA may weight a second colour's
points more (its *gains*).  Ties between equally common colours go to the lower colour, here and
everywhere.
"""

from __future__ import annotations

import numpy as np


def colour_counts(start: np.ndarray) -> list[int]:
    """The number of cells of each colour on a position."""
    return [sum(int(w).bit_count() for w in start[c]) for c in range(start.shape[0])]


def most_common_colour(start: np.ndarray) -> int:
    """The colour with the most cells (the tabu colour of the classic searches); 0 on an empty board."""
    order = colours_by_count(start)
    return order[0] if order else 0


def colour_lead(start: np.ndarray) -> int:
    """How many cells the most common colour has more than the next."""
    first, second = sorted(colour_counts(start), reverse=True)[:2]
    return first - second


def colours_by_count(start: np.ndarray) -> list[int]:
    """The colours present on a position, the most common first (ties: the lower colour first)."""
    counts = colour_counts(start)
    return sorted((c for c in range(len(counts)) if counts[c]), key=lambda c: (-counts[c], c))


def colour_ranks(start: np.ndarray, protect: int, tabu_rank: int = 0) -> np.ndarray:
    """Playout ranks of the colours: the ``protect`` most common colours are played last,
    the most common of all very last (``protect=1`` is the classic tabu colour, 0 none).

    ``tabu_rank=1`` takes the colours from the second most common on instead
    (the most common colour is then free): a different gathering to try.
    """
    order = colours_by_count(start)[tabu_rank:]
    ranks = np.zeros(start.shape[0], dtype=np.int64)
    for i, c in enumerate(order[:protect]):
        ranks[c] = protect - i
    return ranks


def colour_gains(start: np.ndarray, ranks: np.ndarray, favour: float, favour_rank: int = 0) -> np.ndarray:
    """What each colour's groups are worth to the search, as a multiple of their points: 1 + ``favour``
    for the second colour to gather, the ``favour_rank``-th most common colour (0 first) that is not
    kept back, and 1 for the others (all 1 without ``favour``, whatever ``favour_rank`` says)."""
    gains = np.ones(start.shape[0], dtype=np.float64)
    if favour == 0:  # a campaign's favour_rank=4 without favour failed every board that keeps a colour
        return gains
    free = [c for c in colours_by_count(start) if ranks[c] == 0]
    if not 0 <= favour_rank < max(len(free), 1):
        raise ValueError(f"favour_rank={favour_rank}: this board has {len(free)} colours not kept back")
    if free:
        gains[free[favour_rank]] += favour
    return gains
