"""Match-3 through the one game interface (:mod:`gridfall.interface`), on the rules of record.

One player, one board of CodeAbbey's challenge: the board of ``size`` drawn from the generator
seeded with ``seed``, played until ``moves`` moves or until no legal move is left.  An action is
a swap, ``((row - 1) * size + col - 1) * 2 + d`` with d = 0 for R and 1 for D (every swap has
one such name; ``"col row L"`` is read as the same swap from its left cell).  ``returns()`` is
the points so far, ``rewards()`` the points of the last move, cascades included.

The refill is CodeAbbey's seeded generator, owned by the state, rather than a chance node:
- it is the platform's own rule, so a game here is the referee's game move for move, and its
  returns equal the referee's score for the same seed and moves;
- the generator redraws a jewel that would complete a line, so the next jewel's distribution
  depends on its neighbours and on the generator's state; a chance node would have to invent a
  distribution the platform does not use;
- one decision node per move keeps the game a plain one-player game for every framework.
A clone carries the generator, so a search through clones sees the true refills (a player on
CodeAbbey does not know the generator's state); :meth:`Match3State.reseeded` gives a copy with
other refills for a search that should not.
"""

from __future__ import annotations

from gridfall.interface import GameBase, IllegalAction, StateBase
from gridfall.match3 import portable
from gridfall.match3.rules import (
    DEFAULT_SEED, DIRECTIONS, HOLE, JEWELS, MOVES_PER_GAME, Board, Generator, IllegalMove, fill, new_board, points,
)

SWAP_DIRECTIONS = "RD"  # the two directions that name every swap once


class Match3Game(GameBase):
    """One Match-3 board of ``size`` from the generator seeded with ``seed``, for ``moves`` moves."""

    short_name = "match3"

    def __init__(self, size: int = 8, seed: int = DEFAULT_SEED, moves: int = MOVES_PER_GAME):
        self._set(size, seed, moves)
        gen = Generator(self.seed)
        self.board = new_board(self.size, gen)
        self._generator_after_board = gen.x

    def _set(self, size: int, seed: int, moves: int) -> None:
        if not 3 <= int(size) <= 40:
            raise ValueError(f"size {size}: a board is 3x3 to 40x40 (CodeAbbey plays 8, 11, 12 and 13)")
        if int(moves) < 1:
            raise ValueError(f"moves {moves}: a game has at least one move")
        self.size, self.seed, self.moves = int(size), int(seed), int(moves)

    @classmethod
    def from_board(cls, rows, *, seed: int = DEFAULT_SEED, moves: int = MOVES_PER_GAME) -> "Match3Game":
        """The game that starts from the board ``rows`` (strings of jewels A-G, the top row first,
        as a suggest function gets it), for ``moves`` moves, its refills drawn from the generator
        seeded with ``seed``: the board is the platform's, its generator's state is not known.
        ValueError names a board that is not one (not square, a letter that is no jewel, a hole).
        Its ``get_parameters()`` do not carry the board: a game made from them starts elsewhere."""
        text = rows if isinstance(rows, str) else "\n".join(str(row) for row in rows)
        board = Board.parse(text, "the board")
        if board.has_holes():
            raise ValueError("the board: a hole (*) in a position to play from; every cell holds a jewel")
        game = cls.__new__(cls)  # no board drawn: a suggest function makes a game each move
        game._set(board.size, seed, moves)
        game.board, game._generator_after_board = board, Generator(seed).x
        return game

    def num_distinct_actions(self) -> int:
        return self.size * self.size * 2

    def num_players(self) -> int:
        return 1

    def max_game_length(self) -> int:
        return self.moves

    def get_parameters(self) -> dict:
        return {"size": self.size, "seed": self.seed, "moves": self.moves}

    def observation_shape(self) -> tuple[int, int, int]:
        return (len(JEWELS), self.size, self.size)

    def new_initial_state(self) -> "Match3State":
        return Match3State(self, self.board, Generator(self._generator_after_board))

    def swap_action(self, col: int, row: int, direction: str) -> int:
        """The action id of a swap given as (col, row, dir), any of R, L, D, U."""
        n = self.size
        if direction not in DIRECTIONS:
            raise IllegalAction(f"direction {direction!r} is not one of R, L, D, U")
        if direction in "LU":  # the same swap, named from the other cell
            dc, dr = DIRECTIONS[direction]
            col, row, direction = col + dc, row + dr, "R" if direction == "L" else "D"
        if not (1 <= col <= n and 1 <= row <= n) or (direction == "R" and col == n) or (direction == "D" and row == n):
            raise IllegalAction(f"the swap leaves the {n}x{n} board")
        return ((row - 1) * n + col - 1) * 2 + SWAP_DIRECTIONS.index(direction)

    def action_swap(self, action: int) -> tuple[int, int, str]:
        """(col, row, dir) of an action id, dir R or D."""
        cell, d = divmod(action, 2)
        row, col = divmod(cell, self.size)
        return col + 1, row + 1, SWAP_DIRECTIONS[d]


class Match3State(StateBase):
    """The board is kept as :mod:`gridfall.match3.portable` keeps it (a flat list of jewel codes,
    the exported players' form of the rules, tested against them move by move): its legal swaps,
    found from the pairs on the board, and its cascade, which looks only at the cells that
    changed, make a step about three times as fast as on the rules' ``Board``, which tries every
    swap.  The refill is the rules' own :func:`~gridfall.match3.rules.fill`.
    ``board`` gives the rules' Board."""

    game: Match3Game

    def __init__(self, game: Match3Game, board: Board, generator: Generator):
        self.game = game
        self._cells = portable._grid(board.rows)[0]  # row-major, codes 0-6 (-1 a hole, within a move)
        self.generator = generator
        self.score = 0
        self.last_points = 0
        self._history: list[int] = []
        self._legal: list[int] | None = None  # the legal ids, listed once per position

    @property
    def board(self) -> Board:
        return Board(tuple("".join(row) for row in self._grid()))

    def _grid(self) -> list[list[str]]:
        """The cells as the rules' grid: rows of letters, top first, holes as ``*``."""
        n = self.game.size
        return [[JEWELS[code] if code >= 0 else HOLE for code in self._cells[r * n:r * n + n]] for r in range(n)]

    def _legal_ids(self) -> list[int]:
        if self._legal is None:  # scan order, R before D: the ids come sorted
            self._legal = [2 * i + (j != i + 1) for i, j in portable.legal_swaps(self._cells, self.game.size)]
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if not self._player_matches(player) or self.is_terminal():
            return []
        return list(self._legal_ids())

    def apply_action(self, action: int) -> None:
        action = self._check_action(action)
        if action not in self._legal_ids():
            self.board.play(*self.game.action_swap(action))  # the rules say why: off the board, or no line
            raise IllegalMove(f"{self._action_to_string(action)} is not a legal swap")  # (they always refuse)
        n = self.game.size
        cell, down = divmod(action, 2)
        removed = portable.cascade(self._cells, n, cell, cell + (n if down else 1))  # leaves holes as -1
        grid = self._grid()
        fill(grid, self.generator)
        self._cells = portable._grid(grid)[0]
        self.last_points = points(removed)
        self.score += self.last_points
        self._legal = None
        self._history.append(action)

    def is_terminal(self) -> bool:
        return len(self._history) >= self.game.moves or not self._legal_ids()

    def returns(self) -> list[float]:
        return [float(self.score)]

    def rewards(self) -> list[float]:
        return [float(self.last_points)]

    def clone(self) -> "Match3State":
        other = Match3State.__new__(Match3State)
        other.__dict__.update(self.__dict__)  # the legal list is never changed in place: shared
        other._cells, other.generator = list(self._cells), Generator(self.generator.x)  # a move changes both
        other._history = list(self._history)
        return other

    def reseeded(self, seed: int) -> "Match3State":
        """A clone whose later refills come from the generator seeded with ``seed``."""
        other = self.clone()
        other.generator = Generator(seed)
        return other

    def _action_to_string(self, action) -> str:
        """``"col row dir"`` as CodeAbbey's suggest returns it."""
        col, row, direction = self.game.action_swap(action)
        return f"{col} {row} {direction}"

    def _string_to_action(self, text: str) -> int:
        words = text.replace(",", " ").split()
        try:
            col, row, direction = int(words[0]), int(words[1]), words[2].upper()
        except (IndexError, ValueError):
            raise IllegalAction(f"{text!r} is not 'col row dir'") from None
        return self.game.swap_action(col, row, direction)

    def observation_planes(self, player: int | None = None):
        """One-hot planes ``[jewel][row][col]``, row 0 the top row (a numpy array).

        One player: ``player``, if given, must be 0, and changes nothing."""
        if player is not None:
            self._check_player(player)
        import numpy as np

        n = self.game.size
        codes = np.array(self._cells, dtype=np.int8).reshape(n, n)
        return (codes[None, :, :] == np.arange(len(JEWELS), dtype=np.int8)[:, None, None]).astype(np.int8)

    def __str__(self) -> str:
        return self.board.text()
