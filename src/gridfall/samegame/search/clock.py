"""The searches' clock: ``time.monotonic()``, until :func:`stop` makes every deadline pass at once.

Every solver compares its deadline with :func:`now` between kernel calls, and returns the best
line it has when the deadline has passed.  So Ctrl-C (or SIGTERM) during :func:`~gridfall.samegame.search.solve`
stops every worker within one kernel call, each with its best line, instead of losing them all.
Durations (a sweep's rate, a stage's share) still use ``time.monotonic()``.
"""

from __future__ import annotations

import math
import threading
import time

_stopped = threading.Event()
_active = 0
_lock = threading.Lock()


def now() -> float:
    """The time to compare with a deadline: infinity once the searches are told to stop."""
    return math.inf if _stopped.is_set() else time.monotonic()


def stop() -> None:
    """Every search now sees its deadline passed."""
    _stopped.set()


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
