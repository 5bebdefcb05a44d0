"""How long gridfall's Connect Four bot takes to start: process start to its first answer.

The referee starts a bot at its first turn, so the start-up is inside that turn's 1000 ms, and a
bot that starts slowly on a busy machine loses on time.  Each run starts the bot afresh (the
kernels come from numba's cache, filled first), gives it the second player's first turn (one
chip down, STEAL allowed) with a 1 ms plan, so that the answer comes as soon as the bot is
ready, and times it from ``Popen``.  Runs again beside ``--busy`` processes that spin, as the
other games of a benchmark run do.

    python benchmarks/connect4_startup.py [--runs 10] [--busy 0,1]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from common import console, count, machine_line
from rich.table import Table

from gridfall.connect4.protocol import turn_input
from gridfall.connect4.rules import Game
from gridfall.warmup import warm

COMMAND = [sys.executable, "-m", "gridfall", "connect4", "bot", "--first-turn-ms", "1"]


def second_players_first_turn() -> str:
    game = Game(9, 7, steal=True)
    game.apply_action(1)
    return turn_input(game, 1, True, 1)


def start_once(text: str) -> float:
    """Seconds from starting the bot to its first answer."""
    t = time.monotonic()
    bot = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        bot.stdin.write(text)
        bot.stdin.flush()
        if not bot.stdout.readline():
            raise SystemExit(f"the bot answered nothing: {' '.join(COMMAND)}")
        return time.monotonic() - t
    finally:
        bot.kill()
        bot.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=count, default=10, help="starts at each load (default 10)")
    parser.add_argument("--busy", default="0,1",
                        help="comma-separated counts of spinning processes beside the bot (default 0,1)")
    args = parser.parse_args()
    try:
        loads = [int(b) for b in args.busy.split(",")]
    except ValueError:
        raise SystemExit(f"--busy: {args.busy!r} is not a list of whole numbers") from None
    warm("connect4")
    text = second_players_first_turn()
    table = Table(title=f"Connect Four bot: process start to first answer, {args.runs} starts")
    for column in ("busy processes", "median", "90th percentile", "slowest"):
        table.add_column(column, justify="right")
    for busy in loads:
        spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
        try:
            times = sorted(start_once(text) for _ in range(args.runs))
        finally:
            for s in spinners:
                s.kill()
                s.wait()
        p90 = times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]
        table.add_row(str(busy), f"{1000 * statistics.median(times):.0f} ms", f"{1000 * p90:.0f} ms",
                      f"{1000 * times[-1]:.0f} ms")
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    main()
