"""``gridfall samegame store``: list, share and merge the solution store (the best line found for
each board), and the store options and errors that ``solve``, ``bot``, ``bench`` and ``export`` share."""

from __future__ import annotations

import contextlib
import sys

import click

from gridfall import json_text
from gridfall.atomic_file import replacing
from gridfall.cli_options import refuse_given
from gridfall.cli_output import cannot_write, console, output_path
from gridfall.printable import one_line
from gridfall.words import counted


def store_options(command):
    """``--store FILE`` and ``--no-store``, for the commands that read or fill the store; both
    together are refused, as the user's intent is unclear."""
    import functools

    @functools.wraps(command)
    def checked(*args, **kwargs):
        if kwargs.get("no_store") and kwargs.get("store_path"):
            raise click.UsageError("--store and --no-store: give one of them")
        return command(*args, **kwargs)

    with_flag = click.option("--no-store", is_flag=True, help="Neither read nor write the solution store.")(checked)
    return click.option("--store", "store_path", type=click.Path(dir_okay=False),
                        help="Solution store file (default: the user's data directory).")(with_flag)


def open_store(store_path: str | None, *, must_exist: bool = False, or_else: str | None = None):
    """The store at ``store_path`` (None: the user's), or one clear message if it is damaged.
    ``must_exist``: a path given that holds no store is refused instead of made (a mistyped
    ``--store`` to ``list`` or ``export`` would otherwise show an empty store, and leave one).
    ``or_else``: where the store only saves work, the user's store that cannot be opened (a full
    or read-only home) is passed over with a warning that ends so, and None is returned; a store
    named with ``--store`` is still an error."""
    import os

    from gridfall.samegame.store import SolutionStore, StoreError

    if must_exist and store_path is not None and not os.path.isfile(store_path):
        raise click.ClickException(f"{store_path}: no solution store there (solve --store or store import "
                                   "makes one)")
    try:
        store = SolutionStore(store_path)
    except StoreError as e:
        if or_else is None or store_path is not None:
            raise click.ClickException(str(e)) from None
        click.echo(f"gridfall: {e}; {or_else} (--no-store skips it without a word)", err=True)
        return None
    context = click.get_current_context(silent=True)
    if context is not None:  # closed however the command ends (an exit, an error, a stop)
        context.call_on_close(store.close)
    return store


def store_errors(command):
    """A damaged store, a bad line: one clear message (StoreError names the file and the line)."""
    import functools

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from gridfall.samegame.store import StoreError

        try:
            return command(*args, **kwargs)
        except StoreError as e:
            raise click.ClickException(str(e)) from None

    return wrapper


@click.group()
def store() -> None:
    """Inspect and share the solution store (the best line found for each board)."""


@store.command("list")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help="Solution store file.")
@click.option("--json", "as_json", is_flag=True, help='Print a JSON list instead of the table.')
@store_errors
def store_list(store_path: str | None, as_json: bool) -> None:
    """One line per stored board: the bundled boards it is, score, moves, how found."""
    from rich.table import Table
    from rich.text import Text

    s = open_store(store_path, must_exist=True)
    entries = s.entries()
    sound = [e.replays() for e in entries]
    if as_json:
        click.echo(json_text.dumps([{"names": e.names(), "score": e.score, "moves": e.moves, "algo": e.algo,
                                "seconds": e.seconds, "seed": e.seed, "found": e.found, "replays": ok}
                               for e, ok in zip(entries, sound)]))
        return
    table = Table(title=Text(f"{counted(len(entries), 'board')} in {s.path}"))
    for column in ("boards", "score", "moves", "found by", "seconds", "seed", "when", "check"):
        table.add_column(column)
    for e, ok in zip(entries, sound):
        table.add_row(", ".join(e.names()) or "(other)", str(e.score), str(e.moves.count(";") + 1 if e.moves else 0),
                      Text(one_line(e.algo)), f"{e.seconds:.0f}", str(e.seed), Text(one_line(str(e.found))),
                      "ok" if ok else Text("does not replay to its score: ignored, and replaced by any line found", "red"))
    console().print(table)


@store.command("export")
@click.argument("out", type=click.Path(dir_okay=False, allow_dash=True), callback=output_path)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "results"]), default="jsonl", show_default=True,
              help="jsonl: every entry with its board; results: 'N<TAB>score<TAB>moves' for one --set.")
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The board set a results file covers (with --format results).")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help="Solution store file.")
@store_errors
def store_export(out: str, fmt: str, set_name: str, store_path: str | None) -> None:
    """Write the store to OUT (- for stdout), to share it or to publish results."""
    if fmt == "jsonl":
        refuse_given(("set_name",), "only with --format results (jsonl holds every board, each named)")
    s = open_store(store_path, must_exist=True)
    try:
        with contextlib.nullcontext(sys.stdout) if out == "-" else replacing(out) as stream:
            count = s.export_jsonl(stream) if fmt == "jsonl" else s.export_results(stream, set_name)
            stream.flush()  # stdout too: "exported" only once it is written
    except OSError as e:
        if out == "-":  # stdout's own failure: a reader that stopped (| head) is told apart, and quietly
            raise
        raise cannot_write(out, e) from None
    click.echo(f"exported {counted(count, 'board')} to {out}", err=True)


@store.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The set that bare board numbers in a results file refer to.")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), help="Solution store file.")
@store_errors
def store_import(path: str, set_name: str, store_path: str | None) -> None:
    """Merge PATH (jsonl as exported, or a results file) into the store.

    Every line is replayed first; a malformed line, one the rules refuse or one
    that replays to another score than it claims (a file of another --set, say)
    is named, and then nothing is imported.  Otherwise every line is merged in
    one transaction.
    """
    from gridfall.samegame.store import SolutionStore

    checked = SolutionStore.read_import(path, set_name)  # before the store is opened, or made
    if not checked:  # the wrong file, most likely: say so rather than make an empty store
        raise click.ClickException(f"{path} holds no line to import (JSON lines as `store export` writes them, or "
                                   "results rows BOARD<TAB>SCORE<TAB>MOVES); nothing was imported")
    improved = open_store(store_path).merge(checked)
    click.echo(f"read {counted(len(checked), 'line')} from {path}; {improved} improved the store")
