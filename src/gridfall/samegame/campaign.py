"""Offline SameGame campaigns: long searches on every board of a set, the best lines kept in a store.

A campaign is rounds (``ALGO:SECONDS[:KEY=VALUE...]``) run on each board, for one or more passes.
Its unit of work is a *board pass*: one board's rounds in order, each continuing from the best
line so far (the store's at the start, then the rounds' own: ``solve(guide=...)``), unless
``fresh``.  Board passes run on the arena's executor, here or on a Dask cluster, boards side by
side; a board's next pass waits for its last one, since it continues from it.  The coordinating
process alone writes the store, the run database (one row per finished board pass, so the same
command again skips them) and the results file (after every board pass that improved a line, and
at the end, with the history of earlier campaigns).

Ctrl-C or SIGTERM stops the board passes under way within a kernel call, here or on the Dask
workers (``drive(drain=True)``: their jobs are told to stop by name, so other runs' passes on a
shared worker search on): the rounds under way return their best lines, which are stored (and
the results file written) before the campaign exits 128 + the signal; their board passes are not
marked done, so they run again on a resume.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from gridfall.arena import job_name

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.line import Line
from gridfall.samegame.search import check_request, clock


@dataclass(frozen=True)
class Round:
    algo: str
    seconds: float
    params: tuple[tuple[str, float], ...] = ()

    def text(self) -> str:
        return ":".join([self.algo, f"{self.seconds:g}", *(f"{k}={v}" for k, v in self.params)])


def parse_rounds(text: str) -> list[Round]:
    """``nrpa:300:level=3,anneal:60`` -> rounds; ValueError naming the bad part."""
    rounds = []
    for part in filter(None, text.split(",")):
        algo, _, rest = part.partition(":")
        seconds, *options = rest.split(":") if rest else [""]
        try:
            time_limit = float(seconds)
            if not math.isfinite(time_limit) or time_limit <= 0:  # nan would never end
                raise ValueError
        except ValueError:
            raise ValueError(f"{part!r}: expected ALGO:SECONDS[:KEY=VALUE...], SECONDS a positive number") from None
        params = parse_params(options, part)
        try:  # an unknown name or parameter fails here, before any board is searched
            check_request(algo, time_limit, params)
        except ValueError as e:
            raise ValueError(f"{part!r}: {e}") from None
        rounds.append(Round(algo, time_limit, tuple(params.items())))
    return rounds


def parse_params(options: list[str], where: str) -> dict:
    """``["level=2", "bias=0.3"]`` -> ``{"level": 2, "bias": 0.3}`` (a dot makes a float)."""
    params = {}
    for option in options:
        key, sep, value = option.partition("=")
        try:
            if not sep or not key:
                raise ValueError
            params[key] = float(value) if "." in value else int(value)
        except ValueError:
            raise ValueError(f"{where}: option {option!r} is not KEY=NUMBER") from None
    return params


@dataclass(frozen=True)
class BoardPass:
    """One board's rounds in one pass: what a worker needs (pickled to Dask workers)."""

    key: str
    spec: str
    rounds: tuple[Round, ...]
    seed_base: int
    threads: int
    guide: str | None  # the stored best line's text, or None
    guide_score: int | None
    fresh: bool
    verbose: bool  # print each round and each improvement where it runs (a local run)

    def __str__(self) -> str:
        return self.key


@dataclass
class RoundResult:
    how: str
    seconds: float
    seed: int
    score: int
    moves: str
    took: float
    groups: str
    stopped: bool = False


@dataclass
class PassResult:
    rounds: list[RoundResult] = field(default_factory=list)

    @property
    def stopped(self) -> bool:
        return any(r.stopped for r in self.rounds) or not self.rounds


def largest_groups(groups: list[rules.Group], count: int = 4) -> str:
    """The ``count`` largest of a line's groups as size/colour, largest first: "43/0  18/4 ..."."""
    return "  ".join(f"{g.size}/{g.colour}" for g in sorted(groups, key=lambda g: -g.size)[:count])


def round_line(spec: str, result: RoundResult, best: int, improved: bool) -> str:
    return (f"{spec}: {result.how}, {result.seconds:g} s (seed {result.seed}) found {result.score} "
            f"in {result.took:.0f} s (largest groups {result.groups}); best {best}" + (" (improved)" if improved else ""))


def play_board_pass(job: BoardPass) -> PassResult:
    """Run the rounds of a board pass, each from the best line so far (the worker's side).  A stop
    of its job (:mod:`gridfall.arena.job_name`) ends the round under way within a kernel call,
    with its best line, and starts no other."""
    from gridfall.samegame.search import solve

    board = load_board(job.spec)
    best_text, best_score = job.guide, job.guide_score
    out = PassResult()
    for i, round_ in enumerate(job.rounds):
        if job_name.told_to_stop():
            break
        seed, params, start = job.seed_base + i, dict(round_.params), time.monotonic()
        guide = None if job.fresh or best_text is None else list(Line.from_text(best_text))
        before = best_score

        def report(score: int, before=before, start=start, seconds=round_.seconds) -> None:
            if job.verbose and (before is None or score > before):
                print(f"  {job.spec}: {score} after {time.monotonic() - start:.0f} s of {seconds:g} "
                      f"(stored best {before if before is not None else 'none'})", flush=True)

        solution = solve(board, round_.seconds, algo=round_.algo, workers=job.threads, seed=seed, on_improve=report,
                         guide=guide, **params)
        for note in ("tabu_rank", "spare", "soft"):  # as the search chose them to continue its guide
            if solution.notes.get(note):
                params[note] = solution.notes[note]
        how = (f"{solution.algo} x{job.threads}" + "".join(f" {k}={v}" for k, v in params.items())
               + (" guided" if solution.notes.get("guided") else ""))
        stopped = solution.interrupted or clock.now() == math.inf  # Ctrl-C, or its job's stop
        result = RoundResult(how, round_.seconds, seed, solution.score, Line(solution.moves).text(),
                             time.monotonic() - start,
                             largest_groups(rules.removed_groups(board, solution.moves)), stopped)
        out.rounds.append(result)
        improved = best_score is None or solution.score > best_score
        if improved:
            best_text, best_score = result.moves, solution.score
        if job.verbose and not stopped:
            assert best_score is not None  # set by the first round, which always improves
            print(round_line(job.spec, result, best_score, improved), flush=True)
        if stopped:
            break
    return out
