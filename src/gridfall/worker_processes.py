"""CPU-bound work spread over worker processes that start fresh, never forked.

Forking copies a process whose other threads (the CLI's progress spinner, pytest-xdist's, numba's)
may hold a lock at that instant, and the child then waits on it forever.  Python 3.12 warns of
it; 3.14 no longer forks by default on Linux, and macOS and Windows never did.  A fresh process
("spawn") costs each worker its imports: a book build with two workers took 0.94 s against
0.67 s forked (depth 4, AMD EPYC, 2026-12-01), while a real build runs for half an hour.

Whatever a worker runs must be importable by name (a module's top-level function), and a script
that starts workers must keep its work under ``if __name__ == "__main__":``, because each fresh
worker imports the script again.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Callable, Iterator


PARENT_CHECK_SECONDS = 1.0


class WorkerDied(Exception):
    """A worker process ended in the middle of the work: killed, by a user or by the system when
    it ran out of memory.  Not a fault of gridfall's, which concurrent.futures' BrokenProcessPool
    was taken for ("internal error")."""


def exit_with_parent(parent: int) -> None:
    """Run in each worker as it starts: end it once ``parent`` is gone.  A parent killed outright
    (kill -9, the system out of memory) cannot end its pool, and its workers waited for work for
    good, 200 MB each (a book build's)."""
    def watch() -> None:
        while os.getppid() == parent:  # an orphan is adopted by init, or by a subreaper
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


@contextmanager
def worker_map(workers: int, stoppable: bool = False) -> Iterator[Callable]:
    """A ``map`` over ``workers`` fresh processes, results in order (:class:`WorkerDied` if one of
    them is killed); one worker maps in this process (no start-up, and no ``__main__`` guard
    needed) unless ``stoppable``: a numba kernel in the main thread holds Ctrl-C until it returns,
    and a worker process can be killed."""
    if workers <= 1 and not stoppable:
        yield map
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:

        def mapped(function, *iterables):
            # not pool.map: closed early, it cancels the tasks not begun, and a pool whose workers
            # are then killed fails on them ("InvalidStateError: CANCELLED", from its own thread,
            # in Python 3.11; 3.12 ignores them).  These tasks are never cancelled: either the
            # workers are killed, below, or the pool runs them to their end as it closes.
            futures = [pool.submit(function, *arguments) for arguments in zip(*iterables)]
            try:
                for future in futures:
                    yield future.result()
            except BrokenProcessPool:
                raise WorkerDied("a worker process ended in the middle of its work: killed, by a user or by "
                                 "the system when out of memory") from None

        try:
            yield mapped
        except BaseException:
            _end_workers(pool)
            raise


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers: the work is abandoned (Ctrl-C, a failure), and leaving the pool
    waits for each worker's task to end (a book build at --depth 26 sat deaf to Ctrl-C for minutes,
    its workers deep in a search).  concurrent.futures names its workers only in ``_processes``."""
    workers = getattr(pool, "_processes", None) or {}
    for process in list(workers.values()):
        process.kill()
