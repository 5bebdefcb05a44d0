"""One SQLite file per arena run (league, sprt, compare, campaign): its settings and its games.

Every finished game is one row of the table ``games``, committed at once, so a stop of any kind
loses at most the games in flight.  Each row is keyed by its job (``pair 17 game 1``, ``board
standard:3 bot B``): the run's schedule is a function of its settings, so running the same
command again skips the jobs already in the table and plays the rest.  The settings are stored
with the first run; a run with other settings is refused, naming what differs, because its games
would not belong to the same experiment.  The one exception is a setting that only adds jobs (a
league's games or bots, an SPRT's most games, a comparison's seeds or boards): a run may grow, since the
jobs it holds are the same ones in the larger run, and the stored setting becomes the new one; it
may not shrink.  One process plays a run at a time (an flock on
``FILE.lock``, beside it): a second start of the same command is refused while the first plays.

Columns of ``games``: ``job``, ``game`` (connect4, samegame, match3), ``commands`` and ``seats``
(JSON lists: the programs and the names they played under, in seat order), ``moves`` (JSON),
``result`` (JSON: the winner's seat or null, or each seat's score), ``reason``, ``times`` (JSON:
seconds of each turn), ``messages`` (JSON: each turn's debug text), ``host`` (the machine that
played it), ``finished`` (Unix time).  Bot text is stored as data (bound parameters), never as SQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import socket
import sqlite3
import threading
import time
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridfall import json_text, lock_file
from gridfall.arena import limits
from gridfall.fingerprint import fingerprint
from gridfall.printable import one_line
from gridfall.folders import cannot_make
from gridfall.sqlite_kinds import damaged, is_sqlite, kind_of, not_a_file, refuse_other_tables, tables
from gridfall.words import counted

SCHEMA = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    job TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    commands TEXT NOT NULL,
    seats TEXT NOT NULL,
    moves TEXT NOT NULL,
    result TEXT NOT NULL,
    reason TEXT NOT NULL,
    times TEXT NOT NULL,
    messages TEXT NOT NULL,
    host TEXT NOT NULL,
    finished REAL NOT NULL
);
"""
COLUMNS = ("job", "game", "commands", "seats", "moves", "result", "reason", "times", "messages", "host", "finished")
JSON_COLUMNS = {"commands", "seats", "moves", "result", "times", "messages"}


class RunDatabaseError(Exception):
    """The database cannot serve this run: the message says which file and why."""


def _growable(old, new) -> bool:
    """Whether a setting can grow from ``old`` to ``new`` at all: two counts (whole numbers, not
    bools), or two lists of items (a league's bots, a comparison's seeds or boards)."""
    def count(v):
        return isinstance(v, int) and not isinstance(v, bool)
    return (count(old) and count(new)) or (isinstance(old, list) and isinstance(new, list))


def _grown(old, new) -> tuple[object, str]:
    """What a growable setting becomes, and what growing from ``old`` to ``new`` would drop, in
    words ("" if nothing).  A list keeps its stored order and gains the new items at its end
    (its order numbers a league's bots), so the same items in another order change nothing."""
    if isinstance(old, list):
        missing = [_item_text(item) for item in old if item not in new]
        more = f" and {counted(len(missing) - 3, 'more', 'more')}" if len(missing) > 3 else ""
        shown = ", ".join(missing[:3]) + more
        dropped = f"{shown} {'is' if len(missing) == 1 else 'are'} stored but not in the new list" if missing else ""
        return old + [item for item in new if item not in old], dropped
    return max(old, new), (f"was {old:,}, now {new:,}" if new < old else "")


def _setting_text(key: str, value: object) -> str:
    """A run's setting as a refusal names it: the limits in the options' words, else as Python
    writes it (a shared file's text escaped)."""
    return limits.setting_text(value) if key == "limits" else repr(value)


def _item_text(item) -> str:
    """A stored list item as the user gave it: a bot's [name, command] as NAME=COMMAND (a built-in
    bot, named as its command, by its name alone), a board or a seed as it is."""
    if isinstance(item, list) and len(item) == 2 and all(isinstance(side, str) for side in item):
        name, command = item
        return one_line(name if name == command else f"{name}={command}")  # a shared file's text: one line
    return one_line(str(item))


@dataclass
class GameRow:
    """One finished game, as stored."""

    job: str
    game: str
    commands: list[str]
    seats: list[str]
    moves: list | str  # a campaign stores its best line as text
    result: dict[str, Any]
    reason: str
    times: list[float]
    messages: list[str]
    host: str = ""
    finished: float = 0.0


def stored_output(output: list[str]) -> dict[str, list[str]]:
    """The ``output`` entry of a row's result: each bot turn's stderr, as the referee took it, stored
    only when some turn wrote any (a quiet bot's rows stay as they were)."""
    return {"output": output} if any(output) else {}


class RunDatabase:
    """The games of one run.  ``kind`` and ``settings`` identify the run: opening a file made with
    others raises RunDatabaseError, and so does one that another process plays now, unless not
    ``exclusive`` (games with jobs of their own, such as a person's games against a bot).
    ``grows`` names the settings that may grow (counts whose schedule's first jobs never change,
    lists that only gain items); ``grew`` then holds {setting: (stored, now)} for each that did,
    and ``settings`` the run's settings as stored (a grown list keeps its stored order)."""

    def __init__(self, path: str | Path, kind: str, settings: dict, command: list[str] | None = None,
                 exclusive: bool = True, grows: tuple[str, ...] = ()):
        self.path = Path(path)
        self.grew: dict[str, tuple] = {}
        self.lock = threading.Lock()
        try:
            is_dir, why = self.path.is_dir(), cannot_make(self.path)
        except OSError as e:  # a name too long for the file system, say
            raise RunDatabaseError(f"{self.path}: cannot be a database file: {e.strerror}") from None
        if is_dir:
            raise RunDatabaseError(f"{self.path}: is a directory, not a database file")
        if reason := not_a_file(self.path):
            raise RunDatabaseError(f"{self.path}: {reason}")
        if why:
            raise RunDatabaseError(f"{self.path}: {why}")
        self.held = hold_run(self.path) if exclusive else None
        self.created = not self.path.exists()  # by this open: a run that never starts leaves no file (discard)
        try:
            self._open(kind, settings, command or [], grows)
            self.rows()  # a damaged row is refused now, before any game is played
        except BaseException:  # refused: the run is free again at once, not when this object is collected
            with contextlib.suppress(AttributeError):  # its connection too, if one was made
                self.connection.close()
            if self.created and self.held is not None:  # and a file this open made is not left behind
                self._delete_files()
            self._let_go()
            raise

    def _open(self, kind: str, settings: dict, command: list[str], grows: tuple[str, ...]) -> None:
        try:
            # one connection, used by the coordinating process's threads in turn (``self.lock``)
            self.connection = sqlite3.connect(str(self.path), timeout=30, check_same_thread=False)
            refuse_other_tables(self.connection, self.path, "run")
            self.connection.executescript(SCHEMA)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=FULL")  # a committed game survives a power cut
            self._check_run(kind, settings, command, grows)
        except sqlite3.DatabaseError as e:
            with contextlib.suppress(AttributeError):  # a connection that was made
                self.connection.close()
            if damaged(e):
                raise RunDatabaseError(f"{self.path}: not a gridfall run database, or a damaged one ({e})") from None
            hint = " (is its disk full, or not writable?)" if "IOERR" in getattr(e, "sqlite_errorname", "") else ""
            raise RunDatabaseError(f"{self.path}: cannot use it: {e}{hint}") from None
        except ValueError as e:
            self.connection.close()
            raise RunDatabaseError(f"{e}; give another --db") from None

    def _check_run(self, kind: str, settings: dict, command: list[str], grows: tuple[str, ...]) -> None:
        settings = json.loads(json.dumps(settings))  # as stored: tuples become lists
        stored = dict(self.connection.execute("SELECT key, value FROM run"))
        wanted = {"kind": kind, "settings": json.dumps(settings, sort_keys=True)}
        if not stored:
            with self.connection:
                self.connection.executemany("INSERT INTO run VALUES (?, ?)",
                                            [*wanted.items(), ("command", json.dumps(command)),
                                             ("started", str(time.time())), ("gridfall", fingerprint())])
            stored = dict(self.connection.execute("SELECT key, value FROM run"))
        self.started_by = stored.get("gridfall")  # None for a run stored before gridfall was recorded
        if stored.get("kind") != kind:
            raise RunDatabaseError(f"{self.path}: holds a {stored.get('kind')!r} run, not a {kind!r} run; "
                                   "give another --db")
        try:
            if "settings" not in stored:
                raise ValueError("they are missing")
            old = json_text.loads(stored["settings"])
            if not isinstance(old, dict):
                raise ValueError(f"{old!r:.40} is not a table of settings")
        except ValueError as e:
            raise RunDatabaseError(f"{self.path}: its run's settings are damaged ({e}); give another --db") from None
        changed = sorted(k for k in set(old) | set(settings) if old.get(k) != settings.get(k))
        fixed = [k for k in changed if k not in grows or not _growable(old.get(k), settings.get(k))]
        if fixed:
            detail = "; ".join(f"{k}: was {_setting_text(k, old.get(k))}, now {_setting_text(k, settings.get(k))}"
                               for k in fixed)
            raise RunDatabaseError(f"{self.path}: this run was started with other settings ({detail}). "
                                   "Run it again with the same settings to resume, or give another --db.")
        grown = {k: _grown(old[k], settings[k]) for k in changed}
        shrunk = "; ".join(f"{k}: {dropped}" for k, (_, dropped) in grown.items() if dropped)
        if shrunk:
            raise RunDatabaseError(f"{self.path}: a run can grow, not shrink ({shrunk}); give at least what is "
                                   "stored to resume, or another --db")
        self.settings = {**old, **{k: value for k, (value, _) in grown.items()}}
        self.grew = {k: (old[k], self.settings[k]) for k in changed if self.settings[k] != old[k]}
        if self.grew:  # its jobs are the stored ones and more: the run's settings from now on are these
            with self.connection:
                self.connection.execute("UPDATE run SET value = ? WHERE key = 'settings'",
                                        (json.dumps(self.settings, sort_keys=True),))
            self.keep_command(command)

    def keep_command(self, command: list[str]) -> None:
        """``command`` is the one that resumes the run from now on (the first one would be refused
        once the run has grown): ``gridfall runs`` shows it."""
        with self.lock, self.connection:
            self.connection.execute("INSERT OR REPLACE INTO run VALUES ('command', ?)", (json.dumps(command),))

    def extra(self, key: str):
        """A value a command keeps with its run (JSON), or None: the pairs where a league's bots that play changed."""
        row = self.connection.execute("SELECT value FROM run WHERE key = ?", (f"extra {key}",)).fetchone()
        try:
            return json_text.loads(row[0]) if row else None
        except ValueError as e:
            raise RunDatabaseError(f"{self.path}: its run's {key} are damaged ({e})") from None

    def keep_extra(self, key: str, value) -> None:
        with self.lock, self.connection:
            self.connection.execute("INSERT OR REPLACE INTO run VALUES (?, ?)", (f"extra {key}", json.dumps(value)))

    @property
    def command(self) -> list[str]:
        row = self.connection.execute("SELECT value FROM run WHERE key = 'command'").fetchone()
        return json_text.loads(row[0]) if row else []

    def done(self) -> set[str]:
        """The jobs already finished."""
        return {job for (job,) in self.connection.execute("SELECT job FROM games")}

    def add(self, *rows: GameRow) -> None:
        """Store finished games, all or none, committed before it returns (a job already stored
        keeps its first row).  RunDatabaseError if the file cannot take them (a full disk)."""
        values = []
        for row in rows:
            row.host = row.host or socket.gethostname()
            row.finished = row.finished or time.time()
            values.append([json.dumps(getattr(row, c)) if c in JSON_COLUMNS else getattr(row, c) for c in COLUMNS])
        try:
            with self.lock, self.connection:
                self.connection.executemany(
                    f"INSERT OR IGNORE INTO games ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                    values)
        except sqlite3.Error as e:  # a full disk, say: the games stored before are safe, and resumable
            raise RunDatabaseError(f"{self.path}: cannot store a finished game: {e}. The games stored before it "
                                   "are kept: make room (or mend the file) and run the same command again to "
                                   "resume") from None

    def rows(self) -> list[GameRow]:
        """Every stored game, in the order they finished."""
        with self.lock:
            return stored_rows(self.connection, self.path)

    def close(self) -> None:
        """Close, and let the run go; a second close does nothing."""
        try:
            self.connection.close()  # every game is committed already: a failing close loses none
        except sqlite3.Error:
            pass
        self._let_go()  # after the connection: the run is another's to play only now

    def discard(self) -> None:
        """Close, and delete the file if this open made it and no game went into it: a run that
        could not start (no cluster at the address) leaves nothing behind to resume."""
        unused = self.created and not self.done()
        self.connection.close()
        if unused:
            self._delete_files()
        self._let_go()

    def _delete_files(self) -> None:
        made = os.path.realpath(self.path)  # through a link: the file SQLite made, and its journals beside it
        for leftover in (Path(made), Path(f"{made}-wal"), Path(f"{made}-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)

    def _let_go(self) -> None:
        """Release the run once: a second release would delete the lock of whoever holds it next."""
        lock_file.let_go(self.held)
        self.held = None

    def __enter__(self) -> "RunDatabase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def hold_run(path: Path):
    """The lock on ``path``.lock while the run is played here (:mod:`gridfall.lock_file`), or
    RunDatabaseError naming the process that plays it: the same run played twice at once would
    play each game twice, and each copy's bots would lose on time to the other's load."""
    try:
        return lock_file.take(path, wait=False)
    except OSError as e:
        raise RunDatabaseError(f"{path}: cannot use it: {path}.lock: {e.strerror}") from None
    except lock_file.HeldElsewhere as e:
        if e.owner == lock_file.me():
            raise RunDatabaseError(f"{path}: this process has the run open already; close that RunDatabase "
                                   "first") from None
        raise RunDatabaseError(f"{path}: this run is being played now by another process"
                               f"{f' ({e.owner})' if e.owner else ''}; wait for it to end, or give another --db") from None


def job_order(job: str) -> tuple:
    """A key that sorts job names in the schedule's order, numbers by value: ``pair 9 game 1``
    before ``pair 10 game 0``, ``standard:2`` before ``standard:10``.  (Splitting on a captured
    group puts text at even places and numbers at odd ones, so two keys always compare.)"""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", job)))


def stored_rows(connection: sqlite3.Connection, path: Path) -> list[GameRow]:
    """Every game stored in a run database, in the order they finished.  A damaged file or row
    raises RunDatabaseError naming it, and how to replay a damaged row's game."""
    try:
        stored = connection.execute(f"SELECT id, {', '.join(COLUMNS)} FROM games ORDER BY id").fetchall()
    except sqlite3.Error as e:
        raise RunDatabaseError(f"{path}: cannot read its games: a damaged file, or not a gridfall run database "
                               f"({e})") from None
    rows = []
    for number, *values in stored:
        try:
            fields = {c: json_text.loads(v) if c in JSON_COLUMNS else v for c, v in zip(COLUMNS, values)}
            fault = _shape_fault(fields)
        except (ValueError, TypeError) as e:
            fault = f"a field is not JSON ({e})"
        if fault:
            raise RunDatabaseError(f"{path}: game row {number} is damaged, {fault}; delete it to play that game "
                                   f"again: sqlite3 {path} 'DELETE FROM games WHERE id = {number}'")
        rows.append(GameRow(**fields))
    return rows


def _shape_fault(fields: dict) -> str:
    """What is wrong with the JSON columns of a stored row, or "" (the readers then need no checks)."""
    def texts(value) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    checks = {"commands": (texts, "a list of texts"), "seats": (texts, "a list of texts"),
              "messages": (texts, "a list of texts"), "moves": (lambda v: isinstance(v, (list, str)), "a list or a text"),
              "result": (lambda v: isinstance(v, dict), "an object"),
              "times": (lambda v: isinstance(v, list) and all(isinstance(t, (int, float)) for t in v), "a list of numbers")}
    for column, (ok, shape) in checks.items():
        if not ok(fields[column]):
            return f"its {column} is not {shape}"
    if "output" in fields["result"] and not texts(fields["result"]["output"]):
        return "its result's output (each turn's stderr) is not a list of texts"
    if fields["game"] == "connect4":  # what every Connect Four reader takes: a winner by seat, two seats
        winner = fields["result"].get("winner", "none given")
        if winner not in (0, 1, None) or isinstance(winner, bool) or len(fields["seats"]) != 2:
            return f"its Connect Four result is not a winner of two seats (0, 1 or null; seats {fields['seats']!r:.60}, " \
                   f"winner {winner!r:.20})"
        opening = fields["result"].get("opening", 0)  # the moves before the bots': which seat each turn is
        if not isinstance(opening, int) or isinstance(opening, bool) or opening < 0:
            return f"its Connect Four result's opening is not a count of moves (found {opening!r:.20})"
    if fields["game"] in ("samegame", "match3") and "scores" not in fields["result"]:  # a campaign's row has scores
        score = fields["result"].get("score")
        if not isinstance(score, (int, float)) or isinstance(score, bool):
            return f"its result has no score (a number; found {score!r:.20})"
    return ""


@contextlib.contextmanager
def read_only(path: Path):
    """A connection that only reads the database at ``path``; sqlite3's errors (a damaged page, a
    table of another shape) and a damaged run row as ValueError naming the file."""
    if reason := not_a_file(path):  # SQLite would say "disk I/O error" of a pipe, as of a failing disk
        raise ValueError(f"{path}: {reason}")
    if os.path.islink(path) and not os.path.exists(path):  # in a folder `runs` lists; SQLite: "unable to open"
        raise ValueError(f"{path}: {cannot_make(path) or f'a link to {os.readlink(path)}, which does not exist'}")
    try:
        with contextlib.closing(_reader(path)) as connection:
            yield connection
    except sqlite3.Error as e:
        if path.is_file() and path.stat().st_size and not is_sqlite(path):  # text, JSON, another format
            raise ValueError(f"{path}: not an SQLite file (it does not begin as one), so not one of gridfall's "
                             "run databases (the --db of a league, an SPRT, a comparison or a campaign)") from None
        raise ValueError(f"{path}: a damaged SQLite file, or not one of gridfall's ({e})") from None
    except RunDatabaseError as e:
        raise ValueError(str(e)) from None


def _reader(path: Path) -> sqlite3.Connection:
    """The first way in that reads: for writing, with ``query_only`` (a connection opened read-only
    makes a run database's -wal and -shm files, WAL mode's, and cannot delete them as it closes);
    then read-only; then, on read-only media, where WAL mode cannot make them, as immutable (nothing
    writes there)."""
    first: sqlite3.OperationalError | None = None
    for mode in ("mode=rw", "mode=ro", "mode=ro&immutable=1"):
        connection = sqlite3.connect(f"file:{path}?{mode}", uri=True)
        try:
            connection.execute("PRAGMA query_only = ON")
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return connection
        except sqlite3.OperationalError as e:  # "unable to open database file": the next way
            connection.close()
            first = first or e
        except BaseException:  # "file is not a database": no way reads it; the connection closed all the same
            connection.close()
            raise
    assert first is not None  # every way failed, each with its error
    raise first


@dataclass
class StoredRun:
    """A run database as read from outside (read_run): what it is, and what it holds."""

    kind: str
    settings: dict
    rows: list[GameRow]
    extras: dict  # what its command keeps beside the settings (a league's changes of bots)
    command: list[str]  # the command that started it
    started: float  # Unix time


def read_run(path: Path) -> StoredRun:
    """The run database at ``path``, read without writing or locking it, so while a run plays it
    too; ValueError naming the file if it is not one."""
    with read_only(path) as connection:
        kind = kind_of(tables(connection))
        if kind == "store":  # the other SQLite file gridfall writes: say which it is
            raise ValueError(f"{path}: a SameGame solution store, not a run database (`gridfall samegame store "
                             f"list --store {shlex.quote(str(path))}` lists it)")
        if kind != "run":
            raise ValueError(f"{path}: not a gridfall run database (a league's, an SPRT's, a comparison's --db)")
        stored = dict(connection.execute("SELECT key, value FROM run"))
        try:
            settings = json_text.loads(stored.get("settings", "null"))
            extras = {key.removeprefix("extra "): json_text.loads(value) for key, value in stored.items()
                      if key.startswith("extra ")}
            command = json_text.loads(stored.get("command", "[]"))
            started = float(stored.get("started", "0"))
        except ValueError as e:
            raise ValueError(f"{path}: its run's settings are damaged ({e})") from None
        if not isinstance(settings, dict) or not isinstance(command, list):
            raise ValueError(f"{path}: its run's settings are missing or damaged")
        rows = [dataclasses.replace(row, job=one_line(row.job), seats=_shown(row.seats), commands=_shown(row.commands))
                for row in stored_rows(connection, path)]
        return StoredRun(one_line(stored.get("kind", "")), _shown(settings), rows, _shown(extras),
                         [one_line(str(word)) for word in command], started)


def _shown(value):
    """``value`` with every text in it on one line (:func:`gridfall.printable.one_line`), as the
    tables that show a stored run's names and commands need.  gridfall refuses a bot's name with a
    control character; a file written before it did, or edited, may hold one, and the escape sequence
    would reach the terminal.  Names and their games go through the same escape, so they still match."""
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, list):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {_shown(k): _shown(v) for k, v in value.items()}
    return value
