"""``FILE.lock``: one process at a time works on ``FILE``, and no lock file is left behind.

The lock is an flock on a file of its own beside ``FILE`` (closing another descriptor of an
SQLite file would drop SQLite's own locks on it).  Its holder writes who it is into it, and
deletes it as it lets go, while still holding it.  A process that opened the file just before
that delete, and then got the lock, holds a lock on a name that means nothing any more: so once
it has the lock it checks that the name still means the file it opened, and takes the new one if
not.  Where the OS has no flock (Windows) nothing is held.
"""

from __future__ import annotations

import contextlib
import os
import socket

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]


class HeldElsewhere(Exception):
    """Another holds the lock; ``owner`` is what it wrote there (``pid 12 on host``, or empty)."""

    def __init__(self, owner: str):
        super().__init__(owner)
        self.owner = owner


def me() -> str:
    """How a holder names itself in the lock file."""
    return f"pid {os.getpid()} on {socket.gethostname()}"


def take(path, wait: bool):
    """An open file holding the lock on ``path``.lock (None where there is no flock).  If another
    holds it: wait for it, or, if not ``wait``, raise HeldElsewhere.  OSError if the lock file
    cannot be made (a folder that is not writable)."""
    if fcntl is None:
        return None
    lock_path = f"{os.path.realpath(path)}.lock"  # beside the file a link names (/dev/stdout: not in /dev)
    while True:
        held = open(lock_path, "a+")
        try:
            fcntl.flock(held, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            held.seek(0)
            owner = held.read().strip()
            held.close()
            raise HeldElsewhere(owner) from None
        if still_there(held, lock_path):
            break
        held.close()  # its holder let go and deleted it between our open and our lock
    held.truncate(0)
    held.write(me())
    held.flush()
    return held


def still_there(held, lock_path: str) -> bool:
    """Whether ``lock_path`` still names the file ``held`` is open on."""
    try:
        named = os.stat(lock_path)
    except FileNotFoundError:
        return False
    mine = os.fstat(held.fileno())
    return (named.st_dev, named.st_ino) == (mine.st_dev, mine.st_ino)


def let_go(held) -> None:
    """Delete the lock file while still holding it, then close it (nothing if ``held`` is None).
    Call it once: a second call would delete the lock of whoever holds it next."""
    if held is None:
        return
    with contextlib.suppress(OSError):
        os.unlink(held.name)
    held.close()


@contextlib.contextmanager
def holding(path):
    """Inside, this process alone holds the lock on ``path``.lock (it waits for its turn)."""
    held = take(path, wait=True)
    try:
        yield
    finally:
        let_go(held)
