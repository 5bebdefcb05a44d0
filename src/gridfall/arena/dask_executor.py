"""The Dask executor: an arena's jobs on a Dask distributed cluster (``gridfall[dask]``).

It serves :func:`gridfall.arena.executor.drive` as the local executor does, on a scheduler
(``tcp://HOST:8786``) or on a LocalCluster it starts (``local:N``: N worker processes, one thread
each).  What it adds is what a cluster does that threads do not:

- a worker that dies costs only its jobs in flight: the scheduler runs them again elsewhere, and
  its nanny kills the bots it left (:mod:`.dask_nanny`);
- a cluster with no worker for a while says so, and waits for one to join;
- a lost scheduler ends the run in one message (:class:`~gridfall.arena.executor.ExecutorLost`),
  the results kept so far kept;
- workers need gridfall installed, the same as here (:mod:`gridfall.fingerprint`: checked at the
  start, and by each job, for workers that join later); built-in bot names are resolved on the
  worker.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from concurrent.futures import CancelledError
from typing import Callable

from gridfall.arena import job_name
from gridfall.arena.executor import POLL_SECONDS, ExecutorError, ExecutorLost, NotFetched
from gridfall.arena.signals import signals_held
from gridfall.fingerprint import fingerprint, run_checked
from gridfall.words import counted

NO_WORKER_SECONDS = 10.0  # how long a Dask cluster may have no worker before the run says so
STOP_SECONDS = 10.0  # stopping, how long the workers may take to hear which jobs to stop
FETCH_TRIES = 10  # failed fetches of a finished job's result (POLL_SECONDS apart) before the cluster counts as lost


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


def _client(distributed, address: str):
    """Dask's client of the scheduler at ``address``, once what answers there has greeted as one
    (:mod:`.dask_greeting`); ExecutorError saying what is wrong otherwise."""
    from distributed.comm.addressing import parse_address, parse_host_port

    from gridfall.arena.dask_greeting import NotAScheduler, check_greeting

    try:
        scheme, location = parse_address(address)
        if scheme == "tcp":  # over TLS or another comm the client speaks first: nothing to read before it
            host, port = parse_host_port(location)
            if not 0 < port < 1 << 16:  # the socket would quietly take it modulo 65536
                raise ValueError(f"port {port} is not one of 1-65535")
            check_greeting(host, port)
    except ValueError as e:  # distributed's own reading of the address
        raise ExecutorError(f"--cluster {address}: neither a scheduler's address (tcp://HOST:PORT) nor "
                            f"local:N ({e})") from None
    except NotAScheduler as e:
        raise ExecutorError(f"--cluster {address}: what answers there is not a Dask scheduler: {e} (a scheduler "
                            "listens on port 8786 unless told otherwise; 8787 is its dashboard)") from None
    try:
        return distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, distributed.TimeoutError) as e:
        raise ExecutorError(f"--cluster {address}: no Dask scheduler answered ({e})") from None
    except Exception as e:  # a greeting Dask's client cannot read, or a comm it cannot set up (TLS)
        raise ExecutorError(f"--cluster {address}: Dask's client could not connect ({type(e).__name__}: {e})") from None


class DaskExecutor:
    """Jobs on a Dask distributed cluster: ``tcp://HOST:PORT`` or ``local:N``."""

    local = False

    def __init__(self, address: str):
        try:
            import distributed
        except ImportError:
            raise ExecutorError("--cluster needs Dask: pip install 'gridfall[dask]'") from None
        self.distributed = distributed
        quiet_client_logs(distributed.client.AllExit)
        self.cluster = None
        self.names: dict[object, str] = {}  # a job's Dask key -> the name it runs under (run_named)
        workers = check_address(address)
        if workers is not None:
            try:
                self.cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                        dashboard_address=None, silence_logs=40)
                self.client = distributed.Client(self.cluster)
            except (OSError, RuntimeError, TimeoutError, distributed.TimeoutError) as e:  # "Nanny failed to start"
                raise ExecutorError(f"--cluster {address}: Dask could not start its local workers "
                                    f"({type(e).__name__}: {e})") from None
        else:
            self.client = _client(distributed, address)
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
        name = job_name.new_name()
        try:
            handle = self.client.submit(run_named, name, self.fingerprint, work, job, pure=False)
        except OSError as e:
            raise self._lost(e) from None
        self.names[handle.key] = name
        return handle

    def wait_some(self, handles: list) -> list:
        self._say_if_no_worker()
        try:
            done, _ = self.distributed.wait(handles, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
        except self.distributed.TimeoutError:  # asyncio's, not the built-in one, before Python 3.11
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
                with signals_held():  # a stop lands between the steps, not inside distributed's wait (see drive)
                    value = handle.result(timeout=POLL_SECONDS)
                self.names.pop(handle.key, None)
                return value
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
        """Cancel the jobs: those not begun never run, and those under way are stopped."""
        if handles:
            with contextlib.suppress(OSError):  # a scheduler already gone has nothing left to cancel
                self.client.cancel(handles)
            self.stop(handles)

    def stop(self, handles: list) -> None:
        """Tell the jobs under way to stop, on every worker (:func:`job_name.stop`): a cancelled
        job that is running goes on in its worker's thread, with its bots, unless it is told.  (A
        sync client cannot run a function without waiting: ``wait=False`` is for coroutines.)"""
        names = [self.names[handle.key] for handle in handles if handle.key in self.names]
        if names:
            with contextlib.suppress(Exception):  # a scheduler or worker gone has nothing left to stop
                self.client.run(job_name.stop, names, callback_timeout=STOP_SECONDS)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.client.close()
        if self.cluster is not None:
            # our own scheduler, in this process: a call to every worker that a stop cut short (the
            # warm-up's) fails as they close, and it logged each as an ERROR after the run's end
            logging.getLogger("distributed.scheduler").setLevel(logging.CRITICAL)
            self.cluster.close()


def run_named(name: str, expected: str, work: Callable, job):
    """A job on a worker (:func:`~gridfall.fingerprint.run_checked`), run as ``name``
    (:mod:`.job_name`): :meth:`DaskExecutor.stop` names it."""
    with job_name.running_as(name):
        return run_checked(expected, work, job)


def quiet_client_logs(all_exit: type) -> None:
    """Keep distributed's log lines of this process, the run's client, to its warnings: a lost
    scheduler is said once, as :class:`ExecutorLost`.

    distributed logs at INFO to stderr by default, and as the scheduler goes the client's comm to
    it may log "Batched Comm Closed" with a traceback (seen once in a loaded test run); the client
    logs a traceback of each failed reconnection too, at its warnings, so it gets none at all."""
    everything = logging.getLogger("distributed")
    everything.setLevel(max(everything.level, logging.WARNING))  # a LocalCluster's silence_logs may set more
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, DropAllExit) for f in asyncio_log.filters):
        asyncio_log.addFilter(DropAllExit(all_exit))


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
