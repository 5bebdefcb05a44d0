"""The searches' clock: ``time.monotonic()``, until a stop makes the deadlines pass at once.

Every solver compares its deadline with :func:`now` between kernel calls, and returns the best
line it has when the deadline has passed.  So a stop ends a search within one kernel call, with
its best line, instead of losing it.  Two stops reach it:

* :func:`stop` is this process's: Ctrl-C (or SIGTERM) during
  :func:`~gridfall.samegame.search.solve` stops every search here;
* a stop of the job the search works for (:mod:`gridfall.arena.job_name`): a campaign's board
  pass, on a Dask worker whose threads search for other runs too.  The solver runs its threads
  as that job (``job_name.carried``).

Durations (a sweep's rate, a stage's share) still use ``time.monotonic()``.

A search that measures its rate sizes each kernel call with :func:`work_for_call`, so that it
looks at the clock every few tens of milliseconds and passes its deadline by one short call.
"""

from __future__ import annotations

import math
import threading
import time

from gridfall.arena import job_name

CALL_SECONDS = 0.02  # a kernel call between two looks at the clock lasts about this long

_stopped = threading.Event()
_active = 0
_lock = threading.Lock()


def now() -> float:
    """The time to compare with a deadline: infinity once the search is told to stop."""
    return math.inf if _stopped.is_set() or job_name.told_to_stop() else time.monotonic()


def work_for_call(rate: float, left: float, least: int, most: int) -> int:
    """The work for the next kernel call: ``CALL_SECONDS`` of it at ``rate`` (units a second,
    measured so far), or ``left`` seconds of it if less, kept between ``least`` and ``most``.
    Sized to the time left, a call begun just before the deadline ends just after it: a fixed
    20 ms call begun 5 ms before its deadline ran 15 ms past it."""
    return int(max(least, min(most, rate * min(CALL_SECONDS, left))))


def stop() -> None:
    """Every search in this process now sees its deadline passed."""
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
