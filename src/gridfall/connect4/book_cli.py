"""``gridfall connect4 book``: show the opening book (the exported file's, and the numba bot's),
or build it again."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import click

from gridfall import json_text
from gridfall.cli_options import ALL_CORES, WORKERS, all_cores, refuse_without
from gridfall.cli_output import console, output_path, warm_kernels, write_file
from gridfall.connect4.book_build import DEPTH, FIRST_TURNS, STOLEN_TURNS, TURNS  # numba loads only when a build runs


@click.command()
@click.option("--rebuild", is_flag=True,
              help="Search every position of the book again and write it (about 30 minutes on 2 cores at the "
                   "defaults; with --extend, only the positions the shipped book lacks).")
@click.option("--depth", type=click.IntRange(1, 30), default=None,
              help=f"Plies each position is searched to (default {DEPTH}: 0.1-0.3 s a position on one core).")
@click.option("--turns", type=click.IntRange(1, 10), default=None,
              help=f"Positions up to this many actions into the game (default {TURNS}; each two more "
                   "multiply the book, and its time, by about nine, and the exported file must stay under "
                   "CodinGame's 100,000 characters: 9 adds about 7,500 of them, 10 would not fit).")
@click.option("--stolen-turns", type=click.IntRange(1, 12), default=None,
              help=f"The same after the opponent steals the file's first chip, the line where it is weakest "
                   f"(default {STOLEN_TURNS}).")
@click.option("--first-turns", type=click.IntRange(1, 12), default=None,
              help=f"The same when the opponent plays on after the file's first chip, as a bot reading the pie "
                   f"table does after the 1 the file opens with (default {FIRST_TURNS}).")
@click.option("--extend", is_flag=True,
              help="Take the moves of the shipped book where it has the position (searched to the same depth, "
                   "from an empty table: the same answers) and search only the others.")
@click.option("--workers", type=WORKERS, default=all_cores, show_default=ALL_CORES,
              help="Positions searched at once.")
@click.option("--out", type=click.Path(dir_okay=False), callback=output_path,
              help="Write the rebuilt book here instead of into the package.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
def book(rebuild, depth, turns, stolen_turns, first_turns, extend, workers, out, as_json):
    """Show the opening book of the exported pure-Python file.

    In every position the file can reach in its first moves (its first move
    and STEAL decisions from the opening table, any answer of the opponent),
    the book holds the numba search's move at a fixed depth, about 6 plies
    deeper than the file searches in a turn.  The file plays it while the book
    has the position, then searches; the numba bot, which opens and steals as
    the file does, plays it too (as first player, its first reply only).
    --rebuild searches the positions again.
    """
    from gridfall.connect4.book import BOOK_FILE, Book

    if not rebuild:
        refuse_without("--rebuild", allowed=("as_json",))
        _show(Book.load(), as_json)
        return
    from gridfall.arena.signals import exit_code, stopping_on_signals
    from gridfall.connect4.book_build import build
    from gridfall.worker_processes import WorkerDied

    err = console(stderr=True)
    warm_kernels("connect4", err)
    try:
        with stopping_on_signals():  # SIGTERM and SIGHUP as Ctrl-C: its workers are ended, not orphaned
            made = build(depth=depth or DEPTH, turns=turns or TURNS, workers=workers, progress=err.print,
                         stolen_turns=stolen_turns or STOLEN_TURNS, known=Book.load() if extend else None,
                         first_turns=first_turns or FIRST_TURNS, stoppable=True)
    except KeyboardInterrupt:
        click.echo("stopped: nothing written (the book is written whole)", err=True)
        sys.exit(exit_code(True))
    except WorkerDied as e:
        raise click.ClickException(f"{e}; nothing written (the book is written whole)") from None
    path = Path(out) if out else Path(str(resources.files("gridfall") / "data" / "connect4" / BOOK_FILE))
    write_file(path, json.dumps(made.to_data(), indent=1) + "\n")
    err.print(f"wrote {path}")
    _show(made, as_json)


def _show(made, as_json: bool) -> None:
    if as_json:
        click.echo(json_text.dumps(made.to_data()))
        return
    click.echo(f"Connect Four {made.width}x{made.height}: {len(made.moves):,} positions in the exported file's "
               f"opening book, searched to depth {made.depth}, up to {made.turns} actions into a game "
               f"({made.stolen_turns} after the opponent steals the file's first chip, {made.first_turns} when "
               f"it plays on; {len(made.to_data()['tree']):,} characters in the file)")
    click.echo(f"Method: {made.method}")
