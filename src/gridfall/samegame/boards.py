"""Reading and naming SameGame boards.

A board is named by a *spec*:

=================  ========================================================
``standard:N``     the academic benchmark board N (1..20, Schadd et al.)
``codingame:N``    the CodinGame puzzle's test case N (1..50)
``tuning:N``       the 250 random boards kept for tuning (1..250)
``random:SEED``    a uniformly random 5-colour board from an integer seed
``balanced:SEED``  45 cells of each colour, shuffled (like standard 11-15)
``dominant:SEED``  one colour of 65 cells and four of 40, shuffled (like
                   standard 16-20; the 65 go to colour ``SEED % 5``)
``rows:R/R/...``   the board itself: 15 rows of 15 cells, top row first,
                   each cell a colour ``0``-``4`` or ``.`` for empty
a file path        15 lines of 15 integers, top row first
=================  ========================================================

``rows:`` is how a game names a board that no other spec names (a file's, or
one given as a Board): :func:`portable_spec` writes it, so that a game's string
form and a serialised state replay on a machine without the file, or after it
changed.

The random tuning boards hold no board like standard 11-20, where the colour
counts are fixed; ``balanced`` and ``dominant`` boards let a rule that depends
on the counts (which colour to keep for last) be tuned on their kind.

Text boards are the protocol's: 15 lines, the first is the top row (y = 14),
each with 15 whitespace-separated integers, colours 0..4 or -1 for empty.  A
board must be settled (no cell above an empty cell, no empty column left of a
filled one), as every position of a real game is.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from gridfall import splitmix
from gridfall.samegame.rules import COLOURS, EMPTY, HEIGHT, WIDTH, Board
from gridfall.text_file import NotText, read_text

SETS = {"standard": 20, "codingame": 50, "tuning": 250}


class BoardError(ValueError):
    """A board that cannot be read; the message names the place and the fault."""


def parse_board(text: str, source: str = "<board>") -> Board:
    """Parse protocol text into a Board, refusing anything malformed."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != HEIGHT:
        raise BoardError(f"{source}: expected {HEIGHT} non-empty lines (rows, top first), found {len(lines)}")
    return settled_board([parse_row(line, line_no, source) for line_no, line in enumerate(lines, start=1)], source)


def parse_row(line: str, line_no: int, source: str) -> list[int]:
    """One row of protocol text (``line_no`` counts the board's rows from the top), its faults named."""
    fields = line.split()
    if len(fields) != WIDTH:
        # a row written as a rows: spec writes it, digits together, is one number to split()
        together = len(fields) == 1 and len(fields[0]) == WIDTH and fields[0].isascii() and fields[0].isdigit()
        hint = (f" ({fields[0]}: the numbers of a row are written apart, as '{' '.join(fields[0][:3])} ...')"
                if together else "")
        raise BoardError(f"{source}: line {line_no}: expected {WIDTH} numbers, found {len(fields)}{hint}")
    row = []
    for col_no, field in enumerate(fields, start=1):
        try:
            value = int(field)
        except ValueError:
            raise BoardError(f"{source}: line {line_no}, column {col_no}: {field!r} is not a number") from None
        if not (value == EMPTY or 0 <= value < COLOURS):
            raise BoardError(
                f"{source}: line {line_no}, column {col_no}: colour {value} is outside 0..{COLOURS - 1} (-1 is empty)"
            )
        row.append(value)
    return row


def settled_board(rows: list[list[int]], source: str) -> Board:
    """The board of 15 parsed rows, top first, refused (naming the cell) if it is not settled."""
    board = Board.from_rows(rows)
    _check_settled(board, source)
    return board


def checked_board(board: Board, source: str) -> Board:
    """A Board made in code, refused as a board read from text is: not 15 columns of 15 cells, a
    colour outside 0..4 (or -1, empty), or cells that have not fallen."""
    cells = board.cells if isinstance(board, Board) else None
    if not (isinstance(cells, tuple) and len(cells) == WIDTH and all(isinstance(c, tuple) and len(c) == HEIGHT
                                                                     for c in cells)):
        raise BoardError(f"{source}: not {WIDTH} columns of {HEIGHT} cells")
    lines = [" ".join(map(str, row)) for row in board.rows()]
    return settled_board([parse_row(line, number, source) for number, line in enumerate(lines, start=1)], source)


def _check_settled(board: Board, source: str) -> None:
    def place(x: int, y: int) -> str:
        return f"{source}: line {HEIGHT - y}, column {x + 1} (x={x}, y={y})"

    seen_empty_column = False
    for x in range(WIDTH):
        column = board.cells[x]
        if column[0] == EMPTY:
            seen_empty_column = True
        elif seen_empty_column:
            raise BoardError(f"{place(x, 0)}: a filled column right of an empty one; columns slide left")
        for y in range(1, HEIGHT):
            if column[y] != EMPTY and column[y - 1] == EMPTY:
                raise BoardError(f"{place(x, y)}: a cell above an empty cell; cells fall to the bottom")


def _below(draw: int, n: int) -> int:
    """A draw scaled to 0..n-1 by its high 32 bits (no modulo bias worth the name at n <= 225)."""
    return ((draw >> 32) * n) >> 32


def random_board(seed: int, colours: int = COLOURS) -> Board:
    """A uniformly random full board, the same for the same seed on every machine.

    Cells are drawn row by row from the top-left with splitmix64 seeded by
    ``seed``: colour = (high 32 bits of the draw * colours) >> 32.
    """
    draws = splitmix.stream(seed)
    return Board.from_rows([[_below(next(draws), colours) for _ in range(WIDTH)] for _ in range(HEIGHT)])


def shuffled_board(seed: int, counts: list[int]) -> Board:
    """A full board with exactly ``counts[c]`` cells of colour c, in an order shuffled by ``seed``.

    The cells are laid out colour by colour, then shuffled by Fisher-Yates with
    splitmix64 draws, and read row by row from the top-left.
    """
    if sum(counts) != WIDTH * HEIGHT or len(counts) > COLOURS or min(counts) < 0:
        raise ValueError(f"colour counts {counts} do not fill a {WIDTH}x{HEIGHT} board with 0..{COLOURS - 1}")
    cells = [colour for colour, count in enumerate(counts) for _ in range(count)]
    draws = splitmix.stream(seed)
    for i in range(len(cells) - 1, 0, -1):
        j = _below(next(draws), i + 1)
        cells[i], cells[j] = cells[j], cells[i]
    return Board.from_rows([cells[row * WIDTH : (row + 1) * WIDTH] for row in range(HEIGHT)])


def balanced_board(seed: int) -> Board:
    """45 cells of each of the five colours, shuffled: the kind of standard boards 11-15."""
    return shuffled_board(seed, [WIDTH * HEIGHT // COLOURS] * COLOURS)


def dominant_board(seed: int) -> Board:
    """One colour (``seed % 5``) of 65 cells and four of 40, shuffled: the kind of standard 16-20."""
    counts = [40] * COLOURS
    counts[seed % COLOURS] = 65
    return shuffled_board(seed, counts)


GENERATED = {"random": random_board, "balanced": balanced_board, "dominant": dominant_board}


def _data(name: str) -> str:
    return (resources.files("gridfall") / "data" / "samegame" / name).read_text()


@lru_cache(maxsize=None)
def _blocks(name: str) -> tuple[str, ...]:
    """The boards of a multi-board file: blocks of 15 lines separated by blank lines."""
    blocks, current = [], []
    for line in _data(name).splitlines():
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return tuple(blocks)


def _set_text(set_name: str, number: int) -> str:
    if set_name == "standard":
        return _blocks("standard.txt")[number - 1]
    if set_name == "tuning":
        return _blocks("tuning.txt")[number - 1]
    if set_name == "codingame":
        return json.loads(_data(f"codingame/test{number}.json"))["testIn"]
    raise AssertionError(set_name)


SPEC_FORMS = ", ".join([*(f"{kind}:1-{count}" for kind, count in SETS.items()),
                        *(f"{kind}:SEED" for kind in GENERATED), "rows:R/R/..."])
ROWS = "rows"  # the spec kind that holds the board itself


def rows_spec(board: Board) -> str:
    """The ``rows:`` spec of ``board``: its 15 rows, top row first, ``.`` for an empty cell."""
    return ROWS + ":" + "/".join("".join("." if c == EMPTY else str(c) for c in row) for row in board.rows())


def _rows_board(spec: str, rows_text: str) -> Board:
    rows = rows_text.split("/")
    if len(rows) != HEIGHT:
        raise BoardError(f"{spec:.60}: {len(rows)} rows; a rows: spec has {HEIGHT}, each of {WIDTH} cells, "
                         "separated by /")
    for number, row in enumerate(rows, start=1):
        bad = next((c for c in row if c != "." and c not in "01234"), None)
        if len(row) != WIDTH or bad is not None:
            what = f"{len(row)} cells" if bad is None else f"{bad!r} is no colour 0-4 and not . (empty)"
            raise BoardError(f"rows: spec, row {number} (from the top): {what}; a row is {WIDTH} cells of 0-4 or .")
    # parse_board checks that the board is settled, naming the cell
    return parse_board("\n".join(" ".join("-1" if c == "." else c for c in row) for row in rows), "rows: spec")


def portable_spec(spec: str, board: Board) -> str:
    """A spec that names ``board`` on any machine: ``spec`` if it names a bundled, generated or
    written-out board, else (a file's path) the board's ``rows:`` spec."""
    kind, _, arg = spec.partition(":")
    return spec if (kind in SETS or kind in GENERATED or kind == ROWS) and arg else rows_spec(board)


def load_board(spec: str) -> Board:
    """The board a spec names (see the module docstring); BoardError if none."""
    if not spec.strip():  # Path("") is the current directory: it was refused as "a directory"
        raise BoardError(f"{spec!r}: an empty board spec; give {SPEC_FORMS} or a board file's path")
    kind, _, arg = spec.partition(":")
    if kind in SETS and arg:
        try:
            number = int(arg)
        except ValueError:
            raise BoardError(f"{spec}: the board number must be an integer 1..{SETS[kind]}") from None
        if not 1 <= number <= SETS[kind]:
            raise BoardError(f"{spec}: there is no board {number}; the {kind} set has boards 1..{SETS[kind]}")
        return parse_board(_set_text(kind, number), spec)
    if kind in GENERATED and arg:
        try:
            seed = int(arg)
        except ValueError:
            raise BoardError(f"{spec}: the seed must be an integer") from None
        return GENERATED[kind](seed)
    if kind == ROWS and arg:
        return _rows_board(spec, arg)
    path = Path(spec)
    try:
        is_dir, is_file, exists = path.is_dir(), path.is_file(), path.exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        is_dir = is_file = exists = False
    if is_dir:
        raise BoardError(f"{spec}: a directory, not a board file (15 lines of 15 colours, top row first)")
    if exists and not is_file:  # a board may be read more than once (checked, then played): not from a pipe
        raise BoardError(f"{spec}: a pipe or a device, not a board file: save the board to a file first")
    if not is_file:
        padded = f" (without the spaces around it: {spec.strip()!r}?)" if spec != spec.strip() else ""
        raise BoardError(f"{spec!r}: no such board file{padded} (or use {SPEC_FORMS})" if padded
                         else f"{spec}: no such board file (or use {SPEC_FORMS})")
    try:
        text = read_text(path)
    except OSError as e:
        raise BoardError(f"{spec}: cannot read board file: {e.strerror or e}") from None
    except NotText as e:
        raise BoardError(f"{spec}: {e}") from None
    return parse_board(text, spec)


def board_key(board: Board) -> str:
    """The board up to a permutation of colours: renamed a, b, c, ... by first appearance
    (scanning x, then y, from (0, 0)), '.' for empty.  A recoloured board has the same key."""
    names: dict[int, str] = {}
    out = []
    for column in board.cells:
        for colour in column:
            if colour == EMPTY:
                out.append(".")
            else:
                if colour not in names:
                    names[colour] = "abcde"[len(names)]
                out.append(names[colour])
    return "".join(out)


def set_specs(set_name: str) -> list[str]:
    """Every spec of a bundled set, in order: ``set_specs("standard")``."""
    if set_name not in SETS:
        raise BoardError(f"unknown board set {set_name!r}; choose from {', '.join(SETS)}")
    return [f"{set_name}:{i}" for i in range(1, SETS[set_name] + 1)]
