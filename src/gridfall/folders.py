"""Where a new file would go: the folder of a path, a link followed.

A store or an output kept on a disk that is not mounted now is a link to a missing folder: SQLite
then says only "unable to open database file", and a write "No such file or directory", both
about a folder that is there.  :func:`missing_folder` names the link and the folder instead.
"""

from __future__ import annotations

import os
from pathlib import Path


def missing_folder(path: str | os.PathLike) -> str | None:
    """Why no file can be made at ``path`` because its folder is missing (or is a file), or None.
    Never an OSError: a name too long for the file system has no folder either."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path  # a broken link: where it points
    folder = target.parent
    if os.path.isdir(folder):
        return None
    missing = f"{folder} is a file, not a folder" if os.path.exists(folder) else f"the folder {folder} does not exist"
    return missing if target is path else f"a link to {target}, and {missing}"
