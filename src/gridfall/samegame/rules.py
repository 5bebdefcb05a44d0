"""SameGame rules of record: the CodinGame referee, written to be read.

This module is the executable specification.  It is plain Python with no speed
tricks; :mod:`gridfall.samegame.engine` is the same rules made fast, and the
tests require the two to agree move for move.

The board
    15 columns x 15 rows, colours 0..4, ``EMPTY`` (-1) for an empty cell.
    ``(x, y)`` is (column, row) with ``(0, 0)`` bottom-left and ``(14, 14)``
    top-right.  Text and protocol rows come top row (y = 14) first.

A move
    picks a cell; its 4-connected region of one colour (size n >= 2) is
    removed for (n - 2)**2 points.  Every column then falls to y = 0 keeping
    its order, and every empty column is removed, the columns to its right
    sliding left.  When the board is empty after a move ((0, 0) empty) the
    move earns 1000 more.  The game is over when (0, 0) is empty or no region
    of size >= 2 is left.  Leftover cells cost nothing.

The two CodinGame flavours (see :func:`judge`)
    turn-by-turn: one action a turn; a malformed action, out-of-range
    coordinates, an empty cell or a region of size 1 ends the game with an
    error.  One-turn: one line of actions separated by ``;``; only the first
    150 count; an empty cell or a region of size 1 is a warning and changes
    nothing; a malformed or out-of-range action still ends the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from gridfall.actions import IllegalAction

WIDTH = 15
HEIGHT = 15
COLOURS = 5
EMPTY = -1
CLEAR_BONUS = 1000
ONE_TURN_ACTION_LIMIT = 150

Cell = tuple[int, int]


def points(size: int) -> int:
    """Points for removing a region of ``size`` cells."""
    return (size - 2) ** 2


class IllegalMove(IllegalAction):
    """A click the rules refuse; ``reason`` is the referee's wording."""

    def __init__(self, reason: str, x: int, y: int):
        super().__init__(f"{reason} (x={x}, y={y})")
        self.reason = reason
        self.x = x
        self.y = y


# The referee's verdicts on a bad action.
EMPTY_TILE = "Selected empty tile"
REGION_OF_ONE = "Region of size 1"
OUT_OF_BOUNDS = "Selected target out of bounds"
FORMAT_VERDICT = "Action not properly formatted"


@dataclass(frozen=True)
class Group:
    """A removable region, named by its canonical cell: the smallest (x, y)."""

    x: int
    y: int
    colour: int
    cells: frozenset[Cell]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def points(self) -> int:
        return points(len(self.cells))


@dataclass(frozen=True)
class Board:
    """An immutable SameGame position; ``cells[x][y]`` is a colour or EMPTY."""

    cells: tuple[tuple[int, ...], ...]

    # -- construction and views ------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> "Board":
        """Build from rows listed top row first, as in the protocol."""
        if len(rows) != HEIGHT or any(len(r) != WIDTH for r in rows):
            raise ValueError(f"a board has {HEIGHT} rows of {WIDTH} cells")
        return cls(tuple(tuple(rows[HEIGHT - 1 - y][x] for y in range(HEIGHT)) for x in range(WIDTH)))

    def rows(self) -> list[list[int]]:
        """Rows top row first, as the referee sends them."""
        return [[self.cells[x][y] for x in range(WIDTH)] for y in reversed(range(HEIGHT))]

    def text(self) -> str:
        """The 15 protocol lines: space-separated colours, top row first."""
        return "\n".join(" ".join(str(c) for c in row) for row in self.rows())

    def __getitem__(self, xy: Cell) -> int:
        x, y = xy
        return self.cells[x][y]

    def colour_counts(self) -> list[int]:
        counts = [0] * COLOURS
        for column in self.cells:
            for c in column:
                if c != EMPTY:
                    counts[c] += 1
        return counts

    def cell_count(self) -> int:
        return sum(c != EMPTY for column in self.cells for c in column)

    # -- regions ---------------------------------------------------------------

    def region(self, x: int, y: int) -> frozenset[Cell]:
        """The 4-connected cells of the colour at (x, y) (empty if (x, y) is empty)."""
        colour = self.cells[x][y]
        if colour == EMPTY:
            return frozenset()
        seen = {(x, y)}
        todo = [(x, y)]
        while todo:
            cx, cy = todo.pop()
            for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
                if 0 <= nx < WIDTH and 0 <= ny < HEIGHT and (nx, ny) not in seen and self.cells[nx][ny] == colour:
                    seen.add((nx, ny))
                    todo.append((nx, ny))
        return frozenset(seen)

    def groups(self) -> list[Group]:
        """Every legal move: each region of size >= 2, ordered by canonical cell."""
        found: list[Group] = []
        done: set[Cell] = set()
        for x in range(WIDTH):
            for y in range(HEIGHT):
                if (x, y) in done or self.cells[x][y] == EMPTY:
                    continue
                cells = self.region(x, y)
                done |= cells
                if len(cells) >= 2:
                    found.append(Group(x, y, self.cells[x][y], cells))
        return found

    def is_cleared(self) -> bool:
        return self.cells[0][0] == EMPTY

    def is_over(self) -> bool:
        """(0, 0) is empty or no region of size >= 2 remains."""
        if self.is_cleared():
            return True
        return not any(
            self.cells[x][y] != EMPTY
            and (
                (x + 1 < WIDTH and self.cells[x + 1][y] == self.cells[x][y])
                or (y + 1 < HEIGHT and self.cells[x][y + 1] == self.cells[x][y])
            )
            for x in range(WIDTH)
            for y in range(HEIGHT)
        )

    # -- moves -----------------------------------------------------------------

    def check(self, x: int, y: int) -> frozenset[Cell]:
        """The region a click at (x, y) removes; IllegalMove if it removes nothing."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise IllegalMove(OUT_OF_BOUNDS, x, y)
        if self.cells[x][y] == EMPTY:
            raise IllegalMove(EMPTY_TILE, x, y)
        region = self.region(x, y)
        if len(region) < 2:
            raise IllegalMove(REGION_OF_ONE, x, y)
        return region

    def play(self, x: int, y: int) -> tuple["Board", int]:
        """Click (x, y): the next board and the points earned (clear bonus included)."""
        region = self.check(x, y)
        grid = [[EMPTY if (cx, cy) in region else c for cy, c in enumerate(column)] for cx, column in enumerate(self.cells)]
        after = Board(_settle(grid))
        gained = points(len(region)) + (CLEAR_BONUS if after.is_cleared() else 0)
        return after, gained


def _settle(grid: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Gravity: cells fall to y = 0 in order, then empty columns close up to the left."""
    columns = [[c for c in column if c != EMPTY] for column in grid]
    columns = [column for column in columns if column]
    columns += [[]] * (WIDTH - len(columns))
    return tuple(tuple(column + [EMPTY] * (HEIGHT - len(column))) for column in columns)


def removed_groups(board: Board, moves: Iterable[Cell]) -> list[Group]:
    """The group each of a line's legal moves removes, in order: where its points come from."""
    groups = []
    for x, y in moves:
        region = board.check(x, y)
        groups.append(Group(*min(region), board[x, y], region))
        board, _ = board.play(x, y)
    return groups


def play_sequence(board: Board, moves: Iterable[Cell]) -> tuple[Board, int]:
    """Play legal moves in order; the final board and the total score."""
    total = 0
    for x, y in moves:
        board, gained = board.play(x, y)
        total += gained
    return board, total


# -- the referee's judgement of bot output -------------------------------------

_INT = r"[+-]?[0-9]+"
_SPACE = r"[ \t\n\x0b\f\r]"  # Java's \s, which the referee splits on
_ACTION = re.compile(rf"({_INT}){_SPACE}+({_INT})(?:{_SPACE}.*)?", re.DOTALL)
FORMAT_ERROR = "Action not properly formatted. Should be: 'x y [message]'"


class ActionFormatError(IllegalAction):
    """Text that is not ``x y [message]``; ends the game in both flavours."""


def parse_action(text: str) -> Cell:
    """Parse one ``x y [message]`` action exactly as the referee does.

    The referee splits on whitespace and reads two integers; it does not strip
    an action inside a one-turn list, so ``"1 2; 3 4"`` fails on ``" 3 4"``.
    Out-of-range integers parse here and are judged by the board.
    """
    m = _ACTION.fullmatch(text)
    if not m:
        raise ActionFormatError(f"{FORMAT_ERROR}, got {text[:40]!r}")
    return int(m.group(1)), int(m.group(2))


def action_text(x: int, y: int) -> str:
    """The text of one click, ``x y``: what :func:`parse_action` reads."""
    return f"{x} {y}"


def split_one_turn(line: str) -> list[str]:
    """The one-turn line as the referee splits it: trimmed, then cut at ``;``.

    Trailing empty pieces are dropped (so ``"1 2;"`` is one action); an empty
    piece inside the list is kept and is a format error when reached.
    """
    pieces = line.strip().split(";")
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


@dataclass
class Judgement:
    """What the referee made of a game."""

    board: Board  # the final board
    score: int = 0
    actions: list[Cell] = field(default_factory=list)  # the moves applied, in order
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # the referee's verdict if the game ended in error, else None
    detail: str = ""  # which action and what was wrong with it

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def cleared(self) -> bool:
        return self.board.is_cleared()

    @property
    def error_text(self) -> str:
        """The verdict and where, once: "action 2: Selected target out of bounds (x=99, y=99)"."""
        return verdict_text(self.error, self.detail)


def verdict_text(verdict: str | None, detail: str) -> str:
    """A verdict with its detail, named once: a refused action's detail already names it."""
    if verdict is None or verdict in detail:
        return detail
    return f"{verdict} ({detail})" if detail else verdict


def judge(board: Board, actions: Sequence[str], strict: bool = False) -> Judgement:
    """Judge action texts from ``board`` as the CodinGame referee would.

    ``strict=False`` is the one-turn flavour: at most 150 actions are read, an
    empty cell or a region of size 1 is a warning and changes nothing.
    ``strict=True`` is the turn flavour: every illegal click ends the game.
    Either way the game stops when it is over, and a format error or
    out-of-range coordinates end it with an error.
    """
    result = Judgement(board=board)
    unread = 0 if strict else max(len(actions) - ONE_TURN_ACTION_LIMIT, 0)
    actions = actions[:len(actions) - unread]
    for number, text in enumerate(actions, start=1):
        if board.is_over():
            break
        try:
            x, y = parse_action(text)
            board, gained = board.play(x, y)
            result.board = board
        except ActionFormatError as e:
            result.error, result.detail = FORMAT_VERDICT, f"action {number}: {e}"
            break
        except IllegalMove as e:
            if strict or e.reason not in (EMPTY_TILE, REGION_OF_ONE):
                result.error, result.detail = e.reason, f"action {number}: {e}"
                break
            result.warnings.append(f"action {number}: {e}")
            continue
        result.score += gained
        result.actions.append((x, y))
    else:  # every action read, the game still on: say what the limit left out
        if unread and not board.is_over():
            result.warnings.append(f"actions {ONE_TURN_ACTION_LIMIT + 1}-{ONE_TURN_ACTION_LIMIT + unread}: not read "
                                   f"(the one-turn flavour reads the first {ONE_TURN_ACTION_LIMIT})")
    return result
