"""What each search parameter may be: checked by ``check_request`` before any board is searched.

The kernels index their arrays with these values, and numba checks no bound: ``mcbs`` with
``width=0`` made arrays with no room and wrote past them (the process died in ``free()``);
``nmcs`` with ``level=0`` recursed below level 1 (an IndexError in the middle of a campaign);
NRPA keeps one best line per level up to 7, and a guided search runs one level above ``level``.
A search reads the clock between kernel calls, so one call must fit well inside a turn: ``mcbs``
reads it between children, and a child's ``playouts`` are one call; NRPA's level 1 is one call
of ``iterations`` playouts.  4,096 take some 60 ms; 10^6 ran a 1.5 s search past a minute.
Upper bounds are far above any useful value; they keep a typo's zeros from overflowing int64.
"""

from __future__ import annotations

import math

from gridfall.actions import whole_number

WHOLE, NUMBER, SHARE, FLAG = "a whole number", "a number", "a share", "true or false"
BIG = 1 << 40  # a count of edits, runs or playouts no search reaches
MCBS_WIDEST = 1 << 16  # mcbs's widest beam, asked for or widened to

# algorithm -> parameter -> (kind, lowest, highest); a parameter whose default is None may be None
RANGES: dict[str, dict[str, tuple[str, float, float]]] = {
    "beam": {"max_width": (WHOLE, 1, BIG)},
    "nmcs": {"level": (WHOLE, 1, 9), "max_runs": (WHOLE, 1, BIG)},
    "mcbs": {"width": (WHOLE, 1, MCBS_WIDEST), "playouts": (WHOLE, 1, 1 << 12), "widen": (FLAG, 0, 1),
             "max_runs": (WHOLE, 1, BIG)},
    "anneal": {"temp_from": (NUMBER, 1e-6, 1e9), "temp_to": (NUMBER, 1e-6, 1e9), "sweep": (WHOLE, 1, BIG),
               "max_edits": (NUMBER, 1, math.inf)},
    "nrpa": {"level": (WHOLE, 1, 6), "iterations": (WHOLE, 1, 1 << 12), "alpha": (NUMBER, 0, 1e3),
             "bias": (NUMBER, 0, 1e3), "protect": (WHOLE, 0, 5), "tabu_rank": (WHOLE, 0, 4),
             "soft": (NUMBER, 0, 1), "spare": (WHOLE, 0, 225), "colour_rate": (NUMBER, 0, 1e3),
             "max_runs": (WHOLE, 1, BIG), "max_playouts": (NUMBER, 1, math.inf), "favour": (NUMBER, 0, 1e3),
             "favour_rank": (WHOLE, 0, 4), "rescue": (SHARE, 0, 1), "lead": (WHOLE, 0, 225)},
}


def check_value(algo: str, name: str, value) -> None:
    """ValueError naming ``name=value`` if ``algo`` cannot take it (a name it does not know passes)."""
    kind: str | None
    kind, low, high = RANGES.get(algo, {}).get(name, (None, 0, 0))
    if kind is None or value is None and name in ("tabu_rank", "max_runs"):
        return
    if kind == FLAG:
        ok = isinstance(value, bool) or value in (0, 1)
    elif kind == WHOLE:
        ok = whole_number(value) is not None and low <= value <= high
    elif kind == SHARE:  # a share of the time: [low, high)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value < high
    else:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value) \
            and low <= value <= high
    if not ok:
        span = f"[{low:g}, {high:g})" if kind == SHARE else f"{low:,} to {high:,}" if kind == WHOLE else \
            f"{low:g} to {high:g}"
        raise ValueError(f"{algo}: {name}={value!r} is not {kind}" + ("" if kind == FLAG else f" from {span}"))
