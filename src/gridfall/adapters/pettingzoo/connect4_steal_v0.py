"""Connect Four 7x9 with STEAL (CodinGame) as a PettingZoo AEC environment.

- Agents ``player_0`` (moves first) and ``player_1``.
- Actions ``Discrete(10)``: the columns 0..8, and 9 for STEAL, which ``player_1`` may play as its
  first action only; the first chip becomes its own and ``player_0`` moves again.
- Observations ``{"observation": (7, 9, 2) int8, "action_mask": (10,) int8}``: plane 0 holds the
  observing agent's chips, plane 1 the opponent's, row 0 the top row; the mask is empty for the
  agent not to move.
- Rewards +1 for a win, -1 for a loss, 0 for a draw, at the end.
- :func:`env` wraps the raw environment as PettingZoo's classic games are: an illegal action
  ends the game with -1 for the agent that played it.
- ``width``, ``height`` and ``steal`` give other boards (``raw_env(width=7, height=6, steal=False)``).
- ``render_mode``: ``"ansi"`` (text), ``"human"`` (printed at every step) or ``"rgb_array"``, the
  board as an image, ``(height * 24, width * 24, 3)`` uint8 in the replay pages' colours.
"""

from __future__ import annotations

from gridfall.adapters import require

require("pettingzoo", "pettingzoo")  # the install command if it is missing

import numpy as np  # noqa: E402
import pettingzoo  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from gridfall.adapters.raster import board_image  # noqa: E402
from gridfall.interface import StateBase, action_id  # noqa: E402
from gridfall.registry import load_game  # noqa: E402


def env(**kwargs):
    """The environment with PettingZoo's classic wrappers (illegal action: -1 and the game ends)."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


RENDER_MODES = ["human", "ansi", "rgb_array"]


class raw_env(pettingzoo.AECEnv):  # noqa: N801 (PettingZoo's own name for it)
    metadata = {"render_modes": RENDER_MODES, "name": "connect4_steal_v0", "is_parallelizable": False, "render_fps": 2}

    def __init__(self, render_mode: str | None = None, width: int = 9, height: int = 7, steal: bool = True):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {RENDER_MODES}")
        self.render_mode = render_mode
        self.game = load_game("connect4", width=width, height=height, steal=steal)
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        n = self.game.num_distinct_actions()
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 1, shape=(height, width, 2), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.state: StateBase | None = None

    def _live(self, doing: str) -> StateBase:
        """The game's state; RuntimeError before the first reset (the wrapped :func:`env` says so
        itself, the raw one did not)."""
        if self.state is None:
            raise RuntimeError(f"call reset() before {doing}()")
        return self.state

    def _seat(self, agent) -> int:
        if agent not in self.possible_agents:
            raise ValueError(f"agent {agent!r}: this environment's agents are {self.possible_agents}")
        return self.possible_agents.index(agent)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat, state = self._seat(agent), self._live("observe")
        planes = state.observation_planes(seat)  # (2, rows, columns): own chips, then the opponent's
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if agent == self.agent_selection and not state.is_terminal():
            mask[state.legal_actions()] = 1
        return {"observation": np.ascontiguousarray(planes.transpose(1, 2, 0)), "action_mask": mask}

    def reset(self, seed=None, options=None):
        # The game has no chance, so a seed changes nothing.  Options are taken, not refused as the
        # Gymnasium envs do: PettingZoo's api_test resets with options={"options": 1} and expects it to pass.
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def step(self, action):
        state = self._live("step")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        self._clear_rewards()
        state.apply_action(action_id(action))  # IllegalAction names the fault (the wrapper catches it first)
        if state.is_terminal():
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = state.returns()[seat]
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.state.observation_planes(0), "connect4")  # seat 0's chips are plane 0
        text = str(self.state)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self):
        pass
