"""The ``gridfall`` command: one group, each game adds its own sub-commands."""

from __future__ import annotations

import errno
import io

import click

from gridfall import __version__, shell_completion  # noqa: F401  (its scripts replace click's)
from gridfall.lazy_group import LazyGroup


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from gridfall.fingerprint import fingerprint

    click.echo(f"gridfall {fingerprint()}  (the version, then a hash of the installed files: a Dask run "
               "wants the same on every machine)")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             lazy={"samegame": "gridfall.samegame.cli:samegame", "connect4": "gridfall.connect4.cli:connect4",
                   "match3": "gridfall.match3.cli:match3", "view": "gridfall.viewer.cli:view",
                   "runs": "gridfall.arena.runs_cli:runs", "standings": "gridfall.arena.standings_cli:standings"})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help=f"Show the version ({__version__}) and a hash of the installed files, and exit.")
def main() -> None:
    """Exact rules, fast engines, strong players and faithful referees for
    SameGame, Match-3 Jewels and Connect Four 7x9 with STEAL.

    Start with `gridfall samegame --help`, `gridfall connect4 --help` or
    `gridfall match3 --help`.
    """


@main.command()
@click.option("--game", type=click.Choice(["samegame", "connect4", "match3"]), default=None,
              help="Only this game's kernels (a referee warms the copy of gridfall a bot runs so).  "
                   "Default: every game's.")
@click.option("--prune", is_flag=True,
              help="Also remove the caches that other versions of gridfall's source compiled beside this one "
                   "(an upgrade leaves its old one, tens of MB).  Another install of gridfall that is still "
                   "used then compiles its kernels again at its next start.")
def warmup(game: str | None, prune: bool) -> None:
    """Compile and cache every numba kernel now.

    The first use of a kernel compiles it (seconds); the cache then makes every
    later start fast.  Run this once after installing, so that no bot spends
    its first turn compiling.  A cold cache compiles its groups of kernels side
    by side, one process on each core, and each is listed as it is ready.  It also writes the package's Python bytecode
    where Python has not (an install in place under PYTHONDONTWRITEBYTECODE),
    and keeps the Connect Four book as the bot reads it.

    Each version of gridfall's source has a cache folder of its own: the
    older ones are listed at the end, and --prune removes them.
    """
    import os
    import shutil
    import time

    from gridfall.jit import CACHE_DIR
    from gridfall.numba_cache import folder_bytes, older_caches
    from gridfall.warmup import warm, warm_everything
    from gridfall.words import counted

    start = time.monotonic()
    if game is None:
        for name, seconds in warm_everything():
            click.echo(f"{name:<28} ready in {seconds:6.2f} s")
        game = "every kernel"  # the groups compiled in children, then loaded here: the whole took this
    else:
        warm(game)
    click.echo(f"{game:<28} ready in {time.monotonic() - start:6.2f} s")
    click.echo(f"numba cache: {CACHE_DIR}")
    older = older_caches()
    if not older:
        return
    size = sum(folder_bytes(path) for path in older) / 1e6
    if not prune:
        click.echo(f"{counted(len(older), 'older cache')} beside it, of other versions of the source "
                   f"({size:,.0f} MB): `gridfall warmup --prune` removes them")
        return
    for path in older:
        shutil.rmtree(path, ignore_errors=True)
    kept = [path for path in older if os.path.exists(path)]  # another user's, or read-only: said, not fatal
    click.echo(f"removed {counted(len(older) - len(kept), 'older cache')} ({size:,.0f} MB)"
               + (f"; {counted(len(kept), 'folder')} could not be removed: {kept[0]}" if kept else ""))


def run() -> None:
    """The console entry point: ``main`` with an internal error as one line and exit code 1.

    Bad usage exits 2 (click), an interrupt 128 + its signal, a judged game 0 whatever its
    verdict, a run database or solution store that cannot take a result (a full disk) 1 with its
    message.  GRIDFALL_DEBUG=1 shows the traceback of an internal error."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):  # a terminal or file that is not UTF-8 (Latin-1, cp1252) gets
        if hasattr(stream, "reconfigure"):     # a bot's snowman as \u2603, not a UnicodeEncodeError
            stream.reconfigure(errors="backslashreplace")
    from gridfall.arena import signals

    if type(sys.stdout) is io.TextIOWrapper:
        sys.stdout = _Stdout.over(sys.stdout)
    signals.finish_what_is_done()
    signals.stopping_from_the_start()
    try:
        main(standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt) as e:  # a stop outside the work's own handling
        if isinstance(e, click.exceptions.Abort):
            click.echo("Aborted!", err=True)
        sys.exit(signals.exit_code(True))
    except SystemExit as e:
        if e.code in (0, None) and (late := signals.late_signal()):  # asked to stop as the results were printed
            sys.exit(128 + late)
        raise
    except StdoutError as e:
        try:  # Python flushes stdout again at exit: let that flush go nowhere, quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        if e.errno != errno.EPIPE:  # a reader that stopped reading (| head) asked for no more
            click.echo(f"Error: cannot write to standard output: {e.strerror}", err=True)
        sys.exit(1)
    except Exception as e:  # noqa: BLE001 - the judge failed: say so in one line
        from gridfall.arena.database import RunDatabaseError  # here: a bot's start never pays for them
        from gridfall.arena.process import MachineCannotStartBot
        from gridfall.samegame.store import StoreError

        # a file that cannot take a result, or a machine that cannot start a bot: the message says
        # what is kept and what to do
        if isinstance(e, (RunDatabaseError, StoreError, MachineCannotStartBot)):
            click.echo(f"Error: {e}", err=True)
            sys.exit(1)
        from gridfall.internal_error import internal_error_line, show_tracebacks

        if show_tracebacks():
            raise
        click.echo(internal_error_line(e), err=True)
        sys.exit(1)
    if late := signals.late_signal():
        sys.exit(128 + late)


class StdoutError(OSError):
    """Standard output refused a write: a full device, a closed pipe, a lost terminal."""


class _Stdout(io.TextIOWrapper):
    """stdout whose failures are told apart from those of any other file.

    An OSError can reach ``run`` from any file; only this one means that the output, not the
    work, failed."""

    @classmethod
    def over(cls, stream: io.TextIOWrapper) -> "_Stdout":
        stream.flush()
        # read before the buffer is taken from it
        encoding, errors, line_buffering, write_through = (stream.encoding, stream.errors, stream.line_buffering,
                                                           stream.write_through)
        return cls(stream.detach(), encoding=encoding, errors=errors, line_buffering=line_buffering,
                   write_through=write_through)

    def write(self, text):
        try:
            return super().write(text)
        except OSError as e:
            raise StdoutError(e.errno, e.strerror) from e

    def flush(self):
        try:
            super().flush()
        except OSError as e:
            raise StdoutError(e.errno, e.strerror) from e
