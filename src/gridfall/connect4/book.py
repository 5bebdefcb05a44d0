"""The opening book: the exported file's move in every position it can reach in its first few
moves, chosen by the numba search to a fixed depth (``gridfall connect4 book --rebuild``).
The numba bot opens and steals as the file does, so it plays the same book: all of it as
second player; as first player its reply to a STEAL only, all of it when the opponent plays on
(:data:`.opening_moves.BOOK_LAST_TURN` says why).

The exported file searches about 8 plies in a turn; the numba search reaches 14 in a quarter
of a second in the opening.  Games against ``mcts`` were mostly lost by the 15th ply, before
the exact solver could say where, so the file plays the deeper search's move while the book
has the position.

The trick that keeps it small: the book is the file's own game tree (:func:`walk`), and its text
is just the file's column at each of the tree's positions, one digit each, in the order a walk
visits them.  The walk knows everything else: its first move and the first chips it steals (its
opening table's, stored with the book), and every action of the opponent.  Reading the book
walks the tree again and keys each digit by its position, Pons' ``current + mask + bottom row``
(unique: the bottom row's bit marks each column's first empty cell above the chips), so a
position reached in another order finds its entry, and so does the position after a stolen
first chip: it is the position after the first chip, seen from the side to move.  Keyed entries
cost 16 characters each; a digit costs one, so the book goes two actions deeper in the same room.
And on 9 columns two digits fit one character (81 pairs of the 91 printable ASCII characters
that a JSON string and a Python literal write as themselves): half a character a position.
The walk passes by a position it has walked before (a transposition: 3 then 4, or 4 then 3), so
each position is written once; a walk of every path wrote 48,054 columns for 22,694 positions.

The tree after the file's own first chip goes further than the rest (8 actions): 12 after the
opponent steals it (``stolen_turns``), where the file was weakest, and 10 when the opponent plays
on (``first_turns``), where a bot that reads the pie table as gridfall does goes: it plays on
after the 1 that gridfall opens with, to have the move in the stolen line's position.  (12 there
would be 99,556 positions: the play-on line has one more move of the opponent in 12 actions.)

Standard library only: the exported file carries this module, with the book as data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Callable

BOOK_FILE = "book-9x7.json"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # a column's digit (boards up to 36 wide)
PAIRS = "".join(c for c in map(chr, range(33, 127)) if c not in "\"'\\")  # 91: no escape in JSON nor in repr()
FIELDS = ("width", "height", "method", "depth", "turns", "first_move", "stolen", "tree")


def pack(columns: list[int], width: int) -> str:
    """The columns as text: two a character (``PAIRS[a * width + b]``) where the board is narrow
    enough (``width * width <= 91``: 9 columns), else one digit each; an odd last column alone."""
    if width * width > len(PAIRS):
        return "".join(DIGITS[c] for c in columns)
    pairs = [PAIRS[a * width + b] for a, b in zip(columns[::2], columns[1::2])]
    return "".join(pairs) + (PAIRS[columns[-1]] if len(columns) % 2 else "")


def unpack(text: str, width: int, count: int) -> list[int]:
    """The ``count`` columns of :func:`pack`'s text; ValueError naming the fault if they are not there."""
    if width * width > len(PAIRS):
        columns = [DIGITS.find(c) for c in text]
    else:
        columns = []
        for c in text:
            pair = PAIRS.find(c)
            columns += [pair // width, pair % width] if pair >= 0 else [-1, -1]
        if count % 2 and columns:
            del columns[-2]  # the odd last column was written alone: its pair is (0, column)
    if len(columns) != count or not all(0 <= c < width for c in columns):
        raise ValueError(f"the opening book's tree does not hold {count} columns of {width} (a corrupt book)")
    return columns


def position_key(current: int, mask: int, bottom: int) -> int:
    """A position's key in the book: Pons' ``current + mask + bottom row`` (see above)."""
    return current + mask + bottom


def walk(width: int, height: int, turns: int, first_move: int, stolen: tuple[int, ...],
         choose: Callable[[int, int], int | None], stolen_turns: int | None = None, once: bool = True,
         first_turns: int | None = None) -> None:
    """Visit the file's tree: the file as first player, then as second, every opponent action
    (STEAL first when it may, then the columns left to right), up to ``turns`` actions played;
    up to ``stolen_turns`` (default ``turns``) after the opponent steals the file's first chip, and
    up to ``first_turns`` (default ``turns``) when the opponent plays on after it.

    Where the file moves and its table does not decide (``first_move``; STEAL after a first chip
    in ``stolen``), ``choose(current, mask)`` gives its column (side to move's chips first, the
    layout of :class:`.portable.Board`), or None to go no deeper there.  Depth first, the
    file's move before the opponent's answers: the order of the book's digits.

    ``once``: a position met again (a transposition) is not walked again when it was walked
    before with as many actions left, for its subtree is the same or smaller; so each position
    costs one column, where a walk of every path (``once=False``, the books of before) met half
    of them twice or more."""
    stride = height + 1
    bottom = sum(1 << (x * stride) for x in range(width))
    left: dict[int, int] = {}  # a position's key -> the most actions left when it was walked
    full = bottom * ((1 << height) - 1)
    columns = [((1 << height) - 1) << (x * stride) for x in range(width)]
    stolen_turns = turns if stolen_turns is None else stolen_turns
    first_turns = turns if first_turns is None else first_turns

    def won(chips: int) -> bool:
        for step in (1, stride - 1, stride, stride + 1):  # vertical, both diagonals, horizontal
            pairs = chips & (chips >> step)
            if pairs & (pairs >> 2 * step):
                return True
        return False

    # ``limit``: the actions this branch of the tree goes to
    def after(current: int, mask: int, column: int, actions: int, limit: int, visit) -> None:
        move = (mask + bottom) & columns[column]
        if actions < limit and not won(current | move) and mask | move != full:
            visit(current ^ mask, mask | move, actions + 1, limit)

    def files_turn(current: int, mask: int, actions: int, limit: int) -> None:
        column: int | None
        if actions == 0:
            column = first_move
        elif actions == 1 and (mask.bit_length() - 1) // stride in stolen:
            if actions < limit:
                opponents_turn(current, mask, actions + 1, limit)  # STEAL: the same chips, the other side to move
            return
        else:
            if once:
                key = position_key(current, mask, bottom)
                if left.get(key, -1) >= limit - actions:
                    return
                left[key] = limit - actions
            column = choose(current, mask)
            if column is None:
                return
        after(current, mask, column, actions, limit, opponents_turn)

    def opponents_turn(current: int, mask: int, actions: int, limit: int) -> None:
        if actions == 1 and actions < stolen_turns:
            files_turn(current, mask, actions + 1, stolen_turns)  # the opponent steals the file's first chip
        playable = (mask + bottom) & full
        for column in range(width):
            if playable & columns[column]:
                after(current, mask, column, actions, limit, files_turn)

    files_turn(0, 0, 0, first_turns)
    opponents_turn(0, 0, 0, turns)


@dataclass
class Book:
    width: int
    height: int
    moves: dict[int, int]  # position key (Book.key) -> the column to play
    method: str
    depth: int = 0  # the plies each position was searched to
    turns: int = 0  # the positions the file can reach with up to this many actions played
    first_move: int = 0  # the file's tree as it was built: its first move,
    stolen: tuple[int, ...] = ()  # and the first chips it steals
    stolen_turns: int | None = None  # the reach after the opponent steals the file's first chip (default turns)
    first_turns: int | None = None  # and after the opponent plays on after it (default turns)
    each_position_once: bool = True  # the tree's walk (:func:`walk`'s ``once``); False in books of before

    def __post_init__(self):
        if self.stolen_turns is None:
            self.stolen_turns = self.turns
        if self.first_turns is None:
            self.first_turns = self.turns
        self._bottom = sum(1 << (x * (self.height + 1)) for x in range(self.width))  # not a field: made once

    def key(self, current: int, mask: int) -> int:
        return position_key(current, mask, self._bottom)

    @classmethod
    def load(cls) -> "Book":
        """The book shipped in the package, read once a process (the numba bot's
        :func:`.book_cache.load` keeps what the walk made on disk)."""
        if not _SHIPPED:
            _SHIPPED.append(cls.from_data(json.loads(shipped_text())))
        return _SHIPPED[0]

    @classmethod
    def from_data(cls, data: dict, moves: dict[int, int] | None = None) -> "Book":
        """The book from its JSON object; ``tree`` holds the file's column at each position of its
        tree, in the walk's order.  ValueError if the text and the tree disagree in length.
        ``moves``: what a walk of the same object made, not walked again."""
        missing = [field for field in FIELDS if field not in data]
        if missing:
            raise ValueError(f"the opening book lacks {', '.join(missing)} (a corrupt book, or one from before "
                             f"the book was a tree)")
        book = cls(data["width"], data["height"], {}, data["method"], data["depth"], data["turns"],
                   data["first_move"], tuple(data["stolen"]), stolen_turns=data.get("stolen_turns"),
                   first_turns=data.get("first_turns"), each_position_once=data.get("each_position_once", False))
        if moves is not None:
            book.moves = moves
            return book
        if "positions" in data:  # packed (a book written before packing has one digit a position)
            columns = iter(unpack(data["tree"], book.width, data["positions"]))
        else:
            columns = (DIGITS.find(c) for c in data["tree"])

        def read(current: int, mask: int) -> int:
            column = next(columns, -1)
            if not 0 <= column < book.width:
                raise ValueError(f"the opening book's tree ends early or holds {column!r} (a corrupt book)")
            book.moves[book.key(current, mask)] = column
            return column

        book.walk(read)
        if next(columns, None) is not None:
            raise ValueError("the opening book's tree is longer than its walk (a corrupt book)")
        return book

    def to_data(self) -> dict:
        columns: list[int] = []

        def write(current: int, mask: int) -> int:
            columns.append(self.moves[self.key(current, mask)])
            return columns[-1]

        self.walk(write)
        return {"width": self.width, "height": self.height, "method": self.method, "depth": self.depth,
                "turns": self.turns, "stolen_turns": self.stolen_turns, "first_turns": self.first_turns,
                "first_move": self.first_move,
                "stolen": list(self.stolen), "each_position_once": self.each_position_once,
                "positions": len(columns), "tree": pack(columns, self.width)}

    def walk(self, choose: Callable[[int, int], int | None], turns: int | None = None) -> None:
        """:func:`walk` over this book's tree (to ``turns`` actions at most if given)."""
        assert self.stolen_turns is not None and self.first_turns is not None  # __post_init__ sets them
        limit = max(self.turns, self.stolen_turns, self.first_turns) if turns is None else turns
        walk(self.width, self.height, min(limit, self.turns), self.first_move, self.stolen, choose,
             min(limit, self.stolen_turns), self.each_position_once, min(limit, self.first_turns))

    def move(self, current: int, mask: int, width: int, height: int) -> int | None:
        """The book's column in this position (side to move first), or None."""
        if (width, height) != (self.width, self.height):
            return None
        return self.moves.get(self.key(current, mask))

    def lookup(self, game) -> int | None:
        """The book's column for a rules Game, or None."""
        return self.move(*position_of(game), game.width, game.height)


def position_of(game) -> tuple[int, int]:
    """(current, mask) of a rules Game: the side to move's chips, and all chips (the rules'
    own bitboards, a spare bit atop each column)."""
    return game.position.stones[game.current_player()], game.position.occupied


_SHIPPED: list[Book] = []  # the shipped book, once read


def shipped_text() -> str:
    return (resources.files("gridfall") / "data" / "connect4" / BOOK_FILE).read_text()
