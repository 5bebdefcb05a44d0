"""From how many empty cells can gridfall play Connect Four 9x7 exactly inside a turn?

Plays games between gridfall's search and MCTS-Solver (a few ms a move, seeded,
first chips in every column) and keeps one position from each game at each
number of empty cells asked for.  For each count prints how long the exact
solver takes to give the side to move's result (weak solve: win, draw or
loss) and how long the bot's own iterative deepening search takes to prove
it, as the median, the 90th percentile and the share done within the turn
budget.  One core.

The column "solver, table kept" is the bot's way since 2026-11-26: one solver follows each game
from ``--carry-from`` empty cells on, every other position (the same player's turns), with
``--budget-ms`` a turn and its table kept from turn to turn, so that each turn starts from the
proofs of the turns before.  It gives the share of turns at each count that it settled.

    python benchmarks/connect4_endgame.py [--empties 20,24,28,32,36] [--games 40] [--budget-ms 60]
        [--carry-from 44]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from common import console, count, empty_counts, first_paragraph, machine_line, positive, run_script, whole
from rich.table import Table

from gridfall.connect4.agents import make_agent
from gridfall.connect4.engine import can_win_next, from_game
from gridfall.connect4.rules import Game
from gridfall.connect4.search import Searcher
from gridfall.connect4.solver import Solver


def sample_positions(games: int, empties: list[int], move_seconds: float):
    """({empty cells: [(cur, mask)]}: one position per game and count, the side to move unable to
    win at once; [each game's positions as (empty cells, cur, mask)])."""
    found: dict[int, list[tuple[int, int]]] = {e: [] for e in empties}
    lines = []
    for i in range(games):
        rnd = random.Random(i)
        players = [make_agent("gridfall"), make_agent("mcts-solver", seed=i)]
        if i % 2:
            players.reverse()
        game = Game(steal=False)
        game.apply_action(i % 9)
        game.apply_action(rnd.randrange(9))
        lines.append([])
        while not game.is_terminal():
            left = game.width * game.height - game.turn
            cur, mask = from_game(game)
            lines[-1].append((left, cur, mask))
            if left in found and not can_win_next(np.uint64(cur), np.uint64(mask), Solver(9, 7, 4).g):
                found[left].append((cur, mask))
            game.apply_action(players[game.current_player()].act(game, move_seconds))
    return found, lines


def carried(lines, empties: list[int], carry_from: int, budget: float) -> dict[int, list[bool]]:
    """{empty cells: [settled?]}: each game followed by one solver from ``carry_from`` empty cells
    on, on the turns of the player to move at the counts asked for, its table kept between turns."""
    g = Solver(9, 7, 4).g
    parity = empties[0] % 2
    settled: dict[int, list[bool]] = {e: [] for e in empties}
    for line in lines:
        solver = Solver(9, 7, 21)  # the bot's table size
        solver.table.new_search()
        for left, cur, mask in line:
            if left > carry_from or left % 2 != parity or can_win_next(np.uint64(cur), np.uint64(mask), g):
                continue
            result = solver.solve(cur, mask, weak=True, seconds=budget, keep_table=True)
            if left in settled:
                settled[left].append(result.exact)
    return settled


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--empties", default="20,24,28,32,36", help="empty-cell counts to sample")
    parser.add_argument("--games", type=count, default=40, help="games to sample positions from")
    parser.add_argument("--budget-ms", type=positive, default=60.0, help="the share of a turn given to exact play")
    parser.add_argument("--cap", type=positive, default=2.0, help="seconds before a solve is given up")
    parser.add_argument("--move-ms", type=positive, default=10.0, help="thinking time of the games that give positions")
    parser.add_argument("--carry-from", type=whole(0), default=44,
                        help="empty cells from which the kept-table solver follows each game")
    args = parser.parse_args()
    empties = empty_counts(args.empties)
    if len({e % 2 for e in empties}) > 1:
        raise SystemExit("--empties: give counts of one parity (the same player's turns), such as 32,36,40")
    err = console(stderr=True)
    err.print(f"sampling positions from {args.games} games ...")
    positions, lines = sample_positions(args.games, empties, args.move_ms / 1000)
    solver = Solver(9, 7, 22)
    solver.solve(*positions[min(empties)][0]) if positions[min(empties)] else None  # kernels off the clock
    table = Table(title=f"Exact results on 9x7 within {args.budget_ms:g} ms (one core; cap {args.cap:g} s)")
    for column in ("empty cells", "positions", "solver median", "solver p90", f"solver <= {args.budget_ms:g} ms",
                   "search median", "search p90", f"search <= {args.budget_ms:g} ms", "solver, table kept"):
        table.add_column(column, justify="right")
    budget = args.budget_ms / 1000
    kept = carried(lines, empties, args.carry_from, budget)
    for e in empties:
        solver_times, search_times = [], []
        for cur, mask in positions[e]:
            t = time.perf_counter()
            result = solver.solve(cur, mask, weak=True, seconds=args.cap)
            solver_times.append(time.perf_counter() - t if result.exact else float("inf"))
            searcher = Searcher(9, 7)
            t = time.perf_counter()
            decision = searcher.choose(cur, mask, seconds=args.cap)
            search_times.append(time.perf_counter() - t if decision.proven else float("inf"))
        n = len(solver_times)
        if not n:
            continue

        def ms(v: float) -> str:
            return "> cap" if v == float("inf") else f"{v * 1000:.1f} ms"

        table.add_row(str(e), str(n), ms(percentile(solver_times, 0.5)), ms(percentile(solver_times, 0.9)),
                      f"{100 * sum(t <= budget for t in solver_times) / n:.0f}%",
                      ms(percentile(search_times, 0.5)), ms(percentile(search_times, 0.9)),
                      f"{100 * sum(t <= budget for t in search_times) / n:.0f}%",
                      f"{100 * sum(kept[e]) / len(kept[e]):.0f}%" if kept[e] and e <= args.carry_from else "")
        err.print(f"{e} empty cells done")
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
