"""SameGame boards as arena jobs: one bot program on one board, under the referee.

A :class:`BoardJob` is everything a worker needs (it is pickled to Dask workers): the bot as the
user gave it (``gridfall`` is turned into a command on the worker), the board spec, the flavour
and the limits.  A board file is read where the run starts and travels as its ``rows:`` spec:
a worker on another machine has no such file, and the stored game keeps the board it was
played on, for its replay, whatever becomes of the file.  :func:`play_board` plays it and
returns the database row.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterable

from gridfall.arena.database import GameRow, stored_output
from gridfall.arena.limits import Limits, fitted_ms
from gridfall.arena.own_time import as_options, say_lacking
from gridfall.samegame.boards import load_board
from gridfall.samegame.codingame import LIMITS, referee_game
from gridfall.samegame.protocol import BotConfig
from gridfall.samegame.rules import action_text

BUILT_IN = ("gridfall",)


def bot_command(spec: str, one_turn: bool, seed: int, limits: Limits = LIMITS) -> str:
    """``gridfall`` (gridfall's bot, no solution store: it searches) as a command, its planning
    fitted into a first turn shorter than the platform's; any other text is a command already."""
    if spec != "gridfall":
        return spec
    return (f"{sys.executable} -m gridfall samegame bot --no-store --seed {seed}" + (" --one-turn" if one_turn else "")
            + as_options(fitted_times(limits)))


def fitted_times(limits: Limits) -> dict[str, str]:
    """The ``--first-turn-ms`` that fits gridfall's bot into a first turn shorter than the
    platform's (none for the platform's: the bot's own default then).  Its later turns answer
    from the plan at once."""
    planning = fitted_ms(BotConfig.first_turn_budget * 1000, LIMITS.first_turn * 1000, limits.first_turn * 1000)
    return {"--first-turn-ms": f"{max(planning, 100):.0f}"} if planning is not None else {}  # the bot's least: 100


def name_unfitted(commands: Iterable[str], limits: Limits) -> None:
    """Name on stderr the commands of gridfall's bot that would plan past ``limits``, with the
    option that fits them (:mod:`gridfall.arena.own_time`)."""
    say_lacking("samegame", commands, fitted_times(limits))


@dataclass(frozen=True)
class BoardJob:
    key: str
    board: str  # the board's spec as the user gave it: the job's name
    cells: str  # a spec that holds on any machine (boards.portable_spec): what is played
    name: str
    spec: str
    one_turn: bool
    limits: Limits
    seed: int

    def __str__(self) -> str:
        return f"{self.name} on {self.board}"


def play_board(job: BoardJob) -> GameRow:
    command = bot_command(job.spec, job.one_turn, job.seed, job.limits)
    record = referee_game(command, load_board(job.cells), job.board, one_turn=job.one_turn, limits=job.limits,
                          seed=job.seed)
    reason = record.outcome + (f": {record.detail}" if record.detail else "")
    return GameRow(job=job.key, game="samegame", commands=[job.spec], seats=[job.name],
                   moves=[action_text(x, y) for x, y in record.moves],
                   result={"score": record.score if record.ok else 0, "played": record.score, "ok": record.ok,
                           "cleared": record.cleared, "board": job.board, "one_turn": job.one_turn, "seed": job.seed,
                           **({"cells": job.cells} if job.cells != job.board else {}),
                           **({"other_flavour": True} if record.other_flavour else {}),  # codingame.compare_notes
                           **stored_output(record.output)},
                   reason=reason, times=record.times, messages=record.messages)
