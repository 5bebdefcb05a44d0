"""The exported SameGame bot under the referee, run by a bare interpreter, beside the numba bot.

Exports the bot (``gridfall samegame export``, with ``--from`` a results file to embed), runs it
in a virtual environment without gridfall (``-I``) under gridfall's referee at the platform's
limits (the first turn ``--time`` seconds, later turns 50 ms), and prints per flavour the total,
the boards that ended ok, the slowest first turn and the slowest later turn.  With ``--numba``
gridfall's numba bot (``gridfall samegame bot --no-store``) plays the same boards at the same
budget beside it.

    python benchmarks/samegame_export.py codingame --from results/samegame-standard.txt
    python benchmarks/samegame_export.py tuning:1-20 --numba --time 20
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from common import console, count, duration, finish, first_paragraph, numbers, run_script, usable_cores
from rich.table import Table

from gridfall.arena.limits import CODINGAME_MEMORY_MB, Limits
from gridfall.arena.pool import run_jobs
from gridfall.samegame.board_args import expand_specs
from gridfall.samegame.boards import BoardError, load_board
from gridfall.samegame.codingame import TURN_SECONDS, referee_game
from gridfall.samegame.export import export_source, known_from_results
from gridfall.samegame.store import StoreError
from gridfall.warmup import warm


def specs_of(text: str) -> list[str]:
    """``tuning:1-20`` or a set name or specs separated by commas."""
    out = []
    for part in text.split(","):
        kind, _, rest = part.partition(":")
        if "-" in rest:
            out += [f"{kind}:{n}" for n in numbers(rest, f"boards {part!r}")]
        else:
            out += expand_specs([part])
    return out


FLAVOURS = ("turn", "one-turn")
MARGIN = 1.5  # seconds of the first turn each bot keeps back, as gridfall's bench does


def flavours_of(text: str) -> list[str]:
    """An argparse type: flavours separated by commas, each ``turn`` or ``one-turn``."""
    chosen = [part.strip() for part in text.split(",")]
    unknown = [part for part in chosen if part not in FLAVOURS]
    if unknown:
        raise argparse.ArgumentTypeError(f"{unknown[0]!r} is not a flavour: give {' or '.join(FLAVOURS)}, "
                                         "separated by commas")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("boards", help="specs: a set name, tuning:1-20, or specs separated by commas")
    parser.add_argument("--from", dest="results", help="a results file to embed")
    parser.add_argument("--time", type=duration, default=20.0, help="the first turn's limit, seconds (default 20)")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="boards at once, one core each (default: the cores it may use)")
    parser.add_argument("--numba", action="store_true", help="play gridfall's numba bot beside it")
    parser.add_argument("--flavours", type=flavours_of, default=list(FLAVOURS),
                        help="the protocols to play, separated by commas: turn (a click a turn), one-turn "
                             "(the whole line at once) (default turn,one-turn)")
    args = parser.parse_args()
    if args.time <= MARGIN:
        parser.error(f"--time {args.time:g}: each bot keeps {MARGIN:g} s of its first turn back; give more than that")
    try:
        specs = specs_of(args.boards)
        boards = {spec: load_board(spec) for spec in specs}
    except (ValueError, BoardError) as e:
        parser.error(f"boards {args.boards!r}: {e}")
    try:
        known = known_from_results(args.results) if args.results else {}
    except StoreError as e:  # a missing, unreadable or corrupt file, named with its line
        parser.error(f"--from: {e}")
    folder = Path(tempfile.mkdtemp(prefix="gridfall-export-"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True)
    bare = folder / "venv" / "bin" / "python"
    limits = Limits(args.time, TURN_SECONDS, CODINGAME_MEMORY_MB)  # the platform's, as the referee gives
    if args.numba:
        warm("samegame")
    table = Table(title=f"SameGame: the exported bot{' and the numba bot' if args.numba else ''} on {args.boards}, "
                        f"{args.time:g} s first turn, {len(known)} boards embedded")
    for column in ("bot", "flavour", "total", "ok boards", "slowest first turn", "slowest later turn"):
        table.add_column(column, justify="right")
    err = console(stderr=True)
    stopped = ""
    for flavour in args.flavours:
        one_turn = flavour == "one-turn"
        bot_file = folder / f"bot-{flavour}.py"
        bot_file.write_text(export_source(known, one_turn=one_turn, first_turn_ms=(args.time - MARGIN) * 1000))
        bots = {"export": f"{bare} -I {bot_file}"}
        if args.numba:
            bots["numba"] = (f"{sys.executable} -m gridfall samegame bot --no-store --workers 1 "
                             f"--first-turn-ms {(args.time - MARGIN) * 1000:.0f}" + (" --one-turn" if one_turn else ""))
        for name, command in bots.items():
            finished = run_jobs(specs, lambda spec: referee_game(command, boards[spec], spec, one_turn=one_turn,
                                                                 limits=limits), workers=args.workers)
            if finished.fault:
                sys.exit(f"Error: {finished.fault}")
            done = [r for r in finished.results if r is not None]
            if finished.interrupted:  # Ctrl-C: the boards finished before it are shown, marked as a part
                stopped = f"stopped during {name} {flavour}: {len(done)} of {len(specs)} boards finished"
                if not done:
                    break
            ok = [r for r in done if r.ok]
            table.add_row(name + (f" ({len(done)} of {len(specs)})" if stopped else ""), flavour,
                          f"{sum(r.score for r in ok):,}", f"{len(ok)} of {len(done)}",
                          f"{max(r.first_turn_seconds for r in done):.2f} s",
                          "" if one_turn else f"{max(r.slowest_turn_seconds for r in done) * 1000:.1f} ms")
            err.print(f"{name} {flavour}: {sum(r.score for r in ok):,}")
            if stopped:
                break
        if stopped:
            break
    return finish(stopped, table)


if __name__ == "__main__":
    run_script(main)
