"""Where an arena's jobs run: on this machine, or on a Dask cluster, behind one interface.

A job is a small picklable value and its work a module-level function, so either executor can
run it.  The coordinating process (:func:`drive`) keeps every result: it is the one writer of
the run database and the solution store, and the workers only send results back.

* :class:`LocalExecutor` (the default, no extra dependency) runs jobs on threads of this process.
  A game's time is spent in its bots' processes, and a search's in numba kernels that release
  the GIL, so threads keep every core busy without pickling anything; one job per core keeps the
  bots' time limits honest.
* :class:`DaskExecutor` (``gridfall[dask]``) sends jobs to a Dask distributed scheduler
  (``tcp://HOST:8786``) or to a LocalCluster it starts (``local:N``: N worker processes, one
  thread each).  A worker that dies costs only its jobs in flight: the scheduler runs them again
  elsewhere, and its nanny kills the bots it left (:mod:`.dask_nanny`).
  Workers need gridfall installed, the same as here (:mod:`gridfall.fingerprint`: checked at the start,
  and by each job, for workers that join later); built-in bot names are resolved on the worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Callable, Iterable

from gridfall.arena.process import MachineCannotStartBot, kill_all
from gridfall.arena.signals import signals_held, signals_ignored, stopping_on_signals
from gridfall.fingerprint import fingerprint, run_checked
from gridfall.words import counted

POLL_SECONDS = 0.5  # how often a wait wakes to notice Ctrl-C
STOP_FETCH_SECONDS = 10.0  # stopping, how long a finished job's result may take to fetch before it is let go
CLOSE_SECONDS = 10.0  # how long closing waits for cancelled jobs to end
NO_WORKER_SECONDS = 10.0  # how long a Dask cluster may have no worker before the run says so
FETCH_TRIES = 10  # failed fetches of a finished job's result (POLL_SECONDS apart) before the cluster counts as lost


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
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.pool = ThreadPoolExecutor(max_workers=self.workers)
        self.cancelled: list = []

    def describe(self) -> str:
        return counted(self.workers, "local worker")

    def slots(self) -> int:
        return self.workers

    def prepare(self, setup: Callable[[], object]) -> None:
        """Run ``setup()`` where the jobs will run (here), before any job."""
        setup()

    def submit(self, work: Callable, job):
        return self.pool.submit(work, job)

    def wait_some(self, handles: list) -> list:
        done, _ = wait_futures(handles, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, handle, timeout: float | None = None):
        return handle.result()  # asked only of a finished job: here, its result is at hand

    def finished(self, handle) -> bool:
        """Done with a result (not cancelled, not failed)."""
        return handle.done() and not handle.cancelled() and handle.exception() is None

    def cancel(self, handles: list) -> None:
        for handle in handles:
            handle.cancel()
        self.cancelled += handles
        kill_all()  # the games under way end at once: their bots are killed

    def close(self) -> None:
        """Shut the pool; jobs cancelled while running are ended first (a job that starts another
        game after its bots were killed gets those killed too), for at most CLOSE_SECONDS."""
        deadline = time.monotonic() + CLOSE_SECONDS
        while any(not h.done() for h in self.cancelled) and time.monotonic() < deadline:
            kill_all()
            wait_futures(self.cancelled, timeout=0.05)
        self.pool.shutdown(wait=False, cancel_futures=True)


def check_address(address: str) -> int | None:
    """The number of workers of ``local:N`` (1 to MOST_WORKERS: each is a process), None for a
    scheduler's address; ExecutorError for what is neither.  What can be checked without a
    scheduler: the CLI asks before it makes a run's database."""
    from gridfall.cli_options import MOST_WORKERS
    from gridfall.numerals import ascii_digits

    if address.startswith("local:"):
        workers = address.partition(":")[2]
        if not ascii_digits(workers) or not 1 <= int(workers) <= MOST_WORKERS:
            raise ExecutorError(f"--cluster {address}: local:N wants a number of workers from 1 to {MOST_WORKERS} "
                                "(each is a process of its own)")
        return int(workers)
    if ":" not in address:
        raise ExecutorError(f"--cluster {address}: neither a scheduler's address (tcp://HOST:PORT) nor local:N")
    return None


class DaskExecutor:
    """Jobs on a Dask distributed cluster: ``tcp://HOST:PORT`` or ``local:N``."""

    local = False

    def __init__(self, address: str):
        try:
            import distributed
        except ImportError:
            raise ExecutorError("--cluster needs Dask: pip install 'gridfall[dask]'") from None
        self.distributed = distributed
        # the client logs a traceback of each failed reconnection; a lost scheduler is said once, as ExecutorLost
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        asyncio_log = logging.getLogger("asyncio")
        if not any(isinstance(f, DropAllExit) for f in asyncio_log.filters):
            asyncio_log.addFilter(DropAllExit(distributed.client.AllExit))
        self.cluster = None
        workers = check_address(address)
        try:
            if workers is not None:
                self.cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                        dashboard_address=None, silence_logs=40)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(address, timeout="10s")
        except ValueError as e:  # distributed's own reading of the address
            raise ExecutorError(f"--cluster {address}: neither a scheduler's address (tcp://HOST:PORT) nor "
                                f"local:N ({e})") from None
        except (OSError, TimeoutError) as e:
            raise ExecutorError(f"--cluster {address}: no Dask scheduler answered ({e})") from None
        self.address = address
        self.alone_since: float | None = None  # since when the cluster has had no worker
        self.said_alone = False
        from gridfall.arena.dask_nanny import BotSweeper

        try:
            self.client.register_plugin(BotSweeper())
        except Exception as e:  # a nanny that cannot import gridfall, or a scheduler that refuses plugins
            self.close()
            raise ExecutorError(f"--cluster {address}: the workers' nannies cannot run gridfall's bot sweeper "
                                f"({type(e).__name__}: {e}); install gridfall on every worker") from None
        self.fingerprint = fingerprint()
        try:
            theirs_by_worker = self.client.run(fingerprint)
        except Exception as e:  # a worker that cannot import gridfall, or a scheduler gone
            self.close()
            raise ExecutorError(f"--cluster {address}: cannot ask the workers which gridfall they run "
                                f"({type(e).__name__}: {e}); install gridfall on every worker") from None
        others: dict[str, list[str]] = {}
        for worker, theirs in sorted(theirs_by_worker.items()):
            if theirs != self.fingerprint:
                others.setdefault(theirs, []).append(worker)
        if others:
            self.close()
            named = "; ".join(f"{counted(len(workers), 'worker')} {'runs' if len(workers) == 1 else 'run'} {theirs} "
                              f"({', '.join(workers[:3])}{', ...' if len(workers) > 3 else ''})"
                              for theirs, workers in others.items())
            raise ExecutorError(f"--cluster {address}: this machine runs gridfall {self.fingerprint}, but {named}: "
                                "install the same gridfall on every worker (`gridfall --version` prints it), so that "
                                "every game of a run is played by the same rules and bots")

    def describe(self) -> str:
        return f"Dask at {self.address} ({counted(self.slots(), 'worker thread')})"

    def slots(self) -> int:
        try:
            return max(1, sum(self.client.nthreads().values()))
        except OSError as e:  # the scheduler's connection reset: it is gone
            raise self._lost(e) from None

    def prepare(self, setup: Callable[[], object]) -> None:
        """Run ``setup()`` on every worker, before any job (a worker that joins later runs its first
        job without it)."""
        self.client.run(setup)

    def submit(self, work: Callable, job):
        try:
            return self.client.submit(run_checked, self.fingerprint, work, job, pure=False)
        except OSError as e:
            raise self._lost(e) from None

    def wait_some(self, handles: list) -> list:
        self._say_if_no_worker()
        try:
            done, _ = self.distributed.wait(handles, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        except (CancelledError, OSError) as e:  # cancelled by the client, not by us, or a reset: it lost the scheduler
            raise self._lost(e) from None
        return list(done)

    def result(self, handle, timeout: float | None = None):
        """A finished job's result.  It is fetched from the worker that holds it, and a worker that
        died in between takes it along: the job then runs again once a worker joins.  So the fetch
        waits in short steps, saying if the cluster has no worker, and with ``timeout`` gives up
        after that long (:class:`NotFetched`)."""
        give_up = None if timeout is None else time.monotonic() + timeout
        failed_fetches = 0
        while True:
            try:
                return handle.result(timeout=POLL_SECONDS)
            except self.distributed.TimeoutError:
                if give_up is not None and time.monotonic() >= give_up:
                    raise NotFetched(f"the result of a job was not fetched within {timeout:g} s") from None
                self._say_if_no_worker()
            except CancelledError as e:
                raise self._lost(e) from None
            except Exception as e:
                if self.client.status != "running":
                    raise self._lost(e) from None
                if handle.status == "error":  # the job's own error
                    raise
                # the fetch failed, not the job ("Connection reset by peer": the scheduler dying
                # before the client knows it, which a job's error once reported): ask again
                failed_fetches += 1
                if failed_fetches >= FETCH_TRIES or (give_up is not None and time.monotonic() >= give_up):
                    raise self._lost(e) from None
                time.sleep(POLL_SECONDS)

    def _say_if_no_worker(self) -> None:
        """One line on stderr once the cluster has had no worker for NO_WORKER_SECONDS (its jobs wait
        for one to join, as Dask does), and one when workers are back: a run is never silently stuck."""
        try:
            workers = len(self.client.nthreads())
        except Exception:  # a scheduler being lost: wait() says so
            return
        if workers:
            if self.alone_since is not None and self.said_alone:
                print(f"gridfall: Dask workers are back at {self.address}; the run goes on", file=sys.stderr, flush=True)
            self.alone_since, self.said_alone = None, False
        elif self.alone_since is None:
            self.alone_since = time.monotonic()
        elif not self.said_alone and time.monotonic() - self.alone_since >= NO_WORKER_SECONDS:
            print(f"gridfall: no Dask worker at {self.address} for {NO_WORKER_SECONDS:g} s; the games wait for one to "
                  "join (Ctrl-C stops, and the games stored are kept)", file=sys.stderr, flush=True)
            self.said_alone = True

    def _lost(self, error: Exception) -> ExecutorLost:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return ExecutorLost(f"lost the Dask scheduler at {self.address} ({reason}); run the same command again "
                            "once it is back, to resume")

    def finished(self, handle) -> bool:
        """Done with a result (not cancelled, not failed)."""
        return handle.status == "finished"

    def cancel(self, handles: list) -> None:
        if handles:
            with contextlib.suppress(OSError):  # a scheduler already gone has nothing left to cancel
                self.client.cancel(handles)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class DropAllExit(logging.Filter):
    """Drops asyncio's report of a task that ended in distributed's ``AllExit``.

    A result's fetch waits on the key in tasks that end in ``AllExit`` once the key is cancelled
    or gone: distributed's way to leave the wait early, not an error.  A run stopped (SIGTERM)
    while such a fetch waited for a worker left those tasks behind, and asyncio printed each as
    "Task exception was never retrieved" with a traceback, after the run's own last line."""

    def __init__(self, all_exit: type):
        super().__init__()
        self.all_exit = all_exit

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], self.all_exit))


def make_executor(workers: int | None = None, cluster: str | None = None):
    """The executor the options ask for: a Dask cluster if ``cluster``, else local threads."""
    return DaskExecutor(cluster) if cluster else LocalExecutor(workers)


WAIT = object()  # what a job iterator yields when no job is ready until one under way finishes


def drive(executor, jobs: Iterable, work: Callable, on_result: Callable, stop: Callable[[], bool] = lambda: False,
          drain: Callable[[], None] | None = None) -> bool:
    """Run ``work(job)`` for the jobs, as many at once as the executor has slots, calling
    ``on_result(job, result)`` here, in the coordinating process, as each finishes.

    ``jobs`` may yield :data:`WAIT`: no job is ready until one under way finishes.  No new job
    starts once ``stop()`` is true, and the ones in flight are cancelled.  Ctrl-C, SIGTERM or
    SIGHUP cancel the jobs in flight too, unless ``drain`` is given and the jobs run here: then
    ``drain()`` asks them to finish at once and their results still go to ``on_result``.
    Returns True when the run was interrupted."""
    jobs = iter(jobs)
    pending: dict = {}
    exhausted = False
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
                    executor.cancel(list(pending))
                    return False
                if not pending:
                    return False
                for handle in executor.wait_some(list(pending)):
                    _deliver(executor, pending, handle, on_result)
        except KeyboardInterrupt:
            with signals_ignored():  # a second Ctrl-C or SIGTERM must not lose what is being kept
                for handle in [h for h in pending if executor.finished(h)]:  # done before the stop: kept
                    _deliver(executor, pending, handle, on_result, STOP_FETCH_SECONDS)
                if drain is None or not executor.local:
                    executor.cancel(list(pending))
                    return True
                while pending:  # draining: the jobs under way were asked to stop and return what they have
                    drain()
                    for handle in executor.wait_some(list(pending)):
                        _deliver(executor, pending, handle, on_result)
            return True


def _deliver(executor, pending: dict, handle, on_result: Callable, fetch_timeout: float | None = None) -> None:
    """Take a finished job out of ``pending`` and keep its result: a stop waits until it is kept.

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
        executor.cancel(list(pending))
        if isinstance(e, MachineCannotStartBot):
            raise StartFailed(str(e)) from e
        raise JobFailed(f"{job}: {type(e).__name__}: {e}") from e
    with signals_held():
        job = pending.pop(handle)
        try:
            on_result(job, result)
        except Exception:  # a result that cannot be kept (a full disk) ends the run: no game plays on unseen
            executor.cancel(list(pending))
            raise
