"""``gridfall runs [PATH...]``: which run is which, among the databases in a folder.

A run's default database is named after a hash of its settings (``league-3f2a9c1e.sqlite``), so
a folder of them says nothing by its names.  This lists each with its kind, its games and the
command that started it, read without a write or a lock (a run that plays is listed too).
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any

import click

from gridfall import json_text
from gridfall.cli_output import console
from gridfall.printable import one_line
from gridfall.sqlite_kinds import is_sqlite
from gridfall.words import counted


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: the runs, and the files that are not.")
def runs(paths: tuple[str, ...], as_json: bool) -> None:
    """List the run databases in PATHS (folders, or files; default: this folder).

    Each run (a league, an SPRT, a comparison, a campaign, the pie table's,
    played games in the browser) with its kind, its games stored, when it
    started and when its last game finished, and the command that resumes
    it from here (the one that started it, or the last that grew it, its --db
    naming the file as listed), with the bots' files edited since their games
    were played (a resume refuses them).  In a
    folder, every SQLite file is read, whatever its name; one that is not a
    run (a solution store, someone else's database) is named with the reason,
    as is a damaged .sqlite file.  Nothing is written or locked, so a run that
    plays now is listed too.  Exits 1 when a file named in PATHS is not a run
    (in a folder, such a file is only listed).
    """
    from rich.text import Text

    from gridfall.arena.bot_files import KEY, edited
    from gridfall.arena.database import read_run

    files, named = [], set()
    for path in map(Path, paths or (".",)):
        if path.is_dir():
            files += _databases_in(path)
        else:
            files.append(path)
            named.add(str(path))
    found: list[dict[str, Any]] = []
    others: list[dict[str, str]] = []
    for file in files:
        try:
            stored = read_run(file)
        except (ValueError, OSError) as e:
            others.append({"file": str(file), "why": str(e).removeprefix(f"{file}: ")})
            continue
        last = max((row.finished for row in stored.rows), default=None)
        found.append({"file": str(file), "kind": stored.kind, "games": len(stored.rows), "started": stored.started,
                      "last_game": last, "command": shlex.join(_resuming(_as_typed(stored.command), file)),
                      "edited": [{"bot": name, "file": path} for name, path in edited(stored.extras.get(KEY))]})
    # A file the user named is expected to be a run: one that is not fails the command, as a
    # missing path does (a script that lists a run it needs stops there, not at the next step).
    failed = any(other["file"] in named for other in others)
    if as_json:
        click.echo(json_text.dumps({"runs": found, "not_runs": others}))
        raise SystemExit(1 if failed else 0)
    out = console()
    where = ", ".join(paths) or "."
    out.print(_table(found, where) if found else Text(f"No runs in {where}."))
    for other in others:
        out.print(Text(one_line(f"{other['file']}: {other['why']}")))  # a shared folder's names are data
    if found:
        out.print("`gridfall standings FILE` prints where a run stands, `gridfall view FILE` replays its games.")
    raise SystemExit(1 if failed else 0)


def _table(found: list[dict[str, Any]], where: str) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{counted(len(found), 'run')} in {where}")
    for column in ("file", "kind", "games", "started", "last game", "the command that resumes it"):
        table.add_column(column, justify="right" if column == "games" else "left")
    for run in found:
        command = Text(one_line(run["command"]))  # Text: not markup; one_line: its --db is the file's name
        for change in run["edited"]:  # its games were played by the earlier file: the command is refused
            command.append(f"\nedited since its games: {change['file']} (bot {change['bot']})", "red")
        table.add_row(Text(one_line(run["file"])), Text(run["kind"]), f"{run['games']:,}", _when(run["started"]),
                      _when(run["last_game"]), command)
    return table


def _databases_in(folder: Path) -> list[Path]:
    """The files of ``folder`` a run may be stored in: each SQLite database, whatever its name
    (``--db results/league.db``), and each ``.sqlite`` file, which is named even when damaged."""
    return sorted(file for file in folder.iterdir() if file.suffix == ".sqlite" or is_sqlite(file))


def _as_typed(command: list[str]) -> list[str]:
    """The stored command as the user typed it: ``gridfall ...`` for the program's own path."""
    if command and Path(command[0]).name in ("gridfall", "__main__.py"):
        return ["gridfall", *command[1:]]
    return command


def _resuming(command: list[str], file: Path) -> list[str]:
    """The stored command with ``--db`` naming ``file`` as this listing reached it.  As stored, its
    --db was relative to the folder it ran in, or absent (the default name, in that folder), or
    names where the file was before it moved (copied from another machine, or into results/):
    run from here, it would start another run."""
    words, found = list(command), False
    for at, word in enumerate(words):
        if word == "--db" and at + 1 < len(words):
            words[at + 1], found = str(file), True
        elif word.startswith("--db="):
            words[at], found = f"--db={file}", True
    return words if found else [*words, "--db", str(file)]


def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "-"
