"""A stop that comes while numba compiles in the main thread is held to the compile's end, never
lost in LLVM's callbacks (gridfall/compile_stops.py)."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from numba.core.compiler_lock import global_compiler_lock

from gridfall import compile_stops
from gridfall.jit import njit  # noqa: F401  (importing the kernels' module installs the hold)

pytestmark = pytest.mark.parallel_safe

# LLVM calls numba back in Python (ctypes callbacks) while it emits a kernel, under numba's
# compiler lock: a signal that comes meanwhile was raised inside the callback, and ctypes printed
# it and dropped it.  Here the callback is one that sleeps, so the stop comes inside it.
STOPPED_INSIDE_A_CALLBACK = '''
import ctypes, os, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C's, even under a shell that ignores it
import gridfall.jit
from numba.core.compiler_lock import global_compiler_lock
hook = ctypes.CFUNCTYPE(None)(lambda: time.sleep(0.05))
threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    with global_compiler_lock:  # as numba holds it to compile or load, here in the main thread
        end = start + 1.0
        while time.monotonic() < end:
            hook()
    print("compiled to the end")
except KeyboardInterrupt:
    print(f"stopped after {time.monotonic() - start:.2f} s")
'''


def test_a_stop_inside_llvms_callbacks_lands_when_the_compile_lets_go_of_the_lock():
    """Without the hold the stop is dropped in the callback and the program runs on ("compiled to
    the end"), as a real compile does (benchmarks/compile_stops.py counts how often)."""
    done = subprocess.run([sys.executable, "-c", STOPPED_INSIDE_A_CALLBACK], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.startswith("stopped after"), (done.stdout, done.stderr)
    assert float(done.stdout.split()[2]) >= 0.95, done.stdout  # at the lock's release, not in the callback
    assert "Exception ignored" not in done.stderr, done.stderr


# A real first compile in the main thread, with the stop sent as it begins.
STOPPED_IN_A_REAL_COMPILE = '''
import os, signal
signal.signal(signal.SIGINT, signal.default_int_handler)
from gridfall.jit import njit
from numba.core import event

class StopAtTheStart(event.Listener):
    def on_start(self, ev):
        os.kill(os.getpid(), signal.SIGINT)
    def on_end(self, ev):
        pass

@njit(cache=False)
def triangle(n):
    total = 0
    for i in range(n):
        total += i
    return total

listener = StopAtTheStart()
event.register("numba:compile", listener)
try:
    triangle(10)
    print("compiled to the end")
except KeyboardInterrupt:
    event.unregister("numba:compile", listener)
    print("stopped", len(triangle.overloads), triangle(100), signal.getsignal(signal.SIGINT) is signal.default_int_handler)
'''


def test_a_stop_during_a_real_compile_lands_after_it_and_leaves_the_kernel_whole():
    done = subprocess.run([sys.executable, "-c", STOPPED_IN_A_REAL_COMPILE], capture_output=True, text=True,
                          timeout=120)
    # stopped; the kernel compiled once, and callable without compiling again; Ctrl-C's handler back
    assert done.stdout.split() == ["stopped", "1", "4950", "True"], (done.stdout, done.stderr)


@pytest.fixture
def sighup_noted():
    """A handler of the program's own for SIGHUP that notes each call; the old one comes back after."""
    calls: list[int] = []
    old = signal.signal(signal.SIGHUP, lambda signum, frame: calls.append(signum))
    yield calls
    signal.signal(signal.SIGHUP, old)


def test_a_programs_own_handler_runs_once_the_lock_is_let_go(sighup_noted):
    with global_compiler_lock:
        with global_compiler_lock:  # nested, as a kernel's compile loads its callees
            os.kill(os.getpid(), signal.SIGHUP)
        assert sighup_noted == []  # held, even past the inner release
    assert sighup_noted == [signal.SIGHUP]


def test_only_python_handlers_are_held_and_each_comes_back(sighup_noted):
    own = signal.getsignal(signal.SIGHUP)
    old_term = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # dies at once: nothing to lose
    try:
        with global_compiler_lock:
            assert signal.getsignal(signal.SIGHUP) is not own
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(signal.SIGHUP) is own
    finally:
        signal.signal(signal.SIGTERM, old_term)


def test_another_threads_compile_holds_nothing(sighup_noted):
    own = signal.getsignal(signal.SIGHUP)
    seen = []

    def compiling():
        with global_compiler_lock:
            seen.append(signal.getsignal(signal.SIGHUP))

    thread = threading.Thread(target=compiling)
    thread.start()
    thread.join()
    assert seen == [own]


def test_this_numba_tells_of_its_compiler_lock():
    """The hold needs numba's compiler-lock events: a numba without them is noticed here."""
    assert compile_stops.install()
    assert compile_stops.LOCK_EVENT in compile_stops.event._builtin_kinds


class Stop(Exception):
    pass


def test_a_wait_for_another_threads_compile_is_not_held():
    """Only the main thread's own compile holds a stop: while it waits for the lock, a stop ends the wait."""
    def stop(signum, frame):
        raise Stop

    old = signal.signal(signal.SIGHUP, stop)
    taken, done = threading.Event(), threading.Event()

    def compiling():
        with global_compiler_lock:
            taken.set()
            done.wait(30)

    thread = threading.Thread(target=compiling)
    thread.start()
    taken.wait(30)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGHUP))
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(Stop):
            with global_compiler_lock:
                pass  # not reached: the other thread holds the lock until the stop has come
        assert time.monotonic() - start < 10  # held, the stop came once the other thread let go: 30 s
        assert signal.getsignal(signal.SIGHUP) is stop
        done.set()
        thread.join()
        with global_compiler_lock:  # nothing kept from the wait: the lock comes free, the handler is held
            assert signal.getsignal(signal.SIGHUP) is not stop
        assert signal.getsignal(signal.SIGHUP) is stop
    finally:
        done.set()
        thread.join()
        timer.cancel()
        signal.signal(signal.SIGHUP, old)


def test_a_thread_that_may_not_set_handlers_compiles_without_the_hold(sighup_noted, monkeypatch):
    """An embedded interpreter's main thread may be refused signal handlers: its compiles go on unheld."""
    own = signal.getsignal(signal.SIGHUP)

    def refused(signum, handler):
        raise ValueError("signal only works in main thread of the main interpreter")

    monkeypatch.setattr(signal, "signal", refused)
    with global_compiler_lock:
        assert signal.getsignal(signal.SIGHUP) is own
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGHUP) is own


@pytest.fixture
def stops_as_on_a_terminal():
    """Ctrl-C's handler and SIGTERM's default, whatever the tests run under (a background job
    ignores SIGINT); the old ones come back after."""
    old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    old_term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGINT, old_int)
    signal.signal(signal.SIGTERM, old_term)


def test_a_stop_while_the_hold_begins_leaves_the_lock_free_and_the_handlers_as_they_were(
        stops_as_on_a_terminal, sighup_noted, monkeypatch):
    own, set_handler = signal.getsignal(signal.SIGHUP), signal.signal
    calls = []  # the hold sets SIGINT's handler first, then SIGHUP's: the stop comes at the second

    def stopped_at_the_second(signum, handler):
        calls.append(signum)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return set_handler(signum, handler)

    monkeypatch.setattr(signal, "signal", stopped_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        with global_compiler_lock:
            pass  # not reached: the stop came as the hold began, before numba took the lock
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGHUP) is own and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    free = []

    def take_and_let_go():
        free.append(global_compiler_lock._lock.acquire(timeout=5))
        if free[0]:
            global_compiler_lock._lock.release()

    thread = threading.Thread(target=take_and_let_go)
    thread.start()
    thread.join()
    assert free == [True]  # another thread takes it at once
