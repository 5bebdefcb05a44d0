"""Connect Four rules of record, with the CodinGame STEAL rule: plain Python.

This module is the executable specification; :mod:`gridfall.connect4.engine`
is the same rules made fast, and the tests require the two to agree.

The board
    ``width`` columns x ``height`` rows (CodinGame: 9 x 7, standard 7 x 6).
    Chips fall to the lowest empty cell of a column.  Four or more in a row
    through the last chip (horizontally, vertically or diagonally) wins; a full
    board without a win is a draw (a win on the last cell is a win).

STEAL (the pie rule)
    As its first action only (turn index 1), the second player may play STEAL
    (-2): the first player's only chip becomes the second player's, and no chip
    is added.  Whose turn it is follows the turn index (even: first player,
    odd: second), so after a steal the first player moves next with no chip of
    its own on the board.

Bitboards
    A :class:`Position` keeps one Python int per player.  Cell (x, y) (column
    x from the left, row y from the bottom) is bit ``x * (height + 1) + y``:
    each column has one spare bit on top, so that shifting a line of chips
    sideways or diagonally never runs from one column into the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from gridfall.actions import IllegalAction as _IllegalAction

STEAL = -2


class Outcome(Enum):
    """A finished game's result for one player: CodinGame's points and OpenSpiel's utility."""

    WIN = (10, 1)
    DRAW = (5, 0)
    LOSS = (0, -1)

    @property
    def points(self) -> int:
        return self.value[0]

    @property
    def utility(self) -> int:
        return self.value[1]


class IllegalAction(_IllegalAction):
    """An action the referee refuses; the message says why."""


def parse_action(text: str) -> int:
    """The protocol's action in a line: the word before the first space, ``STEAL`` (any case)
    or an integer (-2 is STEAL too).  ValueError naming the text if it is neither."""
    token = text.strip().split(" ", 1)[0]
    if token.upper() == "STEAL":
        return STEAL
    try:
        return int(token)
    except ValueError:
        hint = " (the statement puts a space, not a tab, before a message)" if "\t" in token else ""
        raise ValueError(f"{text[:40]!r} is neither a column nor STEAL{hint}") from None


def action_text(action: int) -> str:
    """The protocol's text of an action: the column, or ``STEAL``."""
    return "STEAL" if action == STEAL else str(action)


@dataclass(frozen=True)
class Position:
    """Chips on a board: ``stones[p]`` is player p's bitboard (p = 0 moves first)."""

    width: int = 9
    height: int = 7
    stones: tuple[int, int] = (0, 0)

    def bit(self, x: int, y: int) -> int:
        return 1 << (x * (self.height + 1) + y)

    @property
    def occupied(self) -> int:
        return self.stones[0] | self.stones[1]

    def column_height(self, x: int) -> int:
        """Chips in column x: its bits, shifted down to bit 0 and counted (they fill it from the bottom)."""
        return ((self.occupied >> (x * (self.height + 1))) & ((1 << self.height) - 1)).bit_count()

    def can_play(self, x: int) -> bool:
        return 0 <= x < self.width and self.column_height(x) < self.height

    def playable_columns(self) -> list[int]:
        return [x for x in range(self.width) if self.can_play(x)]

    def drop(self, player: int, x: int) -> "Position":
        """Player drops a chip in column x (which must not be full)."""
        if not self.can_play(x):
            raise IllegalAction(f"column {x} is full or outside 0..{self.width - 1}")
        stones = list(self.stones)
        stones[player] |= self.bit(x, self.column_height(x))
        return Position(self.width, self.height, (stones[0], stones[1]))

    def chips(self, player: int) -> list[tuple[int, int]]:
        """The (x, y) of each of player's chips: one bit at a time, lowest first."""
        found, s = [], self.stones[player]
        while s:
            low = s & -s  # the lowest set bit alone
            found.append(divmod(low.bit_length() - 1, self.height + 1))
            s ^= low
        return found

    def cell(self, x: int, y: int) -> int | None:
        """The player owning (x, y), or None."""
        for p in (0, 1):
            if self.stones[p] & self.bit(x, y):
                return p
        return None

    def is_full(self) -> bool:
        return self.occupied.bit_count() == self.width * self.height

    def has_four(self, player: int) -> bool:
        """Four of player's chips in a row anywhere (the shift-and trick).

        ``s & (s >> d)`` keeps the chips whose neighbour in direction d is also
        theirs; doing it again with ``2d`` keeps the starts of four in a row.
        Directions: 1 (vertical), h+1 (horizontal), h (one diagonal), h+2 (the other).
        """
        s = self.stones[player]
        h = self.height
        for d in (1, h + 1, h, h + 2):
            pairs = s & (s >> d)
            if pairs & (pairs >> (2 * d)):
                return True
        return False

    def rows_text(self) -> list[str]:
        """The board as the referee sends it: rows top first, '.', '0', '1'."""
        out = []
        for y in reversed(range(self.height)):
            out.append("".join("." if self.cell(x, y) is None else str(self.cell(x, y)) for x in range(self.width)))
        return out


@dataclass
class Game:
    """A CodinGame game in progress: the position, the turn index and the result.

    The state API follows OpenSpiel's verbs: :meth:`legal_actions`,
    :meth:`apply_action`, :meth:`current_player`, :meth:`is_terminal`,
    :meth:`returns`, :meth:`clone`.
    """

    width: int = 9
    height: int = 7
    steal: bool = True
    turn: int = 0  # number of actions so far (a steal counts)
    position: Position = None  # type: ignore[assignment]
    winner: int | None = None
    history: list[int] = field(default_factory=list)

    def __post_init__(self):
        if self.position is None:
            self.position = Position(self.width, self.height)

    @classmethod
    def from_moves(cls, moves: str, width: int = 9, height: int = 7, steal: bool = True) -> "Game":
        """A game from a string of 0-based column digits (the data files' notation; no STEAL in it)."""
        game = cls(width, height, steal)
        moves = moves.strip()
        # a fault comes by move width * height + 1, so the start of a long string shows it
        start = max(80, width * height + 1)
        shown = repr(moves) if len(moves) <= start else f"{moves[:start]!r}... ({len(moves):,} characters)"
        for number, ch in enumerate(moves, start=1):
            if not "0" <= ch <= "9" or int(ch) >= width:
                hint = (" (one digit a move, nothing between: '4453')" if not ch.isalnum() else
                        " (a STEAL is not written: it swaps the sides, not the board)" if ch in "sS" else "")
                raise IllegalAction(f"move {number} of {shown}: {ch!r} is not a column 0..{width - 1}{hint}")
            if game.is_terminal():
                raise IllegalAction(f"move {number} of {shown}: the game is already "
                                    + ("won" if game.winner is not None else "drawn (the board is full)"))
            try:
                game.apply_action(int(ch))
            except IllegalAction as e:
                raise IllegalAction(f"move {number} of {shown}: {e}") from None
        return game

    @classmethod
    def from_protocol(cls, rows: list[str], turn: int, width: int = 9, height: int = 7, steal: bool = True) -> "Game":
        """The game as a CodinGame turn describes it: rows top first ('.', '0', '1') and the turn index."""
        if len(rows) != height or any(len(r) != width for r in rows):
            raise IllegalAction(f"expected {height} rows of {width} cells, got {[len(r) for r in rows]}")
        stones = [0, 0]
        probe = Position(width, height)
        for i, row in enumerate(rows):
            y = height - 1 - i
            for x, ch in enumerate(row):
                if ch in "01":
                    stones[int(ch)] |= probe.bit(x, y)
                elif ch != ".":
                    raise IllegalAction(f"row {i + 1}: {ch!r} is not '.', '0' or '1'")
        game = cls(width, height, steal, turn, Position(width, height, (stones[0], stones[1])))
        for p in (0, 1):
            if game.position.has_four(p):
                game.winner = p
        return game

    def current_player(self) -> int:
        return self.turn % 2

    def legal_actions(self) -> list[int]:
        """Non-full columns ascending, plus STEAL (-2) at turn index 1."""
        if self.is_terminal():
            return []
        actions = self.position.playable_columns()
        if self.steal and self.turn == 1:
            actions.append(STEAL)
        return actions

    def check(self, action: int) -> None:
        """Raise IllegalAction with the referee's reason if ``action`` is refused."""
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if action == STEAL:
            if not (self.steal and self.turn == 1):
                raise IllegalAction("STEAL is only allowed as the second player's first action")
            return
        if not 0 <= action < self.width:
            raise IllegalAction(f"column {action} is outside 0..{self.width - 1}")
        if not self.position.can_play(action):
            raise IllegalAction(f"column {action} is full")

    def apply_action(self, action: int) -> None:
        self.check(action)
        player = self.current_player()
        if action == STEAL:
            first = self.position.stones[0]
            self.position = Position(self.width, self.height, (0, first))
        else:
            self.position = self.position.drop(player, action)
            if self.position.has_four(player):
                self.winner = player
        self.turn += 1
        self.history.append(action)

    def is_terminal(self) -> bool:
        return self.winner is not None or self.position.is_full()

    def outcome(self, player: int) -> Outcome | None:
        """The result for ``player`` once the game is over, else None."""
        if not self.is_terminal():
            return None
        if self.winner is None:
            return Outcome.DRAW
        return Outcome.WIN if self.winner == player else Outcome.LOSS

    def returns(self) -> tuple[int, int]:
        """CodinGame points of (player 0, player 1): win 10, draw 5, loss 0 (0, 0 while playing)."""
        first, second = self.outcome(0), self.outcome(1)
        if first is None or second is None:
            return (0, 0)
        return (first.points, second.points)

    def clone(self) -> "Game":
        return Game(self.width, self.height, self.steal, self.turn, self.position, self.winner, list(self.history))

    def moves_string(self) -> str:
        """The columns played so far, in the data files' notation (no steal)."""
        return "".join(str(a) for a in self.history if a != STEAL)
