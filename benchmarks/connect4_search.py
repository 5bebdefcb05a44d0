"""How deep does gridfall's Connect Four search get in the middle game, and at what cost?

``--search numba`` (the default) measures the bot's search, ``--search portable`` the exported
file's pure-Python one (try ``--depth 7``); ``--budget-ms`` defaults to each one's search time
in a turn (the bot's 85 ms; the file's 75 ms less the 15 it keeps back).

Takes its positions from the first ``--games`` games of a pie-rule run (gridfall's bot against
MCTS-Solver, ``results/connect4-pie.sqlite`` by default): from each game, the position at each
number of empty cells asked for, where the side to move cannot win at once.  The same positions
on every run, whatever the search's version.  For each count it prints:

* the nodes the search needs to finish ``--depth`` plies, summed over the positions (exact and
  machine-independent: compare two versions of the search with it);
* the median time to that depth;
* the mean depth finished within ``--budget-ms`` (the bot's turn), which depends on the machine
  and its load.

One core, a fresh table for every position.

    python benchmarks/connect4_search.py [--db results/connect4-pie.sqlite] [--games 60] [--empties 40,44,48]
        [--depth 12] [--budget-ms 85] [--search numba|portable]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from common import (
    console, count, duration, empty_counts, first_paragraph, machine_line, pie_run_games, run_script,
    sample_positions
)
from rich.table import Table

from gridfall.connect4 import portable, protocol
from gridfall.connect4.book import position_of
from gridfall.connect4.engine import from_game
from gridfall.connect4.rules import Game
from gridfall.connect4.search import Searcher


def numba_search():
    """search(game, seconds, max_depth) -> (nodes, depth reached) for the bot's search, a fresh table each time."""
    searcher = Searcher(9, 7)

    def search(game: Game, seconds: float, max_depth: int | None) -> tuple[int, int]:
        searcher.forget()
        cur, mask = from_game(game)
        result = searcher.choose(cur, mask, seconds=seconds, max_depth=max_depth or 64)
        return result.nodes, result.depth
    return search


def portable_search():
    """The same for the exported file's search (``connect4/portable.py``)."""
    board = portable.Board(9, 7)

    def search(game: Game, seconds: float, max_depth: int | None) -> tuple[int, int]:
        searcher = portable.Searcher(board)
        current, mask = position_of(game)
        depth = searcher.choose(current, mask, seconds, max_depth)[2]
        return searcher.nodes, depth
    return search


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--db", type=Path, default=Path("results/connect4-pie.sqlite"),
                        help="the pie-rule run whose games give the positions (default results/connect4-pie.sqlite)")
    parser.add_argument("--games", type=count, default=60, help="games to take positions from, the first stored (default 60)")
    parser.add_argument("--empties", default="40,44,48", help="empty-cell counts, comma-separated (default 40,44,48)")
    parser.add_argument("--depth", type=count, default=12, help="the fixed depth whose cost is measured (default 12)")
    portable_ms = protocol.EXPORT_TURN_MS - 1000 * portable.MARGIN
    parser.add_argument("--budget-ms", type=duration,
                        help=f"the turn for the depth-in-a-turn column (default: the search's own, {protocol.TURN_MS:g} "
                             f"for numba, {portable_ms:g} for portable)")
    parser.add_argument("--search", choices=("numba", "portable"), default="numba",
                        help="the bot's numba search or the exported file's pure-Python one (default numba)")
    args = parser.parse_args()
    if args.budget_ms is None:
        args.budget_ms = protocol.TURN_MS if args.search == "numba" else portable_ms
    empties = empty_counts(args.empties)[::-1]
    if args.games < 1 or args.depth < 1 or args.budget_ms <= 0:
        raise SystemExit("--games and --depth must be at least 1, --budget-ms above 0")

    games = pie_run_games(args.db)[:args.games]
    positions = sample_positions([game.moves for game in games], empties)
    search = numba_search() if args.search == "numba" else portable_search()
    out = console()
    table = Table(title=f"gridfall's {args.search} search, 9x7, positions from the first {len(games)} games of {args.db}")
    for name in ("empty cells", "positions", f"nodes to depth {args.depth}", f"median ms to depth {args.depth}",
                 f"mean depth in {args.budget_ms:g} ms"):
        table.add_column(name, justify="right")
    for empty in empties:
        nodes, times, depths = 0, [], []
        for game in positions[empty]:
            start = time.perf_counter()
            nodes += search(game, 1e9, args.depth)[0]
            times.append(time.perf_counter() - start)
            depths.append(search(game, args.budget_ms / 1000, None)[1])
        if not times:
            table.add_row(str(empty), "0", "-", "-", "-")
            continue
        table.add_row(str(empty), str(len(times)), f"{nodes:,}", f"{1000 * statistics.median(times):.1f}",
                      f"{statistics.mean(depths):.2f}")
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
