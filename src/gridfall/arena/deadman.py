"""A dead man's switch: the bots of a referee that is killed outright die with it.

A referee kills its bots when a game ends, on Ctrl-C, SIGTERM and SIGHUP, and at its exit
(:mod:`.process`).  Killed outright (SIGKILL, the kernel's out-of-memory killer, a crash of the
interpreter) it can do none of that, and its bots, each in a session of its own, live on: one
that reads its input ends at the pipe's end, but one busy in a loop of its own would spin for good.

So the first bot a process starts also starts a watcher: a small child in a process group of its
own (the terminal's Ctrl-C and a kill of the referee's group do not reach it), which ignores the
signals that stop a referee and reads a pipe.  The referee writes each bot's session id to it,
``+PID`` as the bot starts and ``-PID`` once it is killed and reaped.  The pipe's end comes only
when every copy of its write end is closed, which happens however the referee ends: the watcher
then kills each session still listed, with everything in it (:func:`.reaper.kill_tree`), and
exits.  After a clean exit none is listed, and the watcher kills nothing.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import threading

_lock = threading.Lock()
_watcher: subprocess.Popen | None = None  # this process's while _owner is its pid: a fork's is its parent's
_owner = 0
_let_go_of: list[subprocess.Popen] = []  # watchers left behind, kept: a Popen dropped unreaped warns
# the watcher's own process group from its birth (Python 3.11); on 3.10 it moves there as it starts
_OWN_GROUP: dict = {"process_group": 0} if sys.version_info >= (3, 11) else {}


def _forked() -> None:
    global _lock
    _lock = threading.Lock()  # another thread may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def started(pid: int) -> None:
    """Tell the watcher that the bot ``pid`` (a session leader) started: it dies with this process."""
    _tell(b"+%d\n" % pid, start=True)


def ended(pid: int) -> None:
    """Tell the watcher that the bot ``pid`` is killed and reaped: its pid may now be reused."""
    _tell(b"-%d\n" % pid, start=False)


def _tell(line: bytes, start: bool) -> None:
    global _owner
    with _lock:
        if _owner != os.getpid() and not (start and _start()):
            return
        assert _watcher is not None and _watcher.stdin is not None
        try:
            os.write(_watcher.stdin.fileno(), line)  # one short write: atomic on a pipe
        except BlockingIOError:
            pass  # a watcher stopped with its pipe full: closing the pipe would kill the live bots
        except OSError:  # the watcher is gone (killed): go on without one
            _watcher.stdin.close()
            _owner = 0


def _start() -> bool:
    """Start this process's watcher (under the lock); False where that cannot be done."""
    global _watcher, _owner
    if _watcher is not None:
        _let_go_of.append(_watcher)
        if _owner not in (0, os.getpid()) and _watcher.stdin is not None:
            _watcher.stdin.close()  # the parent's pipe, copied by a fork: not this process's to hold
    _watcher, _owner = None, 0
    if os.name != "posix" or not sys.executable:
        return False
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = f"import sys; sys.path.insert(0, {package_root!r}); from gridfall.arena.deadman import watch; watch()"
    try:
        watcher = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **_OWN_GROUP)
    except (OSError, ValueError):
        return False
    assert watcher.stdin is not None
    _watcher = watcher
    try:
        os.set_blocking(watcher.stdin.fileno(), False)  # a watcher that stopped reading must not stall a referee
    except OSError:
        watcher.stdin.close()  # its end: the watcher, with nothing listed, exits
        return False
    _owner = os.getpid()
    return True


@atexit.register
def _let_go() -> None:
    """At a clean exit: end the watcher's pipe and reap it (it kills whatever is still listed)."""
    global _owner
    with _lock:
        if _owner != os.getpid() or _watcher is None or _watcher.stdin is None:
            return
        _watcher.stdin.close()
        _owner = 0
        try:
            _watcher.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def watch() -> None:
    """The watcher: list the sessions the pipe names; at its end, kill those still listed."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    os.setpgid(0, 0)  # a group of its own (already, on 3.11): a kill of the referee's group must spare it
    from gridfall.arena.reaper import kill_tree

    live: set[int] = set()
    for line in sys.stdin.buffer:
        pid = int(line[1:])
        if line.startswith(b"+"):
            live.add(pid)
        else:
            live.discard(pid)
    for pid in live:
        kill_tree(pid)
