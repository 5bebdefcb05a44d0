"""A command that runs gridfall's own bot thinks the platform's time, unless its command says
otherwise.

A built-in name (``gridfall``) becomes a command whose time is fitted into a referee's limits
where they are tighter than CodinGame's (:func:`gridfall.arena.limits.fitted_ms`).  A command
the user writes is theirs: ``python -m gridfall connect4 bot``, or a copy under test (``env
PYTHONPATH=variant/src python3 -m gridfall connect4 bot``), runs as written.  Under a tighter
limit it would lose every game on time, so before the first game the referee names the options
it lacks, with the values the built-in name gets.  A bot that does not think to its clock (Connect
Four's ``--agent random``, or ``mcts:2000`` with its iterations) is not named: each game says
which bots ``clocked`` are.
"""

from __future__ import annotations

import sys
from typing import IO, Callable, Iterable

from gridfall.arena.bot_command import gridfall_words


def as_options(times: dict[str, str]) -> str:
    """``{"--turn-ms": "35.0"}`` as the words a command ends with: `` --turn-ms 35.0``."""
    return "".join(f" {option} {value}" for option, value in times.items())


Clocked = Callable[[list[str]], bool]  # whether `gridfall GAME bot ARGUMENTS` thinks to its turn's deadline


def always(arguments: list[str]) -> bool:
    """Every bot of the game thinks to its clock (SameGame's plans until its deadline, whatever it is given)."""
    return True


def lacking(command: str, game: str, times: dict[str, str], clocked: Clocked = always) -> dict[str, str]:
    """The options of ``times`` that ``command``, if it runs gridfall's ``GAME bot`` and that bot
    thinks to its clock, does not give (as ``--turn-ms 35`` or ``--turn-ms=35``); none for any
    other command."""
    run = gridfall_words(command)
    if run is None:
        return {}
    words, at = run
    if words[at:at + 2] != [game, "bot"] or not clocked(words[at + 2:]):
        return {}
    given = {word.partition("=")[0] for word in words[at + 2:]}
    return {option: value for option, value in times.items() if option not in given}


def say_lacking(game: str, commands: Iterable[str], times: dict[str, str], clocked: Clocked = always,
                log: IO[str] = sys.stderr) -> None:
    """Name on ``log``, once each, the commands of gridfall's bot that lack the time options
    ``times`` (what fits the bot into the run's limits; empty under the platform's own)."""
    for command in dict.fromkeys(commands):
        missing = lacking(command, game, times, clocked)
        if missing:
            print(f"gridfall: {command!r} runs gridfall's bot, which thinks CodinGame's time unless told: "
                  f"under this run's tighter limits it would lose on time; add{as_options(missing)} to its "
                  "command (the built-in names get the same)", file=log, flush=True)
