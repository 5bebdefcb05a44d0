"""Connect Four through the one game interface (:mod:`gridfall.interface`), on the rules of record.

Two players, 0 moves first.  Actions are the columns ``0..width-1`` and, when the game has the
STEAL rule, ``width`` for STEAL (the rules of record call it -2, as the protocol does).
``returns()`` follows OpenSpiel: +1 for a win, -1 for a loss, 0 for a draw or an unfinished game;
:meth:`Connect4State.points` gives CodinGame's 10/5/0.
"""

from __future__ import annotations

from gridfall.connect4.rules import STEAL, Game, Outcome, action_text, parse_action
from gridfall.interface import TERMINAL, GameBase, IllegalAction, StateBase


class Connect4Game(GameBase):
    """Connect Four; CodinGame's 9 columns x 7 rows with STEAL unless told otherwise."""

    short_name = "connect4"

    def __init__(self, width: int = 9, height: int = 7, steal: bool = True):
        if not (4 <= width and 4 <= height and width * height <= 64):
            raise ValueError(f"a {width}x{height} board is not supported: at least 4x4 and at most 64 cells")
        self.width, self.height, self.steal = int(width), int(height), bool(steal)

    def num_distinct_actions(self) -> int:
        return self.width + (1 if self.steal else 0)

    def num_players(self) -> int:
        return 2

    def max_game_length(self) -> int:
        return self.width * self.height + (1 if self.steal else 0)

    def get_parameters(self) -> dict:
        return {"width": self.width, "height": self.height, "steal": self.steal}

    def observation_shape(self) -> tuple[int, int, int]:
        return (2, self.height, self.width)

    def new_initial_state(self) -> "Connect4State":
        return Connect4State(self, Game(self.width, self.height, self.steal))


class Connect4State(StateBase):
    game: Connect4Game

    def __init__(self, game: Connect4Game, rules: Game):
        self.game = game
        self.rules = rules  # the rules of record's game, which this state drives
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if self.rules.is_terminal() else self.rules.current_player()

    def _to_id(self, action: int) -> int:
        return self.game.width if action == STEAL else action

    def _to_rules(self, action: int) -> int:
        return STEAL if self.game.steal and action == self.game.width else action

    def legal_actions(self, player: int | None = None) -> list[int]:
        if not self._player_matches(player):
            return []
        return [self._to_id(a) for a in self.rules.legal_actions()]

    def apply_action(self, action: int) -> None:
        action = self._check_action(action)
        self.rules.apply_action(self._to_rules(action))  # IllegalAction with the referee's reason
        self._history.append(action)

    def is_terminal(self) -> bool:
        return self.rules.is_terminal()

    def outcome(self, player: int) -> Outcome | None:
        """The game's result for ``player``, or None while it goes on."""
        return self.rules.outcome(player)

    def returns(self) -> list[float]:
        outcomes = [self.rules.outcome(p) for p in (0, 1)]
        return [0.0 if o is None else float(o.utility) for o in outcomes]  # None while the game goes on

    def rewards(self) -> list[float]:
        return self.returns()  # the only reward comes with the last move

    def points(self) -> tuple[int, int]:
        """CodinGame's points of (player 0, player 1), as the rules of record count them."""
        return self.rules.returns()

    def clone(self) -> "Connect4State":
        other = Connect4State(self.game, self.rules.clone())
        other._history = list(self._history)
        return other

    def _action_to_string(self, action) -> str:
        """The protocol's text: the column, or ``STEAL``."""
        return action_text(self._to_rules(action))

    def _string_to_action(self, text: str) -> int:
        try:
            action = parse_action(text)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        if action == STEAL:
            if not self.game.steal:
                raise IllegalAction("this game has no STEAL rule")
            return self.game.width
        if not 0 <= action < self.game.width:
            raise IllegalAction(f"column {action} is outside 0..{self.game.width - 1}")
        return action

    def observation_planes(self, player: int | None = None):
        """Planes ``[2][row][column]`` from ``player``'s side: its chips, then the opponent's (numpy)."""
        import numpy as np

        me = self.rules.current_player() if player is None else self._check_player(player)
        planes = np.zeros((2, self.game.height, self.game.width), dtype=np.int8)
        for owner in (0, 1):
            for x, y in self.rules.position.chips(owner):
                planes[0 if owner == me else 1, self.game.height - 1 - y, x] = 1
        return planes

    def __str__(self) -> str:
        return "\n".join(self.rules.position.rows_text())
