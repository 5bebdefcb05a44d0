"""Writing a file whole or not at all.

Every file gridfall writes for a user (an exported bot, a replay page, a results file, an opening
table) is written beside its place under a temporary name, then renamed over it.  ``os.replace``
is atomic within one file system, so a full disk, a crash or Ctrl-C half-way leaves the file as it
was before (or absent), never cut short: a truncated bot still looks like a bot until it is
submitted.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid


@contextlib.contextmanager
def replacing(path: str | os.PathLike, encoding: str = "utf-8"):
    """A text stream whose contents become the file at ``path`` when the block ends normally.

    On any error (the OSError of a full disk, say) the temporary file is removed, ``path`` is
    left as it was, and the error goes on.  A file that is replaced keeps its permissions (an
    exported bot made executable stays so); a new one gets the usual ones (0666 less the umask).
    A symlink's target is replaced, not the link; what is not a regular file (``/dev/stdout``, a
    named pipe) is written in place, as it cannot be cut short in a way that lasts.
    """
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isfile(path):  # /dev/stdout, a pipe: written in place, never replaced
        with open(path, "w", encoding=encoding) as stream:
            yield stream
        return
    path = os.path.realpath(path)  # through a symlink to its file: the link stays a link
    # a short name of our own, not tempfile's: mkstemp would make the file 0600
    partial = os.path.join(os.path.dirname(path), f".gridfall-{uuid.uuid4().hex[:12]}.partial")
    try:
        with open(partial, "x", encoding=encoding) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())  # on the disk before the rename makes it the file
        if os.path.exists(path):
            shutil.copymode(path, partial)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Make ``text`` the contents of ``path``, whole or not at all (:func:`replacing`)."""
    with replacing(path, encoding) as stream:
        stream.write(text)
