"""PettingZoo: connect4_steal_v0 passes PettingZoo's API and seed tests, and STEAL works."""

import numpy as np
import pytest

from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

need("pettingzoo", "pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from gridfall.adapters.pettingzoo import connect4_steal_v0  # noqa: E402


# PettingZoo's checker warns about every Dict observation, its own classic games' included.
@pytest.mark.filterwarnings("ignore:Observation")
def test_api_test_and_seed_test_pass():
    api_test(connect4_steal_v0.env(), num_cycles=1000)
    seed_test(connect4_steal_v0.env, num_cycles=500)


def test_steal_takes_the_first_chip_and_player_0_moves_again():
    env = connect4_steal_v0.env()
    env.reset(seed=0)
    assert env.action_space("player_0").n == 10
    assert env.observe("player_0")["action_mask"].tolist() == [1] * 9 + [0]
    env.step(4)
    assert env.agent_selection == "player_1" and env.observe("player_1")["action_mask"][9] == 1
    env.step(9)
    assert env.agent_selection == "player_0"
    board = env.observe("player_1")["observation"]
    assert board[6, 4, 0] == 1 and board.sum() == 1  # the chip is player_1's own now
    assert env.observe("player_0")["action_mask"][9] == 0


def test_an_illegal_action_loses_and_a_win_pays_one():
    env = connect4_steal_v0.env()
    env.reset()
    env.step(4)
    env.step(4)
    env.step(9)  # STEAL is player_1's first action only: player_0 loses
    assert env.terminations["player_0"] and env.rewards == {"player_0": -1, "player_1": 0}
    env.reset()
    for column in (0, 1, 0, 1, 0, 1, 0):
        env.step(column)
    assert env.unwrapped.state.returns() == [1.0, -1.0]  # gridfall won as player_0
    _, reward, terminated, _, _ = env.last()
    assert terminated and np.isfinite(reward)


def test_render_test_passes_for_every_render_mode(capsys):
    from pettingzoo.test import render_test

    render_test(connect4_steal_v0.env)  # each of metadata's modes: human, ansi and rgb_array
    assert "." in capsys.readouterr().out  # human mode printed the board


def test_rgb_array_draws_the_chips_of_each_seat_in_its_colour():
    from gridfall import palette

    env = connect4_steal_v0.env(render_mode="rgb_array")
    env.reset(seed=0)
    for action in (4, 9, 4, 3):  # player_1 steals the chip in column 4; player_0 stacks on it
        env.step(action)
    image = env.render()
    assert image.shape == (7 * 24, 9 * 24, 3) and image.dtype == np.uint8

    def at(column, row_from_bottom):
        return tuple(image[(6 - row_from_bottom) * 24 + 12, column * 24 + 12])

    yellow, red, hole = (palette.rgb(palette.CONNECT4[k]) for k in ("0", "1", "hole"))
    assert at(4, 0) == red and at(4, 1) == yellow and at(3, 0) == red and at(0, 0) == hole
    assert tuple(image[0, 0]) == palette.rgb(palette.CONNECT4["board"])  # a corner, outside every disc


def test_gridfalls_player_plays_a_seat_from_the_envs_state():
    import gridfall

    env = connect4_steal_v0.env()
    env.reset(seed=1)
    player = gridfall.load_player(env.unwrapped.game, "gridfall:20000", seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif agent == "player_0":
            action = player.act(env.unwrapped.state)
        else:
            action = int(np.flatnonzero(observation["action_mask"])[0])  # the leftmost legal column
        env.step(action)
    assert env.unwrapped.state.returns() == [1.0, -1.0]  # gridfall won as player_0


def test_the_raw_env_says_reset_comes_first_and_names_an_unknown_agent():
    raw = connect4_steal_v0.raw_env()
    for call in (lambda: raw.step(4), lambda: raw.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    raw.reset()
    with pytest.raises(ValueError, match=r"agent 0: this environment's agents are \['player_0', 'player_1'\]"):
        raw.observe(0)
