"""The shipped book's positions kept on disk, so that a bot's first turn need not walk its tree.

Reading the book walks its tree (:func:`.book.walk`): 35,658 positions, 0.18 s on an Intel Xeon
of 2026-11-29, inside a first turn of 1 s that also starts Python and loads numba.  What the walk
makes, the dict of position keys to columns, is kept in ``marshal`` form in a cache folder (the
numba cache's), under a name made of a digest of the book's text and the Python version: it
reads in about 10 ms.  A kept file is only ever a saving of time: one that cannot be read, or
that does not hold such a dict, is walked again and written anew, and a folder that cannot be
written costs only the walk.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
import tempfile

from gridfall.connect4.book import _SHIPPED, Book, shipped_text

FORMAT = 1  # of the kept file: a new layout gets a new name


def kept_path(folder: str, text: str) -> str:
    digest = hashlib.sha1(text.encode()).hexdigest()[:16]
    return os.path.join(folder, f"connect4-book-{FORMAT}-py{sys.version_info[0]}{sys.version_info[1]}-{digest}.marshal")


def kept_moves(folder: str, text: str, width: int, most: int) -> dict[int, int] | None:
    """The moves kept for the book of ``text``, or None (none kept, or not a book's: a dict of at
    most ``most`` positions, each a column below ``width``)."""
    try:
        with open(kept_path(folder, text), "rb") as f:
            moves = marshal.loads(f.read())  # marshal.load(f) reads in small pieces: 8 times slower
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if type(moves) is not dict or not 0 < len(moves) <= most:
        return None
    if not all(type(key) is int and type(column) is int and 0 <= column < width for key, column in moves.items()):
        return None
    return moves


def keep_moves(folder: str, text: str, moves: dict[int, int]) -> None:
    """Write the moves for the next process: whole or not at all (a temporary file renamed), and
    silently not where the folder cannot take them."""
    path = kept_path(folder, text)
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".connect4-book-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as f:
            marshal.dump(moves, f)
        os.replace(temporary, path)
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass


def load(folder: str) -> Book:
    """:meth:`.Book.load`, the shipped book read once a process, with what its walk made kept in
    ``folder`` (and read from there when a process before kept it)."""
    if not _SHIPPED:
        text = shipped_text()
        data = json.loads(text)
        moves = kept_moves(folder, text, data["width"], data.get("positions", len(data["tree"])))
        if moves is None:
            moves = Book.from_data(data).moves
            keep_moves(folder, text, moves)
        _SHIPPED.append(Book.from_data(data, moves))
    return _SHIPPED[0]
