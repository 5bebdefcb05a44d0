"""Run independent jobs (games, boards) on worker threads, in order, with progress.

Each job spends its time waiting on a bot subprocess or in numba code that
releases nothing, so threads are enough to keep N bots busy; results come back
in the order of the jobs whatever order they finish in.  Ctrl-C, SIGTERM and
SIGHUP kill every running bot and return the results finished so far.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Callable, Sequence, TypeVar

from gridfall.arena.process import kill_all
from gridfall.arena.signals import stopping_on_signals

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(
    jobs: Sequence[J],
    work: Callable[[J], R],
    workers: int = 1,
    on_done: Callable[[int, R], None] | None = None,
) -> tuple[list[R | None], bool]:
    """Run ``work(job)`` for every job; return (results in job order, interrupted)."""
    with stopping_on_signals():
        return _run(jobs, work, workers, on_done)


def _run(jobs, work, workers, on_done):
    results: list = [None] * len(jobs)
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    pending = {pool.submit(work, job): i for i, job in enumerate(jobs)}
    interrupted = False
    try:
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                results[i] = future.result()
                if on_done is not None:
                    on_done(i, results[i])
    except KeyboardInterrupt:
        interrupted = True
        for future, i in list(pending.items()):  # finished before the stop but not yet collected: kept
            if future.done() and not future.cancelled() and future.exception() is None:
                results[i] = future.result()
                del pending[future]
        for future in pending:
            future.cancel()
        kill_all()
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    return results, interrupted
