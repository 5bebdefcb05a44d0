"""The solution store: the best line found so far for every board, in SQLite.

Boards are keyed up to a permutation of colours: the key relabels colours in
order of first appearance (scanning x, then y, from (0, 0)), so a recoloured
board (the CodinGame validators 31-50 are the standard boards recoloured)
finds the same entry.  A line is a list of coordinates, which does not depend
on colours, so it scores the same on every recolouring.

Every line is replayed on the rules of record before it is written, and again
when it is read back, so a corrupt or hand-edited file can never make a bot
play an illegal move.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import sqlite3
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Iterable, TextIO

from gridfall import json_text
from gridfall.samegame import rules
from gridfall.samegame.line import Line
from gridfall.samegame.boards import SETS, BoardError, board_key, load_board, parse_board, set_specs
from gridfall.numerals import ascii_digits
from gridfall.folders import cannot_make
from gridfall.sqlite_kinds import damaged, not_a_file, refuse_other_tables
from gridfall.text_file import NotText, read_text
from gridfall.words import counted

SCHEMA = """
CREATE TABLE IF NOT EXISTS solutions (
    key TEXT PRIMARY KEY,      -- canonical board: 225 characters, colours relabelled
    board TEXT NOT NULL,       -- the board as first stored (protocol text)
    score INTEGER NOT NULL,
    moves TEXT NOT NULL,       -- "x y;x y;..."
    algo TEXT NOT NULL,        -- how it was found
    seconds REAL NOT NULL,     -- search time that found it
    seed INTEGER,
    found TEXT NOT NULL        -- ISO date and time
)
"""


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(os.environ.get("GRIDFALL_STORE") or Path(user_data_dir("gridfall")) / "samegame-solutions.sqlite")


@lru_cache(maxsize=1)
def known_names() -> dict[str, list[str]]:
    """Key -> the bundled board specs with that key (e.g. standard:1, codingame:11, codingame:31)."""
    names: dict[str, list[str]] = {}
    for set_name in SETS:
        for spec in set_specs(set_name):
            names.setdefault(board_key(load_board(spec)), []).append(spec)
    return names


@dataclass
class Entry:
    board: str
    score: int
    moves: str
    algo: str
    seconds: float
    seed: int | None
    found: str

    def line(self) -> list[tuple[int, int]]:
        return list(Line.from_text(self.moves))

    def replays(self, board: rules.Board | None = None) -> bool:
        """Does the line replay to its score on ``board`` (default: the board it was stored with)?"""
        try:
            return replay(board or parse_board(self.board), self.moves) == self.score
        except (StoreError, BoardError, ValueError):
            return False

    def names(self) -> list[str]:
        return known_names().get(board_key(parse_board(self.board)), [])


class StoreError(ValueError):
    pass


def replay(board: rules.Board, moves: str) -> int:
    """The score of a stored line, or StoreError if the rules refuse any move of it."""
    judged = rules.judge(board, rules.split_one_turn(moves), strict=True)
    if not judged.ok:
        raise StoreError(f"line refused by the rules: {judged.error_text}")
    return judged.score


# A results file: "# N: <how it was found>" lines, then BOARD<TAB>SCORE<TAB>MOVES rows.
PROVENANCE = re.compile(r"# (?P<board>\S+): (?P<algo>.+), (?P<seconds>[0-9.]+) s search, seed (?P<seed>-?[0-9]+|None), "
                        r"found (?P<found>\S+)$")


def _is_date(text) -> bool:
    """``2026-11-25T20:32:49``, one word, as the store writes when a line was found."""
    if not isinstance(text, str) or len(text.split()) != 1:
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def provenance_line(number: int, entry: "Entry") -> str:
    """The line PROVENANCE reads back: one line, whatever text a store holds (a line break in it
    would start a row of the results file)."""
    algo, found = (" ".join(str(text).split()) for text in (entry.algo, entry.found))
    return f"# {number}: {algo}, {entry.seconds:.0f} s search, seed {entry.seed}, found {found}"


def results_row(line: str, set_name: str) -> tuple[str, int, str]:
    """A results row as (board spec, claimed score, moves); a bare number is a board of ``set_name``.

    Raises ValueError, naming what is wrong, on a malformed row.
    """
    fields = line.rstrip("\n").split("\t")
    if len(fields) < 3:
        raise ValueError(f"expected BOARD<TAB>SCORE<TAB>...MOVES, found {len(fields)} tab-separated field(s)")
    board, score = fields[0], fields[1]
    if ":" not in board and not ascii_digits(board):
        raise ValueError(f"board {board!r} is neither SET:N nor a board number")
    if not ascii_digits(score):
        raise ValueError(f"score {score!r} is not a whole number")
    return board if ":" in board else f"{set_name}:{int(board)}", int(score), fields[-1]


def campaign_history(text: str) -> list[str]:
    """A results file's campaign lines, worded to follow a newer campaign's line.

    The newest campaign is "# campaign: ..."; it becomes "# before it: campaign: ...",
    and the older "# before it..." lines stay as they are, newest first.
    """
    history = []
    for line in text.splitlines():
        if line.startswith("# campaign:"):
            history.append("# before it: " + line[2:])
        elif line.startswith("# before it"):
            history.append(line)
    return history


class SolutionStore:
    """Best lines per board.  Safe to share between threads and processes.

    A damaged database file raises StoreError (never sqlite3's own errors), naming the file and
    how to rebuild it.  A stored row whose line does not replay to its score is treated as absent:
    ``best`` ignores it and ``offer`` replaces it with any line that replays.
    """

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path else default_path()
        db: sqlite3.Connection | None = None  # closed again if the open fails after it
        try:
            if self.path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "it is a folder; name a file inside it")
            if reason := not_a_file(self.path):
                raise OSError(errno.EINVAL, reason)
            if not path and not self.path.parent.exists():  # the user's data directory, made on first use
                self.path.parent.mkdir(parents=True, exist_ok=True)  # exist_ok: another process made it just now
            if refused := cannot_make(self.path):  # a path typed with a slip makes no folder, and no store in it
                raise FileNotFoundError(errno.ENOENT, refused)
            folder = os.path.dirname(os.path.realpath(self.path))  # where the file is, a link followed
            if not self.path.exists() and not os.access(folder, os.W_OK | os.X_OK):
                # said here: sqlite3 would say only "unable to open database file"
                raise PermissionError(errno.EACCES, f"cannot make a file in {folder}")
            db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            refuse_other_tables(db, self.path, "store")
            db.execute(SCHEMA)
        except (sqlite3.Error, OSError, ValueError) as e:
            if db is not None:
                db.close()
            if isinstance(e, ValueError):  # another kind of file (refuse_other_tables)
                raise StoreError(f"{e}; give another --store") from None
            why = e.strerror if isinstance(e, OSError) and e.strerror else e  # an OSError's text repeats the path
            raise StoreError(f"{self.path}: cannot open the solution store: {why}") from None
        self._db = db

    def close(self) -> None:
        """Close the file (a second close does nothing); the store is not to be used after."""
        self._db.close()

    def __enter__(self) -> "SolutionStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def _reading(self, doing: str = "read"):
        """sqlite3's errors as StoreError: a damaged file (a corrupt page, not a database) is to be
        rebuilt; a sound one that cannot be used now (a full disk, a read-only file) is named so."""
        try:
            yield
        except sqlite3.Error as e:
            if damaged(e):
                raise StoreError(f"{self.path}: the solution store is damaged ({e}); move the file aside and "
                                 f"rebuild it with `gridfall samegame store import` from a results file") from None
            raise StoreError(f"{self.path}: cannot {doing} the solution store: {e}") from None

    @contextlib.contextmanager
    def _transaction(self):
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK and nothing written."""
        with self._reading("write to"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite has rolled back already after some errors (a full disk)
                    self._db.execute("ROLLBACK")
                raise

    def _row(self, key: str) -> Entry | None:
        row = self._db.execute(
            "SELECT board, score, moves, algo, seconds, seed, found FROM solutions WHERE key = ?", (key,)
        ).fetchone()
        return Entry(*row) if row else None

    def best(self, board: rules.Board) -> Entry | None:
        """The stored line for this board (or a recolouring of it), checked by replay."""
        with self._reading():
            entry = self._row(board_key(board))
        return entry if entry is not None and entry.replays(board) else None

    def offer(self, board: rules.Board, moves: Iterable[tuple[int, int]], *, algo: str, seconds: float,
              seed: int | None = None, found: str | None = None) -> bool:
        """Store the line if it beats the stored one (or the stored one does not replay); True if it
        did.  The score is recomputed."""
        with self._transaction():
            return self._offer(board, Line(moves), algo, seconds, seed, found)

    def _offer(self, board: rules.Board, line: Line, algo: str, seconds: float, seed: int | None,
               found: str | None) -> bool:
        text = line.text()
        score = replay(board, text)
        key = board_key(board)
        stored = self._row(key)
        if stored is not None and stored.replays(board) and stored.score >= score:
            return False
        self._db.execute(
            "INSERT OR REPLACE INTO solutions (key, board, score, moves, algo, seconds, seed, found) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, board.text(), score, text, algo, seconds, seed, found or time.strftime("%Y-%m-%dT%H:%M:%S")),
        )
        return True

    def entries(self) -> list[Entry]:
        """Every stored row, oldest first; ``Entry.replays`` tells the sound ones."""
        with self._reading():
            rows = self._db.execute(
                "SELECT board, score, moves, algo, seconds, seed, found FROM solutions ORDER BY found"
            ).fetchall()
        return [Entry(*row) for row in rows]

    # -- sharing ---------------------------------------------------------------

    def export_jsonl(self, out: TextIO) -> int:
        """Every sound entry as a JSON line (a row that does not replay is left out)."""
        entries = [e for e in self.entries() if e.replays()]
        for entry in entries:
            data = asdict(entry)
            data["board"] = entry.board.splitlines()
            data["names"] = entry.names()
            out.write(json.dumps(data) + "\n")
        return len(entries)

    def export_results(self, out: TextIO, set_name: str) -> int:
        """The results format: ``N<TAB>score<TAB>moves`` per board of the set, with # lines on provenance."""
        rows, how = [], []
        for number, spec in enumerate(set_specs(set_name), start=1):
            entry = self.best(load_board(spec))
            if entry is None:
                continue
            rows.append(f"{number}\t{entry.score}\t{entry.moves}")
            how.append(provenance_line(number, entry))
        total = sum(int(r.split("\t")[1]) for r in rows)
        out.write(f"# gridfall {set_name} board solutions: {counted(len(rows), 'board')}, total {total}\n")
        out.write("# format: board number <TAB> score <TAB> moves as 'x y;x y;...' (CodinGame coordinates)\n")
        for line in how:
            out.write(line + "\n")
        for row in rows:
            out.write(row + "\n")
        return len(rows)

    def import_file(self, path: str, set_name: str = "standard") -> tuple[int, int]:
        """Import JSON lines (as exported) or a results file; returns (lines read, improvements).
        Every line is checked first (``read_import``), and then all of them count, or none."""
        checked = self.read_import(path, set_name)
        return len(checked), self.merge(checked)

    @classmethod
    def read_import(cls, path: str, set_name: str = "standard") -> list:
        """Every line of an import file, replayed, before any store is touched: a line that is
        malformed, that the rules refuse or that replays to another score than it claims raises
        StoreError naming it (so a bad file leaves no store behind, not even a new empty one)."""
        try:
            text = read_text(path)
        except (OSError, NotText) as e:
            raise StoreError(f"{path}: cannot read: {e}") from None
        lines = text.splitlines()
        provenance = {m["board"]: m for m in map(PROVENANCE.match, lines) if m}
        checked = []
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{path}:{number}"
            try:
                checked.append(cls._read_line(line, where, set_name, provenance))
            except (ValueError, KeyError, TypeError, IndexError, AttributeError, BoardError, StoreError) as e:
                raise StoreError(f"{where}: {e}; nothing was imported") from None
        return checked

    def merge(self, checked: list) -> int:
        """Offer lines from ``read_import`` in one transaction; returns how many improved the store."""
        with self._transaction():
            return sum(self._offer(*item) for item in checked)

    @staticmethod
    def _read_line(line: str, where: str, set_name: str, provenance: dict):
        """(board, line, algo, seconds, seed, found) of one line, replayed; ValueError if it is off."""
        if line.lstrip().startswith("{"):
            data = json_text.loads(line)
            if not isinstance(data, dict) or "board" not in data or "moves" not in data:
                raise ValueError("a JSON line must be an object with board and moves")
            if not isinstance(data["board"], list) or not all(isinstance(row, str) for row in data["board"]):
                raise ValueError("board must be a list of 15 text rows, top first")
            board = parse_board("\n".join(data["board"]), where)
            moves, algo = data["moves"], data.get("algo", "imported")
            seconds, seed, found = float(data.get("seconds", 0)), data.get("seed"), data.get("found")
            if not isinstance(moves, str) or not isinstance(algo, str):
                raise ValueError("moves and algo must be text")
            if not math.isfinite(seconds) or seconds < 0:
                raise ValueError(f"seconds {seconds!r} is not a time")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
                raise ValueError(f"seed {seed!r} is not an integer")
            claimed, spec = data.get("score"), "its board"
            if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, int)):
                raise ValueError(f"score {claimed!r} is not a whole number")
        else:
            spec, claimed, moves = results_row(line, set_name)
            board, algo, seconds, seed, found = load_board(spec), "imported", 0.0, None, None
            how = provenance.get(line.split("\t")[0])  # the file's "# N: algo, S s search, ..." line
            if how:
                algo, seconds, found = how["algo"], float(how["seconds"]), how["found"]
                seed = None if how["seed"] == "None" else int(how["seed"])
        # text another store wrote is data: a control character (ESC, a line break) would reach a
        # terminal from `store list`, or start a row of a results file
        if not algo.isprintable():
            raise ValueError(f"algo {algo!r} must be one line of printable text")
        if found is not None and not _is_date(found):
            raise ValueError(f"found {found!r} is not a date and time (YYYY-MM-DDTHH:MM:SS)")
        line_moves = Line.from_text(moves)
        score = replay(board, line_moves.text())  # refuse a line the rules refuse, before anything is written
        if claimed is not None and score != claimed:  # a line for another board, often: a results file of another set
            raise ValueError(f"the line claims {claimed} but replays to {score} on {spec}"
                             + ("" if spec == "its board" else " (another set? --set names the set of bare numbers)"))
        return board, line_moves, algo, seconds, seed, found
