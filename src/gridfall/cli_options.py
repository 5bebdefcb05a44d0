"""What the game CLIs share: the spelling and checking of time flags, hidden aliases for renamed
flags, files to write, and the console.

Time flags have two spellings in every command:

- ``--time SECONDS``: the time of a whole job (a search, a benchmark board, a Match-3 run);
- ``--first-turn-ms`` / ``--turn-ms``: the time of each turn of a protocol, in milliseconds
  (a referee's limits, a bot's own budgets), as the platforms state them.

``--time-scale`` multiplies a referee's limits; :func:`limit_options` gives a referee all three
flags, with the platform's limits as defaults, as one ``Limits``.  Every number flag is a finite
:class:`FloatRange`.  A flag renamed to this scheme keeps its old spelling for one release as a
hidden alias (:func:`renamed`), with a note on stderr.

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
import inspect
import math
import os
import sys
from pathlib import Path

import click

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


class FloatRange(click.FloatRange):
    """click's FloatRange that also refuses nan and infinity.

    click lets both through (``nan < min`` is false), and a search given nan seconds never
    reaches its deadline: it ran on past SIGTERM, inside a kernel.
    """

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number

    def _describe_range(self) -> str:
        """The help's range; click's own says "x<=None" for a range without bounds."""
        if self.min is None and self.max is None:
            return "finite"
        return super()._describe_range()


FINITE = FloatRange()  # any finite number


MOST_NUMBERS = 100_000  # numbers a list may name: a typo's extra zeros must not fill the memory

# Threads and processes at once (--workers, --threads, local:N): more than this, a typo's zeros,
# failed with "can't start new thread" after the first ones had started, or started a bot for each.
MOST_WORKERS = 256
WORKERS = click.IntRange(1, MOST_WORKERS)


def number_list(text: str) -> list[int]:
    """``31-34,40`` -> [31, 32, 33, 34, 40]: numbers N and ranges LOW-HIGH, comma separated (board
    numbers, seeds); ValueError naming a part that is neither, an empty range, a number named twice
    (one board or seed played twice would count twice), or more than MOST_NUMBERS numbers in all."""
    out: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(f"{part!r} is not a number N or a range LOW-HIGH") from None
        if first > last:
            raise ValueError(f"{part!r} is an empty range")
        if len(out) + last - first + 1 > MOST_NUMBERS:
            raise ValueError(f"{text!r} names {len(out) + last - first + 1:,} numbers or more; at most "
                             f"{MOST_NUMBERS:,}")
        out += range(first, last + 1)
    if len(set(out)) < len(out):
        twice = next(n for n in out if out.count(n) > 1)
        raise ValueError(f"{text!r} names {twice} twice")
    return out


def output_path(ctx, param, value, kind: str | None = None):
    """A click callback for a file to write, checked before any work is done (a replay asked for
    after an hour's run must not fail at the end): its folder must exist and take a new file (not
    read-only), and a file already there must be one the output may replace
    (:func:`gridfall.atomic_file.why_not_replace`: never an SQLite database, and for a ``kind``,
    only a file of that kind that gridfall wrote)."""
    if value is None:
        return value
    if value == "-":
        if getattr(param.type, "allow_dash", False):
            return value
        raise click.BadParameter("-: this writes a file, not standard output: name one", ctx, param)
    folder = Path(value).absolute().parent
    if not os.path.isdir(folder):  # False, not an OSError, for a name too long
        raise click.BadParameter(f"{value}: the folder {folder} does not exist", ctx, param)
    from gridfall.atomic_file import can_make_files_in, why_not_replace

    if not os.path.exists(value) or os.path.isfile(value):  # a device or a pipe is written in place
        try:
            can_make_files_in(os.path.dirname(os.path.realpath(value)))
        except OSError as e:
            raise click.BadParameter(f"{value}: cannot write in {folder}: {e.strerror}", ctx, param) from None
    try:
        reason = why_not_replace(value, kind)
    except OSError as e:
        raise click.BadParameter(f"{value}: cannot read what is there: {e.strerror}", ctx, param) from None
    if reason:
        raise click.BadParameter(f"{value}: {reason}; give another file, or delete it first", ctx, param)
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


def renamed(old: str, new: str, parameter: str, scale: float = 1.0):
    """A hidden ``old`` flag whose value, times ``scale``, is passed as ``parameter`` (``new``'s)."""

    def decorate(command):
        hidden_name = f"renamed_{parameter}"

        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            value = kwargs.pop(hidden_name)
            if value is not None:
                if given(parameter):
                    raise click.UsageError(f"{old} and {new} are one setting ({old} is its old spelling): "
                                           f"give {new} alone")
                click.echo(f"gridfall: {old} is now {new}; the old spelling goes in the next release", err=True)
                kwargs[parameter] = value * scale
            return command(*args, **kwargs)

        return click.option(old, hidden_name, type=FINITE, hidden=True, default=None)(wrapper)

    return decorate


PLAYER_EXPORT_HELP = ("Write a file that plays your own player instead, as `bot --player` does: MODULE:NAME or "
                      "FILE.py:NAME, written against gridfall's interface.  The file carries your module, the modules "
                      "of yours beside it that it imports, and gridfall's modules they need (gridfall.uct, say); one "
                      "that needs numba (gridfall's engines and built-in agents) is refused, as CodinGame has none.")

SAMEGAME_PROTOCOL = """\b
The protocol (CodinGame's SameGame):
  each turn the bot reads the board: 15 lines of 15 colours (0-4, -1 empty)
  separated by spaces, the top row first;
  turn flavour: it answers one line "x y [message]" ((0, 0) is the bottom
  left) within 20 s on the first turn and 50 ms on each later one; a
  malformed action, a cell off the board, an empty cell or a lone tile loses;
  one-turn flavour: it answers once, within 20 s, one line of up to 150
  actions "x y;x y;..."; an empty cell or a lone tile is only a warning."""

CONNECT4_PROTOCOL = """\b
The protocol (CodinGame's Connect Four 7x9 with STEAL):
  first turn only: "myId oppId";
  every turn: the turn index; 7 rows of 9 characters ('.', '0', '1'), the top
  row first; the number of valid actions, then one a line (the open columns,
  and -2 for STEAL at turn index 1); the opponent's last action (-1 at the
  start, -2 after a STEAL).
  The bot answers one line: a column or STEAL, then a space and an optional
  message, within 1000 ms on its first turn and 100 ms after.  A timeout, an
  unreadable answer, a full column or STEAL out of turn loses; win 10,
  draw 5, loss 0."""

REFEREE_NOTES = """\b
Every bot runs in a session of its own; when its game ends it is killed with
everything it started (on Linux even a child that called setsid: the referee
is a child subreaper; elsewhere the process group and session only).
Ctrl-C, SIGTERM and SIGHUP stop within a second, keep the finished games and
exit 128 + the signal.  Exit code 0 when every game was judged, whatever the
verdicts; 1 if the referee itself failed; 2 for bad usage."""


# every referee's limits, relaxed together (the same flag on every command that plays timed turns)
time_scale_option = click.option("--time-scale", type=FloatRange(min=0.01), default=1.0, show_default=True,
                                 help="Multiply every limit, to relax them on a slow machine.")


def limit_options(first_turn: float, turn: float, *, scaled: bool = True, memory: bool = True):
    """A referee's ``--first-turn-ms`` and ``--turn-ms`` (by default the platform's ``first_turn``
    and ``turn``, in seconds), ``--time-scale``, ``--memory-mb`` (CodinGame's 768 MB) and
    ``--one-cpu``, handed to the command as one argument, ``limits``: a
    :class:`~gridfall.arena.limits.Limits` in seconds, scaled."""
    from gridfall.arena.limits import CODINGAME_MEMORY_MB

    platform_first, platform_turn = (int(round(seconds * 1000)) for seconds in (first_turn, turn))  # in ms

    def decorate(command):
        @functools.wraps(command)
        def with_limits(*args, first_turn_ms: float, turn_ms: float, time_scale: float = 1.0,
                        memory_mb: float | None = None, one_cpu: bool = False, **kwargs):
            from gridfall.arena import cpus
            from gridfall.arena.limits import Limits

            if one_cpu and not cpus.SUPPORTED:
                raise click.BadParameter(cpus.UNSUPPORTED, param_hint="'--one-cpu'")
            limits = Limits(first_turn_ms / 1000, turn_ms / 1000, memory_mb or None, one_cpu).scaled(time_scale)
            return command(*args, limits=limits, **kwargs)

        if memory:
            with_limits = click.option(
                "--one-cpu", is_flag=True,
                help="Run each bot, and all it starts, on one CPU, as CodinGame does: a bot with threads "
                     "(or a library's pool of them) then thinks no faster than it will there.  A game goes to "
                     "the CPU fewest bots are on, and its two bots take turns there (Linux only).")(with_limits)
            with_limits = click.option(
                "--memory-mb", type=FloatRange(min=0), default=CODINGAME_MEMORY_MB, show_default=True,
                help=f"A bot whose processes hold more memory than this loses (CodinGame: {CODINGAME_MEMORY_MB} "
                     "MB), measured while it thinks: the memory of the bot and of everything it started, "
                     "a page they share counted once (Linux only).  0: no limit.")(with_limits)
        if scaled:
            with_limits = time_scale_option(with_limits)
        with_limits = click.option(
            "--turn-ms", type=FloatRange(min=1), default=platform_turn, show_default=True,
            help=f"Each later turn's limit (CodinGame: {platform_turn} ms), from the first byte sent to the end "
                 "of the answer line.")(with_limits)
        return click.option(
            "--first-turn-ms", type=FloatRange(min=1), default=platform_first, show_default=True,
            help=f"The first turn's limit (CodinGame: {platform_first} ms), from the first byte sent "
                 "to the end of the answer line.")(with_limits)

    return decorate


def with_help(*paragraphs: str):
    """Append ``paragraphs`` to a command's docstring (its --help), so that a text shared by
    several commands is written once."""

    def decorate(command):
        command.__doc__ = inspect.cleandoc(command.__doc__ or "") + "\n\n" + "\n\n".join(paragraphs)
        return command

    return decorate


def refuse_blank_command(command: str, hint: str | None = None) -> None:
    """A bot's command line is refused if blank: ``/bin/sh -c ''`` runs, exits 0 at once, and
    every game would be lost to a "crash" of a bot that was never named."""
    if not command.strip():
        raise click.BadParameter("an empty command", param_hint=hint)


def bot_command(ctx, param, value: str | None) -> str | None:
    """click's callback for a --bot COMMAND option: :func:`refuse_blank_command`."""
    if value is not None:
        refuse_blank_command(value)
    return value


def given(*names: str) -> list[str]:
    """The options among parameter ``names`` that the user gave (on the command line or through
    the environment, not by default), spelt as on the command line; none outside a command."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return []
    typed = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
    return [p.opts[0] for p in ctx.command.params
            if p.name in names and isinstance(p, click.Option) and ctx.get_parameter_source(p.name) in typed]


def refuse_given(names, why: str) -> None:
    """Refuse the options among ``names`` that the user gave, which this run would ignore, naming
    them and ``why`` (for example "only with --rebuild"), rather than drop them without a word."""
    options = given(*names)
    if options:
        raise click.UsageError(f"{', '.join(options)}: {why}")


def refuse_without(flag: str, *, allowed: tuple[str, ...] = ()) -> None:
    """Refuse every option given that only means something with ``flag`` (``--pairs`` without
    ``--rebuild``); ``allowed`` names the parameters that also apply without it (``as_json``)."""
    params = click.get_current_context().command.params
    refuse_given([p.name for p in params if p.name not in allowed and p.opts[0] != flag], f"only with {flag}")
