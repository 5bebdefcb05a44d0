"""The exact solver on the bundled scored positions: correctness, time and nodes per second per file.

Runs each file from its first position until the file is done or its time
budget is spent, and prints per file: positions solved, how many scores were
exact, mean time and nodes per position, nodes per second.  One core.

    python benchmarks/connect4_solver.py [--files 7x6/midgame_L2,...] [--seconds-per-file 300]
"""

from __future__ import annotations

import argparse
from importlib import resources

from common import console, duration, first_paragraph, machine_line, run_script, whole
from rich.table import Table

from gridfall.connect4.solver import Solver

FILES = ["7x6/endgame_L1", "7x6/midgame_L1", "7x6/midgame_L2", "7x6/opening_L1", "7x6/opening_L2",
         "9x5/endgame_L1", "9x5/midgame_L1", "9x5/midgame_L2", "9x5/opening_L1", "9x5/opening_L2", "9x5/opening_L3"]


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--files", default=",".join(FILES), help="the scored files to solve, separated by commas "
                        f"(default: all of {', '.join(FILES)})")
    parser.add_argument("--seconds-per-file", type=duration, default=300.0, help="stop a file after this long (0: no limit)")
    parser.add_argument("--table-bits", type=whole(10, 30), default=24,
                        help="the transposition table holds 2**this entries, 9 bytes each (default 24: 151 MB)")
    args = parser.parse_args()
    unknown = [name for name in args.files.split(",") if name not in FILES]
    if unknown:
        parser.error(f"--files: no scored file {', '.join(map(repr, unknown))}; choose from {', '.join(FILES)}")
    table = Table(title="Connect Four exact solver on the scored positions (one core)")
    for column in ("file", "solved", "exact", "mean time", "mean nodes", "nodes/s"):
        table.add_column(column, justify="right")
    Solver(4, 4, 12).solve_moves("")  # load the compiled kernels off the clock (any size will do)
    solvers: dict[str, Solver] = {}
    err = console(stderr=True)
    for name in args.files.split(","):
        size = name.split("/")[0]
        if size not in solvers:
            w, h = (int(v) for v in size.split("x"))
            solvers[size] = Solver(w, h, args.table_bits)
        solver = solvers[size]
        text = resources.files("gridfall").joinpath("data", "connect4", "scored", f"{name}.txt").read_text()
        positions = [line.split() for line in text.splitlines() if line.strip()]
        solved = exact = nodes = 0
        seconds = 0.0
        for moves, expected in positions:
            result = solver.solve_moves(moves)
            solved += 1
            exact += result.score == int(expected)
            nodes += result.nodes
            seconds += result.seconds
            if args.seconds_per_file and seconds > args.seconds_per_file:
                break
        err.print(f"{name}: {exact}/{solved} exact, {seconds / solved * 1000:.2f} ms per position")
        table.add_row(name, f"{solved}/{len(positions)}", f"{exact}/{solved}", f"{seconds / solved * 1000:.3f} ms",
                      f"{nodes / solved:,.0f}", f"{nodes / seconds / 1e6:.2f} M")
    out = console()
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
