"""How long gridfall's Connect Four bot takes to start: process start to its first answer, and
to its search loaded.

The referee starts a bot at its first turn, so the start-up is inside that turn's 1000 ms, and a
bot that starts slowly on a busy machine loses on time.  Each run starts the bot afresh (the
kernels come from numba's cache, filled first), gives it the second player's first turn (one
chip down, STEAL allowed) with a 1 ms plan, and times its answer from ``Popen``.  The bot loads
its search in a thread and answers without it when it is late (connect4/loading.py), so each run
also times a fresh interpreter that makes the bot's agent (numba's import, the kernels, the
tables) and says so: the time a first turn needs for the search to play it.  Runs again beside
``--busy`` processes that spin, as the other games of a benchmark run do.

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
# what the bot's loading thread does, in a process of its own, which says "ready" when it is done
LOAD = [sys.executable, "-c", "import sys; sys.modules.setdefault('scipy', None); "
        "from gridfall.connect4.agents import make_agent; make_agent('gridfall', 0); print('ready', flush=True)"]


def second_players_first_turn() -> str:
    game = Game(9, 7, steal=True)
    game.apply_action(1)
    return turn_input(game, 1, True, 1)


def start_once(command: list[str], text: str) -> float:
    """Seconds from starting ``command`` to the first line it writes."""
    t = time.monotonic()
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        bot.stdin.write(text)
        bot.stdin.flush()
        if not bot.stdout.readline():
            raise SystemExit(f"no answer from: {' '.join(command)}")
        return time.monotonic() - t
    finally:
        bot.kill()
        bot.wait()


def percentiles(times: list[float]) -> list[str]:
    """Median, 90th percentile and slowest, in ms."""
    times = sorted(times)
    p90 = times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]
    return [f"{1000 * t:.0f} ms" for t in (statistics.median(times), p90, times[-1])]


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
    table = Table(title=f"Connect Four bot: process start to its first answer and to its search loaded, "
                        f"{args.runs} starts each")
    for column in ("busy processes", "", "median", "90th percentile", "slowest"):
        table.add_column(column, justify="right")
    for busy in loads:
        spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
        try:
            answers, loaded = [], []
            for _ in range(args.runs):  # in turn, so that both meet the same moments of a noisy machine
                answers.append(start_once(COMMAND, text))
                loaded.append(start_once(LOAD, ""))
        finally:
            for s in spinners:
                s.kill()
                s.wait()
        table.add_row(str(busy), "first answer", *percentiles(answers))
        table.add_row("", "search loaded", *percentiles(loaded))
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    main()
