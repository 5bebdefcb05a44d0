"""Where a new file would go: the folder of a path, a link followed.

A store or an output kept on a disk that is not mounted now is a link to a missing folder: SQLite
then says only "unable to open database file", and a write "No such file or directory", both
about a folder that is there.  A link to itself (or a ring of links) fails the same way, or
raises RuntimeError from ``Path.resolve``.  :func:`cannot_make` names the link and what is wrong.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


def cannot_make(path: str | os.PathLike) -> str | None:
    """Why no file can be made at ``path``: its folder is missing or is a file, or it is a link in
    a loop; else None.  Never an OSError: a name too long for the file system has no folder either."""
    path = Path(path)
    target = path
    if os.path.islink(path):
        try:
            target = Path(os.path.realpath(path, strict=True))
        except OSError as e:  # strict: a loop raises ELOOP, where the default returns a path in it
            if e.errno == errno.ELOOP:
                return f"a link in a loop of links ({path} -> {os.readlink(path)})"
            target = Path(os.path.realpath(path))  # a broken link: where it points
    folder = target.parent
    if os.path.isdir(folder):
        return None
    missing = f"{folder} is a file, not a folder" if os.path.exists(folder) else f"the folder {folder} does not exist"
    return missing if target is path else f"a link to {target}, and {missing}"
