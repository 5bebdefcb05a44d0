"""How long one move of the exported Match-3 ``plan`` takes, under each interpreter.

``portable.plan_move`` searches two plies exactly: every legal swap, then every swap of the board
each one leaves.  Its second ply can reuse what a swap removed on the board before, when the first
move changed none of the cells that swap's cascade reads (``portable.READS_PAY``, on under CPython
and off under PyPy).  This times both settings on the positions of ``plan``'s own games (drawn here
by the rules of record), in a child process of each interpreter of ``--pythons`` that loads
``portable.py`` by its path; ``--against`` times another version of the file beside it, such as
``git show REV:src/gridfall/match3/portable.py > old.py``.  Every timed variant must choose the
same moves, or the script stops.

    python benchmarks/match3_plan.py [--games 12] [--moves 40] [--rounds 5] [--pythons current,pypy3]
        [--against old_portable.py]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from common import console, count, first_paragraph, machine_line, run_script, under_each_python
from rich.table import Table

from gridfall.match3 import portable, rules

# Run by each interpreter: argv[1] the positions (JSON), argv[2] the variants (JSON: name -> [path
# of portable.py, READS_PAY or null to leave it]), argv[3] rounds.  Prints its name and, per board
# size, the best round's milliseconds a move of each variant.
TIMER = r"""
import importlib.util, json, platform, sys, time
variants = {}
for name, (path, reads) in json.load(open(sys.argv[2])).items():
    spec = importlib.util.spec_from_file_location("portable_" + str(len(variants)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if reads is not None:
        module.READS_PAY = reads
    variants[name] = module
rounds = int(sys.argv[3])
boards = json.load(open(sys.argv[1]))
out = {}
for size in sorted(set(len(rows) for rows in boards)):
    chosen = [rows for rows in boards if len(rows) == size]
    moves = {name: [module.plan_move(rows) for rows in chosen] for name, module in variants.items()}
    if len(set(json.dumps(chosen_moves) for chosen_moves in moves.values())) != 1:
        sys.exit("the variants chose different moves on %dx%d boards" % (size, size))
    best = {}
    for _ in range(rounds):  # the best round: the least disturbed by the machine's other work
        for name, module in variants.items():
            start = time.perf_counter()
            for rows in chosen:
                module.plan_move(rows)
            took = (time.perf_counter() - start) / len(chosen) * 1e3
            best[name] = min(best.get(name, took), took)
    out[size] = dict(best, positions=len(chosen))
print(json.dumps({"interpreter": platform.python_implementation() + " " + sys.version.split()[0], "sizes": out}))
"""


def positions(games: int, moves: int) -> list[list[str]]:
    """The positions of ``games`` games of ``plan`` (sizes 8, 11, 12, 13 in turn, game i from seed
    1000 + i, off the reported seeds), each up to ``moves`` moves long."""
    found = []
    for number in range(games):
        gen = rules.Generator(1000 + number)
        board = rules.new_board((8, 11, 12, 13)[number % 4], gen)
        for _ in range(moves):
            found.append(list(board.rows))
            move = portable.plan_move(list(board.rows))
            if move is None:
                break
            board = rules.refilled(board.play(*move).board_after, gen)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=count, default=12, help="games of plan whose positions are timed")
    parser.add_argument("--moves", type=count, default=40, help="moves a game at most")
    parser.add_argument("--rounds", type=count, default=5, help="rounds over the positions; the best is shown")
    parser.add_argument("--pythons", default="current,pypy3",
                        help="comma list of interpreters that time the moves (current: this one)")
    parser.add_argument("--against", type=Path, metavar="FILE",
                        help="another portable.py (an older version) to time beside this one")
    args = parser.parse_args()
    out = console()
    if args.against is not None and not args.against.is_file():
        sys.exit(f"--against {args.against}: no such file")
    variants = {"reuse": [portable.__file__, True], "simulate all": [portable.__file__, False]}
    if args.against is not None:
        variants["--against"] = [str(args.against.resolve()), None]
    with tempfile.TemporaryDirectory(prefix="gridfall-plan-") as folder:
        boards, named = Path(folder) / "positions.json", Path(folder) / "variants.json"
        boards.write_text(json.dumps(positions(args.games, args.moves)))
        named.write_text(json.dumps(variants))
        table = Table(title=f"plan: milliseconds a move ({args.games} games of plan, best of {args.rounds})")
        for column in ("interpreter", "board", "positions", *variants, "simulate all / reuse"):
            table.add_column(column, justify="right")
        if args.against is not None:
            table.add_column("--against / fastest", justify="right")
        for report in under_each_python(args.pythons, TIMER, [str(boards), str(named), str(args.rounds)],
                                        "timed the moves"):
            for size, row in sorted(report["sizes"].items(), key=lambda item: int(item[0])):
                cells = [f"{row[name]:.2f}" for name in variants]
                cells.append(f"{row['simulate all'] / row['reuse']:.2f}x")
                if args.against is not None:
                    cells.append(f"{row['--against'] / min(row['reuse'], row['simulate all']):.2f}x")
                table.add_row(report["interpreter"], f"{size}x{size}", str(row["positions"]), *cells)
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
