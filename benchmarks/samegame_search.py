"""The SameGame search algorithms at equal time on the tuning boards.

Every algorithm gets the same seconds per board on one core; boards run in
parallel, one per core.  Prints one row per algorithm (total, mean, boards
cleared, boards where it was best) and the per-board scores.

    python benchmarks/samegame_search.py [--boards 10] [--time 10] [--algos beam,nmcs,nrpa,nrpa:tabu_rank=0]
        [--kind tuning|balanced|dominant]

An entry of ``--algos`` is ``ALGO[:KEY=VALUE...]``: ``nrpa:tabu_rank=0`` is NRPA
with the most common colour kept for last only (no colour portfolio).  A budget of work
(``nrpa:max_playouts=100000``, ``anneal:max_edits=...``, ``beam:max_width=...``,
``nmcs:max_runs=...``, ``mcbs:max_runs=...``) with a ``--time`` long enough to spend it gives a
table that repeats, score for score, on any machine.
``--kind balanced`` or ``dominant`` runs on generated boards with the colour
counts of standard boards 11-15 or 16-20 instead (seeds 1..N), which the random
tuning boards do not have.
"""

from __future__ import annotations

import argparse
import time

from common import (
    check_search, console, count, each_until_stopped, finish, first_paragraph, parse_options, positive,
    run_script, usable_cores,
)
from rich.table import Table
from rich.text import Text

from gridfall.arena.pool import run_jobs
from gridfall.arena.signals import exit_code
from gridfall.samegame.boards import BoardError, load_board
from gridfall.samegame.search import solve


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--boards", type=count, default=10, help="boards 1..N of the kind")
    parser.add_argument("--kind", choices=("tuning", "balanced", "dominant"), default="tuning",
                        help="tuning: the random tuning boards; balanced: 45 cells of each colour; "
                             "dominant: 65 cells of one colour and 40 of the others")
    parser.add_argument("--time", type=positive, default=10.0, help="seconds per board")
    parser.add_argument("--algos", default="beam,nmcs,nrpa", help="ALGO[:KEY=VALUE...],... (e.g. nrpa:tabu_rank=0)")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="boards at once, one core each (default: the cores it may use)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every search (one seed's total moves by about 1%%)")
    args = parser.parse_args()
    algos = args.algos.split(",")
    runs = {}
    for spec in algos:
        algo, *options = spec.split(":")
        runs[spec] = (algo, parse_options(options, f"--algos {spec}"))
        check_search(algo, args.time, runs[spec][1], f"--algos {spec}")
    specs = [f"{args.kind}:{i}" for i in range(1, args.boards + 1)]
    try:
        boards = [load_board(spec) for spec in specs]
    except BoardError as e:
        parser.error(f"--boards {args.boards}: {e}")
    for algo, params in runs.values():  # load kernels outside the clock
        solve(boards[0], 0.05, algo=algo, **params)

    err = console(stderr=True)

    def measure(algo: str) -> tuple[list[int], int, float] | None:
        """Each board's score by ``algo`` (a row: ALGO[:KEY=VALUE...]), the boards cleared, the seconds."""
        name, params = runs[algo]
        started = time.monotonic()
        # run_jobs: a Ctrl-C stops the searches under way (their lines, short of the time, are
        # dropped) and starts no more
        finished = run_jobs(boards, lambda b: solve(b, args.time, algo=name, seed=args.seed, **params),
                            workers=args.workers)
        if finished.interrupted:
            return None
        solutions = finished.results
        return [s.score for s in solutions], sum(s.cleared for s in solutions), time.monotonic() - started

    measured, stopped = each_until_stopped(algos, measure, "algorithms",
                                           said=lambda algo, found: f"{algo}: total {sum(found[0])} ({found[2]:.0f} s)")
    if not measured:
        err.print(stopped)
        return exit_code(True)
    algos = list(measured)
    scores = {algo: found[0] for algo, found in measured.items()}
    cleared = {algo: found[1] for algo, found in measured.items()}

    summary = Table(title=f"SameGame search at {args.time:g} s per board, one core each, {args.kind} boards 1-{args.boards}, seed {args.seed}")
    for column in ("algorithm", "total", "mean", "cleared", "best on"):
        summary.add_column(column, justify="right")
    for algo in algos:
        wins = sum(scores[algo][i] == max(scores[a][i] for a in algos) for i in range(len(boards)))
        summary.add_row(algo, f"{sum(scores[algo]):,}", f"{sum(scores[algo]) / len(boards):,.0f}",
                        f"{cleared[algo]}/{len(boards)}", f"{wins}/{len(boards)}")
    per_board = Table(title="per board")
    per_board.add_column("board")
    for algo in algos:
        per_board.add_column(algo, justify="right")
    for i, spec in enumerate(specs):
        best = max(scores[a][i] for a in algos)
        per_board.add_row(spec, *[Text(str(scores[a][i]), style="bold" if scores[a][i] == best else "") for a in algos])
    return finish(stopped, summary, per_board)


if __name__ == "__main__":
    run_script(main)
