"""gridfall's Connect Four bot against the built-in opponents, through the referee at CodinGame limits.

Every game runs two bot programs as subprocesses under the referee (1000 ms
first turn, 100 ms later turns, 9x7 with STEAL), pairs of games with seats
swapped.  Prints per opponent: wins, draws, losses, score share, Elo
difference with its 95% interval, losses on time, and the player's slowest turn.  Under the
table, for each opponent, the games either side lost on time in its first turn, which holds
its start-up (on a slow or busy machine, loading numba and the kernels), and the player's
score without them.

An opponent written ``NAME*K`` gets K times the time: its own limits are K times
CodinGame's and it thinks K times as long (``mcts-solver*2``); the player keeps
CodinGame's limits.

``--player export`` plays the file ``gridfall connect4 export`` writes (the pure-Python bot
for CodinGame), run by a bare interpreter: a virtual environment without gridfall, with -I.
``--player gridfall:NODES`` against ``mcts-solver:ITERATIONS`` gives a table that repeats on any
machine (with a ``--time-scale`` that lets their moves finish).

    python benchmarks/connect4_strength.py [--player gridfall|gridfall:NODES|export|AGENT] [--games 200]
        [--opponents greedy,mcts,mcts-solver,mcts-solver*2] [--workers 2] [--record games.jsonl]

``--record FILE`` appends every game to FILE as a JSON line (the opponent and the referee's
game record: seats, winner, reason, moves, turn times, messages), for ``benchmarks/connect4_losses.py`` to find where the games were lost.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import console, count, duration, finish, first_paragraph, read_games, run_script, usable_cores
from rich.progress import Progress
from rich.table import Table

from gridfall.arena.pool import run_jobs
from gridfall.connect4.agents import check_spec
from gridfall.connect4.codingame import LIMITS, referee_game, tally
from gridfall.connect4.protocol import FIRST_TURN_MS, TURN_MS
from gridfall.warmup import warm

PLAYER, OPPONENT = "player", "opponent"  # the seats' names in the game records


def bot(agent: str, seed: int, factor: float = 1.0) -> str:
    """A built-in agent as a bot command, thinking ``factor`` times the default time."""
    timing = "" if factor == 1 else f" --turn-ms {TURN_MS * factor:g} --first-turn-ms {FIRST_TURN_MS * factor:g}"
    return f"{sys.executable} -m gridfall connect4 bot --agent {agent} --seed {seed}{timing}"


def opponent_spec(text: str) -> tuple[str, float]:
    """``mcts-solver*2`` -> ("mcts-solver", 2.0): the agent and its time factor."""
    name, _, factor = text.partition("*")
    try:
        check_spec(name)
    except ValueError as error:
        raise SystemExit(f"--opponents: {error}") from None
    try:
        value = float(factor) if factor else 1.0
    except ValueError:
        value = 0.0
    if not value > 0:
        raise SystemExit(f"--opponents: {text!r}: the time factor after '*' must be a number above 0")
    return name, value


def exported_bot() -> str:
    """The command of the exported file, run by a bare interpreter (a venv without gridfall, -I)."""
    from gridfall.connect4.export import export_source

    folder = Path(tempfile.mkdtemp(prefix="gridfall-export-"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True)
    (folder / "bot.py").write_text(export_source())
    return f"{folder / 'venv' / 'bin' / 'python'} -I {folder / 'bot.py'}"


def first_turn_seconds(record, seat: int) -> float:
    """How long a seat's first turn took (bot turns alternate from the end of the opening; STEAL
    hands the move back, so the alternation holds)."""
    for i, seconds in enumerate(record.times):
        if (record.opening + i) % 2 == seat:
            return seconds
    return 0.0


def lost_at_start_up(record, name: str) -> bool:
    """Whether the seat ``name`` lost the game on time in its first turn, which holds its start-up."""
    if not record.reason.startswith(f"{name}: timeout"):
        return False
    seat = record.seats.index(name)
    return len(record.times) == (seat - record.opening) % 2  # the turn not answered was the seat's first


def start_up_note(records, opponent: str) -> str | None:
    """A line on the games a side lost on time in its first turn, and the player's score without
    them: a seat that loads numba and its kernels in that turn can lose it to a slow or busy
    machine, which says nothing of its play."""
    lost = {name: sum(lost_at_start_up(r, name) for r in records) for name in (PLAYER, OPPONENT)}
    if not any(lost.values()):
        return None
    rest = [r for r in records if not (lost_at_start_up(r, PLAYER) or lost_at_start_up(r, OPPONENT))]
    score, _, _ = tally(rest, lambda name: name == PLAYER)
    who = " and ".join(f"the {name} in {n}" for name, n in lost.items() if n)
    return (f"{opponent}: lost on time in a first turn, which holds the start-up: {who} of {len(records)} games. "
            f"Without those the player scored {100 * score.share:.1f}% ({score.wins} W / {score.draws} D / "
            f"{score.losses} L over {len(rest)}). Fewer games at once (--workers) leave the start-ups more "
            "of the machine.")


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=count, default=200,
                        help="games against each opponent, seats swapped in pairs (default 200)")
    parser.add_argument("--opponents", default="greedy,mcts",
                        help="comma-separated built-in agents; NAME*K gives that opponent K times the time "
                             "(default greedy,mcts)")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="games at once (default: the cores it may use)")
    parser.add_argument("--time-scale", type=duration, default=1.0,
                        help="multiplies both seats' time limits, 1000 ms first turn and 100 ms later (default 1)")
    parser.add_argument("--player", default="gridfall",
                        help="gridfall's numba bot, any built-in agent (gridfall:NODES, for a table that repeats "
                             "on any machine), or export: the exported pure-Python file in a bare interpreter "
                             "(default gridfall)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="append every game to FILE as a JSON line (for benchmarks/connect4_losses.py)")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1 or not args.time_scale > 0:
        raise SystemExit("--games and --workers must be at least 1, --time-scale above 0")
    specs = [opponent_spec(opponent) for opponent in args.opponents.split(",")]  # every name checked before any game
    if args.player != "export":
        try:
            check_spec(args.player)
        except ValueError as error:
            raise SystemExit(f"--player: {error}") from None
    if args.record is not None and not args.record.parent.is_dir():
        raise SystemExit(f"--record: {args.record.parent} is not a folder")
    if args.record is not None and args.record.exists():
        read_games(args.record, "--record")  # games are appended only to a file of games: not to a README
    limits = LIMITS.scaled(args.time_scale)
    warm("connect4")  # fill the kernel cache before any bot is timed
    export = exported_bot() if args.player == "export" else None
    table = Table(title=f"{args.player} vs built-in opponents, {args.games} games each, CodinGame limits x{args.time_scale:g}")
    for column in ("opponent", "W", "D", "L", "score", "as first", "as second", "Elo [95%]", "player timeouts",
                   "opponent timeouts", "player's first turn", "player's slowest turn", "minutes"):
        table.add_column(column, justify="right")
    notes: list[str] = []
    stopped = ""
    for opponent, (name, factor) in zip(args.opponents.split(","), specs):
        opponent_limits = limits.scaled(factor)

        def play(i: int, name=name, factor=factor, opponent_limits=opponent_limits):
            # the seats are labelled by role, never by program: the opponent may be gridfall too
            # the game's number seeds the player: the numba bot's noise (--seed), the exported
            # file's ties (GRIDFALL_SEED, which the referee sets)
            player = bot(args.player, i) if export is None else export
            seats = [(player, PLAYER, limits), (bot(name, i, factor), OPPONENT, opponent_limits)]
            if i % 2:
                seats.reverse()
            return referee_game((seats[0][0], seats[1][0]), (seats[0][1], seats[1][1]), (seats[0][2], seats[1][2]),
                                seed=i)

        start = time.monotonic()
        with Progress(console=console(stderr=True), transient=True) as progress:
            task = progress.add_task(f"{args.player} vs {opponent}", total=args.games)
            finished = run_jobs(list(range(args.games)), play, workers=args.workers,
                                on_done=lambda i, r, task=task: progress.advance(task))
        if finished.fault:
            sys.exit(f"Error: {finished.fault}")
        records = [r for r in finished.results if r is not None]
        row = opponent
        if finished.interrupted:  # Ctrl-C: the games finished before it are shown, marked as a part
            stopped = f"stopped during {opponent}: {len(records)} of its {args.games} games finished"
            if not records:
                break
            row = f"{opponent} ({len(records)} of {args.games})"
        if args.record is not None:
            with args.record.open("a") as out:
                for r in records:
                    out.write(json.dumps({"opponent": opponent, **dataclasses.asdict(r)}) + "\n")
        score, _, _ = tally(records, lambda name: name == PLAYER)
        first, _, _ = tally([r for r in records if r.seats[0] == PLAYER], lambda name: name == PLAYER)
        second, _, _ = tally([r for r in records if r.seats[1] == PLAYER], lambda name: name == PLAYER)
        timeouts = {PLAYER: 0, OPPONENT: 0}
        for r in records:
            if "timeout" in r.reason:
                timeouts[r.reason.split(":")[0]] += 1
        elo, low, high = score.elo()
        slowest = max(r.slowest[r.seats.index(PLAYER)] for r in records)
        first_turn = max((first_turn_seconds(r, r.seats.index(PLAYER)) for r in records), default=0.0)
        table.add_row(row, str(score.wins), str(score.draws), str(score.losses), f"{100 * score.share:.1f}%",
                      f"{100 * first.share:.1f}%", f"{100 * second.share:.1f}%",
                      f"{elo:+.0f} [{low:+.0f}, {high:+.0f}]", str(timeouts[PLAYER]), str(timeouts[OPPONENT]),
                      f"{first_turn * 1000:.0f} ms", f"{slowest * 1000:.0f} ms",
                      f"{(time.monotonic() - start) / 60:.1f}")
        console(stderr=True).print(f"{opponent}: {score.describe()}")
        note = start_up_note(records, opponent)
        if note is not None:
            notes.append(note)
        if stopped:
            break
    return finish(stopped, table, *notes)


if __name__ == "__main__":
    run_script(main)
