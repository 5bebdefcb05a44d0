"""What every game's rules share about actions: the error that refuses one, and whole numbers.

A module of its own so that a rules module, and a single-file bot exported with it (the
CodinGame files), carries these and not the whole game interface (:mod:`gridfall.interface`,
which names them too).
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse; every game's own error derives from it."""


def whole_number(value) -> int | None:
    """``value`` as an int if it is a whole number (an int, a NumPy integer, 3.0), else None
    (2.5, text, None, True: ``int()`` would quietly make 2 of 2.5 and 1 of True)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        as_int = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return as_int if as_int == value else None


def action_id(action) -> int:
    """An action as an int (:func:`whole_number`); IllegalAction naming it otherwise."""
    as_int = whole_number(action)
    if as_int is None:
        raise IllegalAction(f"action {action!r} is not an integer")
    return as_int
