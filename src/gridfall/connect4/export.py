"""``gridfall connect4 export``: gridfall's pure-Python bot as one CodinGame file (Python 3.11,
standard library), bundled from the package's own modules (:mod:`gridfall.export`)."""

from __future__ import annotations

import json
from importlib import resources

from gridfall.connect4.book import BOOK_FILE
from gridfall.connect4.openings import TABLE_FILE
from gridfall.connect4.protocol import EXPORT_TURN_MS, FIRST_TURN_MS
from gridfall.export import bundle

MODULES = [
    "gridfall.actions",
    "gridfall.run_seed",
    "gridfall.connect4.rules",
    "gridfall.connect4.openings",
    "gridfall.connect4.book",
    "gridfall.player_fault",
    "gridfall.connect4.protocol",
    "gridfall.connect4.portable",
]


def export_source(first_turn_ms: float = FIRST_TURN_MS, turn_ms: float = EXPORT_TURN_MS) -> str:
    """The bot's file: it answers within ``first_turn_ms`` of its start, then ``turn_ms`` a turn."""
    data = resources.files("gridfall") / "data" / "connect4"
    table = json.loads(data.joinpath(TABLE_FILE).read_text())
    book = json.loads(data.joinpath(BOOK_FILE).read_text())
    main = f"""
from gridfall.connect4.book import Book
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.portable import PortableAgent
from gridfall.connect4.protocol import play
from gridfall.run_seed import seed_from_environment

TABLE = {table!r}
BOOK = {book!r}
# GRIDFALL_SEED=N (a whole number) repeats a run's choices; without it every run draws its own seed
_SEED = seed_from_environment()
_ENDED_WELL = play(PortableAgent(OpeningTable.from_data(TABLE), seed=_SEED, book=Book.from_data(BOOK)), _sys.stdin,
                   _sys.stdout, started=_STARTED, first_turn={first_turn_ms / 1000!r}, turn={turn_ms / 1000!r})
_sys.exit(0 if _ENDED_WELL else 1)  # 1: the input was not the protocol's (said on stderr)
"""
    return bundle(MODULES, main, title="gridfall's Connect Four bot for CodinGame (7x9 with STEAL), pure Python.",
                  prelude="import time as _time\n_STARTED = _time.monotonic()  # the first turn counts from here")
