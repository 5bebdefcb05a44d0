"""Where numba keeps gridfall's compiled kernels, chosen without loading numba.

``$NUMBA_CACHE_DIR`` if set and writable (numba would skip it in silence and cache beside the
source files), else a folder of the user's cache directory (``~/.cache/gridfall/numba/<source>``
on Linux), else the user's own folder in the temporary directory (``/tmp/gridfall-cache-<uid>``),
else a folder of this process's, deleted at its exit.
A read-only install or home therefore never slows down a bot.  Importing this module sets
``$NUMBA_CACHE_DIR`` to the choice, for numba to read (:mod:`gridfall.jit` imports it first) and
for the processes this one starts.

``<source>`` is a digest of the package's source and of the compiler (:func:`compiler`).  numba
checks a cached kernel against its own file only, while a kernel compiles the kernels it calls
(from other modules too) into itself: after an edit to ``tiles.py``, ``anneal.py``'s cached kernel
would still run the old tile code.  One cache folder per version of the whole source rules that
out.

A bot that only asks whether its kernels are cached (:func:`gridfall.warmup.is_warm`) reads this
module alone: importing numba takes 0.4-0.5 s of a first turn (Intel Xeon, 2026-11-29).
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import sys
import tempfile


def compiler() -> str:
    """The Python and the numba that compile the kernels, found without loading numba (0.3 ms):
    ``py311-0.68.1``.  numba throws away a cache index that another of its versions wrote, and
    names its files by Python's version; so after ``pip install -U numba`` a folder (and warm
    stamp) shared with the old numba said warm, and the bot compiled its kernels on its clock."""
    python = f"py{sys.version_info[0]}{sys.version_info[1]}"
    # what importlib.util.find_spec does, without importing it (3 ms, a bot's first turn asks)
    spec = next((s for finder in sys.meta_path if hasattr(finder, "find_spec")
                 for s in [finder.find_spec("numba", None)] if s is not None), None)
    if spec is None or not spec.origin:
        return python  # no numba: nothing compiles
    site = os.path.dirname(os.path.dirname(spec.origin))
    try:
        for name in os.listdir(site):
            if name.startswith("numba-") and name.endswith(".dist-info"):
                return f"{python}-{name.removeprefix('numba-').removesuffix('.dist-info')}"
        stamp = os.stat(spec.origin)  # a numba from source: its files' own version
        return f"{python}-{stamp.st_size}-{stamp.st_mtime_ns}"
    except OSError:
        return python


@functools.cache
def source_digest() -> str:
    """A short digest of every Python file of the package and of the compiler (a few milliseconds,
    once a process)."""
    root = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha1(compiler().encode())
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()[:12]


def _writable(path: str) -> bool:
    """Whether ``path`` is, or can be made, a folder this process can write a file in."""
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".write-test-{os.getpid()}")
        with open(probe, "w"):
            pass
        os.remove(probe)
        return True
    except OSError:
        return False


def _choose_cache_dir() -> str:
    own = os.environ.get("NUMBA_CACHE_DIR")
    if own:
        if _writable(own):
            return own
        # numba would skip it in silence and cache each kernel beside its source file, where an
        # upgrade leaves another module's kernel stale (above): say so, and take gridfall's own
        print(f"gridfall: NUMBA_CACHE_DIR={own} cannot be written; caching the kernels in gridfall's "
              "own folder instead", file=sys.stderr, flush=True)
    from platformdirs import user_cache_dir

    source = source_digest()
    # the temporary folder is shared: each user its own there, or the first one's folder locks out the rest
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    for base in (user_cache_dir("gridfall"), os.path.join(tempfile.gettempdir(), f"gridfall-cache-{user}")):
        path = os.path.join(base, "numba", source)
        if _writable(path):
            return path
    fresh = tempfile.mkdtemp(prefix="gridfall-numba-")  # this process's alone: gone with it
    atexit.register(shutil.rmtree, fresh, ignore_errors=True)
    return fresh


os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR = _choose_cache_dir()


def older_caches() -> list[str]:
    """The folders beside this source's cache that other versions of it compiled into (after an
    upgrade, or an edit): each is tens of megabytes, and nothing removes them by itself, since
    another install of gridfall may still read its own.  None when the cache is not in a folder
    per source (``$NUMBA_CACHE_DIR`` set by the user, or this process's own)."""
    parent, source = os.path.split(CACHE_DIR)
    if source != source_digest() or os.path.basename(parent) != "numba":
        return []
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    return sorted(os.path.join(parent, name) for name in names
                  if name != source and len(name) == len(source) and all(c in "0123456789abcdef" for c in name)
                  and os.path.isdir(os.path.join(parent, name)))


def folder_bytes(path: str) -> int:
    """The bytes of the files under ``path`` (0 for a folder that went meanwhile)."""
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total
