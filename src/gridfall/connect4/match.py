"""Connect Four game pairs as arena jobs: two programs, one opening, seats swapped.

A :class:`PairJob` is everything a worker needs to play a pair (it is pickled to Dask workers):
the two programs as the user gave them (a built-in agent name is turned into a command on the
worker, where ``python`` and gridfall may live elsewhere), the opening, the limits and the
seeds.  :func:`play_pair` plays it; :func:`game_rows` turns its records into database rows.

Openings are the first ``plies`` moves, drawn from the run's seed and the pair's number, so the
schedule of a run is a function of its settings (what lets a run resume) and both games of a
pair start from the same position.  With ``plies`` 0 the bots play the whole game, STEAL
included; with 1 the second seat still decides whether to steal.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from typing import Iterable

from gridfall.arena.database import GameRow, stored_output
from gridfall.arena.limits import Limits, fitted_ms
from gridfall.arena.own_time import as_options, say_lacking
from gridfall.connect4.agents import AGENT_NAMES, thinks_to_the_clock
from gridfall.connect4.codingame import LIMITS, GameRecord, referee_game
from gridfall.connect4.protocol import FIRST_TURN_MS, TURN_MS
from gridfall.connect4.rules import Game


def bot_command(spec: str, seed: int, limits: Limits = LIMITS) -> str:
    """A built-in agent name (``gridfall``, ``mcts``, ``alphabeta:4``) as a bot command, its times
    fitted into ``limits`` where they are tighter than the platform's; any other text is a command
    already."""
    if spec.partition(":")[0] not in AGENT_NAMES:
        return spec
    return f"{sys.executable} -m gridfall connect4 bot --agent {spec} --seed {seed}" + as_options(fitted_times(limits))


def fitted_times(limits: Limits) -> dict[str, str]:
    """The bot's time options that fit it into ``limits`` where they are tighter than the
    platform's (none under the platform's own: the bot's defaults then)."""
    times = {"--first-turn-ms": fitted_ms(FIRST_TURN_MS, LIMITS.first_turn * 1000, limits.first_turn * 1000),
             "--turn-ms": fitted_ms(TURN_MS, LIMITS.turn * 1000, limits.turn * 1000)}
    # the bot takes 1 ms at least
    return {option: f"{max(ms, 1):.1f}" for option, ms in times.items() if ms is not None}


def thinks_to_its_clock(arguments: list[str]) -> bool:
    """Whether ``gridfall connect4 bot ARGUMENTS`` thinks until its turn's deadline: a --player
    (given the turn's time), or the --agent it names (gridfall by default) if that one does."""
    agent = "gridfall"
    for at, word in enumerate(arguments):
        if word == "--player" or word.startswith("--player="):
            return True
        if word == "--agent" and at + 1 < len(arguments):
            agent = arguments[at + 1]
        elif word.startswith("--agent="):
            agent = word.partition("=")[2]
    return thinks_to_the_clock(agent)


def name_unfitted(commands: Iterable[str], limits: Limits) -> None:
    """Name on stderr the commands of gridfall's bot that would think past ``limits``, with the
    options that fit them (:mod:`gridfall.arena.own_time`)."""
    say_lacking("connect4", commands, fitted_times(limits), thinks_to_its_clock)


def opening(seed: int, number: int, plies: int) -> tuple[int, ...]:
    """The ``plies`` first moves of pair ``number``: random columns, never a STEAL."""
    rng = random.Random(f"gridfall opening {seed} {number}")
    game = Game(steal=True)
    moves = []
    for _ in range(plies):
        column = rng.choice([a for a in game.legal_actions() if a >= 0])
        game.apply_action(column)
        moves.append(column)
    return tuple(moves)


@dataclass(frozen=True)
class PairJob:
    """Pair ``number`` of a run: ``specs[0]`` moves first in game 0, ``specs[1]`` in game 1."""

    key: str
    names: tuple[str, str]
    specs: tuple[str, str]
    opening: tuple[int, ...]
    limits: Limits
    seed: int  # the bots' seed (--seed, or GRIDFALL_SEED for a command): seed for game 0, seed + 1 for game 1

    def __str__(self) -> str:
        return f"{self.key} ({self.names[0]} vs {self.names[1]})"


def play_pair(job: PairJob) -> list[GameRecord]:
    """Both games of the pair, seats swapped."""
    records = []
    for game, (a, b) in enumerate(((0, 1), (1, 0))):
        commands = (bot_command(job.specs[a], job.seed + game, job.limits),
                    bot_command(job.specs[b], job.seed + game, job.limits))
        records.append(referee_game(commands, (job.names[a], job.names[b]), job.limits, opening=job.opening,
                                    seed=job.seed + game))
    return records


def game_rows(job: PairJob, records: list[GameRecord]) -> list[GameRow]:
    """The database rows of a played pair."""
    rows = []
    for game, record in enumerate(records):
        order = (0, 1) if game == 0 else (1, 0)
        rows.append(GameRow(
            job=f"{job.key} game {game}", game="connect4", commands=[job.specs[i] for i in order],
            seats=list(record.seats), moves=record.moves,
            result={"winner": record.winner, "opening": record.opening, "seed": record.seed,
                    **stored_output(record.output)},
            reason=record.reason, times=record.times, messages=record.messages))
    return rows


def points_of(row: GameRow, name: str) -> float:
    """The named program's points in a stored game: 1, 1/2 or 0."""
    winner = row.result["winner"]
    if winner is None:
        return 0.5
    return 1.0 if row.seats[winner] == name else 0.0


def fault_of(row: GameRow) -> tuple[str, str] | None:
    """(the loser's name, what went wrong) when a stored game was lost by a fault: a timeout, a
    crash, a program that could not start or an answer the referee refused; None otherwise.
    The referee writes such a reason as "NAME: what" or "NAME could not start: what"."""
    winner = row.result["winner"]
    if winner is None:
        return None
    name = row.seats[1 - winner]
    if row.reason.startswith(f"{name}: "):
        return name, row.reason[len(name) + 2:]
    if row.reason.startswith(f"{name} could not start: "):
        return name, row.reason[len(name) + 1:]
    return None
