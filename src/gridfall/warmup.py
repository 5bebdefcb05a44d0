"""Warm every game's kernels (`gridfall warmup`, and the test session's start).

Each game has its own ``warmup.warm()``; this module only lists them, writes the package's
Python bytecode, which a bot's start reads too, and stamps the cache of a game warmed whole.
A bot reads the stamp to choose how to get its kernels (:func:`in_background`).
"""

from __future__ import annotations

import atexit
import importlib
import os
import subprocess
import sys
import threading
import time
from typing import IO, Iterator


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
    for game in {path.split(".")[1] for _, path in WARMERS if path.count(".") == 2}:
        _stamp_warm(game)


def warm(game: str) -> None:
    """Warm the kernels of one game ("samegame", "connect4", "match3"): referees call it before
    they time gridfall's own bots, since a bot that compiles on its first turn times out and is
    killed before it can write the cache, so every later game would fail the same way."""
    compile_bytecode()
    importlib.import_module(f"gridfall.{game}.warmup").warm()
    _stamp_warm(game)


# --- the stamp of a warm cache, and a bot's kernels without a pause ----------


def _stamp(game: str) -> str:
    """A file in the numba cache that says the game's kernels were warmed there, from this source
    (a ``$NUMBA_CACHE_DIR`` outlives an edit of the package; the default folder does not)."""
    from gridfall.jit import CACHE_DIR, source_digest

    return os.path.join(CACHE_DIR, f"warm-{game}-{source_digest()}")


def _stamp_warm(game: str) -> None:
    try:
        open(_stamp(game), "w").close()
    except OSError:
        pass  # a cache that cannot be written: its bots compile in a child each start, as they would anyway


def is_warm(game: str) -> bool:
    """Whether the game was warmed whole in this numba cache, by this source."""
    return os.path.exists(_stamp(game))


def in_background(game: str, log: IO[str]) -> threading.Event:
    """An event set once the game's kernels are ready in this process, for a bot that must answer
    while they come.

    From a warm cache they load in a daemon thread: about a second.  A cold cache is filled by a
    child process instead, and this process goes on without them (the event is never set).  In
    the same process numba's compiler makes garbage so fast that the collector held the
    interpreter 20-300 ms at a time (SameGame's kernels, Intel Xeon, 2026-11-29): a bot that
    answered a turn meanwhile took 70-80 ms, and lost a game to a limit of 100 ms.  The child
    stops with the bot; each kernel it compiled by then stays in the cache, and the next start
    that finds the cache stamped loads them all.  A cache warmed but not stamped (by a search
    run, not ``gridfall warmup``) costs one start without its kernels: the child then only loads
    and stamps."""
    ready = threading.Event()

    def get_them() -> None:
        try:
            if is_warm(game):
                warm(game)
                ready.set()
            else:
                _warm_in_a_child(game, log)
        except Exception as e:  # noqa: BLE001 - the bot goes on without its kernels
            print(f"gridfall bot: the {game} kernels failed to load ({e!r})", file=log)

    threading.Thread(target=get_them, name=f"gridfall-{game}-kernels", daemon=True).start()
    return ready


def _warm_in_a_child(game: str, log: IO[str]) -> None:
    # stdin and stdout are the bot's protocol: the child must touch neither
    child = subprocess.Popen([sys.executable, "-c", f"from gridfall.warmup import warm; warm({game!r})"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, errors="replace")
    atexit.register(child.kill)  # the bot's end ends the compiling: no process outlives it
    _, err = child.communicate()
    if child.returncode not in (0, -9):
        last = (err.strip().splitlines() or ["no message"])[-1]
        print(f"gridfall bot: compiling the {game} kernels failed (exit {child.returncode}: {last})", file=log)
