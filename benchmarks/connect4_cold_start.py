"""gridfall's Connect Four bot from an empty numba cache, under the referee at CodinGame's limits.

Each game gives the bot a cache folder of its own, empty, so its kernels are never there: it
plays the exported file's pure-Python search while a child process compiles them
(``gridfall/connect4/cold_start.py``), and the referee kills that child with the bot at the
game's end.  The opponent's kernels are warmed first.  Prints the bot's score, its timeouts, its
first answers and its slowest later turn, and whether every game's stderr said it played cold.

    python benchmarks/connect4_cold_start.py [--games 20] [--opponent mcts] [--bot "COMMAND"]

``--bot`` plays another command with the empty cache (say, an older copy of gridfall:
``"env PYTHONPATH=old/src python3 -m gridfall connect4 bot"``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time

from common import console, count, first_paragraph, machine_line, run_script
from rich.table import Table

from gridfall.connect4.agents import check_spec
from gridfall.connect4.codingame import LIMITS, referee_game
from gridfall.warmup import warm

COLD_LINE = "playing the pure-Python search (portable)"


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=count, default=20, help="games, seats swapped (default 20)")
    parser.add_argument("--opponent", default="mcts", help="a built-in opponent, warm (default mcts)")
    parser.add_argument("--bot", default=f"{shlex.quote(sys.executable)} -m gridfall connect4 bot",
                        help="the command played from an empty cache (default: gridfall's bot)")
    args = parser.parse_args()
    try:
        check_spec(args.opponent)
    except ValueError as error:
        raise SystemExit(f"--opponent: {error}") from None
    warm("connect4")
    opponent = f"{shlex.quote(sys.executable)} -m gridfall connect4 bot --agent {args.opponent}"
    points = timeouts = said_cold = 0
    firsts: list[float] = []
    later: list[float] = []
    start = time.monotonic()
    for game in range(args.games):
        seat = game % 2
        with tempfile.TemporaryDirectory(prefix="gridfall-cold-") as cache:
            bot = f"env NUMBA_CACHE_DIR={shlex.quote(cache)} GRIDFALL_SEED={game} {args.bot}"
            seats = (bot, opponent) if seat == 0 else (opponent, bot)
            record = referee_game(seats, ("bot", "opponent") if seat == 0 else ("opponent", "bot"), LIMITS, seed=game)
        mine = record.times[seat::2]
        points += record.points(seat)
        timeouts += record.winner != seat and "timeout" in record.reason and record.reason.startswith("bot")
        said_cold += any(COLD_LINE in text for text in record.output[seat::2])
        firsts += mine[:1]
        later += mine[1:]
        console(stderr=True).print(f"game {game + 1}/{args.games}: {record.reason}", highlight=False)
    table = Table(title=f"{args.bot} from an empty cache against {args.opponent}, {args.games} games, "
                        "CodinGame limits")
    for column in ("score", "timeouts", "said it played cold", "first answer", "slowest later turn", "minutes"):
        table.add_column(column, justify="right")
    table.add_row(f"{points / (10 * args.games):.1%}", str(timeouts), f"{said_cold}/{args.games}",
                  f"{min(firsts):.2f}-{max(firsts):.2f} s" if firsts else "none",
                  f"{1000 * max(later):.0f} ms" if later else "none", f"{(time.monotonic() - start) / 60:.1f}")
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
