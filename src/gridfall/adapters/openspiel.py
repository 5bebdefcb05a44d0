"""The three games as OpenSpiel Python games: ``import gridfall.adapters.openspiel`` registers them.

    import pyspiel
    import gridfall.adapters.openspiel
    game = pyspiel.load_game("python_gridfall_connect4")            # 9x7 with STEAL
    game = pyspiel.load_game("python_gridfall_samegame(board=standard:3)")
    game = pyspiel.load_game("python_gridfall_match3(size=8,seed=1)")

Each pyspiel state drives a gridfall state (:mod:`gridfall.interface`): the rules, the action
ids and the texts are gridfall's own; this module only speaks pyspiel's dialect.  OpenSpiel's
algorithms written in Python (MCTS, minimax, evaluation) run on them, and so do the C++ functions
that only walk states (``random_sim_test``, ``evaluate_bots`` with C++ bots), slowly.  OpenSpiel
2.0.2's C++ ``pyspiel.MCTSBot`` ends the process with a segmentation fault on any Python game, its
own ``python_tic_tac_toe`` too: use ``open_spiel.python.algorithms.mcts`` instead.

gridfall's own players play there too, as OpenSpiel bots (:class:`GridfallBot`), so that an
algorithm can be measured against them with ``evaluate_bots``.

``state.serialize()`` and ``game.deserialize_state(text)`` are pyspiel's own for Python games, and
its text carries a pickle of the state: deserialize only text you wrote yourself.  To pass a
position on, pass its actions (``state.history()``) and apply them to a new state.
"""

from __future__ import annotations

from gridfall.adapters import require

require("pyspiel", "openspiel")  # the install command if it is missing

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.observation import IIGObserverForPublicInfoGame  # noqa: E402

from gridfall.registry import load_game  # noqa: E402

SHORT_NAMES = {
    "samegame": "python_gridfall_samegame",
    "connect4": "python_gridfall_connect4",
    "match3": "python_gridfall_match3",
}
_PARAMETERS: dict[str, dict[str, object]] = {
    "samegame": {"board": "standard:1"},
    "connect4": {"width": 9, "height": 7, "steal": True},
    "match3": {"size": 8, "seed": 370, "moves": 1000},
}
_LONG_NAMES = {
    "samegame": "gridfall SameGame (CodinGame, 15x15, 5 colours)",
    "connect4": "gridfall Connect Four with STEAL (CodinGame)",
    "match3": "gridfall Match-3 Jewels (CodeAbbey 370)",
}


def _game_type(name: str) -> "pyspiel.GameType":
    two_players = name == "connect4"
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=_LONG_NAMES[name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,  # Match-3's refill is seeded
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_players else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL if two_players else pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=2 if two_players else 1,
        min_num_players=2 if two_players else 1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS[name],
    )


def _max_utility(game) -> float:
    if game.short_name == "connect4":
        return 1.0
    if game.short_name == "samegame":
        return float((225 - 2) ** 2 + 1000)  # one group of every cell, and the clear bonus
    return float(game.moves * 2.0 ** (game.size * game.size - 3))  # every jewel in one move, each move


class _Game(pyspiel.Game):
    """A pyspiel game around a gridfall game; subclassed once per game below."""

    gridfall_name = ""

    def __init__(self, params=None):
        parameters = {**_PARAMETERS[self.gridfall_name], **(params or {})}
        self.gridfall = load_game(self.gridfall_name, **parameters)
        two_players = self.gridfall.num_players() == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=self.gridfall.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=self.gridfall.num_players(),
            min_utility=-1.0 if two_players else 0.0,
            max_utility=_max_utility(self.gridfall),
            utility_sum=0.0 if two_players else None,
            max_game_length=self.gridfall.max_game_length(),
        )
        # the game's own parameters: a SameGame file's board is named by its cells, so that
        # serialize_game_and_state replays where the file is not
        super().__init__(_game_type(self.gridfall_name), info, self.gridfall.get_parameters())

    def new_initial_state(self):
        return _State(self, self.gridfall.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        # An observation is the board.  An information state must be perfect recall: in these
        # perfect-information games, the history of actions, as OpenSpiel's own games give it
        # (two histories can reach one board, and CFR and its kin need them told apart).
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.gridfall, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _State(pyspiel.State):
    """A pyspiel state that forwards every verb to the gridfall state it holds."""

    def __init__(self, game: _Game, inner):
        super().__init__(game)
        self.inner = inner

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.inner.is_terminal() else self.inner.current_player()

    def _legal_actions(self, player):
        return self.inner.legal_actions(player)

    def _apply_action(self, action):
        self.inner.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.inner.action_to_string(int(action))

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return self.inner.returns()

    def rewards(self):
        return self.inner.rewards()

    def __deepcopy__(self, memo):
        # pyspiel's clone() deep-copies a Python state; the gridfall clone is the cheap, right copy.
        return _State(self.get_game(), self.inner.clone())

    def __str__(self):
        return str(self.inner)


class _Observer:
    """OpenSpiel's PyObserver: the gridfall state's one-hot planes, from the player's side."""

    def __init__(self, game, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.shape = game.observation_shape()
        self.tensor = np.zeros(int(np.prod(self.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state.inner.observation_planes(player)

    def string_from(self, state, player):
        return str(state.inner)


class GridfallBot(pyspiel.Bot):
    """A gridfall player (:func:`gridfall.players.load_player`: its ``name``, ``seed`` and keyword
    parameters) as an OpenSpiel bot on one of the games above; ``seconds`` a move (None: the
    player's default).

        game = pyspiel.load_game("python_gridfall_connect4")
        bots = [GridfallBot(game, "gridfall:400000", seed=1), mcts.MCTSBot(game, ...)]
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    """

    def __init__(self, game, name: str | None = None, *, seed: int = 0, seconds: float | None = None, **params):
        pyspiel.Bot.__init__(self)
        if not isinstance(game, _Game):
            raise ValueError(f"{game}: a GridfallBot plays the games this module registers ({', '.join(SHORT_NAMES.values())})")
        from gridfall.players import load_player

        self.player = load_player(game.gridfall, name, seed=seed, **params)
        self.seconds = seconds

    def step(self, state):
        return self.player.act(state.inner, self.seconds)

    def restart_at(self, state):
        pass  # the player sees the whole state at every step

    def inform_action(self, state, player_id, action):
        pass


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name, short_name in SHORT_NAMES.items():
        game_class = type(f"Gridfall{name.capitalize()}Game", (_Game,), {"gridfall_name": name})
        globals()[game_class.__name__] = game_class
        if short_name not in registered:
            pyspiel.register_game(_game_type(name), game_class)


_register()
