"""Match-3 agents on the CodeAbbey 370 challenge over many seeds.

Two comparisons, each on the same seeds:

1. per-move budget: greedy (unlimited time, full games) against strong with
   ``--budget`` seconds per move (a ceiling: it stops at 16 sampled refills);
   in-process.  Target: strong's median total at least 100x greedy's.
2. CodeAbbey's limit of 1 second for the whole run, through the referee: the
   exported greedy, fast and plan files, run by each interpreter of ``--pythons``
   (CodeAbbey offers Python 3.6 and PyPy; ``current`` is this one).  Target:
   plan's median total at least 100x greedy's, on the same interpreter.

Prints per agent the mean and median total, the mean of log2(total), the moves
played (survival) and the ratio of medians to greedy.

    python benchmarks/match3.py [--seeds 20] [--budget 1.0] [--workers 2] [--pythons current,pypy3]
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

from common import console, count, first_paragraph, machine_line, positive, run_script, usable_cores
from rich.table import Table

from gridfall.worker_processes import worker_map


def stop_if_interrupted(report) -> None:
    """The referee keeps a stop (Ctrl-C) in its report, with the games so far; a benchmark's run
    cut short is no measurement, so the stop goes on up (it was lost: the run went on to its end)."""
    if report.interrupted:
        raise KeyboardInterrupt


def run_in_process(job):
    agent, seed, budget = job
    from gridfall.match3.agents import PortableAgent, StrongAgent
    from gridfall.match3.codeabbey import play_challenge

    player = StrongAgent(budget=budget, seed=seed) if agent == "strong" else PortableAgent(agent, time_budget=1e9)

    def ask(board, board_no, move, elapsed):
        start = time.perf_counter()
        return player.suggest(board, board_no, move, elapsed), time.perf_counter() - start

    start = time.monotonic()
    report = play_challenge(ask, seed=seed, time_limit=None)
    stop_if_interrupted(report)
    return agent, seed, report.total, sum(g.moves for g in report.games), time.monotonic() - start, ""


def run_referee(job):
    agent, seed, path, python = job
    from gridfall.match3.codeabbey import referee_file

    start = time.monotonic()
    report = referee_file(path, seed=seed, time_limit=1.0, python=None if python == "current" else python)
    stop_if_interrupted(report)
    return (agent, seed, report.total, sum(g.moves for g in report.games), time.monotonic() - start, report.failed,
            report.seconds)


def summarise(title, results, agents, reference="greedy"):
    table = Table(title=title)
    for column in ("agent", "mean total", "median total", "mean log2(total)", "mean moves", "median / greedy's",
                   "failed runs", "minutes"):
        table.add_column(column, justify="right")
    medians = {a: statistics.median(r[2] for r in results if r[0] == a) for a in agents}
    for agent in agents:
        rows = [r for r in results if r[0] == agent]
        totals = [r[2] for r in rows]
        table.add_row(agent, f"{statistics.mean(totals):.3g}", f"{medians[agent]:.3g}",
                      f"{statistics.mean(math.log2(max(t, 1)) for t in totals):.1f}",
                      f"{statistics.mean(r[3] for r in rows):.0f}",
                      f"{medians[agent] / max(medians[reference], 1):.3g}x",
                      str(sum(1 for r in rows if r[5])), f"{sum(r[4] for r in rows) / 60:.1f}")
    return table


PARTS = ("strong", "referee")


def parts_of(text: str) -> set[str]:
    """An argparse type: parts to skip, separated by commas, each of PARTS (none: the empty text)."""
    chosen = {part.strip() for part in text.split(",") if part.strip()}
    unknown = sorted(chosen - set(PARTS))
    if unknown:
        raise argparse.ArgumentTypeError(f"{unknown[0]!r} is not a part: give {' or '.join(PARTS)}, "
                                         "separated by commas")
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--seeds", type=count, default=20, help="play seeds 1 to this (default 20)")
    parser.add_argument("--budget", type=positive, default=1.0, help="strong's seconds per move (a ceiling)")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="runs at once, each in a process of its own (default: the cores it may use; "
                             "1 for the platform's one-second timing)")
    parser.add_argument("--skip", type=parts_of, default=set(),
                        help="parts to skip, separated by commas: strong, referee")
    parser.add_argument("--pythons", default="current,pypy3",
                        help="interpreters that run the exported files (current: this one)")
    args = parser.parse_args()
    seeds = list(range(1, args.seeds + 1))
    out, err = console(), console(stderr=True)
    skip = args.skip

    if "referee" not in skip:
        from gridfall.match3.export import export_source

        folder = tempfile.mkdtemp(prefix="gridfall-match3-")
        paths = {}
        for agent in ("greedy", "fast", "plan"):
            paths[agent] = os.path.join(folder, f"{agent}.py")
            with open(paths[agent], "w") as f:
                f.write(export_source(agent))
        agents = ("greedy", "fast", "plan")
        found = [python for python in args.pythons.split(",") if python == "current" or shutil.which(python)]
        for python in args.pythons.split(","):
            if python not in found:
                err.print(f"--pythons: {python!r}: not found, skipped")
        if not found:  # as the other scripts' --pythons: a run that measured nothing says so
            sys.exit(f"--pythons {args.pythons}: no interpreter found to referee the exported files")
        for python in found:
            jobs = [(a, s, paths[a], python) for s in seeds for a in agents]
            with worker_map(args.workers) as mapped:
                results = list(mapped(run_referee, jobs))
            name = f"Python {sys.version.split()[0]}" if python == "current" else python
            out.print(summarise(f"1 s per run through the referee (exported files), {name}, seeds 1-{args.seeds}",
                                results, agents))
            by_seed = {(r[0], r[1]): r[2] for r in results}
            ahead = sum(by_seed[("plan", s)] > by_seed[("greedy", s)] for s in seeds)
            out.print(f"{name}: plan ahead of greedy on {ahead}/{len(seeds)} seeds; slowest run "
                      f"{max(r[6] for r in results):.3f} s in suggest")

    if "strong" not in skip:
        jobs = [(a, s, args.budget) for s in seeds for a in ("greedy", "strong")]
        results = []
        with worker_map(args.workers) as mapped:
            for r in mapped(run_in_process, jobs):
                results.append(r)
                err.print(f"{r[0]} seed {r[1]}: total {r[2]:,} ({r[3]} moves, {r[4]:.0f} s)")
        out.print(summarise(f"strong at {args.budget:g} s per move vs greedy (unlimited), seeds 1-{args.seeds}",
                                results, ("greedy", "strong")))
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
