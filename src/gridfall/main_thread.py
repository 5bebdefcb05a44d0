"""Long native work off the main thread, so that a stop (Ctrl-C, SIGTERM) reaches the caller.

Python runs signal handlers in the main thread only, and only between its own bytecodes.  Native
work called there holds a stop until it returns, or loses it:

* a numba kernel holds it: an alpha-beta depth of a 30-second Connect Four move is one kernel
  call, and a Ctrl-C waited for its end;
* an LLVM compile can lose it: LLVM calls numba back in Python as it emits each kernel
  (llvmlite's object-cache hooks), and a stop raised inside such a callback is printed and
  dropped by ctypes (1 stop in 14 during a first compile; the command ran on and exited 0).

Called from the main thread, :func:`off_the_main_thread` runs the work on a thread of its own
(a kernel releases the GIL: ``nogil=True``) and waits for it in short steps, where the stop
lands.  The wait polls, because the kernel may hand the signal to the working thread, which
wakes no one; and it holds the stop to the end of each step (``signals_held``), because Python
3.11's ``Thread.join``, interrupted, takes the thread it waits for as ended.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from gridfall.arena.signals import signals_held

T = TypeVar("T")

WAIT_STEP = 0.1  # seconds: the longest a stop waits for the main thread to notice it


def off_the_main_thread(work: Callable[[], T], halt: Callable[[], None] | None = None) -> T:
    """``work()``, run on a thread of its own when called from the main thread (else simply
    called), and its result; its exception is raised in the caller.

    A stop that lands in the wait (Ctrl-C's KeyboardInterrupt, or what a signal handler raises)
    calls ``halt()``, which tells the work to end soon, waits for it, and is raised again.
    Without ``halt`` (a compile, which cannot be told) the stop is raised at once and the work
    runs on in a daemon thread: numba writes each cache file whole, to a temporary name first."""
    if threading.current_thread() is not threading.main_thread():
        return work()
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as e:  # noqa: BLE001 - raised again below, in the caller's thread
            outcome.append((False, e))

    thread = threading.Thread(target=run, name="gridfall-off-main", daemon=True)
    thread.start()
    try:
        _wait(thread)
    except BaseException:
        if halt is not None:
            halt()
            _wait(thread)  # a second stop here leaves it: halted, the work ends soon on its own
        raise
    done, value = outcome[0]
    if not done:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


def _wait(thread: threading.Thread) -> None:
    """Until ``thread`` ends, in steps; a stop is raised between them, never inside a join."""
    while thread.is_alive():
        with signals_held():
            thread.join(WAIT_STEP)
