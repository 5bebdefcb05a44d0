"""How long one listing of a Match-3 position's legal swaps takes, under each interpreter.

``portable.legal_swaps`` is the inner loop of every pure-Python player (the exported ``plan``,
``greedy`` and ``fast``, and the interface's state, which a user's exported player runs on).  It
finds the swaps from the pairs of jewels on the board.  The baseline tries each of the 2n(n-1)
swaps with ``portable._swap_score``, as the rules of record do.  Both run on the same positions of
random games (drawn here, by the interface), in a child process of each interpreter of
``--pythons`` that loads ``portable.py`` by its path (it is Python 3.6 and the standard library,
as CodeAbbey runs it).

    python benchmarks/match3_listing.py [--games 40] [--moves 60] [--rounds 10] [--pythons current,pypy3]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from common import console, count, first_paragraph, machine_line, run_script, under_each_python
from rich.table import Table

import gridfall
from gridfall.match3 import portable

# Run by each interpreter: argv[1] the positions (JSON), argv[2] portable.py, argv[3] rounds.
# Prints its name and, per board size, the best round's microseconds a listing for the pairs and
# the baseline.
TIMER = r"""
import importlib.util, json, platform, sys, time
spec = importlib.util.spec_from_file_location("portable", sys.argv[2])
portable = importlib.util.module_from_spec(spec)
spec.loader.exec_module(portable)
rounds = int(sys.argv[3])

def each_swap(g, n):
    return [(i, j) for i in range(n * n) for j in ((i + 1,) if i % n < n - 1 else ()) + ((i + n,) if i + n < n * n else ())
            if portable._swap_score(g, n, i, j) > 0]

boards = [portable._grid(rows) for rows in json.load(open(sys.argv[1]))]
out = {}
for size in sorted(set(n for g, n in boards)):
    chosen = [(g, n) for g, n in boards if n == size]
    for g, n in chosen:
        assert portable.legal_swaps(g, n) == sorted(each_swap(g, n)), "the two listings differ"
    best = {}
    for _ in range(rounds):  # the best round: the least disturbed by the machine's other work
        for name, listing in (("pairs", portable.legal_swaps), ("each swap", each_swap)):
            start = time.perf_counter()
            for g, n in chosen:
                listing(g, n)
            took = (time.perf_counter() - start) / len(chosen) * 1e6
            best[name] = min(best.get(name, took), took)
    out[size] = dict(best, positions=len(chosen))
print(json.dumps({"interpreter": platform.python_implementation() + " " + sys.version.split()[0], "sizes": out}))
"""


def positions(games: int, moves: int) -> list[list[str]]:
    """The positions of ``games`` random games (sizes 8, 11, 12, 13 in turn, game i from seed i),
    each up to ``moves`` random moves long."""
    rng = random.Random(0)
    found = []
    for number in range(games):
        state = gridfall.load_game("match3", size=(8, 11, 12, 13)[number % 4], seed=number, moves=moves)
        state = state.new_initial_state()
        while not state.is_terminal():
            found.append(list(state.board.rows))
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=count, default=40, help="random games whose positions are timed")
    parser.add_argument("--moves", type=count, default=60, help="moves a game at most")
    parser.add_argument("--rounds", type=count, default=10, help="rounds over the positions; the best is shown")
    parser.add_argument("--pythons", default="current,pypy3",
                        help="comma list of interpreters that time the listing (current: this one)")
    args = parser.parse_args()
    out = console()
    with tempfile.TemporaryDirectory(prefix="gridfall-listing-") as folder:
        boards = Path(folder) / "positions.json"
        boards.write_text(json.dumps(positions(args.games, args.moves)))
        table = Table(title=f"legal swaps: microseconds a listing ({args.games} random games, best of {args.rounds})")
        for column in ("interpreter", "board", "positions", "pairs", "each swap", "each swap / pairs"):
            table.add_column(column, justify="right")
        for report in under_each_python(args.pythons, TIMER, [str(boards), portable.__file__, str(args.rounds)],
                                        "timed the listing"):
            for size, row in sorted(report["sizes"].items(), key=lambda item: int(item[0])):
                table.add_row(report["interpreter"], f"{size}x{size}", str(row["positions"]), f"{row['pairs']:.1f}",
                              f"{row['each swap']:.1f}", f"{row['each swap'] / row['pairs']:.2f}x")
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
