"""``gridfall connect4 openings``: show the pie-rule table, or measure it again (long, resumable)."""

from __future__ import annotations

import json
import sys
import time
from importlib import resources
from pathlib import Path

import click

from gridfall import json_text
from gridfall.arena.executor import JobFailed, drive
from gridfall.arena.runs import RUN_NOTES, grows_note, open_executor, open_run, run_options
from gridfall.arena.signals import exit_code
from gridfall.cli_help import with_help
from gridfall.cli_options import FloatRange, refuse_without
from gridfall.cli_output import console, output_path, write_file
from gridfall.connect4.agents import AGENT_NAMES, check_spec
from gridfall.words import counted


def _engines(text: str) -> tuple[str, str]:
    names = tuple(e.strip() for e in text.split(","))
    if len(names) != 2 or names[0] == names[1]:
        raise click.BadParameter(f"{text!r}: give two different built-in agents, as A,B", param_hint="--engines")
    for name in names:
        if name.partition(":")[0] not in AGENT_NAMES:
            raise click.BadParameter(f"{name!r} is not a built-in agent ({', '.join(AGENT_NAMES)})",
                                     param_hint="--engines")
        try:
            check_spec(name)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--engines") from None
    return names


def _show(table, as_json: bool, played: bool = True) -> None:
    """The table; ``played``: it is the package's, the one gridfall's bots open by."""
    if as_json:
        data = table.to_data()
        data["first_move"] = table.first_move
        data["steal"] = [x for x in sorted(table.values) if table.should_steal(x)]
        click.echo(json_text.dumps(data))
        return
    from rich.table import Table

    out = Table(title=f"Connect Four {table.width}x{table.height}: the first chip's value for the player to move")
    for column in ("first chip", "mover's share", "95% interval", "pairs", "second player", "first player gets"):
        out.add_column(column, justify="right")
    for x, v in sorted(table.values.items()):
        out.add_row(str(x), f"{100 * v.share:.1f}%", f"{100 * v.low:.1f}-{100 * v.high:.1f}%", f"{v.pairs:,}",
                    "STEAL" if table.should_steal(x) else "plays on", f">= {100 * v.first_player_floor:.1f}%")
    console().print(out)
    if played:
        click.echo(f"gridfall opens in column {table.first_move}, and so does the exported pure-Python file.")
    else:  # written elsewhere (--out): the bots still play the package's table
        from gridfall.connect4.openings import OpeningTable

        click.echo(f"This table opens in column {table.first_move}; gridfall plays the package's table, which "
                   f"opens in column {OpeningTable.load().first_move}.")
    click.echo(f"Method: {table.method}")


def print_run_table(stored, as_json: bool) -> None:
    """``gridfall standings`` of a pie-rule run (a :class:`~gridfall.arena.database.StoredRun`):
    the table its stored games give so far, as its own command prints it."""
    from gridfall.connect4.pie import representatives, table_from

    settings = stored.settings
    last = max((row.finished for row in stored.rows), default=stored.started)
    table = table_from(stored.rows, settings, time.strftime("%Y-%m-%d", time.localtime(last)))
    if not as_json:
        planned = 2 * settings["pairs"] * len(representatives(settings["width"]))
        click.echo(f"{counted(len(stored.rows), 'game')} of {planned:,} stored; the table they give so far:")
    _show(table, as_json, played=False)


@click.command()
@click.option("--rebuild", is_flag=True,
              help="Measure the table again by play between two engines (hours at the defaults; resumable) "
                   "and write it.")
@click.option("--pairs", type=click.IntRange(2, 100_000), default=1000, show_default=True,
              help="Seat-swapped pairs of games per first chip (a column and its mirror are one).")
@click.option("--turn-ms", type=FloatRange(min=1), default=100, show_default=True,
              help="Thinking time per move.")
@click.option("--engines", default="gridfall,mcts-solver", show_default=True,
              help="The two built-in agents that play the pairs (each owns the chip in one game of a pair).")
@click.option("--plies", type=click.IntRange(0, 6), default=2, show_default=True,
              help="Random central moves after the first chip, the same for both games of a pair.")
@click.option("--solve-empties", type=click.IntRange(0, 63), default=32, show_default=True,
              help="From this many empty cells on, the exact solver decides the game when it finishes in time "
                   "(benchmarks/connect4_endgame.py: it does for 92% of 32-cell positions within 60 ms).")
@click.option("--solve-ms", type=FloatRange(min=1), default=300, show_default=True,
              help="Time the exact solver gets at each move from --solve-empties on.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random opening moves.")
@click.option("--out", type=click.Path(dir_okay=False), callback=output_path,
              help="Write the rebuilt table here instead of into the package.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@run_options
@with_help(RUN_NOTES, grows_note("--pairs", "pairs"))
def openings(rebuild, pairs, turn_ms, engines, plies, solve_empties, solve_ms, seed, out, as_json, db, workers,
             cluster):
    """Show the opening table behind gridfall's first move and STEAL decisions.

    Each first chip gets the expected share of the player who answers it
    without stealing, with a 95% interval.  The second player steals below
    1/2; the first player opens where the worst case over the interval is best.

    --rebuild measures the table (the method is printed with it): seat-swapped
    pairs of games between two engines from every first chip, the exact solver
    finishing games once it can.  Every game is stored in --db, so a stopped
    run resumes.  Stopped early, it writes the table from the pairs finished.
    """
    from gridfall.connect4.openings import TABLE_FILE, OpeningTable
    from gridfall.connect4.pie import play_pie_game, schedule, table_from

    if not rebuild:
        refuse_without("--rebuild", allowed=("as_json",))
        _show(OpeningTable.load(), as_json)
        return
    settings = {"pairs": pairs, "turn": turn_ms / 1000, "engines": list(_engines(engines)), "plies": plies,
                "solve_empties": solve_empties, "solve_seconds": solve_ms / 1000, "seed": seed, "width": 9,
                "height": 7}
    run = open_run(db, "connect4 openings", settings, grows=("pairs",))
    done = run.done()
    jobs = [j for j in schedule(settings) if j.key not in done]
    executor = open_executor(workers, cluster, run)
    from rich.progress import Progress

    from gridfall.warmup import warm_saying

    err = console(stderr=True)
    try:  # from here on a stop, even one while the workers warm, closes the cluster before the exit
        if jobs:  # a finished run loads no kernel
            executor.prepare(lambda: warm_saying("connect4"))
        err.print(f"{counted(len(done), 'game')} stored in {run.path}, {len(jobs)} to play on {executor.describe()}")
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("pie-rule games", total=len(jobs))

            def stored(job, row):
                run.add(row)
                progress.advance(task)

            # the games abandoned by a stop are told (a thread cannot be ended: the exit waited for
            # each to finish its game, 42 s after SIGTERM with 2 s turns, never with --turn-ms 1e300)
            interrupted = drive(executor, iter(jobs), play_pie_game, stored)
    except JobFailed as e:
        raise click.ClickException(f"a game could not be played: {e} (the games stored so far are kept in "
                                   f"{run.path})") from None
    finally:
        executor.close()
    rows = run.rows()
    table = table_from(rows, settings, time.strftime("%Y-%m-%d"))
    path = Path(out) if out else Path(str(resources.files("gridfall") / "data" / "connect4" / TABLE_FILE))
    if min(v.pairs for v in table.values.values()) < 2:
        raise click.ClickException(f"too few finished pairs to write a table; the games are kept in {run.path}: "
                                   "run the same command again to resume")
    write_file(path, json.dumps(table.to_data(), indent=1) + "\n")
    err.print(f"wrote {path}" + (" (stopped early: from the pairs finished so far)" if interrupted else ""))
    _show(table, as_json, played=not out)
    sys.exit(exit_code(interrupted))
