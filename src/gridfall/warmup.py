"""Warm every game's kernels (`gridfall warmup`, and the test session's start).

Each game's ``warmup`` module calls its kernels once; this module lists them in groups, compiles
a cold cache's groups in child processes on the cores there are (:func:`compiled_apart`), writes
the package's Python bytecode, which a bot's start reads too, and stamps the cache of a game
warmed whole.
A bot reads the stamp to choose how to get its kernels: loaded in a thread of its own, or, from
a cold cache, compiled by a child process at idle priority while the bot plays in pure Python
(:func:`in_background`, :func:`compile_in_a_child`).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO, Iterator

from gridfall.main_thread import off_the_main_thread


def compile_bytecode() -> None:
    """Write the bytecode of every module of the package, where Python has not: an install in
    place (``pip install -e``) under ``PYTHONDONTWRITEBYTECODE=1`` compiles every module it
    imports at every start, which took the numba bot's first answer from 0.7 s to 1.0-1.3 s of
    Connect Four's 1 s on an Intel Xeon (2026-11-29).  Python reads bytecode whatever that
    variable says.  Up-to-date files are left as they are, and a folder that cannot be written
    (an install of the system's) keeps what its installer wrote."""
    import compileall

    compileall.compile_dir(os.path.dirname(os.path.abspath(__file__)), quiet=2)


# Every kernel, in groups that compile apart, the longest to compile first: the one list of them.
GROUPS = [  # (name, game, "module:function")
    ("samegame NRPA and annealing", "samegame", "gridfall.samegame.warmup:warm_nrpa_and_annealing"),
    ("samegame beam, NMCS and MCBS", "samegame", "gridfall.samegame.warmup:warm_tree_searches"),
    ("connect4 solver and bots", "connect4", "gridfall.connect4.warmup:warm"),
    ("samegame engine", "samegame", "gridfall.samegame.warmup:warm_engine"),
    ("match3 engine and strong", "match3", "gridfall.match3.warmup:warm"),
]
GAMES = tuple(dict.fromkeys(game for _name, game, _path in GROUPS))  # samegame, connect4, match3


def _warmer(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def warm_everything() -> Iterator[tuple[str, float]]:
    """Warm every game's kernels; yield (what, seconds it took) as each group is ready.

    From a cold cache the groups compile in child processes (:func:`compiled_apart`); then this
    process loads them all, in silence, which also compiles here what a child's cache lost."""
    start = time.monotonic()
    compile_bytecode()
    yield "python bytecode", time.monotonic() - start
    apart = set()
    for name, seconds in compiled_apart([group for group in GROUPS if not is_warm(group[1])]):
        apart.add(name)
        yield name, seconds
    for name, _game, path in GROUPS:
        start = time.monotonic()
        off_the_main_thread(_warmer(path))
        if name not in apart:
            yield name, time.monotonic() - start
    for game in GAMES:
        _stamp_warm(game)


def warm(game: str, apart: bool = True) -> None:
    """Warm the kernels of one game ("samegame", "connect4", "match3"): referees call it before
    they time gridfall's own bots, since a bot that compiles on its first turn times out and is
    killed before it can write the cache, so every later game would fail the same way.  A cold
    cache is compiled in children (:func:`compiled_apart`), unless ``apart`` is False."""
    groups = [group for group in GROUPS if group[1] == game]
    if not groups:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
    compile_bytecode()
    if apart and not is_warm(game):
        for _ in compiled_apart(groups):
            pass
    for _name, _game, path in groups:  # loads what children compiled, and compiles what they did not
        off_the_main_thread(_warmer(path))
    _stamp_warm(game)


def warm_saying(game: str) -> None:
    """:func:`warm`, first saying so on stderr when the kernels must compile: a minute that a log
    would otherwise show as silence."""
    if not is_warm(game):
        print(f"gridfall: compiling the {game} kernels on their first use (about a minute; then cached)",
              file=sys.stderr, flush=True)
    warm(game)


def compiled_apart(groups: list[tuple[str, str, str]]) -> Iterator[tuple[str, float]]:
    """Compile the kernels of ``groups`` in child processes, as many at once as this process may
    use cores, in the order given; yield each group's name and seconds as its child ends.

    numba compiles on one core: every game's kernels from a cold cache took 48-49 s one group after
    another, and 34-36 s in two children (`gridfall warmup`, 2 cores, AMD EPYC, 2026-12-07).  With
    fewer than two cores or groups there are no children, and the caller compiles as it loads.  A
    group whose child failed is not yielded: the caller compiles it too, and meets its error itself.
    The caller must load every kernel afterwards anyway: numba writes a function's index of compiled
    signatures whole, so of two children that add different signatures to one function's, the last
    one's stays, and the caller's load compiles the other.  A stop (or a caller that stops asking)
    kills the children; what they cached by then stays."""
    from gridfall.machine import usable_cores

    workers = min(usable_cores(), len(groups))
    if workers < 2:
        return
    waiting = list(groups)
    running: dict[subprocess.Popen, tuple[str, float]] = {}
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                name, _game, path = waiting.pop(0)
                try:  # what a child says (a stop's traceback) is not the user's: a failed group is compiled again
                    child = subprocess.Popen([sys.executable, "-c", f"from gridfall.warmup import _warmer; "
                                              f"_warmer({path!r})()"], stdin=subprocess.DEVNULL,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                except OSError:  # no process to be had: the caller compiles what is left
                    waiting.clear()
                    break
                running[child] = (name, time.monotonic())
            time.sleep(0.05)  # called in the main thread, a stop lands here
            for child in [child for child in running if child.poll() is not None]:
                name, began = running.pop(child)
                if child.returncode == 0:
                    yield name, time.monotonic() - began
    finally:
        for child in running:
            child.kill()
            child.wait()


# --- the stamp of a warm cache, and a bot's kernels without a pause ----------


def _stamp(game: str) -> str:
    """A file in the numba cache that says the game's kernels were warmed there, from this source
    by this Python and numba (a ``$NUMBA_CACHE_DIR`` outlives an edit of the package or an upgrade
    of numba; the default folder does not)."""
    from gridfall.numba_cache import CACHE_DIR, source_digest  # not numba: a bot's first turn asks

    return os.path.join(CACHE_DIR, f"warm-{game}-{source_digest()}")


def _stamp_warm(game: str) -> None:
    try:
        open(_stamp(game), "w").close()
    except OSError:
        pass  # a cache that cannot be written: its bots compile in a child each start, as they would anyway


def is_warm(game: str) -> bool:
    """Whether the game was warmed whole in this numba cache, by this source."""
    return os.path.exists(_stamp(game))


def in_background(game: str, log: IO[str]) -> threading.Event | None:
    """An event set once the game's kernels are ready in this process, for a bot that must answer
    while they come; None when they will not come in this process.

    From a warm cache they load in a daemon thread: about a second.  A cold cache is filled by a
    child process instead, and this process goes on without them (None).  In the same process
    numba's compiler makes garbage so fast that the collector held the interpreter 20-300 ms at a
    time (SameGame's kernels, Intel Xeon, 2026-11-29): a bot that answered a turn meanwhile took
    70-80 ms, and lost a game to a limit of 100 ms.

    The child compiles on CPU time that no other process wants (:func:`warm_when_idle`), so it
    never slows the bot, nor an opponent that shares its core.  It goes on after the bot ends, to
    finish: Connect Four's kernels take 14 s to compile, longer than many games.  When it ends,
    the cache is stamped and the next start loads them.  A referee that kills the bot's whole
    tree (gridfall's do, and warm the cache first) stops it too: each kernel compiled by then
    stays in the cache, and the next child goes on from there.  A cache warmed but not stamped
    (by a search run, not ``gridfall warmup``) costs one start without its kernels: its child
    only loads and stamps."""
    if not is_warm(game):
        compile_in_a_child(game, log)
        return None
    ready = threading.Event()

    def load() -> None:
        try:
            warm(game)
            ready.set()
        except Exception as e:  # noqa: BLE001 - the bot goes on without its kernels
            print(f"gridfall bot: the {game} kernels failed to load ({e!r})", file=log)

    threading.Thread(target=load, name=f"gridfall-{game}-kernels", daemon=True).start()
    return ready


def compile_in_a_child(game: str, log: IO[str]) -> None:
    """Start a child process that fills a cold cache with the game's kernels, and go on: for a bot
    that plays without them meanwhile (:func:`in_background` says why not in this process, and
    how long the child lives).  A thread of the bot's names a failure on ``log``, while it lives."""
    # stdin and stdout are the bot's protocol: the child touches neither.  Its messages go to a
    # file without a name, not a pipe: the child goes on after the bot, whose end would break it.
    # It starts before this returns: a bot whose game is over at once ends before a thread would.
    err = tempfile.TemporaryFile("w+", errors="replace")
    try:
        child = subprocess.Popen([sys.executable, "-c", f"from gridfall.warmup import warm_when_idle; "
                                  f"warm_when_idle({game!r})"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    except OSError as e:  # no process left to start one with: the bot plays on without its kernels
        err.close()
        print(f"gridfall bot: cannot start compiling the {game} kernels ({e})", file=log)
        return

    def report() -> None:
        with err:
            if child.wait() != 0:
                err.seek(0)
                last = (err.read().strip().splitlines() or ["no message"])[-1]
                print(f"gridfall bot: compiling the {game} kernels failed (exit {child.returncode}: {last})",
                      file=log)

    threading.Thread(target=report, name=f"gridfall-{game}-compiling", daemon=True).start()


def warm_when_idle(game: str) -> None:
    """:func:`warm`, in the child of a bot that found its cache cold (:func:`in_background`).

    It runs at the lowest priority there is: Linux's SCHED_IDLE gives it only CPU time that
    nothing else wants (elsewhere, or where that is refused, nice 19 comes close).  One child
    compiles a game's kernels into a cache at a time: a lock in the cache says so, and a child
    that finds it taken leaves at once (a league that starts a dozen cold bots starts one
    compile).  Where the cache cannot be locked, each child compiles; the result is the same."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except (AttributeError, OSError):
            pass
    with _alone(game) as alone:
        if alone:
            warm(game, apart=False)  # in this one process, which ends with the bot's tree; no hurry here


@contextlib.contextmanager
def _alone(game: str) -> Iterator[bool]:
    """Hold the game's warm-up lock in the cache: True once held, or where no lock can be had (no
    ``fcntl``, a folder that cannot be written); False while another process holds it."""
    try:
        import fcntl

        from gridfall.numba_cache import CACHE_DIR

        os.makedirs(CACHE_DIR, exist_ok=True)
        lock = open(os.path.join(CACHE_DIR, f"warm-{game}.lock"), "a")
    except (ImportError, OSError):
        yield True
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go when the file closes, or the process ends
        except OSError:
            yield False
            return
        yield True
