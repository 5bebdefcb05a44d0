"""The searches' clock: ``time.monotonic()``, until a stop makes the deadlines pass at once.

Every solver compares its deadline with :func:`now` between kernel calls, and returns the best
line it has when the deadline has passed.  So a stop ends a search within one kernel call, with
its best line, instead of losing it.  Two stops reach it:

* :func:`stop` is this process's: Ctrl-C (or SIGTERM) during
  :func:`~gridfall.samegame.search.solve` stops every search here;
* :func:`stop_keys` stops only the searches run inside :func:`stoppable` under those keys: a
  campaign's board pass on a shared Dask worker, whose run was stopped while other runs' passes
  search beside it in the same process.  The key rides in a context variable, which the solver
  carries into the threads it searches on (:func:`carried`).

Durations (a sweep's rate, a stage's share) still use ``time.monotonic()``.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")

_stopped = threading.Event()
_active = 0
_lock = threading.Lock()
_keyed: dict[str, threading.Event] = {}  # the key of a stoppable search under way -> its own stop
_own_stop: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("samegame_stop", default=None)


def now() -> float:
    """The time to compare with a deadline: infinity once the searches are told to stop."""
    own = _own_stop.get()
    return math.inf if _stopped.is_set() or (own is not None and own.is_set()) else time.monotonic()


def stop() -> None:
    """Every search in this process now sees its deadline passed."""
    _stopped.set()


@contextmanager
def stoppable(key: str) -> Iterator[None]:
    """Inside, :func:`stop_keys` naming ``key`` makes this context's deadlines pass (and its
    threads', :func:`carried`).  A key must be unique among the searches under way."""
    own = threading.Event()
    with _lock:
        _keyed[key] = own
    token = _own_stop.set(own)
    try:
        yield
    finally:
        _own_stop.reset(token)
        with _lock:
            if _keyed.get(key) is own:
                del _keyed[key]


def stop_keys(keys: Iterable[str]) -> None:
    """The searches under way inside ``stoppable(key)`` for ``keys`` stop; a key not under way
    (its search is over, or runs elsewhere) stops nothing, so a late stop misses later searches."""
    with _lock:
        for key in keys:
            if key in _keyed:
                _keyed[key].set()


def keys_under_way() -> list[str]:
    """The keys of the stoppable searches under way in this process."""
    with _lock:
        return sorted(_keyed)


def told_to_stop() -> bool:
    """Whether this context's stoppable search was named by :func:`stop_keys`."""
    own = _own_stop.get()
    return own is not None and own.is_set()


def carried(function: Callable[..., T], *args) -> Callable[[], T]:
    """``function(*args)`` to run on another thread under this context's stop (a thread starts in
    an empty context: a worker thread's search would miss a stop of its key)."""
    context = contextvars.copy_context()
    return lambda: context.run(function, *args)


class running:
    """``with clock.running():`` around a search: the first of several at once clears an old stop."""

    def __enter__(self):
        global _active
        with _lock:
            if _active == 0:
                _stopped.clear()
            _active += 1
        return self

    def __exit__(self, *exc):
        global _active
        with _lock:
            _active -= 1
