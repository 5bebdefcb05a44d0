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

``--agent`` starts a built-in opponent instead (``mcts``: it loads its kernels before it reads
its first turn, so its first answer is its whole start-up).  ``--against SRC`` starts another
copy of gridfall too (its ``src`` folder, on PYTHONPATH; its own kernels warmed first), in turn
with this one, so that both meet the same moments of a noisy machine.

    python benchmarks/connect4_startup.py [--runs 10] [--busy 0,1] [--agent mcts] [--against OLD/src]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import console, count, first_paragraph, machine_line, run_script
from rich.table import Table

from gridfall.connect4.agents import check_spec
from gridfall.connect4.protocol import turn_input
from gridfall.connect4.rules import Game
from gridfall.warmup import warm

COMMAND = [sys.executable, "-m", "gridfall", "connect4", "bot", "--first-turn-ms", "1", "--agent"]
# what the bot's loading thread does, in a process of its own, which says "ready" when it is done
LOAD = [sys.executable, "-c", "import sys; sys.modules.setdefault('scipy', None); "
        "from gridfall.connect4.agents import make_agent; make_agent('gridfall', 0); print('ready', flush=True)"]


def second_players_first_turn() -> str:
    game = Game(9, 7, steal=True)
    game.apply_action(1)
    return turn_input(game, 1, True, 1)


def start_once(command: list[str], text: str, env: dict | None = None) -> float:
    """Seconds from starting ``command`` (in ``env``) to the first line it writes."""
    t = time.monotonic()
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           env=env)
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


def copies(against: str | None) -> dict[str, dict | None]:
    """The copies of gridfall to start, by name: this one (None: this environment), and the one whose
    ``src`` folder is ``against``, on PYTHONPATH, with its kernels warmed by its own warm-up."""
    found: dict[str, dict | None] = {"this copy": None}
    if against is None:
        return found
    src = Path(against).resolve()
    if not (src / "gridfall" / "__init__.py").is_file():
        raise SystemExit(f"--against {against}: not the src folder of a copy of gridfall (no gridfall/__init__.py in it)")
    env = {**os.environ, "PYTHONPATH": str(src)}
    warmed = subprocess.run([sys.executable, "-m", "gridfall", "warmup", "--game", "connect4"], env=env,
                            capture_output=True, text=True)
    if warmed.returncode != 0:
        raise SystemExit(f"--against {against}: its warm-up failed: {warmed.stderr.strip()[-500:]}")
    found[f"--against {against}"] = env
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--runs", type=count, default=10, help="starts at each load (default 10)")
    parser.add_argument("--busy", default="0,1",
                        help="comma-separated counts of spinning processes beside the bot (default 0,1)")
    parser.add_argument("--agent", default="gridfall", help="the bot's --agent (default gridfall; mcts, ...)")
    parser.add_argument("--against", metavar="SRC", help="the src folder of another copy of gridfall, started in turn")
    args = parser.parse_args()
    try:
        loads = [int(b) for b in args.busy.split(",")]
    except ValueError:
        raise SystemExit(f"--busy: {args.busy!r} is not a list of whole numbers") from None
    try:
        check_spec(args.agent)
    except ValueError as error:
        raise SystemExit(f"--agent: {error}") from None
    runs = copies(args.against)
    warm("connect4")
    text = second_players_first_turn()
    table = Table(title=f"Connect Four bot (--agent {args.agent}): process start to its first answer"
                        + (" and to its search loaded" if args.agent == "gridfall" else "") + f", {args.runs} starts each")
    for column in ("busy processes", "copy", "", "median", "90th percentile", "slowest", "over 1000 ms"):
        table.add_column(column, justify="left" if column == "copy" else "right")
    for busy in loads:
        spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
        try:
            answers: dict[str, list[float]] = {name: [] for name in runs}
            loaded: dict[str, list[float]] = {name: [] for name in runs}
            for _ in range(args.runs):  # in turn, so that all meet the same moments of a noisy machine
                for name, env in runs.items():
                    answers[name].append(start_once([*COMMAND, args.agent], text, env))
                    if args.agent == "gridfall":  # the others load before they answer
                        loaded[name].append(start_once(LOAD, "", env))
        finally:
            for s in spinners:
                s.kill()
                s.wait()
        for name in runs:
            late = str(sum(t > 1.0 for t in answers[name]))
            table.add_row(str(busy), name, "first answer", *percentiles(answers[name]), late)
            if loaded[name]:
                table.add_row("", "", "search loaded", *percentiles(loaded[name]), str(sum(t > 1.0 for t in loaded[name])))
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
