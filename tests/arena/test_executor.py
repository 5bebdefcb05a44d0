"""drive() over the local executor: every result reaches the coordinator, a failing job is named,
a stop is honoured, and a signal never cuts a result's storing in half."""

import os
import signal
import threading
import time

import pytest

from gridfall.arena.executor import WAIT, JobFailed, LocalExecutor, drive
from gridfall.arena.signals import Stopped, signals_held, stopping_on_signals


def square(n):
    time.sleep(0.01)
    if n == 13:
        raise ValueError("unlucky")
    return n * n


def test_every_result_reaches_the_coordinator():
    got = {}
    assert drive(LocalExecutor(3), range(10), square, lambda job, r: got.__setitem__(job, r)) is False
    assert got == {n: n * n for n in range(10)}


def test_a_job_that_raises_is_named():
    with pytest.raises(JobFailed, match="13: ValueError: unlucky"):
        drive(LocalExecutor(2), [12, 13, 14], square, lambda job, r: None)


def test_wait_holds_a_job_back_until_one_under_way_finishes():
    done, order = set(), []

    def jobs():
        yield 1
        while 1 not in done:  # 2 continues from 1
            yield WAIT
        yield 2

    def keep(job, result):
        done.add(job)
        order.append(job)

    drive(LocalExecutor(4), jobs(), square, keep)
    assert order == [1, 2]


def test_stop_starts_no_new_job():
    got = []
    drive(LocalExecutor(1), range(100), square, lambda job, r: got.append(job), stop=lambda: len(got) >= 3)
    assert 3 <= len(got) < 100


def test_a_signal_waits_for_the_result_being_kept():
    kept = []
    with pytest.raises(Stopped), stopping_on_signals(), signals_held():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        kept.append("whole")  # reached: the signal waited
    assert kept == ["whole"]


def test_a_stop_lands_after_the_executors_wait_never_inside_it():
    """Raised inside the wait, as it took back a lock that a finishing job's thread held, a
    SIGTERM left "RuntimeError: release unlocked lock" instead of a stop (a CI run, a campaign
    stopped as a board pass finished): the wait now ends first, within POLL_SECONDS."""
    waits = []

    class SignalledInTheWait(LocalExecutor):
        def wait_some(self, handles):
            if not waits:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.05)  # where the signal's handler runs: it must not raise here
            waits.append("whole")
            return super().wait_some(handles)

    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}  # a stop leaves them noting
    try:
        interrupted = drive(SignalledInTheWait(1), range(100), square, lambda job, r: None)
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    assert interrupted and waits[0] == "whole"


def test_a_result_that_cannot_be_kept_ends_the_run_and_cancels_the_jobs_under_way():
    """on_result raising (a full run database) stops the run: the jobs in flight are cancelled
    (their bots killed) instead of playing on unseen, and the error goes on to the command."""

    class Recording(LocalExecutor):
        def cancel(self, handles):
            cancelled.extend(handles)
            super().cancel(handles)

    def slow_unless_first(n):
        time.sleep(0 if n == 0 else 0.5)
        return n

    def keep(job, result):
        raise OSError("database or disk is full")

    cancelled = []
    executor = Recording(2)
    with pytest.raises(OSError, match="disk is full"):
        drive(executor, [0, 1], slow_unless_first, keep)
    (handle,) = cancelled  # job 1's, in flight (or not yet started) when job 0's result could not be kept
    assert handle.cancelled() or handle.result(timeout=5) == 1
    executor.close()


def test_a_stop_is_not_held_behind_a_result_that_cannot_be_fetched(monkeypatch):
    # a Dask worker that died holding a finished job's result made its fetch wait for the job to run
    # again; the fetch sat inside the block that holds signals, so SIGTERM went unheard (CI: 120 s)
    from gridfall.arena import executor as executor_module
    from gridfall.arena.executor import NotFetched

    monkeypatch.setattr(executor_module, "STOP_FETCH_SECONDS", 0.5)
    handles = {}

    class LostData(LocalExecutor):
        def submit(self, work, job):
            handles[job] = super().submit(work, job)
            return handles[job]

        def result(self, handle, timeout=None):
            if handle is not handles.get(0):
                return super().result(handle, timeout)
            started = time.monotonic()  # job 0's data went with its worker: no worker comes back
            while time.monotonic() - started < (timeout if timeout is not None else 5.0):
                time.sleep(0.02)
            if timeout is not None:
                raise NotFetched("not fetched")
            return "fetched at last"

    kept = {}
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    started = time.monotonic()
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}  # a stop leaves them noting
    try:
        with stopping_on_signals():
            interrupted = drive(LostData(2), [0, 1, 2, 3], square, lambda job, r: kept.__setitem__(job, r))
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    assert interrupted and time.monotonic() - started < 3  # the old code heard the signal after 5 s
    assert 0 not in kept  # let go: it runs again on resume


def test_a_drained_stop_keeps_what_the_jobs_return_and_cancels_one_that_does_not_answer(monkeypatch, capsys):
    """Stopping with ``drain``, the jobs under way are told to stop where they run (on a Dask
    cluster too: the jobs there were cancelled, their work lost) and their results are kept; one
    that does not answer within DRAIN_SECONDS (its worker unreachable) is cancelled."""
    from gridfall.arena import executor as executor_module
    from gridfall.arena import job_name

    monkeypatch.setattr(executor_module, "DRAIN_SECONDS", 1.0)
    monkeypatch.setattr(executor_module, "DRAIN_SAY_SECONDS", 0.5)
    kept, cancelled = {}, []

    def work(n):
        if n == 1:  # deaf to the stop
            time.sleep(4)
            return "late"
        while not job_name.told_to_stop():  # as a search reads its clock
            time.sleep(0.01)
        return f"{n} drained"

    class Recording(LocalExecutor):
        def cancel(self, handles):
            cancelled.extend(handles)
            super().cancel(handles)

    executor = Recording(2)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    started = time.monotonic()
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}  # a stop leaves them noting
    try:
        with stopping_on_signals():
            interrupted = drive(executor, [0, 1], work, lambda job, r: kept.__setitem__(job, r), drain=True)
        took = time.monotonic() - started
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
        executor.close()
    assert interrupted and kept == {0: "0 drained"}
    (deaf,) = cancelled
    assert deaf.result(timeout=10) == "late"  # the deaf one, cancelled while it ran
    assert took < 3, took  # the deaf job's 4 s are not waited for
    assert "gridfall: stopping: waiting up to 0 s more for 1 job under way to send back what they have" \
        in capsys.readouterr().err  # what a stop that seems stuck waits for
