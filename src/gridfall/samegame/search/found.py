"""What every SameGame solver returns.

Every solver has one shape: ``X_solve(start, deadline, *, seed=0, on_improve=None, **its own)``,
with ``start`` the engine's board, ``deadline`` a ``time.monotonic()`` value and
``on_improve(score)`` called on every new best; it returns a :class:`Found`.
"""

from __future__ import annotations

from typing import NamedTuple


class Found(NamedTuple):
    score: int
    moves: list[tuple[int, int]]  # the line, as (x, y) clicks
    playouts: int | None = None  # the work it took, where the algorithm counts playouts
