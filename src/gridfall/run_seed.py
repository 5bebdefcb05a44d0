"""A bot's seed from the environment: ``GRIDFALL_SEED=N`` repeats a run's choices.

A module of its own so that the exported single-file bots carry it (:mod:`gridfall.export`).
"""

from __future__ import annotations

import os
import sys
from typing import IO

SEED_VARIABLE = "GRIDFALL_SEED"


def seed_from_environment(log: IO[str] = sys.stderr) -> int | None:
    """The whole number in GRIDFALL_SEED, or None (unset, or not a whole number: said on ``log``),
    for a seed of the run's own."""
    text = os.environ.get(SEED_VARIABLE) or None
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        print(f"gridfall bot: {SEED_VARIABLE}={text[:40]!r} is not a whole number; a fresh seed is drawn", file=log)
        return None
