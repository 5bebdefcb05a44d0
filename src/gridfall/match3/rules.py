"""Match-3 "Jewels" (CodeAbbey problem 370) rules of record: plain Python.

This module is the executable specification; :mod:`gridfall.match3.engine` is
the same rules made fast, and the tests require the two to agree.

The board
    N x N jewels of 7 types ``A``..``G``; rows listed top first; a cell is
    ``(col, row)``, 1-based, row 1 at the top.  ``*`` marks a hole.

A move
    swaps a jewel with its neighbour in direction ``R``, ``L``, ``D`` or ``U``.
    It is legal only if a line of 3 or more (horizontal or vertical) forms.
    Then, repeatedly: every jewel in a line of 3+ explodes (a jewel in two
    lines counts once) and the jewels above the holes slide down, until no
    line remains.  Holes stay empty during the move.  The move scores
    ``2 ** (removed - 3)`` where ``removed`` counts every cascade.

Refill and new boards
    come from CodeAbbey's generator ``X' = (445 X + 700001) mod 2097152``,
    see :class:`Generator`: holes are filled row by row from the top, left to
    right, and a jewel that would complete a line is drawn again.
"""

from __future__ import annotations

from typing import List, NamedTuple

from gridfall.actions import IllegalAction

JEWELS = "ABCDEFG"
HOLE = "*"
DIRECTIONS = {"R": (1, 0), "L": (-1, 0), "D": (0, 1), "U": (0, -1)}
MOVES_PER_GAME = 1000
BOARD_SIZES = (8, 11, 12, 13)
DEFAULT_SEED = 370  # gridfall's choice for the generator's first X when none is given


class IllegalMove(IllegalAction):
    """A move the rules refuse; the message says why."""


def points(removed: int) -> int:
    """Points of a move that removed ``removed`` jewels over all its cascades."""
    return 2 ** (removed - 3)


class Generator:
    """CodeAbbey's linear congruential generator and how its values become jewels.

    ``X' = (445 X + 700001) mod 2097152`` (2**21).  A draw advances X and maps
    it to a jewel by its high bits: ``jewel = JEWELS[X * 7 // 2097152]`` (the
    low bits of a power-of-two LCG repeat with short periods, the high bits do
    not).  The seed is the first X.
    """

    MODULUS = 2097152

    def __init__(self, seed: int = 0):
        self.x = seed % self.MODULUS

    def next_value(self) -> int:
        self.x = (445 * self.x + 700001) % self.MODULUS
        return self.x

    def next_jewel(self) -> str:
        return JEWELS[self.next_value() * len(JEWELS) // self.MODULUS]


# grid[row][col], 0-based here; the public API is 1-based.  typing's List, evaluated when the
# module loads: the rules also run in an exported Match-3 file, on CodeAbbey's Python 3.6.
Grid = List[List[str]]


def _makes_line(grid: Grid, r: int, c: int) -> bool:
    """Is (r, c) part of a horizontal or vertical run of 3+ of one jewel?"""
    jewel = grid[r][c]
    if jewel == HOLE:
        return False
    n = len(grid)
    for dr, dc in ((0, 1), (1, 0)):
        run = 1
        rr, cc = r - dr, c - dc
        while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == jewel:
            run += 1
            rr, cc = rr - dr, cc - dc
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == jewel:
            run += 1
            rr, cc = rr + dr, cc + dc
        if run >= 3:
            return True
    return False


def lines(grid: Grid) -> set[tuple[int, int]]:
    """Every (row, col) lying in a horizontal or vertical line of 3+."""
    n = len(grid)
    out: set[tuple[int, int]] = set()
    for r in range(n):
        for c in range(n):
            if grid[r][c] != HOLE and _makes_line(grid, r, c):
                out.add((r, c))
    return out


def fill(grid: Grid, gen: Generator) -> None:
    """Fill every hole, row by row from the top, left to right, never completing a line."""
    for r in range(len(grid)):
        for c in range(len(grid)):
            if grid[r][c] == HOLE:
                grid[r][c] = gen.next_jewel()
                while _makes_line(grid, r, c):  # redraw: at most 4 jewels can be forbidden, 7 exist
                    grid[r][c] = gen.next_jewel()


class MoveResult(NamedTuple):
    removed: list[int]  # jewels removed by each cascade
    board_after: Board  # with holes, before the refill

    @property
    def total(self) -> int:
        return sum(self.removed)

    @property
    def points(self) -> int:
        return points(self.total)


class Board:
    """An immutable board; ``rows[0]`` is the top row.  (Written out, not a frozen dataclass:
    Python 3.6, where an exported player runs on CodeAbbey, has no dataclasses.)"""

    rows: tuple[str, ...]

    def __init__(self, rows: tuple[str, ...]):
        object.__setattr__(self, "rows", tuple(rows))

    def __setattr__(self, name, value):
        raise AttributeError(f"a Board does not change: cannot set {name}")

    def __eq__(self, other) -> bool:
        return self.rows == other.rows if isinstance(other, Board) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.rows)

    def __repr__(self) -> str:
        return f"Board(rows={self.rows!r})"

    @classmethod
    def parse(cls, text: str, source: str = "<board>") -> "Board":
        """N lines of N letters A-G (or * for a hole); blank lines and spaces are ignored."""
        rows = [line.replace(" ", "") for line in text.splitlines() if line.strip()]
        n = len(rows)
        if n < 3:
            raise ValueError(f"{source}: a board has at least 3 rows, found {n}")
        for i, row in enumerate(rows, start=1):
            if len(row) != n:
                raise ValueError(f"{source}: line {i}: expected {n} jewels (the board is square), found {len(row)}")
            for j, ch in enumerate(row, start=1):
                if ch not in JEWELS and ch != HOLE:
                    raise ValueError(f"{source}: line {i}, column {j}: {ch!r} is not a jewel A-G or a hole *")
        return cls(tuple(rows))

    @property
    def size(self) -> int:
        return len(self.rows)

    def grid(self) -> Grid:
        return [list(row) for row in self.rows]

    def __getitem__(self, cell: tuple[int, int]) -> str:
        col, row = cell
        return self.rows[row - 1][col - 1]

    def text(self) -> str:
        return "\n".join(self.rows)

    def has_holes(self) -> bool:
        return any(HOLE in row for row in self.rows)

    def target(self, col: int, row: int, direction: str) -> tuple[int, int]:
        """The 1-based cell a move swaps with; IllegalMove if off the board or no such direction."""
        if direction not in DIRECTIONS:
            raise IllegalMove(f"direction {direction!r} is not one of R, L, D, U")
        n = self.size
        if not (1 <= col <= n and 1 <= row <= n):
            raise IllegalMove(f"cell ({col}, {row}) is outside the {n}x{n} board (columns and rows run 1..{n})")
        dc, dr = DIRECTIONS[direction]
        if not (1 <= col + dc <= n and 1 <= row + dr <= n):
            raise IllegalMove(f"moving ({col}, {row}) {direction} leaves the board")
        return col + dc, row + dr

    def swapped(self, col: int, row: int, direction: str) -> Grid:
        col2, row2 = self.target(col, row, direction)
        if HOLE in (self[col, row], self[col2, row2]):
            raise IllegalMove(f"swapping ({col}, {row}) {direction} moves a hole")
        grid = self.grid()
        a, b = (row - 1, col - 1), (row2 - 1, col2 - 1)
        grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
        return grid

    def is_legal(self, col: int, row: int, direction: str) -> bool:
        """Does the swap make a line?  (A new line must pass through a swapped cell,
        as the board had none before.)"""
        try:
            grid = self.swapped(col, row, direction)
        except IllegalMove:
            return False
        col2, row2 = self.target(col, row, direction)
        return _makes_line(grid, row - 1, col - 1) or _makes_line(grid, row2 - 1, col2 - 1)

    def legal_moves(self) -> list[tuple[int, int, str]]:
        """Every legal move as (col, row, dir), using R and D only (each swap once).

        The same test as :meth:`is_legal`, on one grid: swap, look for a line through either
        cell, swap back."""
        n = self.size
        grid = self.grid()
        moves = []
        for r in range(n):
            for c in range(n):
                for d, (r2, c2) in (("R", (r, c + 1)), ("D", (r + 1, c))):
                    if r2 == n or c2 == n or HOLE in (grid[r][c], grid[r2][c2]):
                        continue
                    grid[r][c], grid[r2][c2] = grid[r2][c2], grid[r][c]
                    if _makes_line(grid, r, c) or _makes_line(grid, r2, c2):
                        moves.append((c + 1, r + 1, d))
                    grid[r][c], grid[r2][c2] = grid[r2][c2], grid[r][c]
        return moves

    def play(self, col: int, row: int, direction: str) -> MoveResult:
        """Swap, then explode and shake down until no line is left (no refill)."""
        grid = self.swapped(col, row, direction)
        removed = [len(cells) for step, cells in cascade(grid) if step == "explode"]
        if not removed:
            raise IllegalMove(f"swapping ({col}, {row}) {direction} makes no line of 3")
        return MoveResult(removed, Board(tuple("".join(row) for row in grid)))


def cascade(grid: Grid):
    """The cascade after a swap, step by step, changing ``grid`` in place: yields ``("explode",
    cells)`` with the cells of every line (before they go), then ``("fall", cells)`` once they are
    holes and the jewels above have shaken down; again until no line is left."""
    while True:
        exploding = lines(grid)
        if not exploding:
            return
        yield "explode", exploding
        for r, c in exploding:
            grid[r][c] = HOLE
        _shake_down(grid)
        yield "fall", exploding


def _shake_down(grid: Grid) -> None:
    """Jewels above holes slide down; holes rise to the top of each column."""
    n = len(grid)
    for c in range(n):
        jewels = [grid[r][c] for r in range(n) if grid[r][c] != HOLE]
        column = [HOLE] * (n - len(jewels)) + jewels
        for r in range(n):
            grid[r][c] = column[r]


def refilled(board: Board, gen: Generator) -> Board:
    grid = board.grid()
    fill(grid, gen)
    return Board(tuple("".join(row) for row in grid))


def new_board(size: int, gen: Generator) -> Board:
    """A board with no line and at least one legal move (drawn again until it has one)."""
    while True:
        grid = [[HOLE] * size for _ in range(size)]
        fill(grid, gen)
        board = Board(tuple("".join(row) for row in grid))
        if any(board.is_legal(c, r, d) for r in range(1, size + 1) for c in range(1, size + 1) for d in "RD"):
            return board
