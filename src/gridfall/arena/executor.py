"""Where an arena's jobs run: on this machine, or on a Dask cluster, behind one interface.

A job is a small picklable value and its work a module-level function, so either executor can
run it.  The coordinating process (:func:`drive`) keeps every result: it is the one writer of
the run database and the solution store, and the workers only send results back.

* :class:`LocalExecutor` (the default, no extra dependency) runs jobs on threads of this process.
  A game's time is spent in its bots' processes, and a search's in numba kernels that release
  the GIL, so threads keep every core busy without pickling anything; one job per core keeps the
  bots' time limits honest.
* :class:`~gridfall.arena.dask_executor.DaskExecutor` (``gridfall[dask]``) sends them to a Dask
  cluster, whose workers may die or be lost (:mod:`.dask_executor`).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Callable, Iterable

from gridfall.arena import job_name
from gridfall.arena.process import MachineCannotStartBot, kill_all
from gridfall.arena.signals import signals_held, signals_ignored, stopping_on_signals
from gridfall.machine import usable_cores
from gridfall.words import counted

POLL_SECONDS = 0.5  # how often a wait wakes to notice Ctrl-C
STOP_FETCH_SECONDS = 10.0  # stopping, how long a finished job's result may take to fetch before it is let go
CLOSE_SECONDS = 10.0  # how long closing waits for cancelled jobs to end
DRAIN_SECONDS = 60.0  # stopping, how long the jobs under way may take to return what they have
DRAIN_SAY_SECONDS = 3.0  # a drain longer than this says what it waits for (a worker that does not answer)


class ExecutorError(Exception):
    """The executor cannot be set up (a bad --cluster, no scheduler there, Dask missing)."""


class JobFailed(Exception):
    """A job raised instead of returning a result: the message names the job."""


class StartFailed(JobFailed):
    """The machine could not start a job's bot (:class:`~gridfall.arena.process.MachineCannotStartBot`):
    no job's fault, so the message is the fault's own, saying what to do."""


class NotFetched(Exception):
    """A finished job's result could not be fetched in the time given (stopping): it is let go."""


class ExecutorLost(JobFailed):
    """The executor can run no more jobs: the Dask scheduler is gone (its results are lost with it,
    the results kept so far are not)."""


class LocalExecutor:
    """Jobs on threads of this process, ``workers`` at once."""

    local = True

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or usable_cores())
        self.pool = ThreadPoolExecutor(max_workers=self.workers)
        self.cancelled: list = []
        self.names: dict = {}  # a job's future -> the name it runs under (job_name)

    def describe(self) -> str:
        return counted(self.workers, "local worker")

    def slots(self) -> int:
        return self.workers

    def prepare(self, setup: Callable[[], object]) -> None:
        """Run ``setup()`` where the jobs will run (here), before any job."""
        setup()

    def submit(self, work: Callable, job):
        name = job_name.new_name()
        handle = self.pool.submit(job_name.run_as, name, work, job)
        self.names[handle] = name
        return handle

    def wait_some(self, handles: list) -> list:
        done, _ = wait_futures(handles, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, handle, timeout: float | None = None):
        self.names.pop(handle, None)
        return handle.result()  # asked only of a finished job: here, its result is at hand

    def finished(self, handle) -> bool:
        """Done with a result (not cancelled, not failed)."""
        return handle.done() and not handle.cancelled() and handle.exception() is None

    def cancel(self, handles: list) -> None:
        """Cancel the jobs: those not begun never run, and those under way are stopped."""
        for handle in handles:
            handle.cancel()
        self.cancelled += handles
        self.stop(handles)
        kill_all()  # the games under way end at once: their bots are killed

    def stop(self, handles: list) -> None:
        """Tell the jobs under way to stop (:func:`job_name.stop`), here, where they run."""
        job_name.stop([self.names[h] for h in handles if h in self.names])

    def close(self) -> None:
        """Shut the pool; jobs cancelled while running are ended first (a job that starts another
        game after its bots were killed gets those killed too), for at most CLOSE_SECONDS."""
        deadline = time.monotonic() + CLOSE_SECONDS
        while any(not h.done() for h in self.cancelled) and time.monotonic() < deadline:
            kill_all()
            wait_futures(self.cancelled, timeout=0.05)
        self.pool.shutdown(wait=False, cancel_futures=True)


def make_executor(workers: int | None = None, cluster: str | None = None):
    """The executor the options ask for: a Dask cluster if ``cluster``, else local threads."""
    if cluster:
        from gridfall.arena.dask_executor import DaskExecutor

        return DaskExecutor(cluster)
    return LocalExecutor(workers)


WAIT = object()  # what a job iterator yields when no job is ready until one under way finishes


def drive(executor, jobs: Iterable, work: Callable, on_result: Callable, stop: Callable[[], bool] = lambda: False,
          drain: bool = False) -> bool:
    """Run ``work(job)`` for the jobs, as many at once as the executor has slots, calling
    ``on_result(job, result)`` here, in the coordinating process, as each finishes.

    ``jobs`` may yield :data:`WAIT`: no job is ready until one under way finishes.  No new job
    starts once ``stop()`` is true, and the ones in flight are cancelled.  Ctrl-C, SIGTERM or
    SIGHUP cancel the jobs in flight too, unless ``drain``: then they are told to finish at once
    and their results still go to ``on_result`` (:func:`_drain`).  Cancelling kills the jobs' bots
    and tells the jobs under way to stop, where they run (:mod:`.job_name`): a thread, here or on
    a Dask worker, cannot be ended from outside.  Returns True when the run was interrupted."""
    jobs = iter(jobs)
    pending: dict = {}
    exhausted = False

    def cancel_all() -> None:
        executor.cancel(list(pending))

    with stopping_on_signals():
        try:
            while True:
                while not exhausted and len(pending) < executor.slots() and not stop():
                    job = next(jobs, None)
                    if job is None:
                        exhausted = True
                    elif job is WAIT:
                        break
                    else:
                        with signals_held():  # a stop inside Thread.start() left a thread that
                            pending[executor.submit(work, job)] = job  # shutdown cannot join
                if stop():
                    cancel_all()
                    return False
                if not pending:
                    return False
                # a stop lands after the wait (at most POLL_SECONDS), never inside it: raised while the
                # wait took back a lock that a finishing job held, it left "release unlocked lock"
                with signals_held():
                    finished = executor.wait_some(list(pending))
                for handle in finished:
                    _deliver(executor, pending, handle, on_result, cancel_all)
        except KeyboardInterrupt:
            with signals_ignored():  # a second Ctrl-C or SIGTERM must not lose what is being kept
                for handle in [h for h in pending if executor.finished(h)]:  # done before the stop: kept
                    _deliver(executor, pending, handle, on_result, cancel_all, STOP_FETCH_SECONDS)
                if drain:
                    _drain(executor, pending, on_result, cancel_all)
                else:
                    cancel_all()
            return True


def _drain(executor, pending: dict, on_result: Callable, cancel_all: Callable[[], None]) -> None:
    """Tell the jobs under way to stop and keep what they return.  They are told again at each
    wait: a job that began just after (a Dask task about to start) hears the next.  Those not back
    within DRAIN_SECONDS (a worker that cannot be reached) are cancelled."""
    started = time.monotonic()
    said = False
    while pending:
        waited = time.monotonic() - started
        if waited > DRAIN_SECONDS:
            cancel_all()
            return
        if waited > DRAIN_SAY_SECONDS and not said:
            print(f"gridfall: stopping: waiting up to {DRAIN_SECONDS - waited:.0f} s more for "
                  f"{counted(len(pending), 'job')} under way to send back what they have", file=sys.stderr, flush=True)
            said = True
        executor.stop(list(pending))
        for handle in executor.wait_some(list(pending)):
            _deliver(executor, pending, handle, on_result, cancel_all, STOP_FETCH_SECONDS)


def _deliver(executor, pending: dict, handle, on_result: Callable, cancel_all: Callable[[], None],
             fetch_timeout: float | None = None) -> None:
    """Take a finished job out of ``pending`` and keep its result: a stop waits until it is kept.
    A job that failed, or a result that cannot be kept, ends the run: ``cancel_all()`` the rest.

    The result is fetched first, outside that: a Dask worker that died with it makes the fetch
    wait for the job to run again, and a stop must end that wait, not be held behind it (the run
    sat deaf to SIGTERM).  Stopping, the fetch gives up after ``fetch_timeout``: that job was in
    flight, and runs again on resume."""
    try:
        result = executor.result(handle, fetch_timeout)
    except ExecutorLost:  # no job's fault, and nothing left to cancel
        raise
    except NotFetched:  # let go: it was in flight
        pending.pop(handle)
        executor.cancel([handle])
        return
    except Exception as e:
        job = pending.pop(handle)
        cancel_all()
        if isinstance(e, MachineCannotStartBot):
            raise StartFailed(str(e)) from e
        raise JobFailed(f"{job}: {type(e).__name__}: {e}") from e
    with signals_held():
        job = pending.pop(handle)
        try:
            on_result(job, result)
        except Exception:  # a result that cannot be kept (a full disk) ends the run: no game plays on unseen
            cancel_all()
            raise
