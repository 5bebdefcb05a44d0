"""gridfall's Connect Four search against another version of itself, move for move.

The other version is a ``search.py`` file, for instance an older one from git:

    git show 6848695:src/gridfall/connect4/search.py > /tmp/search_before.py
    python benchmarks/connect4_search_match.py /tmp/search_before.py --pairs 150 --depth 11
    python benchmarks/connect4_search_match.py /tmp/search_before.py --pairs 100 --ms 85

Both searches run in this process on the current engine (``connect4/engine.py``), so the file
must fit its API.  Each pair of games starts from two seeded random moves and is played twice
with the seats swapped, without STEAL.  ``--depth`` gives both sides a fixed depth: the games
are then the same on every run and machine, and measure the evaluation and the pruning alone.
``--ms`` gives both a time a move instead, which counts speed too.  ``--option KEY=VALUE``
passes keyword arguments to the current ``Searcher`` (``--option variety=3``: what its noise
costs); each game then reseeds it, when it has ``reseed``.  Prints the current search's
score with its Elo and 95% interval, as first and as second player.  One core.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import random
import sys
import tempfile
import time
from pathlib import Path

from common import console, count, duration, first_paragraph, machine_line, parse_options, run_script
from rich.progress import Progress
from rich.table import Table

from gridfall.arena.elo import MatchScore
from gridfall.connect4.engine import from_game
from gridfall.connect4.rules import Game
from gridfall.connect4.search import Searcher


def load_searcher(path: Path):
    """The Searcher class of another search.py."""
    if not path.is_file():
        raise SystemExit(f"{path}: no such file (git show REV:src/gridfall/connect4/search.py > {path})")
    # numba's cache records the module of each kernel it compiled, and a later run that loads the
    # kernel imports that module by name: so the module is named by the file's content, and run
    # from a copy named the same, where no other content ever lies
    source = path.read_bytes()
    name = "baseline_search_" + hashlib.sha1(source).hexdigest()[:16]
    copy = Path(tempfile.gettempdir()) / "gridfall-baselines" / f"{name}.py"
    if not copy.is_file():
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        return module.Searcher
    except Exception as error:  # the file is the user's: say what is wrong with it, not where it broke
        raise SystemExit(f"{path}: cannot be loaded as a search module ({type(error).__name__}: {error})") from None


def play(players, opening: list[int], depth: int, seconds: float, game_number: int) -> int | None:
    """The winner's seat (None for a draw) of one game from ``opening``."""
    for searcher in players:
        searcher.forget()
        if hasattr(searcher, "reseed"):
            searcher.reseed(game_number)
    game = Game(steal=False)
    for x in opening:
        game.apply_action(x)
    while not game.is_terminal():
        searcher = players[game.current_player()]
        game.apply_action(searcher.choose(*from_game(game), seconds=seconds, max_depth=depth).column)
    return game.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__),
                                     epilog="e.g. git show 6848695:src/gridfall/connect4/search.py > /tmp/before.py",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline", type=Path, help="the other version's search.py")
    parser.add_argument("--pairs", type=count, default=100, help="pairs of games, seats swapped (default 100)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=count, help="a fixed depth for both sides (default 10 when --ms is not given)")
    limit.add_argument("--ms", type=duration, help="milliseconds a move for both sides, instead of a fixed depth")
    parser.add_argument("--seed", type=int, default=0, help="the first pair's opening seed (default 0)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a keyword argument of the current Searcher, e.g. variety=3 (repeatable)")
    args = parser.parse_args()
    if args.pairs < 1 or (args.depth is not None and not 1 <= args.depth <= 63) or (args.ms is not None and args.ms <= 0):
        raise SystemExit("--pairs must be at least 1, --depth within 1..63, --ms above 0")
    depth = 64 if args.ms is not None else (args.depth or 10)
    seconds = args.ms / 1000 if args.ms is not None else 1e9
    baseline = load_searcher(args.baseline)
    options = parse_options(args.option, "--option")
    try:
        current = Searcher(9, 7, **options)
    except (TypeError, ValueError) as error:
        raise SystemExit(f"--option: {error}") from None
    other = baseline(9, 7)
    by_seat = [MatchScore(), MatchScore()]  # the current search as first player, as second
    out = console()
    start = time.perf_counter()
    with Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=2 * args.pairs)
        for i in range(args.pairs):
            rnd = random.Random(args.seed + i)
            opening = [rnd.randrange(9), rnd.randrange(9)]
            for seat in (0, 1):
                winner = play([current, other] if seat == 0 else [other, current], opening, depth, seconds,
                              2 * i + seat)
                by_seat[seat].add(0.5 if winner is None else float(winner == seat))
                progress.advance(task)
    limit_text = f"{args.ms:g} ms a move" if args.ms is not None else f"depth {depth}"
    options_text = "".join(f", {k}={v}" for k, v in options.items())
    table = Table(title=f"the current search{options_text} against {args.baseline}, {args.pairs} pairs, {limit_text}")
    for name in ("", "W", "D", "L", "score", "Elo [95%]"):
        table.add_column(name, justify="right")
    total = MatchScore()
    for score in by_seat:
        total.wins, total.draws, total.losses = (total.wins + score.wins, total.draws + score.draws,
                                                 total.losses + score.losses)
    for label, score in (("as first player", by_seat[0]), ("as second player", by_seat[1]), ("all", total)):
        elo, low, high = score.elo()
        table.add_row(label, str(score.wins), str(score.draws), str(score.losses), f"{100 * score.share:.1f}%",
                      f"{elo:+.0f} [{low:+.0f}, {high:+.0f}]")
    out.print(table)
    out.print(f"{time.perf_counter() - start:.0f} s; " + machine_line())


if __name__ == "__main__":
    run_script(main)
