"""``gridfall view RECORD``: a replay page from a stored game."""

from __future__ import annotations

from pathlib import Path

import click

from gridfall.cli_options import refuse_given
from gridfall.cli_output import output_path_for, tell_written, write_file
from gridfall.samegame.spec_completion import complete_board
from gridfall.words import counted


LARGE_PAGE = 32 * 2**20  # bytes of a page a browser opens slowly (100 Match-3 runs are 100-300 MB)

# what each kind of record cannot use: it would be ignored, and every game written
UNUSED_WITH = {"run": (("boards", "set_name"), "run database"), "store": (("jobs", "set_name"), "solution store"),
               "results": (("jobs",), "results file"), "referee": (("set_name",), "referee's JSON")}


@click.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--job", "jobs", multiple=True, metavar="KEY",
              help='A game of a run database, by its job ("pair 3 game 0", "tuning:4 A", "seed 7 fast"), or of '
                   'a Connect Four or Match-3 referee\'s JSON ("game 3", "board 2"); again for more (default: '
                   "every game, up to 100).")
@click.option("--board", "boards", multiple=True, metavar="SPEC", shell_complete=complete_board,
              help="A board of a solution store, a results file or a SameGame referee's JSON (standard:1); "
                   "again for more (default for a results file or JSON: every board).")
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The set that bare board numbers in a results file refer to.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, allow_dash=True), callback=output_path_for("replay"),
              help="The page to write (default: RECORD.html; - for standard output).")
def view(record: str, jobs, boards, set_name: str, out: str | None) -> None:
    """Write a self-contained HTML replay of stored games, to open in a browser.

    RECORD is a run database (a league, sprt, compare or campaign --db), a
    solution store, a results file, or the JSON a referee printed (connect4,
    samegame or match3 referee --json, samegame bench --json).  The page steps through each game made
    again from its moves by the rules of record: buttons, or space to play and
    pause, the arrows to step, Home and End.  It needs no network.
    """
    from gridfall.viewer import page, records

    from gridfall.samegame.boards import BoardError, load_board

    for spec in boards:  # named before the record is read
        try:
            load_board(spec)
        except BoardError as e:
            raise click.BadParameter(str(e), param_hint="--board") from None
    path = Path(record)
    try:
        kind = records.kind_of_file(path)
        unused, what = UNUSED_WITH[kind]
        refuse_given(unused, f"not for a {what} (--job picks a run's games; --board a store's or a results "
                             "file's; --set names a results file's bare board numbers)")
        note = ""
        if kind == "run":
            game_kind, games, note = records.run_games(path, jobs)
        elif kind == "referee":
            game_kind, games, note = records.referee_games(path, jobs, boards)
        elif kind == "store":
            game_kind, games = "samegame", records.store_games(path, boards)
        else:
            game_kind, games = "samegame", records.results_games(path, boards, set_name)
    except (ValueError, OSError) as e:
        raise click.BadParameter(str(e), param_hint="RECORD") from None
    target = Path(out) if out else path.with_suffix(path.suffix + ".html")
    text = page.build(game_kind, f"gridfall replay: {path.name}", games)
    write_file(target, text, kind="replay")
    size = len(text.encode("utf-8"))
    tell_written(target, f" ({size / 1024:.0f} kB, {counted(len(games), 'game')})" + (f"; {note}" if note else ""))
    if size > LARGE_PAGE and kind in ("run", "referee"):
        click.echo(f"gridfall: a page of {size / 2**20:.0f} MB is slow to open in a browser; --job picks the games "
                   "to show (a Match-3 run of four boards is 1 to 3 MB)", err=True)
