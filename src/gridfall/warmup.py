"""Warm every game's kernels (`gridfall warmup`, and the test session's start).

Each game has its own ``warmup.warm()``; this module only lists them.
"""

from __future__ import annotations

import importlib
import time
from typing import Iterator

WARMERS = [
    ("samegame engine", "gridfall.samegame.warmup:warm_engine"),
    ("samegame search", "gridfall.samegame.warmup:warm_search"),
    ("connect4 solver and bots", "gridfall.connect4.warmup:warm"),
    ("match3 engine and strong", "gridfall.match3.warmup:warm"),
]


def _warmer(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def warm_everything() -> Iterator[tuple[str, float]]:
    """Warm each group of kernels in turn; yield (name, seconds it took)."""
    for name, path in WARMERS:
        start = time.monotonic()
        _warmer(path)()
        yield name, time.monotonic() - start


def warm(game: str) -> None:
    """Warm the kernels of one game ("samegame", "connect4", "match3"): referees call it before
    they time gridfall's own bots, since a bot that compiles on its first turn times out and is
    killed before it can write the cache, so every later game would fail the same way."""
    importlib.import_module(f"gridfall.{game}.warmup").warm()
