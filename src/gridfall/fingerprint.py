"""Which gridfall a process runs: its version and a hash of the package's files.

A run spread over machines must play every game by the same rules and bots (a Dask worker that
runs another gridfall is refused), and a run resumed after an upgrade or an edit says so (its
database records the gridfall that started it).  The version alone does not tell two checkouts
of the same version apart, so the hash covers the files a wheel ships (the sources, and the
package data that pyproject.toml names), read from wherever gridfall was imported: an editable
checkout and an installed copy of the same files agree, whatever else lies in the checkout
(bytecode caches, an editor's backups).  6 ms, once per process.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path


class OtherGridfall(RuntimeError):
    """A worker runs another gridfall than the process that sends it jobs."""


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """``VERSION+HASH`` of the gridfall this process imported (the hash's first 12 hex digits)."""
    import gridfall

    root = Path(gridfall.__file__).parent
    shipped = {*root.rglob("*.py"), *root.glob("data/**/*"), *root.glob("viewer/assets/*")}  # as pyproject.toml
    digest = hashlib.sha256()
    for path in sorted(shipped):
        relative = path.relative_to(root)
        if path.is_file() and "__pycache__" not in relative.parts:
            digest.update(relative.as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{gridfall.__version__}+{digest.hexdigest()[:12]}"


def run_checked(expected: str, work, job):
    """``work(job)``, on a worker whose gridfall is the ``expected`` one; OtherGridfall if not (a
    worker that joined a cluster after the run's start was not checked then)."""
    here = fingerprint()
    if here != expected:
        raise OtherGridfall(f"this worker runs gridfall {here}, the run's coordinator {expected}: install the "
                            "same gridfall on every worker")
    return work(job)
