"""Warm every game's kernels (`gridfall warmup`, and the test session's start).

Each game has its own ``warmup.warm()``; this module only lists them, and writes the package's
Python bytecode, which a bot's start reads too.
"""

from __future__ import annotations

import importlib
import os
import time
from typing import Iterator


def compile_bytecode() -> None:
    """Write the bytecode of every module of the package, where Python has not: an install in
    place (``pip install -e``) under ``PYTHONDONTWRITEBYTECODE=1`` compiles every module it
    imports at every start, which took the numba bot's first answer from 0.7 s to 1.0-1.3 s of
    Connect Four's 1 s on an Intel Xeon (2026-11-29).  Python reads bytecode whatever that
    variable says.  Up-to-date files are left as they are, and a folder that cannot be written
    (an install of the system's) keeps what its installer wrote."""
    import compileall

    compileall.compile_dir(os.path.dirname(os.path.abspath(__file__)), quiet=2)


WARMERS = [
    ("python bytecode", "gridfall.warmup:compile_bytecode"),
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
    compile_bytecode()
    importlib.import_module(f"gridfall.{game}.warmup").warm()
