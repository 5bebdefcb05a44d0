"""What every arena command shares: its run database, its executor and their options.

``--db FILE`` names the run's database; without it the file is named after the run's kind and a
hash of its settings (``league-3f2a9c1e.sqlite`` in the current folder), so the same command run
again finds its games and resumes, and a different one starts a file of its own.  A count that
may grow (``grows``: a league's ``--games``) is left out of the hash, so the same command with a
larger count finds the run and grows it; a list that may grow (a league's bots) is not: adding to
it grows the run named by ``--db``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import click

from gridfall.arena.bot_files import check as check_bot_files
from gridfall.arena.database import RunDatabase, RunDatabaseError
from gridfall.arena.dask_executor import check_address
from gridfall.arena.executor import ExecutorError, make_executor
from gridfall.cli_options import ALL_CORES, WORKERS, all_cores, beyond_cores, given
from gridfall.fingerprint import fingerprint
from gridfall.words import counted

RUN_NOTES = """\b
Every finished game is stored at once in the run's SQLite database (--db;
by default a file named after the run's settings, in the current folder).
Ctrl-C, SIGTERM, a crash, a restart or a lost Dask scheduler loses only
the games in flight: the same command again resumes where it stopped
(other settings on the same --db are refused, and so is a second start
while the first plays).  --cluster tcp://HOST:8786 runs the games on a
Dask scheduler's workers (pip install 'gridfall[dask]' on each, the same
gridfall as here: a worker that runs another is refused; give each worker
one thread per core: --nthreads 1), --cluster local:N starts N local Dask
workers; by default the games run here, --workers at once."""


def grows_note(option: str, things: str = "games", items: bool = False) -> str:
    """The --help paragraph of a command whose run may grow by ``option``: a count, or a list of
    ``items`` each played on its own."""
    if items:
        return (f"More {option} grow the stored run that --db names: the same command with new ones added keeps "
                f"the stored {things} and plays the new ones; leaving out a stored one is refused.")
    return (f"A larger {option} grows a stored run: the same command keeps the stored {things} and plays the "
            f"rest (a longer run starts with the same {things}), and finds the same default --db; a smaller "
            f"{option} is refused.")


def plays_here(cluster: str | None) -> bool:
    """Whether a run's bots play on this machine: on its own pool or a ``local:N`` cluster, not on a
    scheduler's workers (whose machines may hold a program or file that this one lacks)."""
    return cluster is None or cluster.startswith("local:")


def run_options_with(workers_default: str):
    """A decorator that adds --db, --workers (``workers_default`` its help's default) and --cluster
    to an arena command."""
    def add(command):
        command = click.option("--cluster", metavar="ADDRESS", callback=_cluster_address,
                               help="A Dask scheduler (tcp://HOST:8786), or local:N for N local Dask workers.")(command)
        command = click.option("--workers", type=WORKERS, default=None,
                               help=f"Jobs at once on this machine (default: {workers_default}).")(command)
        return click.option("--db", type=click.Path(dir_okay=False), default=None,
                            help="The run's SQLite database (default: named after the settings).")(command)
    return add


run_options = run_options_with(ALL_CORES)  # each job takes a core


def _cluster_address(ctx, param, value: str | None) -> str | None:
    """--cluster as far as it can be checked without a scheduler, before the run's database is
    made: a typo must not leave an empty run behind."""
    if value is not None:
        try:
            check_address(value)
        except ExecutorError as e:
            raise click.BadParameter(_without_option(e), ctx, param) from None
    return value


def default_db(kind: str, settings: dict, grows: tuple[str, ...] = ()) -> str:
    # a count that may grow is left out of the name; a list is not: other bots or other seeds are
    # another run, which a stored run must not take for its own growth (--db names it for that)
    path = _named(kind, {k: v for k, v in settings.items() if k not in grows or not isinstance(v, int)})
    earlier = _named(kind, settings)  # the name gridfall gave before runs could grow: a run there resumes
    return earlier if grows and not os.path.exists(path) and os.path.exists(earlier) else path


def _named(kind: str, settings: dict) -> str:
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:8]
    return f"{kind.split()[-1]}-{digest}.sqlite"


def open_run(db: str | None, kind: str, settings: dict, exclusive: bool = True,
             grows: tuple[str, ...] = (), bot_files: dict[str, list[str]] | None = None) -> RunDatabase:
    """The run's database, as a usage error (exit 2, naming the file) if it cannot serve.
    ``grows`` names the settings that may grow on a stored run (see RunDatabase); ``bot_files``
    ({bot name: its files}, the bots that will play) are refused if they changed since the
    stored games were played (:mod:`gridfall.arena.bot_files`)."""
    path = db or default_db(kind, settings, grows)
    try:
        run = RunDatabase(path, kind, settings, command=sys.argv, exclusive=exclusive, grows=grows)
    except RunDatabaseError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    for key, (was, now) in run.grew.items():  # a count, or a list of items: its length
        was, now = (len(v) if isinstance(v, list) else v for v in (was, now))
        click.echo(f"gridfall: {path}: the run grows: {key} was {was:,}, now {now:,} (the stored games are kept)",
                   err=True)
    context = click.get_current_context(silent=True)
    if context is not None:  # however the command ends, the run is let go then: its lock file goes with it
        context.call_on_close(run.close)
    try:
        why = check_bot_files(run, bot_files) if bot_files is not None else None
    except RunDatabaseError as e:  # its kept digests are damaged
        raise click.BadParameter(str(e), param_hint="--db") from None
    if why:
        raise click.UsageError(why)
    stored = len(run.done())
    if exclusive and stored and run.started_by not in (None, fingerprint()):
        click.echo(f"gridfall: {path}: this run was started by gridfall {run.started_by} ({counted(stored, 'game')} "
                   f"stored), and this is gridfall {fingerprint()}: the games it adds are played by other code "
                   "(another --db starts a clean run)", err=True)
    return run


def open_executor(workers: int | None, cluster: str | None, run: RunDatabase | None = None,
                  what: str = "game", jobs: int | None = None, threads: int = 1):
    """The executor, as a usage error if it cannot be set up; then ``run`` is discarded if it was
    made for this command and holds no game (a run that never started leaves no file).  Its jobs
    (each ``what`` of ``threads`` threads; ``jobs`` of them at most at once, where known) that need
    more than this machine's usable cores are said on stderr; by default as many run here as the
    usable cores hold."""
    if cluster and given("workers"):
        if run is not None:
            run.discard()
        raise click.UsageError("--workers: not with --cluster (the cluster's workers play the games: local:N "
                               "starts N of them, and each `dask worker` of a scheduler takes --nworkers)")
    if not cluster:
        if workers is None:  # the cores it may use, each job taking its threads' share
            workers = max(1, all_cores() // threads)
        beyond_cores(workers, what, jobs, threads)
    try:
        return make_executor(workers, cluster)
    except ExecutorError as e:
        if run is not None:
            run.discard()
        raise click.BadParameter(_without_option(e), param_hint="--cluster") from None


def _without_option(error: ExecutorError) -> str:
    """The message without its leading "--cluster ": click's own "Invalid value for --cluster:" says it."""
    return str(error).removeprefix("--cluster ")
