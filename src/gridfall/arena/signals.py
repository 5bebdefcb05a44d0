"""SIGTERM and SIGHUP stop long work the way Ctrl-C does.

Inside :func:`stopping_on_signals`, SIGTERM and SIGHUP raise :class:`Stopped` (a
KeyboardInterrupt) in the main thread, so every referee, solver and campaign has one path
for all three: kill the bots, keep and print what is finished, and exit with
``128 + signal`` (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP; :func:`exit_code`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any

_received: list[int] = []


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived; ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _taken(*signals: int) -> list[int]:
    """Those of ``signals`` this process has not been told to ignore.  A signal ignored from the
    start stays ignored: ``nohup`` ignores SIGHUP so that a run outlives its terminal, and a
    campaign that took SIGHUP over stopped when its user logged out."""
    return [s for s in signals if signal.getsignal(s) is not signal.SIG_IGN]


def _raise(signum, frame):
    _received.append(signum)
    # the first stop is acted on; a second is noted and adds nothing (GNU timeout sends SIGTERM to
    # the process and then to its group, so a process often gets two at once)
    for s in _taken(signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _note)
    raise Stopped(signum)


def _note(signum, frame):
    _received.append(signum)


# Signals that came after a piece of work ended without a stop, while the ``gridfall`` command
# printed its results: noted, so that the results are printed whole (see finish_what_is_done).
_late: list[int] = []
_finishing: list[bool] = []


def _note_late(signum, frame):
    _late.append(signum)


def finish_what_is_done() -> None:
    """For the ``gridfall`` command only (a library's caller keeps its own handlers): once a piece
    of work has ended without a stop, a SIGTERM or SIGHUP no longer kills the process on the
    spot, between the work's end and its results printed, which lost them; it is noted, the
    results are printed, and the command exits 128 + the signal (:func:`late_signal`).  One that
    comes before the next piece of work starts stops that work at once."""
    _finishing.append(True)


def as_a_bot() -> None:
    """For a bot command (``samegame bot``, ``connect4 bot``): SIGTERM and SIGHUP end it at once, by
    default, as any platform bot ends, and not at the end of its turn's kernel as a stop would."""
    for s in _taken(signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def stopping_from_the_start() -> None:
    """For the ``gridfall`` command only: SIGTERM and SIGHUP before its first piece of work (while
    it starts a cluster, or compiles its kernels for a minute) stop it as Ctrl-C does, "Aborted!"
    and exit 128 + the signal, unwinding what it started, where they killed it on the spot with
    no word (a local Dask cluster's semaphores were reported leaked)."""
    for s in _taken(signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _raise)


def late_signal() -> int | None:
    """The signal noted after the work ended (:func:`finish_what_is_done`), if any."""
    return _late[0] if _late else None


_stopping: list[bool] = []


@contextlib.contextmanager
def signals_ignored():
    """Inside, Ctrl-C, SIGTERM and SIGHUP are noted and nothing more: the work is already stopping,
    and a second signal must not cut short the keeping of what is finished."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _note) for s in _taken(signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    _stopping.append(True)
    try:
        yield
    finally:
        _stopping.pop()
        for s, handler in old.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def stopping_on_signals():
    """SIGTERM and SIGHUP raise Stopped while inside; the old handlers come back after, unless
    a stop came."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    if _late:  # asked to stop between two pieces of work: the next one does not start
        _received.append(_late[0])
        raise Stopped(_late[0])
    old = {s: signal.signal(s, _raise) for s in _taken(signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        # once stopped, the process is on its way out: a later SIGTERM or SIGHUP is only noted,
        # so that it cannot kill the process while it prints and writes what it kept; the
        # gridfall command notes one after a piece of work that ended whole too
        for s, handler in old.items():
            signal.signal(s, _note if _received else _note_late if _finishing else handler)


@contextlib.contextmanager
def signals_held():
    """Inside, Ctrl-C, SIGTERM and SIGHUP wait for the block to finish (a result is stored whole,
    never half), then act as they would have: KeyboardInterrupt or :class:`Stopped`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    old: dict[int, Any] = {s: signal.signal(s, lambda signum, frame: held.append(signum))
                           for s in _taken(signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        if held and not _stopping:  # while stopping (signals_ignored) a held signal is only noted
            handler = old[held[0]]
            if callable(handler):  # Ctrl-C's KeyboardInterrupt, Stopped, or only noted after a stop
                handler(held[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(held[0])  # outside stopping_on_signals: what it does by default


def exit_code(interrupted: bool, ok: int = 0) -> int:
    """128 + the signal that stopped the work (SIGINT if it was Ctrl-C), or ``ok``."""
    if not interrupted:
        return ok
    return 128 + (_received[-1] if _received else signal.SIGINT)
