"""Where a command's output goes: the console, and the files it writes.

A file a command writes is checked before the work (:func:`output_path`: its folder exists and
takes a new file, and what is there may be replaced) and written by :func:`write_file`, whole or
not at all, naming the file and the reason when it cannot.  ``-`` is standard output where the
command's ``click.Path`` allows a dash (an export, a page), and refused elsewhere; the line that
says what was written (:func:`tell_written`) then goes to stderr.

Every table goes through :func:`console`: no markup highlighting of numbers, and the full width
of a line (not 80 columns) when the output is a pipe or a file.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import click

from gridfall.folders import cannot_make

PIPED_WIDTH = 200  # columns of a table written to a pipe or a file: wide rows stay one line each


def console(stderr: bool = False):
    """A rich console for tables and lines, with rich's markup off: a line or a table cell is
    printed as it reads, so that a path, a board spec or a bot's command or text with brackets in
    it (``[/x]``) is never taken for markup (it stopped a command with a MarkupError).  Style goes
    in as ``rich.text.Text``; a spinner's label too (``status(Text(...))``: a str is markup there)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, highlight=False, markup=False, width=None if stream.isatty() else PIPED_WIDTH)


def warm_kernels(game: str, err) -> None:
    """Warm the game's kernels before a command's clock starts (:func:`gridfall.warmup.warm`), saying
    so: a spinner on ``err`` when it is a terminal; in a log or a pipe, where a spinner prints
    nothing, one line when they must compile first (:func:`gridfall.warmup.warm_saying`)."""
    from gridfall.warmup import warm, warm_saying

    if err.is_terminal:
        with err.status(f"loading the {game} kernels (compiled on first use, about a minute; then cached)"):
            warm(game)
    else:
        warm_saying(game)


def output_path(ctx, param, value, kind: str | None = None):
    """A click callback for a file to write, checked before any work is done (a replay asked for
    after an hour's run must not fail at the end): its folder must exist and take a new file (not
    read-only), and a file already there must be one the output may replace
    (:func:`gridfall.atomic_file.why_not_replace`: never an SQLite database, and for a ``kind``,
    only a file of that kind that gridfall wrote); a replay's name ends in .html (.htm, or none)."""
    if value is None:
        return value
    if not value.strip():  # "" is the current folder to os.path, and " " a file named " "
        dash = " (or - for standard output)" if getattr(param.type, "allow_dash", False) else ""
        what = "a path of spaces only" if value else "an empty path"
        raise click.BadParameter(f"{value!r}: {what}; name the file to write{dash}", ctx, param)
    if value == "-":
        if getattr(param.type, "allow_dash", False):
            return value
        raise click.BadParameter("-: this writes a file, not standard output: name one", ctx, param)
    if why := cannot_make(Path(value).absolute()):  # a link is followed (a disk not mounted)
        raise click.BadParameter(f"{value}: {why}", ctx, param)
    from gridfall.atomic_file import can_make_files_in, why_not_replace

    if not os.path.exists(value) or os.path.isfile(value):  # a device or a pipe is written in place
        folder = os.path.dirname(os.path.realpath(value))  # where the file is made: a link's target's
        try:
            can_make_files_in(folder)
        except OSError as e:
            raise click.BadParameter(f"{value}: cannot write in {folder}: {e.strerror}", ctx, param) from None
    try:
        reason = why_not_replace(value, kind)
    except OSError as e:
        raise click.BadParameter(f"{value}: cannot read what is there: {e.strerror}", ctx, param) from None
    if reason:
        raise click.BadParameter(f"{value}: {reason}; give another file, or delete it first", ctx, param)
    if kind == "replay" and Path(value).suffix.lower() not in ("", ".html", ".htm"):
        # a page written to replay.json was HTML that neither `gridfall view` nor a JSON reader takes
        raise click.BadParameter(f"{value}: a replay is an HTML page: name it .html"
                                 + (" (--json prints JSON)" if value.lower().endswith(".json") else ""),
                                 ctx, param)
    return value


def output_path_for(kind: str):
    """:func:`output_path` for a ``kind`` of output (``replay``, ``export``)."""
    return functools.partial(output_path, kind=kind)


def cannot_write(path, error: OSError) -> click.ClickException:
    """The error that stops a command whose output file cannot be written."""
    return click.ClickException(f"{path}: cannot write it: {error.strerror or error}")


def write_file(path, text: str, kind: str | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path``, or stop with an error that names the path and the reason
    (and leaves the file as it was: :mod:`gridfall.atomic_file`)."""
    from gridfall.atomic_file import write_text

    if str(path) == "-":  # stdout's own failures end the command as such (cli.StdoutError)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        write_text(path, text, kind=kind)
    except OSError as e:
        raise cannot_write(path, e) from None


def tell_written(path, what: str) -> None:
    """Say ``wrote PATH: what``, on stdout, or on stderr when the file written is stdout itself."""
    click.echo(f"wrote {'to standard output' if str(path) == '-' else path}{what}", err=str(path) == "-")
