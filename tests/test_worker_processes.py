"""Worker processes start fresh: a lock another thread holds here is free in them."""

import os
import re
import signal
import sys
import threading
from pathlib import Path

import pytest

from gridfall.worker_processes import WorkerDied, worker_map
from tests.processes import reap, running

held = threading.Lock()  # held by a thread of the parent while the workers start


def lock_is_free(_: int) -> bool:
    """In a forked child this lock would be the parent's copy, held by a thread that does not
    exist there: acquiring it would wait forever (here two seconds)."""
    free = held.acquire(timeout=2)
    if free:
        held.release()
    return free


def pid(_: int) -> int:
    return os.getpid()


def killed(n: int) -> int:
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer does
    return n


def test_workers_do_not_inherit_a_lock_held_by_another_thread():
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with held:
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(10), "the holding thread never took the lock"
        with worker_map(2) as mapped:
            assert list(mapped(lock_is_free, range(4))) == [True] * 4
    finally:
        release.set()
        holder.join()


def test_workers_are_other_processes_and_one_worker_is_this_one():
    with worker_map(2) as mapped:
        assert os.getpid() not in set(mapped(pid, range(4)))
    with worker_map(1) as mapped:
        assert list(mapped(pid, range(3))) == [os.getpid()] * 3
    with worker_map(1, stoppable=True) as mapped:  # a process that a stop can kill, even alone
        assert os.getpid() not in set(mapped(pid, range(3)))


def pid_then_wait(seconds: float) -> int:
    """Says its pid (stdout, a line), then waits as a long search would."""
    import time

    # one write of the whole line: unbuffered (PYTHONUNBUFFERED=1, as here and on CI) print writes
    # the number and its newline apart, and two workers' lines interleaved ("12341235\n\n")
    os.write(sys.stdout.fileno(), f"{os.getpid()}\n".encode())
    time.sleep(seconds)
    return os.getpid()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_their_parent_is_killed_outright():
    # a book build killed with SIGKILL left its two workers waiting for work for good, 200 MB each
    import subprocess
    import time

    parent = ("from gridfall.worker_processes import worker_map\nfrom tests.test_worker_processes import pid_then_wait\n"
              "if __name__ == '__main__':\n    with worker_map(2) as mapped:\n"
              "        list(mapped(pid_then_wait, [0.5, 0.5, 600, 600]))\n")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True, cwd=root)
    workers: set[int] = set()
    try:
        assert run.stdout is not None
        workers = {int(run.stdout.readline()) for _ in range(4)}  # the last two are the long waits
        run.stdout.close()
        run.kill()
        run.wait(timeout=10)
        deadline = time.monotonic() + 20
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if running(w)], "a worker outlived its parent"
    finally:
        run.kill()
        run.wait()
        for w in workers:
            if running(w):
                os.kill(w, signal.SIGKILL)
        reap(*workers)


def note_pid_then_wait(job: tuple[str, float]) -> int:
    """Writes its pid into the folder given, then waits as a long search would."""
    import time

    folder, seconds = job
    Path(folder, str(os.getpid())).touch()
    time.sleep(seconds)
    return os.getpid()


class Abandoned(Exception):
    pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("workers", [2, 1])
def test_work_abandoned_does_not_wait_for_the_workers_tasks(tmp_path, workers):
    # Ctrl-C in a book build at --depth 26 was deaf for minutes: leaving the pool waited for each
    # worker's search to end (one worker searched in the main thread: deaf until a depth's end)
    import time

    def first_result(results) -> None:
        try:
            next(results)
        except WorkerDied:  # its workers killed under it, as they should be
            pass

    pids: set[int] = set()
    try:
        with pytest.raises(Abandoned):
            with worker_map(workers, stoppable=True) as mapped:
                results = mapped(note_pid_then_wait, [(str(tmp_path), 600)] * workers)
                waiting = threading.Thread(target=first_result, args=(results,), daemon=True)
                waiting.start()  # the map hands out its tasks on the first look at its results
                deadline = time.monotonic() + 60
                while len(list(tmp_path.iterdir())) < workers and time.monotonic() < deadline:
                    time.sleep(0.05)
                pids = {int(p.name) for p in tmp_path.iterdir()}
                assert len(pids) == workers and os.getpid() not in pids, "the workers never started their tasks"
                left = time.monotonic()
                raise Abandoned
        assert time.monotonic() - left < 20
        deadline = time.monotonic() + 10
        while any(map(running, pids)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in pids if running(w)], "a worker outlived the abandoned work"
        waiting.join(10)
    finally:
        for w in pids:
            if running(w):
                os.kill(w, signal.SIGKILL)
        reap(*pids)


def test_work_abandoned_leaves_the_pools_own_thread_no_fault_to_print(monkeypatch):
    # CI printed "Exception in thread ... InvalidStateError: CANCELLED" as a stopped book build
    # ended: pool.map, closed by the stop, cancelled the tasks not begun, and the pool's own thread,
    # seeing the killed workers before the pool closed, failed on them (Python 3.11).  Here the
    # pool always sees its workers killed first, as that build's did.
    import time

    import gridfall.worker_processes as worker_processes

    faults: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda fault: faults.append(fault.exc_value))
    end_workers = worker_processes._end_workers

    def end_workers_then_let_the_pool_notice(pool) -> None:
        end_workers(pool)
        deadline = time.monotonic() + 10
        while not pool._broken and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool._broken, "the pool never noticed its killed workers"

    monkeypatch.setattr(worker_processes, "_end_workers", end_workers_then_let_the_pool_notice)
    with pytest.raises(Abandoned):
        with worker_map(2, stoppable=True) as mapped:
            results = mapped(time.sleep, [0] + [600] * 8)  # two under way, one queued, six not begun
            next(results)
            results.close()  # as the build's stop did, unwinding the line that read the map
            raise Abandoned
    assert faults == []


def test_a_killed_worker_is_named_as_such():
    with worker_map(2) as mapped, pytest.raises(WorkerDied, match="killed, by a user or by the system"):
        list(mapped(killed, range(4)))


def test_no_other_module_starts_worker_processes():
    """A pool or a fork anywhere else would copy a held lock again.  Python 3.12+ warns of a fork in
    a process with threads, but clears the warning it raises, so that no warnings filter can fail
    a test on it: this reads the sources instead."""
    root = Path(__file__).resolve().parents[1]
    own = root / "src" / "gridfall" / "worker_processes.py"
    starts = re.compile(r"ProcessPoolExecutor|multiprocessing|os\.fork\(|os\.forkpty\(")
    sources = [path for folder in ("src", "benchmarks") for path in (root / folder).rglob("*.py") if path != own]
    found = [f"{path.relative_to(root)}:{number}" for path in sources
             for number, line in enumerate(path.read_text().splitlines(), 1) if starts.search(line)]
    assert found == []
