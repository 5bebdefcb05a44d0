"""Run independent jobs (games, boards) on this machine, in order, with progress.

The referees' shape of :func:`gridfall.arena.executor.drive` on the local executor: results come
back in the order of the jobs whatever order they finish in.  Ctrl-C, SIGTERM and SIGHUP kill
every running bot and return the results finished so far, and so does a machine that cannot
start a bot (out of file descriptors, say): the referee prints what finished, then the fault.
"""

from __future__ import annotations

import sys
from typing import Callable, NamedTuple, NoReturn, Sequence, TypeVar

import click

from gridfall.arena.executor import LocalExecutor, StartFailed, drive
from gridfall.arena.signals import exit_code

J = TypeVar("J")
R = TypeVar("R")


class Finished(NamedTuple):
    results: list  # in job order; None for a job that did not finish
    interrupted: bool  # a stop, or the fault, ended the run early
    fault: StartFailed | None = None  # the machine could not start a bot


def run_jobs(
    jobs: Sequence[J],
    work: Callable[[J], R],
    workers: int = 1,
    on_done: Callable[[int, R], None] | None = None,
) -> Finished:
    """Run ``work(job)`` for every job; return the results in job order, whether the run was cut
    short, and the machine's fault that cut it (then the jobs under way were cancelled)."""
    results: list = [None] * len(jobs)

    def keep(i: int, result) -> None:
        results[i] = result
        if on_done is not None:
            on_done(i, result)

    executor = LocalExecutor(workers)
    try:
        interrupted = drive(executor, range(len(jobs)), lambda i: work(jobs[i]), keep)
    except StartFailed as fault:
        return Finished(results, True, fault)
    finally:
        executor.close()
    return Finished(results, interrupted)


def exit_after(finished: Finished, what: str = "games") -> NoReturn:
    """End a referee's command once its results are printed: 1 with the machine's fault, else
    128 + the stopping signal, or 0."""
    if finished.fault is not None:
        done = sum(result is not None for result in finished.results)
        kept = f"the {what} shown finished before it" if done else f"no {what} finished before it"
        click.echo(f"Error: {finished.fault} ({kept})", err=True)
        sys.exit(1)
    sys.exit(exit_code(finished.interrupted))
