"""How often does a Connect Four search keep the game's exact value in the middle game?

A search's move holds when it keeps the value the exact solver gives the position (a won game
stays won, a drawn one drawn); it slips when it gives up a win or a draw.  This counts slips,
machine-independently, for the exported file's pure-Python search (``portable:DEPTH``) and the
numba bot's (``numba:DEPTH``), on positions where at least one move slips: in the others every
move holds and nothing is learnt.

The positions come from a pie-rule run's games (gridfall's bot against MCTS-Solver, the data the
evaluation was fitted on), or with ``--records FILE`` from games that
``connect4_strength.py --record`` wrote (a pie-rule run stops a game where the solver settles it,
so it has few positions under 36 empty cells): one a game at each empty-cell count asked for,
the side to move unable to win at once.  Tune on games that no strength figure you report
comes from.  Each position's moves are solved (weakly: win,
draw or loss) by the numba solver once and kept in ``--cache`` (JSON lines), so trying another
search or evaluation later costs only the searches.  A position the solver cannot settle within
``--seconds`` a move is left out and counted.

``--weights LOWEST,EVEN,THREAT`` runs the portable searches with other evaluation weights than
the shipped ones (:data:`gridfall.connect4.portable.LOWEST_WEIGHT` and the two after it), to try
an evaluation before changing it.

    python benchmarks/connect4_accuracy.py [--db results/connect4-pie.sqlite | --records games.jsonl] [--games 60]
        [--empties 28,32,36,40] [--searches portable:8,numba:12] [--weights 16,15,4]
        [--cache results/connect4-accuracy.jsonl] [--seconds 20] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common import (
    console, count, duration, empty_counts, first_paragraph, machine_line, pie_run_games, read_games,
    run_script, sample_positions, text_of, usable_cores,
)
from rich.table import Table

from gridfall.connect4 import engine, portable
from gridfall.connect4.book import position_of
from gridfall.connect4.rules import Game
from gridfall.worker_processes import worker_map


def move_values(moves: list[int], seconds: float) -> dict[int, int] | None:
    """{column: +1, 0 or -1} for the side to move after ``moves``, each column solved weakly, or
    None if one of them was not settled in ``seconds``."""
    from gridfall.connect4.solver import Solver

    global _solver
    if _solver is None:
        _solver = Solver()
    game = replay(moves)
    values = {}
    for column in range(game.width):
        if not game.position.can_play(column):
            continue
        child = game.clone()
        child.apply_action(column)
        if child.is_terminal():  # cannot be a win: the side to move could not win at once
            values[column] = 0
            continue
        result = _solver.solve(*engine.from_game(child), weak=True, seconds=seconds, keep_table=True)
        if not result.exact:
            return None
        values[column] = -((result.score > 0) - (result.score < 0))
    return values


_solver = None  # one a worker process


def replay(moves: list[int]) -> Game:
    game = Game(steal=True)
    for move in moves:
        game.apply_action(move)
    return game


def read_cache(path: Path) -> dict[str, dict[int, int] | None]:
    """{moves as text: move values, or None where the solver did not settle them}; {} without a file."""
    if not path.exists():
        return {}
    cache = {}
    for number, line in enumerate(text_of(path, f"--cache {path}").splitlines(), 1):
        try:
            row = json.loads(line)
            values = row["values"]
            cache[row["moves"]] = None if values is None else {int(c): int(v) for c, v in values.items()}
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise SystemExit(f"{path}:{number}: not a line of this cache ({error}); delete the file to solve "
                             f"again") from None
    return cache


def searcher(spec: str, weights: tuple[int, int, int] | None):
    """column(game) for a search named ``portable:DEPTH`` or ``numba:DEPTH``, a fresh table each position."""
    kind, _, depth_text = spec.partition(":")
    if kind not in ("portable", "numba") or not depth_text.isdigit() or not 1 <= int(depth_text) <= 30:
        raise SystemExit(f"--searches: {spec!r} is not portable:DEPTH or numba:DEPTH (a depth of 1 to 30)")
    depth = int(depth_text)
    if kind == "numba":
        from gridfall.connect4.search import Searcher

        numba = Searcher(9, 7)

        def column(game: Game) -> int:
            numba.forget()
            return numba.choose(*engine.from_game(game), seconds=1e9, max_depth=depth).column
        return column
    board = portable.Board(9, 7)

    def column(game: Game) -> int:
        saved = portable.LOWEST_WEIGHT, portable.EVEN_ROW_WEIGHT, portable.THREAT_WEIGHT
        if weights:  # the evaluation reads the module's weights at every leaf
            portable.LOWEST_WEIGHT, portable.EVEN_ROW_WEIGHT, portable.THREAT_WEIGHT = weights
        try:
            return portable.Searcher(board).choose(*position_of(game), 1e9, max_depth=depth)[0]
        finally:
            portable.LOWEST_WEIGHT, portable.EVEN_ROW_WEIGHT, portable.THREAT_WEIGHT = saved
    return column


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--db", type=Path, default=Path("results/connect4-pie.sqlite"),
                        help="the pie-rule run whose games give the positions (default results/connect4-pie.sqlite)")
    parser.add_argument("--records", type=Path, help="take the positions from these recorded games instead of --db")
    parser.add_argument("--games", type=count, default=60, help="games to take positions from, the first stored (default 60)")
    parser.add_argument("--empties", default="28,32,36,40", help="empty-cell counts, comma-separated (default 28,32,36,40)")
    parser.add_argument("--searches", default="portable:8,numba:12",
                        help="searches to count, comma-separated portable:DEPTH or numba:DEPTH (default portable:8,numba:12)")
    parser.add_argument("--weights", help="LOWEST,EVEN,THREAT: the portable evaluation's weights (default the shipped ones)")
    parser.add_argument("--cache", type=Path, default=Path("results/connect4-accuracy.jsonl"),
                        help="the solved move values, read and extended (default results/connect4-accuracy.jsonl)")
    parser.add_argument("--seconds", type=duration, default=20.0, help="solver time a move at most (default 20)")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="processes solving (default: the cores it may use)")
    args = parser.parse_args()
    empties = empty_counts(args.empties)[::-1]
    try:
        weights = tuple(int(w) for w in args.weights.split(",")) if args.weights else None
    except ValueError:
        raise SystemExit("--weights takes whole numbers separated by commas") from None
    if weights is not None and len(weights) != 3:
        raise SystemExit(f"--weights {args.weights!r}: give three weights, LOWEST,EVEN,THREAT")
    if args.games < 1 or args.workers < 1:
        raise SystemExit("--games and --workers must be at least 1")
    searches = [(spec, searcher(spec, weights)) for spec in args.searches.split(",")]

    if args.records:
        source, games = args.records, [game["moves"] for game in read_games(args.records)]
    else:
        source, games = args.db, [game.moves for game in pie_run_games(args.db)]
    positions = sample_positions(games[:args.games], empties)
    cache = read_cache(args.cache)
    wanted = [game for empty in empties for game in positions[empty]]
    unsolved = [game.history for game in wanted if " ".join(map(str, game.history)) not in cache]
    out = console()
    if unsolved:
        out.print(f"solving the moves of {len(unsolved)} positions ({args.seconds:g} s a move at most) into {args.cache}",
                  style="dim")
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        with worker_map(args.workers) as mapped, args.cache.open("a") as cache_file:
            for done, (moves, values) in enumerate(zip(unsolved, mapped(move_values, unsolved,
                                                                        [args.seconds] * len(unsolved))), 1):
                key = " ".join(map(str, moves))
                cache[key] = values
                cache_file.write(json.dumps({"moves": key, "values": values}) + "\n")
                cache_file.flush()
                if done % 10 == 0:
                    out.print(f"  {done}/{len(unsolved)} solved", style="dim")

    weights_text = ",".join(map(str, weights)) if weights else "shipped"
    table = Table(title=f"Moves that keep the exact value, positions from the first {args.games} games of {source} "
                        f"(portable weights: {weights_text})")
    table.add_column("empty cells", justify="right")
    table.add_column("positions (some move slips)", justify="right")
    table.add_column("not settled", justify="right")
    for spec, _ in searches:
        table.add_column(f"{spec} holds", justify="right")
    totals = {spec: 0 for spec, _ in searches}
    total_positions = 0
    for empty in empties:
        settled = [(game, cache[" ".join(map(str, game.history))]) for game in positions[empty]]
        unsettled = sum(values is None for _, values in settled)
        telling = [(game, values) for game, values in settled if values and len(set(values.values())) > 1]
        row = [str(empty), str(len(telling)), str(unsettled)]
        for spec, column in searches:
            held = sum(values[column(game)] == max(values.values()) for game, values in telling)
            totals[spec] += held
            row.append(f"{held} ({100 * held / max(len(telling), 1):.0f}%)")
        total_positions += len(telling)
        table.add_row(*row)
    table.add_row("all", str(total_positions), "",
                  *(f"{totals[spec]} ({100 * totals[spec] / max(total_positions, 1):.1f}%)" for spec, _ in searches))
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
