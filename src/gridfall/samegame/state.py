"""SameGame through the one game interface (:mod:`gridfall.interface`), on the rules of record.

One player.  An action is a cell, ``x * 15 + y``; ``legal_actions()`` names each group once, by
its smallest (x, y) (the rules' canonical cell, so the ids come in the rules' group order), and
``apply_action`` takes any cell of a group, as a click on CodinGame does.  ``returns()`` is the
score so far, the clear bonus included; ``rewards()`` the points of the last click.
"""

from __future__ import annotations

import os

from gridfall.interface import GameBase, IllegalAction, StateBase
from gridfall.samegame.rules import COLOURS, EMPTY, HEIGHT, WIDTH, Board, Group, action_text, parse_action

CELLS = WIDTH * HEIGHT


def cell_action(x: int, y: int) -> int:
    return x * HEIGHT + y


def action_cell(action: int) -> tuple[int, int]:
    return divmod(action, HEIGHT)


class SameGameGame(GameBase):
    """One board of SameGame; ``board`` is a spec (``standard:3``, ``random:7``, a file) or a Board.

    The game names its board by a spec that holds on any machine: a file's board, or a Board's,
    by its ``rows:`` spec (:func:`gridfall.samegame.boards.portable_spec`), so its string form and
    its serialised states replay where the file is not, or after it changed."""

    short_name = "samegame"

    def __init__(self, board: "str | Board" = "standard:1"):
        from gridfall.samegame.boards import BoardError, load_board, portable_spec, rows_spec

        if isinstance(board, Board):
            self.board, self.board_spec = board, rows_spec(board)
        elif isinstance(board, (str, os.PathLike)):
            self.board = load_board(str(board))
            self.board_spec = portable_spec(str(board), self.board)
        else:
            raise BoardError(f"board={board!r:.60}: give a spec (standard:3, random:7, a file's path) or a "
                             "Board (gridfall.samegame.boards.parse_board reads 15 rows of text)")

    def num_distinct_actions(self) -> int:
        return CELLS

    def num_players(self) -> int:
        return 1

    def max_game_length(self) -> int:
        return CELLS // 2  # every click removes two cells at least

    def get_parameters(self) -> dict:
        return {"board": self.board_spec}

    def observation_shape(self) -> tuple[int, int, int]:
        return (COLOURS, HEIGHT, WIDTH)

    def new_initial_state(self) -> "SameGameState":
        return SameGameState(self, self.board)


class SameGameState(StateBase):
    game: SameGameGame

    def __init__(self, game: SameGameGame, board: Board):
        self.game = game
        self.board = board
        self.score = 0
        self.last_points = 0
        self._history: list[int] = []
        self._groups: list[Group] | None = None  # the rules' group list for this board, made on first use

    def _legal(self):
        if self._groups is None:
            self._groups = [] if self.board.is_cleared() else self.board.groups()
        return self._groups

    def legal_actions(self, player: int | None = None) -> list[int]:
        if not self._player_matches(player) or self.is_terminal():
            return []
        return [cell_action(g.x, g.y) for g in self._legal()]

    def apply_action(self, action: int) -> None:
        action = self._check_action(action)
        x, y = action_cell(action)
        self.board, self.last_points = self.board.play(x, y)  # IllegalMove (an IllegalAction) if no group
        self.score += self.last_points
        self._groups = None
        self._history.append(action)

    def is_terminal(self) -> bool:
        if self._groups is None:
            return self.board.is_over()  # a scan for two touching cells: cheaper than the group list
        return not self._groups

    def returns(self) -> list[float]:
        return [float(self.score)]

    def rewards(self) -> list[float]:
        return [float(self.last_points)]

    def clone(self) -> "SameGameState":
        other = SameGameState(self.game, self.board)  # boards are immutable: sharing is safe
        other.score, other.last_points, other._groups = self.score, self.last_points, self._groups
        other._history = list(self._history)
        return other

    def _action_to_string(self, action) -> str:
        """``"x y"``."""
        x, y = action_cell(action)
        return action_text(x, y)

    def _string_to_action(self, text: str) -> int:
        """The cell of ``"x y"`` (extra words, a message, are ignored as the referee does)."""
        x, y = parse_action(text.strip())
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise IllegalAction(f"{text!r}: ({x}, {y}) is outside the {WIDTH}x{HEIGHT} board")
        return cell_action(x, y)

    def observation_planes(self, player: int | None = None):
        """One-hot planes ``[colour][row][x]``, row 0 the top row as in the text (a numpy array).

        One player, so ``player`` changes nothing."""
        import numpy as np

        planes = np.zeros((COLOURS, HEIGHT, WIDTH), dtype=np.int8)
        for x in range(WIDTH):
            for y in range(HEIGHT):
                colour = self.board.cells[x][y]
                if colour != EMPTY:
                    planes[colour, HEIGHT - 1 - y, x] = 1
        return planes

    def __str__(self) -> str:
        return self.board.text()
