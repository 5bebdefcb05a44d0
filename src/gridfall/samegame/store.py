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

import json
import os
import re
import sqlite3
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, TextIO

from gridfall.samegame import rules
from gridfall.samegame.line import Line
from gridfall.samegame.boards import SETS, BoardError, load_board, parse_board, set_specs

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


def board_key(board: rules.Board) -> str:
    """The board with colours renamed a, b, c, ... by first appearance; '.' for empty."""
    names: dict[int, str] = {}
    out = []
    for column in board.cells:
        for colour in column:
            if colour == rules.EMPTY:
                out.append(".")
            else:
                if colour not in names:
                    names[colour] = "abcde"[len(names)]
                out.append(names[colour])
    return "".join(out)


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

    def names(self) -> list[str]:
        return known_names().get(board_key(parse_board(self.board)), [])


class StoreError(ValueError):
    pass


def replay(board: rules.Board, moves: str) -> int:
    """The score of a stored line, or StoreError if the rules refuse any move of it."""
    judged = rules.judge(board, rules.split_one_turn(moves), strict=True)
    if not judged.ok:
        raise StoreError(f"line refused by the rules: {judged.error} ({judged.detail})")
    return judged.score


# A results file: "# N: <how it was found>" lines, then BOARD<TAB>SCORE<TAB>MOVES rows.
PROVENANCE = re.compile(r"# (?P<board>\S+): (?P<algo>.+), (?P<seconds>[0-9.]+) s search, seed (?P<seed>-?[0-9]+|None), "
                        r"found (?P<found>\S+)$")


def provenance_line(number: int, entry: "Entry") -> str:
    """The line PROVENANCE reads back."""
    return f"# {number}: {entry.algo}, {entry.seconds:.0f} s search, seed {entry.seed}, found {entry.found}"


def results_row(line: str, set_name: str) -> tuple[str, int, str]:
    """A results row as (board spec, claimed score, moves); a bare number is a board of ``set_name``.

    Raises ValueError or IndexError on a malformed row.
    """
    fields = line.rstrip("\n").split("\t")
    spec = fields[0] if ":" in fields[0] else f"{set_name}:{int(fields[0])}"
    return spec, int(fields[1]), fields[-1]


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
    """Best lines per board.  Safe to share between threads and processes."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            self._db.execute(SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot open the solution store: {e}") from None

    def close(self) -> None:
        self._db.close()

    def best(self, board: rules.Board) -> Entry | None:
        """The stored line for this board (or a recolouring of it), checked by replay."""
        row = self._db.execute(
            "SELECT board, score, moves, algo, seconds, seed, found FROM solutions WHERE key = ?", (board_key(board),)
        ).fetchone()
        if row is None:
            return None
        entry = Entry(*row)
        try:
            if replay(board, entry.moves) != entry.score:
                return None
        except StoreError:
            return None
        return entry

    def offer(self, board: rules.Board, moves: Iterable[tuple[int, int]], *, algo: str, seconds: float,
              seed: int | None = None, found: str | None = None) -> bool:
        """Store the line if it beats the stored one; True if it did.  The score is recomputed."""
        text = Line(moves).text()
        score = replay(board, text)
        found = found or time.strftime("%Y-%m-%dT%H:%M:%S")
        cursor = self._db.execute(
            """INSERT INTO solutions (key, board, score, moves, algo, seconds, seed, found)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(key) DO UPDATE SET score = excluded.score, moves = excluded.moves,
                   algo = excluded.algo, seconds = excluded.seconds, seed = excluded.seed, found = excluded.found
               WHERE excluded.score > solutions.score""",
            (board_key(board), board.text(), score, text, algo, seconds, seed, found),
        )
        return cursor.rowcount > 0

    def entries(self) -> list[Entry]:
        rows = self._db.execute(
            "SELECT board, score, moves, algo, seconds, seed, found FROM solutions ORDER BY found"
        ).fetchall()
        return [Entry(*row) for row in rows]

    # -- sharing ---------------------------------------------------------------

    def export_jsonl(self, out: TextIO) -> int:
        entries = self.entries()
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
        out.write(f"# gridfall {set_name} board solutions: {len(rows)} boards, total {total}\n")
        out.write("# format: board number <TAB> score <TAB> moves as 'x y;x y;...' (CodinGame coordinates)\n")
        for line in how:
            out.write(line + "\n")
        for row in rows:
            out.write(row + "\n")
        return len(rows)

    def import_file(self, path: str, set_name: str = "standard") -> tuple[int, int]:
        """Import JSON lines (as exported) or a results file; returns (lines read, improvements).

        Every line is replayed; a line the rules refuse raises StoreError naming it.
        """
        try:
            text = Path(path).read_text()
        except (OSError, UnicodeDecodeError) as e:
            raise StoreError(f"{path}: cannot read: {e}") from None
        read = improved = 0
        lines = text.splitlines()
        provenance = {m["board"]: m for m in map(PROVENANCE.match, lines) if m}
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{path}:{number}"
            try:
                if line.lstrip().startswith("{"):
                    data = json.loads(line)
                    board = parse_board("\n".join(data["board"]), where)
                    moves, algo = data["moves"], data.get("algo", "imported")
                    seconds, seed, found = float(data.get("seconds", 0)), data.get("seed"), data.get("found")
                else:
                    spec, _, moves = results_row(line, set_name)
                    board, algo, seconds, seed, found = load_board(spec), "imported", 0.0, None, None
                    how = provenance.get(line.split("\t")[0])  # the file's "# N: algo, S s search, ..." line
                    if how:
                        algo, seconds, found = how["algo"], float(how["seconds"]), how["found"]
                        seed = None if how["seed"] == "None" else int(how["seed"])
                line_moves = Line.from_text(moves)
                improved += self.offer(board, line_moves, algo=algo, seconds=seconds, seed=seed, found=found)
            except (ValueError, KeyError, TypeError, BoardError, StoreError) as e:
                raise StoreError(f"{where}: {e}") from None
            read += 1
        return read, improved
