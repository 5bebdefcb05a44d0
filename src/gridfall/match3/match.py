"""Match-3 challenge runs as arena jobs: one suggest file on one seed, under the referee.

A :class:`SeedJob` is everything a worker needs (it is pickled to Dask workers): the file, the
seed, the time limit and the interpreter.  :func:`play_seed` runs CodeAbbey's four boards and
returns the database row; its score is the run's total (0 if the run failed, as on the site).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridfall.arena.database import GameRow, stored_output
from gridfall.match3.codeabbey import referee_file


@dataclass(frozen=True)
class SeedJob:
    key: str
    seed: int
    name: str
    path: str
    time_limit: float | None  # None: no limit (--time 0)
    python: str | None

    def __str__(self) -> str:
        return f"{self.name} on seed {self.seed}"


def play_seed(job: SeedJob) -> GameRow:
    report = referee_file(job.path, seed=job.seed, time_limit=job.time_limit, python=job.python)
    if report.interrupted:
        raise KeyboardInterrupt
    moves = [[list(a) for a in g.actions] for g in report.games]
    times = [t for g in report.games for t in g.times]
    # each board's calls in turn, and how many of them are each board's
    output: dict[str, list] = {**stored_output([o for g in report.games for o in g.output])}
    if output:
        output["calls"] = [len(g.output) for g in report.games]
    # a game that ended on an error (a raise, an illegal answer) keeps its points, as on the site, and the
    # run goes on: the run is not failed, but its errors say the bot is broken, not weak
    errors = [f"board {g.board_no}: {g.end}" for g in report.games if g.error and not report.failed]
    return GameRow(job=job.key, game="match3", commands=[job.path], seats=[job.name], moves=moves,
                   result={"score": 0 if report.failed else report.total, "played": report.total,
                           "ok": not report.failed, "seed": job.seed, "boards": [g.score for g in report.games],
                           **({"errors": errors} if errors else {}), **output},
                   reason=report.failed or "ok", times=times, messages=[g.end for g in report.games])
