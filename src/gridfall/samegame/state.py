"""SameGame through the one game interface (:mod:`gridfall.interface`), on the rules of record as
:mod:`gridfall.samegame.columns` stores them for speed.

One player.  An action is a cell, ``x * 15 + y``; ``legal_actions()`` names each group once, by
its smallest (x, y) (the rules' canonical cell, so the ids come in the rules' group order), and
``apply_action`` takes any cell of a group, as a click on CodinGame does.  ``returns()`` is the
score so far, the clear bonus included; ``rewards()`` the points of the last click.
"""

from __future__ import annotations

import os

from gridfall.interface import GameBase, IllegalAction, StateBase
from gridfall.samegame import columns
from gridfall.samegame.rules import (COLOURS, EMPTY_TILE, HEIGHT, REGION_OF_ONE, WIDTH, Board, IllegalMove, action_text,
                                     parse_action)

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
        from gridfall.samegame.boards import BoardError, checked_board, load_board, portable_spec, rows_spec

        if isinstance(board, Board):  # checked as a board read from text is: the state keeps it as columns
            self.board = checked_board(board, "board=")
            self.board_spec = rows_spec(self.board)
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
    """The board is kept as :mod:`gridfall.samegame.columns` keeps it (the rules of record stored to
    be fast, tested against them move by move), so a step takes no flood of the whole board: about
    seven times the rules' speed, which a search written against the interface spends in playouts.
    ``board`` gives the rules' Board."""

    game: SameGameGame

    def __init__(self, game: SameGameGame, board: Board):
        self.game = game
        self._columns = columns.from_board(board)
        self._board: Board | None = board  # the rules' Board of _columns, made on first use
        self.score = 0
        self.last_points = 0
        self._history: list[int] = []
        self._groups: list[columns.Group] | None = None  # the groups of _columns, made on first use
        self._ids: list[int] | None = None  # their action ids, sorted, made on first use

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = columns.to_board(self._columns)
        return self._board

    def _legal(self) -> list[columns.Group]:
        if self._groups is None:
            self._groups = columns.groups(self._columns)
        return self._groups

    def legal_actions(self, player: int | None = None) -> list[int]:
        if not self._player_matches(player) or self.is_terminal():
            return []
        if self._ids is None:
            # a group's smallest flat index, x * 15 + y, is its canonical cell's action id: sorted,
            # the rules' group order
            self._ids = sorted(min(members) for _, members, _, _ in self._legal())
        return list(self._ids)

    def apply_action(self, action: int) -> None:
        action = self._check_action(action)
        group = next((g for g in self._legal() if action in g[1]), None)
        if group is None:
            x, y = action_cell(action)
            empty = x >= len(self._columns) or y >= len(self._columns[x])
            raise IllegalMove(EMPTY_TILE if empty else REGION_OF_ONE, x, y)
        after = columns.remove(self._columns, group[1])
        self._groups = columns.regroup(self._legal(), group, after, len(self._columns))
        self._columns, self._board, self._ids = after, None, None
        self.last_points = columns.move_points(len(group[1]), cleared=not after)
        self.score += self.last_points
        self._history.append(action)

    def is_terminal(self) -> bool:
        return not self._legal()

    def returns(self) -> list[float]:
        return [float(self.score)]

    def rewards(self) -> list[float]:
        return [float(self.last_points)]

    def clone(self) -> "SameGameState":
        other = SameGameState.__new__(SameGameState)
        other.__dict__.update(self.__dict__)  # columns, boards and groups are never changed in place: shared
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

        One player: ``player``, if given, must be 0, and changes nothing."""
        if player is not None:
            self._check_player(player)
        import numpy as np

        flat = b"".join(column.ljust(HEIGHT, b"\xff") for column in self._columns).ljust(CELLS, b"\xff")
        cells = np.frombuffer(flat, dtype=np.uint8).reshape(WIDTH, HEIGHT)  # [x][y], 255 where empty
        return (cells.T[::-1] == np.arange(COLOURS, dtype=np.uint8)[:, None, None]).astype(np.int8)

    def __str__(self) -> str:
        return self.board.text()
