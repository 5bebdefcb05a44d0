"""Measuring the pie rule: what each first chip on 9x7 is worth to the player who must answer it.

After the first player's chip in column ``c`` the second player either steals it (and becomes
its owner, with the opponent to move) or plays on.  The opening table
(:mod:`.openings`) needs one number per column: the expected score share of the player to
move, who did not steal.  This module estimates it by play between two different engines:

* a *pair* is two games from one position, the first chip in ``c`` followed by ``plies``
  random central moves (the same for both games: diversified openings); in game 0 engine A
  owns the chip and B answers, in game 1 the seats are swapped, so each engine's strength
  counts on both sides and cancels to first order;
* every move gets ``turn`` seconds (CodinGame's 100 ms by default);
* once few enough cells are empty, the exact solver (weak: win, draw or loss) replaces the
  rest of the game where it finishes inside ``solve_seconds``: deep search where it reaches;
* a column and its mirror image are one opening; its value is the mean of the pairs'
  shares with a 95% interval from their spread (pairs, not games, are the independent
  samples).

Jobs are :class:`PieGame`; :func:`play_pie_game` plays one in this process (agents and the
solver are made once per thread), so the run's executor may be local threads or Dask.  A thread
cannot be ended from outside: a stopped run tells its games under way to stop where they run
(:mod:`gridfall.arena.job_name`, :mod:`.stopping`).
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass

from gridfall.arena.database import GameRow
from gridfall.connect4 import stopping
from gridfall.connect4.rules import Game

CENTRAL_REACH = 4  # random opening plies go to columns with |2x - (width - 1)| <= this (2..6 on 9x7)


@dataclass(frozen=True)
class PieGame:
    """Game ``game`` (0: engines[0] owns the first chip, 1: engines[1] does) of pair ``pair``."""

    column: int  # the first chip's column (the representative of a column and its mirror)
    pair: int
    game: int
    engines: tuple[str, str]
    plies: int
    turn: float
    solve_empties: int
    solve_seconds: float
    seed: int
    width: int = 9
    height: int = 7

    @property
    def key(self) -> str:
        return f"column {self.column} pair {self.pair} game {self.game}"

    def __str__(self) -> str:
        return self.key

    def opening(self) -> list[int]:
        """The first chip, then ``plies`` random central moves drawn from the run's seed and the
        pair (both games of a pair share them); half the pairs are mirrored."""
        rng = random.Random(f"gridfall pie {self.seed} {self.column} {self.pair}")
        game = Game(self.width, self.height, steal=False)
        game.apply_action(self.column)
        for _ in range(self.plies):
            central = [x for x in game.legal_actions() if abs(2 * x - (self.width - 1)) <= CENTRAL_REACH]
            game.apply_action(rng.choice(central))
        moves = list(game.history)
        if rng.random() < 0.5:
            moves = [self.width - 1 - x for x in moves]
        return moves

    def owner_and_mover(self) -> tuple[str, str]:
        a, b = self.engines
        return (a, b) if self.game == 0 else (b, a)


_local = threading.local()


def _agent(spec: str, seed: int):
    """This thread's agent for ``spec`` (made once: building and warming one takes time)."""
    from gridfall.connect4.agents import make_agent

    agents = _local.__dict__.setdefault("agents", {})
    if spec not in agents:
        agents[spec] = make_agent(spec, seed)
    return agents[spec]


def _solver(width: int, height: int):
    from gridfall.connect4.solver import Solver

    if getattr(_local, "solver", None) is None or _local.solver.width != width or _local.solver.height != height:
        _local.solver = Solver(width, height, 22)
    return _local.solver


def play_pie_game(job: PieGame) -> GameRow:
    """Play one game of the evaluation and return its row (result: winner and where the solver took
    over); a stop of its job (:mod:`gridfall.arena.job_name`) stops it (:class:`~.stopping.Stopped`)."""
    with stopping.stoppable():
        return _play(job)


def _play(job: PieGame) -> GameRow:
    from gridfall.connect4.engine import from_game

    game = Game(job.width, job.height, steal=False)
    for x in job.opening():
        game.apply_action(x)
    owner, mover = job.owner_and_mover()
    players = (_agent(owner, job.seed), _agent(mover, job.seed))
    for agent in players:
        forget = getattr(getattr(agent, "searcher", None), "forget", None)
        if forget:
            forget()  # each game starts from an empty table: the games of a run are independent
    solver = _solver(job.width, job.height)
    times = []
    solved_at = None
    winner = None
    reason = ""
    while not game.is_terminal():
        stopping.check()  # a stopped run abandons this game (its searches stop too: see stopping)
        empty = job.width * job.height - len(game.history)
        if empty <= job.solve_empties:
            result = solver.solve(*from_game(game), weak=True, seconds=job.solve_seconds)
            if result.exact:
                solved_at = len(game.history)
                side = game.current_player()
                winner = None if result.score == 0 else (side if result.score > 0 else 1 - side)
                reason = "solved"
                break
        start = time.perf_counter()
        action = players[game.current_player()].act(game, job.turn)
        times.append(round(time.perf_counter() - start, 4))
        game.apply_action(action)
    if solved_at is None:
        winner = game.winner
        reason = "four in a row" if winner is not None else "draw (board full)"
    return GameRow(job=job.key, game="connect4", commands=[owner, mover], seats=[owner, mover],
                   moves=list(game.history), result={"winner": winner, "opening": 1 + job.plies,
                                                      "solved_at": solved_at},
                   reason=reason, times=times, messages=[])


def mover_points(row: GameRow) -> float:
    """The points of the player to move after the first chip (seat 1): 1, 1/2 or 0."""
    winner = row.result["winner"]
    return 0.5 if winner is None else float(winner == 1)


@dataclass
class OpeningEstimate:
    """What the pairs say about one first chip: the mover's expected share and its 95% interval."""

    column: int
    pairs: int
    share: float
    low: float
    high: float
    games: int
    solved: int  # games the exact solver finished


def estimate(rows: list[GameRow], column: int) -> OpeningEstimate:
    """The estimate for ``column`` from the stored games of complete pairs."""
    by_pair: dict[str, list[GameRow]] = {}
    for row in rows:
        words = row.job.split()
        if int(words[1]) == column:
            by_pair.setdefault(words[3], []).append(row)
    values = [sum(mover_points(r) for r in games) / 2 for games in by_pair.values() if len(games) == 2]
    games = [r for games in by_pair.values() if len(games) == 2 for r in games]
    n = len(values)
    if n == 0:
        return OpeningEstimate(column, 0, 0.5, 0.0, 1.0, 0, 0)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.5
    half = 1.96 * spread / math.sqrt(n)
    return OpeningEstimate(column, n, mean, max(0.0, mean - half), min(1.0, mean + half), len(games),
                           sum(r.result.get("solved_at") is not None for r in games))


def representatives(width: int) -> list[int]:
    """One column of each mirror pair: 0 .. width // 2."""
    return list(range((width + 1) // 2))


def schedule(settings: dict) -> list[PieGame]:
    """Every game of a run, interleaved pair by pair across the openings (so a stopped run has
    about as many pairs of each)."""
    jobs = []
    for pair in range(settings["pairs"]):
        for column in representatives(settings["width"]):
            for game in (0, 1):
                jobs.append(PieGame(column, pair, game, tuple(settings["engines"]), settings["plies"],
                                    settings["turn"], settings["solve_empties"], settings["solve_seconds"],
                                    settings["seed"], settings["width"], settings["height"]))
    return jobs


def rebuild_command(settings: dict) -> str:
    """The command that measures (or resumes) a table with these settings."""
    return (f"gridfall connect4 openings --rebuild --pairs {settings['pairs']} --turn-ms {settings['turn'] * 1000:g} "
            f"--engines {','.join(settings['engines'])} --plies {settings['plies']} "
            f"--solve-empties {settings['solve_empties']} --solve-ms {settings['solve_seconds'] * 1000:g} "
            f"--seed {settings['seed']} --db results/connect4-pie.sqlite")


def table_from(rows: list[GameRow], settings: dict, date: str):
    """The opening table the stored games give (every column, mirrors sharing a value)."""
    from gridfall.connect4.openings import OpeningTable, OpeningValue

    width = settings["width"]
    values = {}
    estimates = [estimate(rows, c) for c in representatives(width)]
    for e in estimates:
        value = OpeningValue(e.share, e.low, e.high, e.pairs)
        values[e.column] = values[width - 1 - e.column] = value
    pairs = min(e.pairs for e in estimates)
    solved = sum(e.solved for e in estimates) / max(1, sum(e.games for e in estimates))
    a, b = settings["engines"]
    method = (f"{pairs:,}+ seat-swapped pairs of games per first chip (a column and its mirror share them) between "
              f"{a} and {b}, {settings['turn'] * 1000:g} ms a move; each pair starts from the chip and "
              f"{settings['plies']} random central moves; the exact solver finished {100 * solved:.0f}% of the games "
              f"once {settings['solve_empties']} or fewer cells were empty; value = the mover's mean share over the "
              f"pairs, 95% interval from their spread; seed {settings['seed']}; {date}. Rebuild: {rebuild_command(settings)}")
    return OpeningTable(width, settings["height"], dict(sorted(values.items())), method)
