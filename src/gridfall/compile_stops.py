"""A stop that comes while numba compiles or loads a kernel in the main thread is held until the
compile ends, then delivered: never lost.

LLVM calls numba back in Python as it emits or loads each kernel (llvmlite's object-cache hooks,
which are ctypes callbacks).  Python runs a signal's handler at the first Python line after the
signal, in the main thread; when that line is inside such a callback, the handler's
``KeyboardInterrupt`` is printed and dropped by ctypes ("Exception ignored on calling ctypes
callback function"), and the program compiles on as if no stop had come.  A Ctrl-C at a random
moment of six small kernels' first compile in the main thread was lost 4 times in 80 (in a
ctypes callback, or in a finalizer of llvmlite's), and 0 times in 80 with this module's hold,
which landed it a median 0.07 s after the signal, 0.54 s at most (`python
benchmarks/compile_stops.py --trials 80`, AMD EPYC, 2026-12-04).

gridfall's commands compile off the main thread
(:func:`gridfall.main_thread.off_the_main_thread`) and stop at once.  A program that calls
gridfall's kernels itself compiles them in its own thread; in the main thread, this module holds
the stop.  numba takes its compiler lock to compile and to
load a kernel, and says so in its events (``numba:compiler_lock``, Python code on both sides).
While the main thread holds the lock, each stop signal with a Python handler (Ctrl-C's
``KeyboardInterrupt``, a program's own SIGTERM handler) is only noted; when it lets go, the
handlers come back and the first stop noted is raised again, in plain Python, where it lands.
The stop is late by what is left of the kernel being compiled (a second or two; a kernel is not
half-compiled or half-saved).  A wait for the lock, while another thread compiles, is not held.  A signal whose handler is not Python's (the default SIGTERM, which
kills the process at once, or an ignored one) is left alone.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from numba.core import event
from numba.core.compiler_lock import global_compiler_lock

LOCK_EVENT = "numba:compiler_lock"
# The re-entrant lock inside numba's compiler lock: taking it tells no event (its wrapper's take does).
_LOCK = getattr(global_compiler_lock, "_lock", None)
STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class HoldStops(event.Listener):
    """The listener on numba's compiler lock; see the module."""

    def __init__(self) -> None:
        self.depth = 0  # the main thread's nested holds of the lock (a kernel's compile loads its callees)
        self.handlers: dict[int, Any] = {}  # the handlers set aside for the hold
        self.came: list[int] = []  # the stops noted meanwhile

    def on_start(self, ev: event.Event) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread runs handlers, and only it may set them
        self.depth += 1
        if self.depth > 1:
            return
        # The event comes before numba takes the lock.  Take it first, with the handlers as they
        # are: a stop while another thread compiles ends this wait at once, before numba's own take
        # (which then succeeds at once: the lock is re-entrant).  Held from here to numba's release.
        try:
            _LOCK.acquire()  # type: ignore[union-attr]  # install() checked it
        except BaseException:
            self.depth -= 1
            raise
        try:
            self._hold()
        except BaseException:  # a stop before the hold was whole: numba will not take the lock, nor tell its end
            self._give_back()
            self.came.clear()  # that stop is the one raised
            raise

    def _hold(self) -> None:
        for signum in STOPS:
            handler = signal.getsignal(signum)
            if callable(handler):
                try:
                    signal.signal(signum, self._note)
                except ValueError:  # a thread named main that may not set them (an embedded interpreter's)
                    break
                self.handlers[signum] = handler

    def _give_back(self) -> None:
        """The handlers, the lock and the depth as they were before the hold."""
        try:
            for signum, handler in self.handlers.items():
                if signal.getsignal(signum) == self._note:  # not one that the program set meanwhile
                    signal.signal(signum, handler)
        finally:  # the lock is let go whatever happens: another thread's compile would wait forever
            self.handlers.clear()
            _LOCK.release()  # type: ignore[union-attr]
            self.depth = 0

    def on_end(self, ev: event.Event) -> None:
        if threading.current_thread() is not threading.main_thread() or self.depth == 0:
            return
        self.depth -= 1
        if self.depth > 0:
            return
        self._give_back()
        came, self.came = self.came, []
        if came:
            # raise_signal checks for signals before it returns: the handler runs here, in plain Python
            signal.raise_signal(came[0])

    def _note(self, signum: int, frame: Any) -> None:
        self.came.append(signum)


_installed: list[HoldStops] = []


def install() -> bool:
    """Hold stops during the main thread's compiles from now on (once a process).  False when
    this numba has no compiler-lock events, or no lock inside its wrapper (tests/test_compile_stops.py
    notices)."""
    if _installed:
        return True
    if LOCK_EVENT not in getattr(event, "_builtin_kinds", ()) or _LOCK is None:
        return False
    _installed.append(HoldStops())
    event.register(LOCK_EVENT, _installed[0])
    return True
