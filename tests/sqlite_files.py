"""SQLite files read or changed by a test, each connection closed at once: Python 3.13 warns of one
left to the garbage collector, and the suite's settings make that a failure (test_leaks.py).
(``with sqlite3.connect(...)`` commits, but does not close.)"""

import contextlib
import sqlite3


def rows(db, sql: str, *params) -> list[tuple]:
    """Every row that ``sql`` gives from the database file ``db``."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql, params).fetchall()


@contextlib.contextmanager
def changing(db):
    """A connection to the database file ``db``: what is done in it is committed, then it is closed."""
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        yield connection
