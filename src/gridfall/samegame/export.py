"""``gridfall samegame export``: gridfall's pure-Python SameGame bot as one CodinGame file.

The file carries the rules of record, the protocol loop and the pure-Python planner
(:mod:`gridfall.samegame.portable`), bundled from the package (:mod:`gridfall.export`), and the
user's own best lines (their solution store, or a results file), compressed and keyed by the
board up to recolouring: the CodinGame validators 31-50 are the standard boards recoloured.  Only
the lines of boards CodinGame plays go in (:func:`for_the_platform`).
"""

from __future__ import annotations

import base64
import json
import zlib

from gridfall.export import bundle
from gridfall.samegame.boards import board_key, load_board, parse_board, set_specs

MODULES = [
    "gridfall.actions",
    "gridfall.splitmix",
    "gridfall.text_file",
    "gridfall.samegame.rules",
    "gridfall.samegame.line",
    "gridfall.samegame.boards",
    "gridfall.samegame.columns",
    "gridfall.samegame.greedy",
    "gridfall.samegame.portable",
    "gridfall.samegame.protocol",
]


def platform_keys() -> set[str]:
    """The keys of every board CodinGame plays: its 50 test boards and the 20 standard boards (its
    validators are those recoloured, and a key is blind to colours)."""
    return {board_key(load_board(spec)) for name in ("standard", "codingame") for spec in set_specs(name)}


def for_the_platform(known: dict[str, str]) -> tuple[dict[str, str], int]:
    """``known`` without the lines of boards CodinGame never plays (tuning, random), and how many
    were left out: a store filled by tuning would otherwise push the file over the platform's limit."""
    keys = platform_keys()
    kept = {key: line for key, line in known.items() if key in keys}
    return kept, len(known) - len(kept)


def known_from_store(store) -> dict[str, str]:
    """Board key -> line text, for every sound entry of a solution store."""
    return {board_key(parse_board(e.board)): e.moves for e in store.entries() if e.replays()}


def known_from_results(path: str, set_name: str = "standard") -> dict[str, str]:
    """Board key -> line text, for every row of a results file (each replayed by the store's rules)."""
    from gridfall.samegame.store import SolutionStore

    with SolutionStore(":memory:") as store:
        store.import_file(path, set_name)
        return known_from_store(store)


def export_source(known: dict[str, str], one_turn: bool = False, first_turn_ms: float = 18_500,
                  replan_ms: float = 20) -> str:
    """The bot's file: ``known`` lines (board key -> text), else a beam search for ``first_turn_ms``."""
    data = base64.b85encode(zlib.compress(json.dumps(known, separators=(",", ":")).encode(), 9)).decode()
    main = f"""
import base64 as _b64
import json as _json
import zlib as _zlib

from gridfall.samegame.portable import PortablePlanner
from gridfall.samegame.protocol import BotConfig, play_one_turn, play_turns

KNOWN = _json.loads(_zlib.decompress(_b64.b85decode({data!r})))  # {len(known)} boards: board key -> line
config = BotConfig(first_turn_budget={first_turn_ms / 1000!r}, replan_budget={replan_ms / 1000!r})
_ENDED_WELL = {"play_one_turn" if one_turn else "play_turns"}(_sys.stdin, _sys.stdout, config, PortablePlanner(KNOWN),
                                                                started=_STARTED)
_sys.exit(0 if _ENDED_WELL else 1)  # 1: the input was not the protocol's (said on stderr)
"""
    flavour = "one-turn" if one_turn else "turn-by-turn"
    return bundle(MODULES, main, title=f"gridfall's SameGame bot for CodinGame ({flavour}), pure Python.",
                  prelude="import time as _time\n_STARTED = _time.monotonic()  # the first turn counts from here")
