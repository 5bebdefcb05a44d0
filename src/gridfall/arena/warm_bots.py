"""Warm the kernels the bots of a run will need, before a referee times them (:func:`warm_bots`).

A built-in bot runs this gridfall: its game's kernels are warmed here
(:func:`gridfall.warmup.warm`).  A command such as ``env PYTHONPATH=variant/src python3 -m
gridfall connect4 bot`` runs another copy: its source is another, so its kernels and the stamp of
a warm cache are its own (:mod:`gridfall.numba_cache`).  From a cold cache that bot plays its
pure-Python form while a child compiles (:mod:`gridfall.connect4.cold_start`): a league or an SPRT
would count those games as the copy's.  So the referee first runs the copy's own ``gridfall
warmup --game GAME``: the command's interpreter, options and environment, and ``warmup`` in place
of the module's arguments.  A copy too old to know ``--game`` is named, and its bot compiles as
it would have.  The script ``gridfall samegame bot`` (or ``uv run gridfall ...``) is read the
same way, as ``gridfall warmup --game GAME``: the ``gridfall`` first on the bot's PATH may be
this copy (then its warm-up finds the cache warm at once) or another.  Each copy is warmed once
a run, however its commands spell it (:func:`one_spelling`).
"""

from __future__ import annotations

import functools
import subprocess
import sys
from typing import IO, Iterable

from gridfall.arena.bot_command import gridfall_words, program_file
from gridfall.printable import printable

WARM_SECONDS = 900  # a copy's warm-up: SameGame's kernels take about a minute, on a slow machine several


def warmup_words(command: str, game: str) -> list[str] | None:
    """The words that warm the gridfall ``command`` runs (``python -m gridfall ...`` or the script
    ``gridfall ...``), or None for a command that runs something else, or a user's player
    (``--player``: no kernels)."""
    run = gridfall_words(command)
    if run is None or "--player" in run[0][run[1]:]:
        return None
    words, arguments = run
    return words[:arguments] + ["warmup", "--game", game]


def one_spelling(words: list[str]) -> tuple[str, ...]:
    """The words with their program as the shell would find it here, so that two spellings of one
    copy (``gridfall ...`` and ``~/venv/bin/gridfall ...`` when the first is the second, or
    ``python3`` and the path it stands for) read the same.  The program is not followed through
    links: a virtual environment's python is a link to the system's, which runs other packages.
    Under a runner (``uv run``: the project's PATH) or an ``env`` that sets, unsets or clears the
    PATH (:func:`~gridfall.arena.bot_command.program_file` cannot tell), the words stay as
    written, and each spelling is warmed on its own."""
    found = program_file(words)
    if found is None:
        return tuple(words)
    at = found.at
    return (*words[:at], found.path or words[at], *words[at + 1:])


def warm_copies(game: str, commands: Iterable[str], log: IO[str] = sys.stderr) -> None:
    """Warm each copy of gridfall that one of ``commands`` runs, once each, naming on ``log`` any
    that could not be warmed (the games go on: its bot plays as it would from a cold cache)."""
    seen: set[tuple[str, ...]] = set()
    for command in commands:
        words = warmup_words(command, game)
        if words is None or (copy := one_spelling(words)) in seen:
            continue
        seen.add(copy)
        print(f"gridfall: warming the kernels of the gridfall that {command!r} runs (a minute if its cache is cold)",
              file=log, flush=True)
        trouble = _run(words)
        if trouble:
            print(f"gridfall: could not warm the gridfall that {command!r} runs ({' '.join(words)}: {trouble}); "
                  "its first games may be played without its compiled kernels", file=log, flush=True)


def _run(words: list[str]) -> str:
    """'' once the words ran well, else what went wrong."""
    try:
        done = subprocess.run(words, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                              timeout=WARM_SECONDS)
    except subprocess.TimeoutExpired:
        return f"still compiling after {WARM_SECONDS} s"
    except FileNotFoundError:
        return f"no program {words[0]!r} here (not on the PATH, or not installed in this environment)"
    except OSError as e:
        return e.strerror or str(e)
    if done.returncode != 0:
        return f"exit {done.returncode}: " + printable((done.stderr.strip().splitlines() or ["no message"])[-1][:200])
    return ""


def _built_in(program: str, built_in: Iterable[str]) -> bool:
    return program.partition(":")[0] in built_in


def warm_where_they_play(executor, game: str, programs: list[str], built_in: Iterable[str]) -> None:
    """Have ``executor`` run :func:`warm_bots` where its games run (each Dask worker), before any,
    if it has anything to do for these programs."""
    built_in = tuple(built_in)
    if any(_built_in(p, built_in) or warmup_words(p, game) for p in programs):
        executor.prepare(functools.partial(warm_bots, game, programs, built_in))


def warm_bots(game: str, programs: Iterable[str], built_in: Iterable[str]) -> None:
    """Where the games will run, before any: this gridfall's kernels of ``game`` if one of
    ``programs`` is a built-in bot (named in ``built_in``, with or without ``:PARAMETER``), and
    those of each other copy of gridfall that a command runs, so that no bot compiles on its
    clock."""
    from gridfall.warmup import warm_saying

    programs, built_in = list(programs), tuple(built_in)
    if any(_built_in(p, built_in) for p in programs):
        warm_saying(game)
    warm_copies(game, [p for p in programs if not _built_in(p, built_in)])
