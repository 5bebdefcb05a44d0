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

_received: list[int] = []


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived; ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum, frame):
    _received.append(signum)
    # the first stop is acted on; a second is noted and adds nothing (GNU timeout sends SIGTERM to
    # the process and then to its group, so a process often gets two at once)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _note)
    raise Stopped(signum)


def _note(signum, frame):
    _received.append(signum)


_stopping: list[bool] = []


@contextlib.contextmanager
def signals_ignored():
    """Inside, Ctrl-C, SIGTERM and SIGHUP are noted and nothing more: the work is already stopping,
    and a second signal must not cut short the keeping of what is finished."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    old = {s: signal.signal(s, _note) for s in signals}
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
    old = {s: signal.signal(s, _raise) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        # once stopped, the process is on its way out: a later SIGTERM or SIGHUP is only noted,
        # so that it cannot kill the process while it prints and writes what it kept
        for s, handler in old.items():
            signal.signal(s, _note if _received else handler)


@contextlib.contextmanager
def signals_held():
    """Inside, Ctrl-C, SIGTERM and SIGHUP wait for the block to finish (a result is stored whole,
    never half), then act as they would have: KeyboardInterrupt or :class:`Stopped`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    old = {s: signal.signal(s, lambda signum, frame: held.append(signum)) for s in signals}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        if held and not _stopping:  # while stopping (signals_ignored) a held signal is only noted
            if held[0] == signal.SIGINT:
                raise KeyboardInterrupt
            _received.append(held[0])
            raise Stopped(held[0])


def exit_code(interrupted: bool, ok: int = 0) -> int:
    """128 + the signal that stopped the work (SIGINT if it was Ctrl-C), or ``ok``."""
    if not interrupted:
        return ok
    return 128 + (_received[-1] if _received else signal.SIGINT)
