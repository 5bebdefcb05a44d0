"""gridfall's two kinds of SQLite file, told apart by their tables.

A run database (``arena/database.py``: league, sprt, compare, campaign) holds the tables ``run``
and ``games``; a solution store (``samegame/store.py``) holds ``solutions``.  Each opens a file
only if it is empty or holds its own tables and no others: a ``--db`` or ``--store`` that names
the other kind's file, or someone else's database, is refused instead of being given a second set
of tables that no command would ever read.  :func:`damaged` tells a bad file from one that could
not be used just now (a full disk), so that each gets its own advice.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

TABLES = {"run": frozenset({"run", "games"}), "store": frozenset({"solutions"})}
NAMES = {"run": "a run database", "store": "a solution store"}
HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database, whatever its name


def starts_as_sqlite(head: bytes) -> bool:
    """Whether a file's first bytes are an SQLite database's."""
    return head.startswith(HEADER)


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a regular file that begins as an SQLite database (read: its first
    bytes only, and never of a pipe, whose opening would wait for a writer; False for a file that
    cannot be read)."""
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as f:
            return starts_as_sqlite(f.read(len(HEADER)))
    except OSError:
        return False


def not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be a database file though it exists, or None: a device or a pipe
    (SQLite would write its journal and its lock beside it: ``/dev/null-journal``)."""
    if path.exists() and not path.is_dir() and not path.is_file():
        return "not a regular file (a device, a pipe or a socket): name a database file"
    return None


def tables(connection: sqlite3.Connection) -> set[str]:
    """The file's own tables (SQLite's internal ``sqlite_*`` ones left out)."""
    return {name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!'")}


def kind_of(found: set[str]) -> str | None:
    """``run`` or ``store``: the one kind whose tables are all in ``found``; None for neither or both."""
    kinds = [kind for kind, names in TABLES.items() if names <= found]
    return kinds[0] if len(kinds) == 1 else None


def refuse_other_tables(connection: sqlite3.Connection, path, kind: str) -> None:
    """ValueError naming ``path`` unless its file is empty or holds only ``kind``'s tables (a file
    that holds some of them was stopped while they were made: they are made again)."""
    found = tables(connection)
    if found <= TABLES[kind]:
        return
    other = kind_of(found)
    held = NAMES[other] if other and found <= TABLES[other] else \
        f"the tables of another program ({', '.join(sorted(found - TABLES[kind]))})"
    raise ValueError(f"{path}: holds {held}, not {NAMES[kind]}")


def damaged(error: sqlite3.Error) -> bool:
    """True if SQLite found the file itself bad (a corrupt page, or not a database at all); False
    if it could not use a sound file just now: a full disk, an I/O error, a read-only file or
    folder, a lock held too long.  Python raises the first as a plain ``sqlite3.DatabaseError``
    (SQLITE_CORRUPT, SQLITE_NOTADB) and the second as its subclass ``OperationalError``: telling
    them apart keeps "move the file aside" from being said about a file that only needs room."""
    return not isinstance(error, sqlite3.OperationalError)
