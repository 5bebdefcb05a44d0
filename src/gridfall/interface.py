"""The one game interface: a game object and a state object per game, with OpenSpiel's verbs.

Every game of gridfall is played through the same two objects, named and behaving as in
OpenSpiel's Python games, so that one player, one adapter, one arena and one viewer serve all
three games::

    game = gridfall.load_game("connect4")      # or "samegame", "match3"
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                            # one value per player

Players are numbered from 0; ``current_player()`` is ``TERMINAL`` (-4, as in OpenSpiel) once the
game is over.  No gridfall game has chance nodes: Match-3's refill is CodeAbbey's seeded
generator, owned by the state (see :mod:`gridfall.match3.state` for why).

Actions are integers in ``range(game.num_distinct_actions())``, fixed per game:

============  =============================  =========================================
game          action                         text (``action_to_string``)
============  =============================  =========================================
samegame      cell ``x * 15 + y``: the       ``"x y"``, (0, 0) bottom left; any cell
              group's smallest (x, y) in     of a group is accepted by
              ``legal_actions()``            ``apply_action``, as on CodinGame
connect4      column ``0..width-1``; STEAL   ``"4"``, ``"STEAL"`` (``"-2"`` is read
              is ``width`` (9 on 9x7)        too)
match3        ``((row-1)*N + col-1)*2 + d``  ``"col row dir"``, 1-based, row 1 on top;
              with d = 0 for R, 1 for D;     L and U are read as the same swap seen
              N the board's size             from the other cell
============  =============================  =========================================

Beside those verbs, a state has OpenSpiel's small conveniences: ``child(action)`` (a clone with the
action applied), ``is_player_node()``, ``player_return(p)``, ``player_reward(p)``,
``history_str()``, ``is_initial_state()`` and ``num_players()``; ``copy.copy`` and
``copy.deepcopy`` are ``clone()``.

``str(state)`` is the board as the platform sends it; ``state.serialize()`` is the game's
parameters and action history, and ``game.deserialize_state(text)`` replays it.

The interface sits on each game's rules of record (the ``rules.py`` modules): it adds the
verbs and the action numbering, never a second implementation of the rules.
"""

from __future__ import annotations

import abc
import importlib
import json

# An action's checks live with the rules that need them (and go into the exported bots without
# the rest of this module); they are part of the interface too.
from gridfall.actions import IllegalAction, action_id, whole_number

TERMINAL = -4  # current_player() once the game is over (pyspiel.PlayerId.TERMINAL)


def _last_argument(verb: str, args: tuple):
    """What OpenSpiel's two forms ``verb(value)`` and ``verb(player, value)`` give: the value."""
    if len(args) not in (1, 2):
        raise TypeError(f"{verb} takes (value) or (player, value), not {len(args)} arguments")
    return args[-1]


class GameBase(abc.ABC):
    """What the three games share: parameters, the action range, serialisation.

    A subclass sets ``short_name`` and implements the abstract methods below; one that misses
    any cannot be instantiated.
    """

    short_name = ""

    @abc.abstractmethod
    def num_distinct_actions(self) -> int:
        """The size of the action range: actions are 0 .. this - 1."""

    @abc.abstractmethod
    def num_players(self) -> int:
        """1 or 2."""

    @abc.abstractmethod
    def max_game_length(self) -> int:
        """The most actions a game can take."""

    @abc.abstractmethod
    def get_parameters(self) -> dict:
        """The parameters ``load_game`` built this game with (they name it and its states)."""

    @abc.abstractmethod
    def new_initial_state(self) -> "StateBase":
        """The state before the first action."""

    @abc.abstractmethod
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of ``state.observation_planes()``: (planes, rows, columns)."""

    def deserialize_state(self, text: str) -> "StateBase":
        """The state that ``state.serialize()`` wrote: the game's parameters must match this game's."""
        fields = ("game", "parameters", "history")
        try:
            record = json.loads(text)
        except RecursionError:  # "[[[[..." a few thousand deep (gridfall.json_text; not bundled in exports)
            raise ValueError("not a serialised gridfall state: JSON nested too deeply to read") from None
        except (ValueError, TypeError) as e:
            raise ValueError(f"not a serialised gridfall state: {e}") from None
        one_is = f"one is a JSON object of {', '.join(fields)} (state.serialize())"
        if not isinstance(record, dict):
            raise ValueError(f"not a serialised gridfall state: it is {type(record).__name__} {record!r:.40}; {one_is}")
        missing = [field for field in fields if field not in record]
        if missing:
            raise ValueError(f"not a serialised gridfall state: it has no {missing[0]!r}; {one_is}")
        name, parameters, history = (record[field] for field in fields)
        if not isinstance(history, list):
            raise ValueError(f"not a serialised gridfall state: its history is {history!r:.40}, not a list of actions")
        if name != self.short_name or parameters != self.get_parameters():
            raise ValueError(f"the state is of game {name!r:.40} with parameters {parameters!r:.80}, "
                             f"this game is {self}")
        state = self.new_initial_state()
        for number, action in enumerate(history, start=1):
            try:
                state.apply_action(action)
            except IllegalAction as e:  # say which of a long history's actions, keeping the game's own error
                e.args = (f"the serialised state's action {number} of {len(history)}: {e}",)
                raise
        return state

    def __str__(self) -> str:
        parameters = ",".join(f"{k}={v}" for k, v in self.get_parameters().items())
        return f"{self.short_name}({parameters})"

    def __repr__(self) -> str:
        return f"<gridfall game {self}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, GameBase) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


class StateBase(abc.ABC):
    """The verbs every state has; a subclass implements the game-specific ones.

    A subclass implements the abstract methods below (and ``current_player`` if the game has two
    players), and keeps ``self.game`` and ``self._history`` (the actions applied); one that
    misses any cannot be instantiated.
    """

    game: GameBase
    _history: list[int]

    @abc.abstractmethod
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending; none for a player not to move, or once the game is over."""

    @abc.abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action`` (an id, a whole number); IllegalAction with the referee's reason if it is not legal."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """One value per player: the game's result, or the score so far in the one-player games."""

    @abc.abstractmethod
    def rewards(self) -> list[float]:
        """One value per player: what the last action earned."""

    @abc.abstractmethod
    def clone(self) -> "StateBase":
        """A state of its own, equal to this one: moves on either leave the other as it is."""

    @abc.abstractmethod
    def observation_planes(self, player: int | None = None):
        """One-hot planes, ``game.observation_shape()``, int8 (numpy), row 0 the top row."""

    @abc.abstractmethod
    def _action_to_string(self, action: int) -> str:
        """The platform's text of ``action`` (``action_to_string`` takes OpenSpiel's two forms)."""

    @abc.abstractmethod
    def _string_to_action(self, text: str) -> int:
        """The action the platform's ``text`` means, IllegalAction otherwise."""

    @abc.abstractmethod
    def __str__(self) -> str:
        """The board as the platform sends it."""

    def current_player(self) -> int:
        """0 until the end, then TERMINAL: the one-player games' rule (Connect Four has its own)."""
        return TERMINAL if self.is_terminal() else 0

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal action id, 0 elsewhere, over the whole action range."""
        mask = [0] * self.game.num_distinct_actions()
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def is_player_node(self) -> bool:
        return not self.is_terminal()  # no chance or simultaneous nodes

    def num_players(self) -> int:
        return self.game.num_players()

    def player_return(self, player: int) -> float:
        return self.returns()[self._check_player(player)]

    def player_reward(self, player: int) -> float:
        return self.rewards()[self._check_player(player)]

    def child(self, action) -> "StateBase":
        """A new state: this one after ``action`` (this one is left as it is)."""
        after = self.clone()
        after.apply_action(action)
        return after

    def history(self) -> list[int]:
        return list(self._history)

    def history_str(self) -> str:
        return ", ".join(map(str, self._history))  # OpenSpiel's form: "4, 9, 3"

    def is_initial_state(self) -> bool:
        return not self._history

    def move_number(self) -> int:
        return len(self._history)

    def serialize(self) -> str:
        return json.dumps({"game": self.game.short_name, "parameters": self.game.get_parameters(),
                           "history": self._history})

    def get_game(self) -> GameBase:
        return self.game

    def action_to_string(self, *args) -> str:
        """The action's text, as the platform writes it; ``(action)`` or, like OpenSpiel, ``(player, action)``."""
        return self._action_to_string(self._action_in_range(_last_argument("action_to_string", args)))

    def string_to_action(self, *args) -> int:
        """The action that the platform's text means; ``(text)`` or ``(player, text)``."""
        text = _last_argument("string_to_action", args)
        if not isinstance(text, str):
            raise TypeError(f"string_to_action reads text, not {type(text).__name__} {text!r:.40}")
        return self._string_to_action(text)

    def _player_matches(self, player: int | None) -> bool:
        """OpenSpiel's legal_actions(player): a player not to move has none."""
        return player is None or player == self.current_player()

    def _check_player(self, player) -> int:
        """A player's number as an int; ValueError naming it if the game has no such player
        (a list index of -1 would quietly answer for the last player)."""
        number, players = whole_number(player), self.game.num_players()
        if number is None or not 0 <= number < players:
            raise ValueError(f"player {player!r:.40} is not a player of {self.game.short_name}: "
                             f"its players are {', '.join(map(str, range(players)))}")
        return number

    def _action_in_range(self, action) -> int:
        """An action id in the game's range, as an int; IllegalAction naming it otherwise."""
        given, action = action, action_id(action)
        if not 0 <= action < self.game.num_distinct_actions():  # named as given: 1e300 stays short
            raise IllegalAction(f"action {given} is outside 0..{self.game.num_distinct_actions() - 1}")
        return action

    def _check_action(self, action) -> int:
        """An action id in range for a game not over, as an int; IllegalAction naming it otherwise."""
        action = self._action_in_range(action)
        if self.is_terminal():
            raise IllegalAction("the game is over")
        return action

    def __copy__(self) -> "StateBase":
        # copy.copy's default shares the board and history lists: a move on the copy moved both
        return self.clone()

    def __deepcopy__(self, memo) -> "StateBase":
        return self.clone()  # the game (parameters only) is shared, as clone() shares it

    def __repr__(self) -> str:
        return f"<{self.game} after {len(self._history)} actions>\n{self}"

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter and the other IPython front ends (needs NumPy)."""
        # named at run time: the exported bots carry every module an import statement names
        # (export.package_closure), and a bot never draws
        return importlib.import_module("gridfall.board_svg").state_svg(self)
