"""Arena throughput: games a minute and campaign rounds an hour, local pool against Dask.

Runs, as a user would, ``gridfall connect4 league`` (``--games`` games between built-in bots)
and ``gridfall samegame campaign`` (one fixed-work round on each of ``--boards`` tuning boards)
with 1 and 2 workers, on the local pool (``--workers N``) and on a Dask LocalCluster
(``--cluster local:N``), each into a fresh database, and prints the wall-clock rates.  The Dask
runs include starting the cluster, as a user's command does.

    python benchmarks/arena_throughput.py [--games 40] [--boards 6] [--bots greedy,mcts] [--workers 1,2]
        [--round beam:600:max_width=4096]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import console, count, first_paragraph, machine_line, numbers, run_script
from rich.table import Table

from gridfall.warmup import warm

ROUND = "beam:600:max_width=4096"  # a fixed amount of work: every width up to 4096, whatever the clock


def timed(args: list[str]) -> float:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "gridfall", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"gridfall {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=count, default=40, help="league games per configuration (even)")
    parser.add_argument("--boards", type=count, default=6, help="campaign boards per configuration (tuning 1..N)")
    parser.add_argument("--bots", default="greedy,mcts", help="the league's built-in bots")
    parser.add_argument("--round", default=ROUND, help="the campaign's round (a fixed amount of work)")
    parser.add_argument("--workers", default="1,2", help="worker counts, each run on both executors (default 1,2)")
    args = parser.parse_args()
    worker_counts = numbers(args.workers, "--workers")
    if not worker_counts or min(worker_counts) < 1:
        raise SystemExit(f"--workers: {args.workers!r}: give counts of 1 or more")
    warm("connect4")
    warm("samegame")
    folder = Path(tempfile.mkdtemp(prefix="gridfall-throughput-"))
    table = Table(title=f"arena throughput: a league of {args.games} games ({args.bots}), "
                        f"a campaign of one {args.round} round on {args.boards} boards")
    for column in ("executor", "workers", "league s", "games / minute", "campaign s", "rounds / hour"):
        table.add_column(column, justify="right")
    bots = [flag for bot in args.bots.split(",") for flag in ("--bot", bot)]
    boards = ",".join(str(n) for n in range(1, args.boards + 1))
    for executor in ("local", "dask"):
        for workers in worker_counts:
            where = ["--workers", str(workers)] if executor == "local" else ["--cluster", f"local:{workers}"]
            name = f"{executor}-{workers}"
            league = timed(["connect4", "league", *bots, "--games", str(args.games), "--db",
                            str(folder / f"{name}-league.sqlite"), "--json", *where])
            campaign = timed(["samegame", "campaign", "--set", "tuning", "--boards", boards, "--rounds", args.round,
                              "--fresh", "--store", str(folder / f"{name}.store"), "--db",
                              str(folder / f"{name}-campaign.sqlite"), *where])
            table.add_row(executor, str(workers), f"{league:.1f}", f"{60 * args.games / league:.1f}",
                          f"{campaign:.1f}", f"{3600 * args.boards / campaign:,.0f}")
            console(stderr=True).print(f"{name}: league {league:.1f} s, campaign {campaign:.1f} s")
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
