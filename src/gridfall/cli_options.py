"""What the game CLIs' options share: the spelling and checking of time flags, hidden aliases for
renamed flags, number lists, worker counts, and flags given where they mean nothing.

Time flags have two spellings in every command:

- ``--time SECONDS``: the time of a whole job (a search, a benchmark board, a Match-3 run);
- ``--first-turn-ms`` / ``--turn-ms``: the time of each turn of a protocol, in milliseconds
  (a referee's limits, a bot's own budgets), as the platforms state them.

``--time-scale`` multiplies a referee's limits; :func:`limit_options` gives a referee all three
flags, with the platform's limits as defaults, as one ``Limits``.  Every number flag is a finite
:class:`FloatRange`.  A flag renamed to this scheme keeps its old spelling for one release as a
hidden alias (:func:`renamed`), with a note on stderr.

Where output goes (the console, files written whole) is :mod:`gridfall.cli_output`; the help
texts several commands share are :mod:`gridfall.cli_help`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable

import click


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
ALL_CORES = "the cores it may use"  # the help's word for the default below


def all_cores() -> int:
    """The default of a count of workers that each take a core: the cores this process may use
    (:func:`gridfall.machine.usable_cores`: under `taskset -c 0` on 2 cores, two 20 s SameGame
    bots shared one core, and their four boards scored 11,221 against 11,854 one at a time)."""
    from gridfall.machine import usable_cores

    return min(usable_cores(), MOST_WORKERS)


def beyond_cores(workers: int, what: str, jobs: int | None = None, threads: int = 1, plural: str = "") -> None:
    """Say on stderr when ``workers`` jobs at once (of ``jobs``, where known; each ``what``: a game,
    a board, a search, of ``threads`` threads) need more than the cores this process may use: they
    then share cores, and a bot or a search timed against a clock does less in its time than alone
    (a bot may lose on time).  The run goes on as asked."""
    from gridfall.machine import usable_cores
    from gridfall.words import counted

    cores, at_once = usable_cores(), min(workers, jobs if jobs is not None else workers)
    if at_once * threads > cores:
        each = f" of {threads} threads" if threads > 1 else ""
        click.echo(f"gridfall: --workers {workers}: {counted(at_once, what, plural)}{each} at once on "
                   f"{counted(cores, 'core')} (those this process may use): they share cores, and a bot or a "
                   "search does less in its time than alone", err=True)


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


def renamed(old: str, new: str, parameter: str, scale: float = 1.0):
    """A hidden ``old`` flag whose value, times ``scale``, is passed as ``parameter`` (``new``'s),
    checked by ``new``'s own type: its range holds for both spellings."""

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
                kwargs[parameter] = _as_new(value * scale, old, new, parameter)
            return command(*args, **kwargs)

        return click.option(old, hidden_name, type=FINITE, hidden=True, default=None)(wrapper)

    return decorate


def _as_new(value: float, old: str, new: str, parameter: str) -> float:
    """``value`` (an ``old`` flag's, scaled to ``new``'s unit) through ``new``'s type: without it,
    ``--per-call -1`` or ``--think 100`` (100,000 ms) passed the range that ``--turn-ms`` and
    ``--first-turn-ms`` refuse."""
    ctx = click.get_current_context()
    param = next(p for p in ctx.command.params if p.name == parameter)
    try:
        return param.type.convert(value, param, ctx)
    except click.BadParameter as error:
        raise click.BadParameter(f"it is {new} {value:g}, and for {new}: {error.message}", ctx, param_hint=f"'{old}'") \
            from None


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


def refuse_unplayable_command(command: str, hint: str | None = None, *, here: bool = True,
                              built_in: Iterable[str] = ()) -> None:
    """A bot's command line is refused if blank (``/bin/sh -c ''`` runs, exits 0 at once, and every
    game would be lost to a "crash" of a bot that was never named), or, when its games are played
    ``here`` (not on a cluster's workers, whose machines may hold what this one lacks), if it
    cannot start (:func:`gridfall.arena.bot_command.cannot_start`: a typo in the program or the
    file), before any game is stored under its name.  A lone word that is no program names the
    game's ``built_in`` bots, the nearest first."""
    if not command.strip():
        raise click.BadParameter("an empty command", param_hint=hint)
    if here:
        from gridfall.arena.bot_command import cannot_start

        why = cannot_start(command)
        if why is not None:
            raise click.BadParameter(f"{command!r} cannot start: {why}{_built_in_hint(command, built_in)}",
                                     param_hint=hint)


def _built_in_hint(command: str, built_in: Iterable[str]) -> str:
    """For a lone word that is not a program (``gridfal``): the built-in bots it may have meant."""
    import difflib

    names = list(built_in)
    if not names or len(command.split()) != 1:
        return ""
    near = difflib.get_close_matches(command.partition(":")[0], names, n=1)
    mean = f"did you mean {near[0]}? " if near else ""
    return f" ({mean}the built-in bots: {', '.join(names)})"


def bot_command(built_in: Callable[[], Iterable[str]] = tuple):
    """click's callback for a --bot COMMAND option whose game has the ``built_in()`` bots (a
    function, so that the game's modules load only when the option is given): one of those names,
    or a command :func:`refuse_unplayable_command` lets through."""
    def check(ctx, param, value: str | None) -> str | None:
        if value is not None:
            names = tuple(built_in())
            if value not in names:
                refuse_unplayable_command(value, built_in=names)
        return value

    return check


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
