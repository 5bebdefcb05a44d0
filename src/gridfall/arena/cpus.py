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

"Live bots" means those of every gridfall process of this user on this machine: the workers of
``--cluster local:N`` are processes, and each counting only its own bots put every game on the
first CPU.  So a pinned bot holds a seat: an ``flock`` on a small file in a per-user ledger
directory, one file per (CPU, seat).  A seat is free when its lock can be taken, and the kernel
lets go of a lock when its holder dies, so a crashed process leaves nothing to clean up.  Seats
are counted and taken under one more lock, so two processes never both see a CPU as the least
used and take it.  Where the ledger cannot be used (a read-only temporary directory), the count
falls back to this process's own bots.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager

SUPPORTED = hasattr(os, "sched_setaffinity")  # Linux; macOS and Windows cannot pin a process
if SUPPORTED:
    import fcntl  # not on Windows, where this module must still import
UNSUPPORTED = "one CPU per bot needs Linux (sched_setaffinity), which this system does not have"
_allowed = sorted(os.sched_getaffinity(0)) if SUPPORTED else []  # as gridfall was started (taskset counts)


LEDGER = os.path.join(tempfile.gettempdir(), f"gridfall-cpus-{os.getuid()}") if SUPPORTED else ""
COUNT_WAIT = 2.0  # seconds to wait for the ledger's counting lock before counting without it
_SEAT_FILE = re.compile(r"cpu(\d+)\.(\d+)")
_own: Counter[int] = Counter()  # this process's seats, for the fallback count
_own_lock = threading.Lock()


class Seat:
    """A live bot's place on one CPU; :meth:`release` it when the bot is gone (twice is harmless)."""

    def __init__(self, cpu: int, fd: int | None):
        self.cpu, self._fd = cpu, fd
        self._held = True

    def release(self) -> None:
        with _own_lock:
            if not self._held:
                return
            self._held = False
            _own[self.cpu] -= 1
        if self._fd is not None:
            os.close(self._fd)  # lets go of the seat's lock


def take_seat(cpu: int | None = None) -> Seat:
    """A seat on ``cpu``, or on the allowed CPU with the fewest seats taken machine-wide, lowest first."""
    if not SUPPORTED:
        raise OSError(UNSUPPORTED)
    try:
        seat = _take_from_ledger(cpu)
    except OSError:
        seat = None
    if seat is None:  # no ledger: count this process's own bots only
        with _own_lock:
            chosen = cpu if cpu is not None else min(_allowed, key=lambda c: (_own[c], c))
        seat = Seat(chosen, None)
    with _own_lock:
        _own[seat.cpu] += 1
    return seat


def _take_from_ledger(cpu: int | None) -> Seat | None:
    os.makedirs(LEDGER, mode=0o700, exist_ok=True)
    info = os.lstat(LEDGER)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return None  # not ours to trust
    counting = os.open(os.path.join(LEDGER, "count.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(counting, wait=COUNT_WAIT)
        taken: Counter[int] = Counter()
        free: dict[int, list[int]] = {}
        last: Counter[int] = Counter()
        for name in os.listdir(LEDGER):
            match = _SEAT_FILE.fullmatch(name)
            if not match:
                continue
            c, k = int(match[1]), int(match[2])
            last[c] = max(last[c], k + 1)
            if _is_free(os.path.join(LEDGER, name)):
                free.setdefault(c, []).append(k)
            else:
                taken[c] += 1
        chosen = cpu if cpu is not None else min(_allowed, key=lambda c: (taken[c], c))
        for k in [*sorted(free.get(chosen, [])), last[chosen]]:
            fd = os.open(os.path.join(LEDGER, f"cpu{chosen}.{k}"), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return Seat(chosen, fd)
            except BlockingIOError:  # taken meanwhile by a process that counted without the lock
                os.close(fd)
        return None
    finally:
        os.close(counting)  # lets go of the counting lock


def _lock(fd: int, wait: float) -> bool:
    """Take ``fd``'s lock, waiting up to ``wait`` seconds (a stopped holder must not hang us)."""
    give_up = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > give_up:
                return False
            time.sleep(0.001)


def _is_free(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


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
