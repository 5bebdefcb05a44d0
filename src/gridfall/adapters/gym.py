"""Gymnasium environments: ``gridfall/SameGame-v0``, ``gridfall/Match3-v0``, and
``gridfall/Connect4-v0``, one seat against one of gridfall's players (:class:`Connect4Env`).

    import gymnasium as gym
    import gridfall.adapters.gym                    # registers the ids
    env = gym.make("gridfall/SameGame-v0")          # a new random board at each reset
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

- Actions: ``Discrete(game.num_distinct_actions())``, gridfall's action ids
  (:mod:`gridfall.interface`); ``info["action_mask"]`` marks the legal ones (int8), and so does
  ``action_masks()`` (bool), the method sb3-contrib's MaskablePPO asks.
- Observations: one-hot planes, ``(colours, rows, columns)`` int8, row 0 the top row.
- Rewards: the points of each move (SameGame's clear bonus, Match-3's cascades included).
- ``render_mode="ansi"``: ``render()`` returns the board and the score as text; ``"human"``
  prints them at every reset and step, as Gymnasium's human mode does; ``"rgb_array"`` returns
  the board as an image, ``(rows * 24, columns * 24, 3)`` uint8 in the replay pages' colours
  (for Gymnasium's ``RecordVideo``).
- An illegal action (an id outside the mask) changes nothing and earns nothing, as an empty or
  single tile does in CodinGame's one-turn flavour; ``info["illegal_action"]`` says so.  With
  ``illegal_action="end"`` it ends the episode instead, as in the turn flavour: SameGame and
  Match-3 keep the points earned, and in Connect Four it is a loss (reward -1).
- ``reset(seed=s)`` is reproducible: SameGame plays ``random:s`` (or the fixed ``board`` given
  to ``make``), Match-3 seeds CodeAbbey's generator with ``s``.  It takes no ``options``.
- An action that is not a whole number (2.5, text, None) raises IllegalAction (a ValueError): it
  is a bug in the agent, not a move.

``import gridfall.adapters.gym`` registers the ids; the package also declares them under the
``gymnasium.envs`` entry point, which gymnasium 0.26-0.29 loads by itself (1.x no longer reads
plugins: import the module, or ``gym.make("gridfall.adapters.gym:gridfall/SameGame-v0")``).
"""

from __future__ import annotations

import abc

from gridfall.adapters import require

require("gymnasium", "gym")  # the install command if it is missing

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from gridfall.adapters.raster import board_image  # noqa: E402
from gridfall.interface import IllegalAction, StateBase, action_id  # noqa: E402
from gridfall.players import Player  # noqa: E402
from gridfall.registry import load_game  # noqa: E402

ILLEGAL = ("ignore", "end")
NO_ACTION = -1  # Connect4Env's info["opponent_action"] before the opponent's first move


class GridfallEnv(gymnasium.Env, abc.ABC):
    """A one-player gridfall game as a Gymnasium environment (see the module's notes)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}
    # the reward of an illegal action that ends the episode (illegal_action="end"): none in a
    # one-player game, which keeps the points it has
    ending_reward = 0.0

    def __init__(self, game_name: str, render_mode: str | None = None, illegal_action: str = "ignore",
                 **parameters):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {self.metadata['render_modes']}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action {illegal_action!r}: choose one of {ILLEGAL}")
        self.game_name, self.parameters = game_name, parameters
        self.render_mode, self.illegal_action = render_mode, illegal_action
        self.game = self._game(seed=0)
        shape = self.game.observation_shape()
        self.observation_space = spaces.Box(0, 1, shape=shape, dtype=np.int8)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: StateBase | None = None
        self.ended = False

    def _no_options(self, options: dict | None) -> None:
        """reset's ``options`` are refused, naming the settings that go to ``gym.make`` instead."""
        if options:
            import inspect

            settings = [p for p in inspect.signature(type(self)).parameters if p != "render_mode"]
            raise ValueError(f"reset(options={options!r}): this environment takes no options (its settings go to "
                             f"gym.make: {', '.join(f'{p}=' for p in settings)})")

    def _live(self) -> StateBase:
        """The episode's state; RuntimeError before the first reset."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    @abc.abstractmethod
    def _game(self, seed: int):
        """The game this environment plays: each environment class below names its own."""

    def _mask(self) -> list[int]:
        """1 for each action the agent may take now, 0 elsewhere."""
        return self._live().legal_actions_mask()

    def _observe(self):
        return self._live().observation_planes(), {"action_mask": np.array(self._mask(), dtype=np.int8)}

    def action_masks(self) -> np.ndarray:
        """``info["action_mask"]`` as booleans, asked of the environment itself: sb3-contrib's
        MaskablePPO calls this method by this name (every step, vectorised or not)."""
        return np.array(self._mask(), dtype=bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._no_options(options)
        super().reset(seed=seed)
        # The game's own seed comes from the environment's generator: reproducible from reset's seed.
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**31))
        self.game = self._game(game_seed)
        self.state = self.game.new_initial_state()
        self.ended = False  # an illegal action under illegal_action="end" ends the episode, not the game
        self._show()
        return self._observe()

    def _take(self, action):
        """Apply the agent's ``action``; None, or the step's answer when the action is illegal."""
        state = self._live()
        if state.is_terminal() or self.ended:
            raise RuntimeError("the episode is over: call reset()")
        action = action_id(action)
        legal = self.action_space.contains(action) and state.legal_actions_mask()[action] == 1
        if not legal:
            observation, info = self._observe()
            info["illegal_action"] = True
            self.ended = self.illegal_action == "end"
            self._show()
            return observation, self.ending_reward if self.ended else 0.0, self.ended, False, info
        state.apply_action(action)
        return None

    def step(self, action):
        refused = self._take(action)
        if refused is not None:
            return refused
        observation, info = self._observe()
        state = self._live()
        info["illegal_action"] = False
        info["score"] = state.returns()[0]
        self._show()
        return observation, float(state.rewards()[0]), state.is_terminal(), False, info

    def _show(self) -> None:
        """Gymnasium's "human" mode renders at every reset and step, without a call to render()."""
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.state.observation_planes(), self.game_name)
        text = f"{self.state}\nscore {self.state.returns()[0]:g}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


class SameGameEnv(GridfallEnv):
    """SameGame on a random board per reset, or on ``board`` (a spec such as ``standard:3``, a
    file's path) always: read once, when the environment is made."""

    def __init__(self, render_mode: str | None = None, board: str | None = None, illegal_action: str = "ignore"):
        self.fixed = None if board is None else load_game("samegame", board=board)
        super().__init__("samegame", render_mode, illegal_action, board=board)

    def _game(self, seed: int):
        return self.fixed if self.fixed is not None else load_game("samegame", board=f"random:{seed}")


class Match3Env(GridfallEnv):
    """One Match-3 board of ``size``, for ``moves`` moves; the generator is seeded by reset's seed."""

    def __init__(self, render_mode: str | None = None, size: int = 8, moves: int = 1000,
                 illegal_action: str = "ignore"):
        super().__init__("match3", render_mode, illegal_action, size=size, moves=moves)

    def _game(self, seed: int):
        return load_game("match3", seed=seed, **self.parameters)


class Connect4Env(GridfallEnv):
    """Connect Four, 7x9 with STEAL by default (``width``, ``height`` and ``steal`` as
    :func:`gridfall.load_game` takes them: ``width=7, height=6, steal=False`` is the classic
    game), one seat against ``opponent``: a name of
    :func:`gridfall.load_player` (``random``, ``greedy``, ``mcts:200``, ``mcts-solver:1000``,
    ``gridfall:100000``, ...), or a player of your own, any object with ``act(state, seconds)``
    that returns a legal action of the interface's state (an earlier copy of the agent being
    trained, say).  The agent plays ``seat`` 0 (first), 1 (second), or by default a
    seat drawn at each reset (``info["seat"]``).  The opponent moves inside ``reset`` (when it
    moves first) and ``step``, each move within ``opponent_seconds`` (None: the player's own
    default); ``info["opponent_action"]`` is its last action (``width``, 9 by default: it stole the agent's first chip;
    -1: it has not moved yet; a number always, so that vector environments can stack it).
    Observations are the planes from the agent's side (its chips, then the opponent's); the reward
    comes at the end: +1 for a win, -1 for a loss, 0 for a draw.  A seeded reset makes the
    opponent again with that seed, so the same seed and actions give the same game with any
    opponent whose play depends on its seed alone (every name above but a timed one: ``mcts``,
    ``gridfall``).  A player of your own is used as given, never made again: its seed is yours."""

    # an illegal move loses, as CodinGame's referee and PettingZoo's classic games rule: a 0 let an
    # agent in a lost position escape its loss as a draw
    ending_reward = -1.0

    def __init__(self, render_mode: str | None = None, opponent: str | Player = "random", seat: int | None = None,
                 opponent_seconds: float | None = None, illegal_action: str = "ignore", width: int = 9,
                 height: int = 7, steal: bool = True):
        from gridfall.players import load_player, move_seconds

        if seat not in (None, 0, 1):
            raise ValueError(f"seat {seat!r}: 0 (first), 1 (second), or None for a seat drawn at each reset")
        move_seconds(opponent_seconds, 0.0, "opponent_seconds")  # checked now, not at the first move
        super().__init__("connect4", render_mode, illegal_action, width=width, height=height, steal=steal)
        self.seat, self.opponent_seconds = seat, opponent_seconds
        if isinstance(opponent, str):
            self.opponent_name, self.opponent_by_name = opponent, True
            self.opponent = load_player(self.game, opponent)  # a wrong name is named now, not at the first reset
        elif callable(getattr(opponent, "act", None)):
            self.opponent_name, self.opponent_by_name = getattr(opponent, "name", type(opponent).__name__), False
            self.opponent = opponent
        else:
            raise TypeError(f"opponent={opponent!r:.60}: a name of gridfall.load_player ('random', 'gridfall:100000', "
                            "...) or a player, an object with act(state, seconds)")
        self.agent_seat: int = 0
        self.opponent_action = NO_ACTION

    def _game(self, seed: int):
        return load_game("connect4", **self.parameters)

    def _mask(self) -> list[int]:
        return self._live().legal_actions_mask(self.agent_seat)

    def _observe(self):
        return (self._live().observation_planes(self.agent_seat),
                {"action_mask": np.array(self._mask(), dtype=np.int8), "seat": self.agent_seat,
                 "opponent_action": self.opponent_action})

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        from gridfall.players import load_player

        self._no_options(options)
        gymnasium.Env.reset(self, seed=seed)
        if seed is not None and self.opponent_by_name:  # a player given as an object is kept
            self.opponent = load_player(self.game, self.opponent_name, seed=seed)
        self.agent_seat = self.seat if self.seat is not None else int(self.np_random.integers(0, 2))
        self.state, self.ended, self.opponent_action = self.game.new_initial_state(), False, NO_ACTION
        self._opponent_moves()
        self._show()
        return self._observe()

    def _opponent_moves(self) -> None:
        state = self._live()
        while not state.is_terminal() and state.current_player() != self.agent_seat:
            action = self.opponent.act(state.clone(), self.opponent_seconds)  # a clone: a player may play it on
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in state.legal_actions():
                raise IllegalAction(f"the opponent {self.opponent_name} chose {action!r:.60}, not one of the legal "
                                    f"actions {state.legal_actions()}")
            self.opponent_action = int(action)
            state.apply_action(self.opponent_action)

    def step(self, action):
        refused = self._take(action)
        if refused is not None:
            return refused
        self._opponent_moves()
        observation, info = self._observe()
        info["illegal_action"] = False
        self._show()
        state = self._live()
        reward = state.returns()[self.agent_seat] if state.is_terminal() else 0.0
        return observation, float(reward), state.is_terminal(), False, info

    def render(self):
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.state.observation_planes(0), "connect4")  # player 0's chips in its colour
        text = f"{self.state}\nyou are player {self.agent_seat} (the {self.agent_seat} chips), against {self.opponent_name}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


ENVIRONMENTS = {
    "gridfall/SameGame-v0": ("gridfall.adapters.gym:SameGameEnv", 1000),
    "gridfall/Match3-v0": ("gridfall.adapters.gym:Match3Env", 5000),
    "gridfall/Connect4-v0": ("gridfall.adapters.gym:Connect4Env", 1000),
}


def register_envs() -> None:
    """Register the ids with gymnasium (the entry point calls this too); safe to call again.

    ``max_episode_steps`` truncates an episode that keeps choosing illegal actions."""
    for env_id, (entry_point, max_steps) in ENVIRONMENTS.items():
        if env_id not in gymnasium.envs.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, max_episode_steps=max_steps)


register_envs()
