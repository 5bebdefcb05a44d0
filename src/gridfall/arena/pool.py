"""Run independent jobs (games, boards) on this machine, in order, with progress.

The referees' shape of :func:`gridfall.arena.executor.drive` on the local executor: results come
back in the order of the jobs whatever order they finish in.  Ctrl-C, SIGTERM and SIGHUP kill
every running bot and return the results finished so far.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from gridfall.arena.executor import LocalExecutor, drive

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(
    jobs: Sequence[J],
    work: Callable[[J], R],
    workers: int = 1,
    on_done: Callable[[int, R], None] | None = None,
) -> tuple[list[R | None], bool]:
    """Run ``work(job)`` for every job; return (results in job order, interrupted)."""
    results: list = [None] * len(jobs)

    def keep(i: int, result) -> None:
        results[i] = result
        if on_done is not None:
            on_done(i, result)

    executor = LocalExecutor(workers)
    try:
        interrupted = drive(executor, range(len(jobs)), lambda i: work(jobs[i]), keep)
    finally:
        executor.close()
    return results, interrupted
