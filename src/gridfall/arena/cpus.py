"""One CPU per bot, as CodinGame gives: which CPU, and how a bot is born on it.

A bot pinned after it starts could already have started threads on every core, so the pin is
set before: Linux keeps a CPU mask per *thread*, ``sched_setaffinity(0, ...)`` sets only the
calling thread's, and a child inherits the mask of the thread that forks it.  So the thread that
starts the bot pins itself to the bot's CPU, starts it, and takes its own mask back; the bot and
everything it starts stay on that CPU, and the referee's other threads never move.

The CPU is the one fewest live bots are pinned to, among those this process may use, and a
Connect Four game's second bot joins its opponent there.  Bots of a game take turns, so each
thinks alone on its CPU while no more games run side by side than there are CPUs (and its
opponent does not think on its time).  Spreading a game's two bots over two CPUs would do better
for one game, and worse for two: each game's first bot would land on the first CPU, and two of
them could think there at once.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from contextlib import contextmanager

SUPPORTED = hasattr(os, "sched_setaffinity")  # Linux; macOS and Windows cannot pin a process
UNSUPPORTED = "one CPU per bot needs Linux (sched_setaffinity), which this system does not have"
_allowed = sorted(os.sched_getaffinity(0)) if SUPPORTED else []  # as gridfall was started (taskset counts)


def least_used(pinned: Iterable[int]) -> int:
    """The allowed CPU with the fewest of ``pinned`` (the CPUs of the live bots), lowest first."""
    if not SUPPORTED:
        raise OSError(UNSUPPORTED)
    count = Counter(pinned)
    return min(_allowed, key=lambda cpu: (count[cpu], cpu))


@contextmanager
def born_on(cpu: int | None):
    """Within this block, a child started by this thread is pinned to ``cpu`` (None: no pin)."""
    if cpu is None:
        yield
        return
    own = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, own)
