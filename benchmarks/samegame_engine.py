"""Random full playouts per second: the numba engine against the rules of record.

Both play the same policy on the same boards in one run: uniformly random
moves among the legal groups, or the tabu-colour policy (the most common
colour of the start position is avoided while any other move exists).  One
core; the engine is timed after its kernels are compiled.  A second table
shows what the engine's incremental move list (``engine.play_listed``) buys
over listing every group from scratch after each move.

    python benchmarks/samegame_engine.py [--set standard] [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from common import console, first_paragraph, machine_line, positive, run_script
from rich.table import Table

from gridfall.jit import below, new_rng, njit
from gridfall.samegame import engine, rules
from gridfall.samegame.search.colours import most_common_colour
from gridfall.samegame.boards import load_board, set_specs


@njit(cache=True)
def engine_playouts(start, count, rng, tabu, moves):
    """``count`` playouts from ``start`` avoiding colour ``tabu`` (-1: none); returns the sum of their scores."""
    b = start.copy()
    total = 0
    for _ in range(count):
        b[:, :] = start
        total += engine.random_playout(b, rng, tabu, moves)  # clear bonus included
    return total


@njit(cache=True)
def rebuilt_playouts(start, count, rng, moves):
    """Uniform playouts that list the moves from scratch after every move (no incremental update)."""
    b = start.copy()
    total = 0
    for _ in range(count):
        b[:, :] = start
        while True:
            n = engine.list_moves(b, moves)
            if n == 0:
                break
            total += engine.play_move(b, moves[below(rng, n)])
    return total


def measure_listing(boards, seconds: float, incremental: bool) -> float:
    """Uniform playouts per second with the move list updated (as in every search) or rebuilt."""
    moves, rng = engine.new_moves(), new_rng(1)
    starts = [engine.from_board(b) for b in boards]
    if incremental:
        return _rate(len(starts), seconds, lambda i, k: engine_playouts(starts[i], k, rng, -1, moves))[0]
    return _rate(len(starts), seconds, lambda i, k: rebuilt_playouts(starts[i], k, rng, moves))[0]


def rules_playout(board: rules.Board, rnd: random.Random, tabu: int) -> int:
    """The same policy on the rules of record."""
    score = 0
    while True:
        groups = board.groups()
        if not groups:
            return score
        allowed = [g for g in groups if g.colour != tabu] or groups
        group = allowed[rnd.randrange(len(allowed))]
        board, gained = board.play(group.x, group.y)
        score += gained


def _rate(count_of_boards: int, seconds: float, run) -> tuple[float, float]:
    """Playouts per second of ``run(i, count)`` (``count`` playouts on board i, returns the scores'
    sum) over the boards, and the mean score."""
    run(0, 2)  # compile outside the clock
    count, total, elapsed, batch = 0, 0, 0.0, 50
    while elapsed < seconds:
        t = time.perf_counter()
        for i in range(count_of_boards):
            total += run(i, batch)
        elapsed += time.perf_counter() - t
        count += batch * count_of_boards
    return count / elapsed, total / count


def measure_engine(boards, seconds: float, use_tabu: bool) -> tuple[float, float]:
    moves, rng = engine.new_moves(), new_rng(1)
    starts = [engine.from_board(b) for b in boards]
    tabus = [most_common_colour(start) if use_tabu else -1 for start in starts]
    return _rate(len(starts), seconds, lambda i, k: engine_playouts(starts[i], k, rng, tabus[i], moves))


def measure_rules(boards, seconds: float, use_tabu: bool) -> tuple[float, float]:
    rnd = random.Random(1)
    tabus = [most_common_colour(engine.from_board(b)) if use_tabu else -1 for b in boards]
    count, total, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for board, tabu in zip(boards, tabus):
            total += rules_playout(board, rnd, tabu)
            count += 1
    return count / (time.perf_counter() - start), total / count


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--set", default="standard", choices=("standard", "tuning", "codingame"), help="board set")
    parser.add_argument("--seconds", type=positive, default=3.0, help="seconds per measurement")
    args = parser.parse_args()
    boards = [load_board(spec) for spec in set_specs(args.set)]

    table = Table(title=f"SameGame random full playouts per second, one core, {len(boards)} {args.set} boards")
    for column in ("policy", "engine playouts/s", "rules playouts/s", "engine / rules", "mean score engine", "mean score rules"):
        table.add_column(column, justify="right")
    for use_tabu in (True, False):
        fast, fast_mean = measure_engine(boards, args.seconds, use_tabu)
        slow, slow_mean = measure_rules(boards, args.seconds, use_tabu)
        table.add_row(
            "tabu colour" if use_tabu else "uniform", f"{fast:,.0f}", f"{slow:,.0f}", f"{fast / slow:,.0f}x",
            f"{fast_mean:.0f}", f"{slow_mean:.0f}",
        )
    out = console()
    out.print(table)
    rebuilt = measure_listing(boards, args.seconds, incremental=False)
    updated = measure_listing(boards, args.seconds, incremental=True)
    listing = Table(title="Move list after each move: rebuilt from scratch vs updated (uniform playouts per second)")
    for column in ("rebuilt", "updated", "updated / rebuilt"):
        listing.add_column(column, justify="right")
    listing.add_row(f"{rebuilt:,.0f}", f"{updated:,.0f}", f"{updated / rebuilt:.2f}x")
    out.print(listing)
    out.print(f"{machine_line()}; numpy {np.__version__}")


if __name__ == "__main__":
    run_script(main)
