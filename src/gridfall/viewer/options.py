"""``--replay FILE.html`` for every command that judges or plays games, written once."""

from __future__ import annotations

import click

from gridfall.cli_output import output_path_for
from gridfall.words import counted


def json_option(command):
    """``--json`` for a command whose JSON holds whole games (a referee's, ``match3 play``'s):
    ``gridfall view`` replays it (:func:`gridfall.viewer.records.referee_games`)."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object instead of the table; saved to a file, `gridfall view FILE` "
                             "replays its games.")(command)


def replay_option(command):
    return click.option("--replay", "replay_path", type=click.Path(dir_okay=False), metavar="FILE.html",
                        callback=output_path_for("replay"),
                        help="Also write a self-contained HTML replay of the games (open it in a browser).")(command)


def write_replay(path: str | None, kind: str, title: str, games: list[dict]) -> None:
    """Write the page if ``path`` was given and there is a game to show; say where, on stderr."""
    if not path:
        return
    if not games:
        click.echo(f"gridfall: no finished game to replay; {path} not written", err=True)
        return
    from gridfall.viewer import page

    try:
        size = page.write(path, kind, title, games)
    except OSError as e:  # the games are judged and reported already: say so, and lose nothing else
        click.echo(f"gridfall: cannot write the replay {path}: {e.strerror or e}", err=True)
        return
    click.echo(f"replay: {path} ({size / 1024:.0f} kB, {counted(len(games), 'game')})", err=True)


def write_run_replay(path: str | None, db_path, title: str) -> None:
    """The replay of a run database's games (the first ``records.MAX_GAMES``)."""
    if not path:
        return
    from gridfall.viewer import records

    try:
        kind, games, note = records.run_games(db_path, ())
    except ValueError as e:
        click.echo(f"gridfall: {e}; {path} not written", err=True)
        return
    write_replay(path, kind, title + (f" ({note})" if note else ""), games)
