"""Gymnasium: gridfall/SameGame-v0 and gridfall/Match3-v0 pass gymnasium's own checker."""

import importlib.metadata

import numpy as np
import pytest

import gridfall
from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

gymnasium = need("gymnasium", "gym")

import gridfall.adapters.gym  # noqa: E402  (registers the ids)
from gridfall.interface import IllegalAction  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

IDS = ["gridfall/SameGame-v0", "gridfall/Match3-v0"]  # the one-player games
ALL_IDS = [*IDS, "gridfall/Connect4-v0"]


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_check_env_passes(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_masked_random_episode_scores_the_rules_score_and_resets_reproducibly(env_id):
    env = gymnasium.make(env_id, **({"moves": 40} if "Match3" in env_id else {}))
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=5)
        rng = np.random.default_rng(0)
        total, steps, terminated, truncated = 0.0, 0, False, False
        while not (terminated or truncated):
            assert obs.shape == env.observation_space.shape and obs.sum() > 0
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            total, steps = total + reward, steps + 1
            assert not info["illegal_action"]
        assert total == info["score"] > 0
        runs.append((total, steps, obs.tobytes()))
    assert runs[0] == runs[1]
    env.close()


@pytest.mark.parametrize("env_id, settings", [("gridfall/SameGame-v0", {}), ("gridfall/Match3-v0", {"moves": 30}),
                                               ("gridfall/Connect4-v0", {"seat": 1})])
def test_action_masks_is_the_infos_mask_as_booleans_through_gyms_wrappers(env_id, settings):
    """sb3-contrib's MaskablePPO asks the environment's action_masks(), through gym.make's
    wrappers (get_wrapper_attr); Connect Four's is the agent's seat's, here the second."""
    env = gymnasium.make(env_id, **settings)
    with pytest.raises(RuntimeError, match="reset"):
        env.get_wrapper_attr("action_masks")()
    obs, info = env.reset(seed=3)
    rng, done = np.random.default_rng(1), False
    while not done:
        masks = env.get_wrapper_attr("action_masks")()
        assert masks.dtype == bool and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, info["action_mask"].astype(bool)) and masks.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        done = terminated or truncated
    assert not env.get_wrapper_attr("action_masks")().any()  # the game is over: nothing is legal
    env.close()


def test_human_rendering_shows_every_reset_and_step_and_ansi_returns_the_text(capsys):
    # human mode printed only when render() was called: Gymnasium's human mode needs no call
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:1", render_mode="human")
    obs, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    shown = capsys.readouterr().out
    assert shown.count("score ") == 2 and "score 0" in shown
    ansi = gymnasium.make("gridfall/Match3-v0", render_mode="ansi")
    ansi.reset(seed=2)
    assert capsys.readouterr().out == "" and ansi.render().endswith("score 0")


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_draws_each_cell_in_the_replay_pages_colour(env_id):
    from gridfall import palette

    env = gymnasium.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)  # gymnasium's own check of the frame
    env.reset(seed=4)
    state = env.unwrapped.state
    if "SameGame" in env_id:  # a few clicks, so that empty cells are drawn too
        for _ in range(20):
            env.step(int(state.legal_actions()[0]))
    image = env.render()
    planes = state.observation_planes()
    _, rows, columns = planes.shape
    assert image.shape == (rows * 24, columns * 24, 3) and image.dtype == np.uint8
    colours, empty, _ = palette.plane_colours(env.unwrapped.game_name)
    for r in range(rows):
        for c in range(columns):
            marked = np.flatnonzero(planes[:, r, c])
            expected = palette.rgb(colours[marked[0]]) if len(marked) else palette.rgb(empty)
            assert tuple(image[r * 24 + 12, c * 24 + 12]) == expected, (r, c)
    if "SameGame" in env_id:
        assert not planes[:, 0, 0].any()  # the top left cell was emptied: white


def test_illegal_action_changes_nothing_or_ends_the_episode():
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:1")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward == 0 and not terminated and (after == obs).all()
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:1", illegal_action="end")
    env.reset(seed=1)
    assert env.step(illegal)[2] is True
    with pytest.raises(RuntimeError, match="episode is over"):  # it went on stepping after the end
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.reset(seed=1)
    assert env.step(int(np.flatnonzero(info["action_mask"])[0]))[4]["illegal_action"] is False
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make("gridfall/SameGame-v0", illegal_action="lose")


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_an_unwrapped_env_stepped_before_reset_says_so(env_id):
    env = gymnasium.make(env_id).unwrapped  # without gymnasium's order-enforcing wrapper
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)


def test_an_action_that_is_no_whole_number_and_unknown_reset_options_are_refused_by_name():
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:1")
    obs, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (legal + 0.5, np.float32(legal + 0.25), "3", None, True):
        with pytest.raises(ValueError, match=r"is not an integer"):
            env.step(bad)
    assert env.step(np.int64(legal))[4]["illegal_action"] is False  # NumPy integers are integers
    with pytest.raises(ValueError, match=r"takes no options.*board="):
        env.reset(options={"board": "standard:2"})
    with pytest.raises(ValueError, match=r"takes no options.*gym.make: opponent=, seat="):  # each env its own
        gymnasium.make("gridfall/Connect4-v0").reset(options={"width": 7})


def test_a_fixed_board_and_a_seeded_random_board():
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:3", render_mode="ansi")
    env.reset(seed=9)
    assert env.render().startswith(gridfall.load_game("samegame", board="standard:3").board.text())
    env = gymnasium.make("gridfall/SameGame-v0", render_mode="ansi")
    env.reset(seed=9)
    assert env.render().startswith(gridfall.load_game("samegame", board="random:9").board.text())


def test_a_board_file_is_read_once_when_the_env_is_made(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(gridfall.load_game("samegame", board="standard:5").board.text() + "\n")
    env = gymnasium.make("gridfall/SameGame-v0", board=str(path), render_mode="ansi")
    path.unlink()  # training goes on if the file goes (or changes)
    for seed in (1, 2):
        env.reset(seed=seed)
        assert env.render().startswith(gridfall.load_game("samegame", board="standard:5").board.text())
    with pytest.raises(ValueError, match="no such board file"):
        gymnasium.make("gridfall/SameGame-v0", board=str(path))  # named when the env is made


def test_the_entry_point_registers_the_ids():
    (entry,) = [e for e in importlib.metadata.entry_points(group="gymnasium.envs") if e.value.startswith("gridfall")]
    for env_id in ALL_IDS:
        gymnasium.envs.registry.pop(env_id)
    entry.load()()
    assert all(env_id in gymnasium.envs.registry for env_id in ALL_IDS)


def test_the_module_form_of_the_id_needs_no_import_and_async_vector_envs_play_as_sync_ones():
    """Gymnasium 1.x reads no plugins: gym.make("gridfall.adapters.gym:gridfall/SameGame-v0")
    imports the module itself, in a fresh interpreter and in each process of an async vector env."""
    import subprocess
    import sys

    script = """
import gymnasium as gym, numpy as np
rewards = {}
for mode in ("sync", "async"):
    envs = gym.make_vec("gridfall.adapters.gym:gridfall/Match3-v0", num_envs=2, vectorization_mode=mode, moves=5)
    obs, info = envs.reset(seed=3)
    total = np.zeros(2)
    for _ in range(5):
        obs, reward, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))
        total += reward
    envs.close()
    rewards[mode] = total.tolist()
print(rewards["sync"] == rewards["async"] and min(rewards["sync"]) > 0, rewards)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("True"), done.stdout


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_a_vector_env_stacks_every_info_through_episode_ends(env_id):
    # a vector env stacks each info key into one array: a None among numbers (Connect4-v0's
    # opponent_action before the opponent moved) broke the step that met it
    parameters = {"gridfall/Match3-v0": {"moves": 10}, "gridfall/Connect4-v0": {"opponent": "greedy"}}
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", **parameters.get(env_id, {}))
    obs, info = envs.reset(seed=4)
    ends = 0
    for _ in range(150):
        # the step after an episode's end resets it (its mask, at the end, is empty) and the action is ignored
        actions = [int(np.flatnonzero(mask)[0]) if mask.any() else 0 for mask in info["action_mask"]]
        obs, reward, terminated, truncated, info = envs.step(np.array(actions))
        ends += int(terminated.sum())
        assert obs.shape == (2, *envs.single_observation_space.shape) and info["action_mask"].shape == (2, envs.single_action_space.n)
    envs.close()
    assert ends >= 2
    if env_id == "gridfall/Connect4-v0":
        assert info["opponent_action"].dtype.kind == "i" and set(info["seat"]) <= {0, 1}


def test_gridfalls_player_steps_the_env_from_its_state():
    env = gymnasium.make("gridfall/Match3-v0", size=8, moves=100)
    obs, info = env.reset(seed=3)
    player, total, done = gridfall.load_player(env.unwrapped.game, "greedy"), 0.0, False
    while not done:
        action = player.act(env.unwrapped.state)
        assert info["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(action)
        total, done = total + reward, terminated or truncated
    assert total == env.unwrapped.state.returns()[0] > 0


def test_connect4_plays_a_seat_against_a_player_and_rewards_the_result():
    env = gymnasium.make("gridfall/Connect4-v0", opponent="gridfall:20000", seat=0)
    obs, info = env.reset(seed=2)
    assert info["seat"] == 0 and info["opponent_action"] == -1 and obs.sum() == 0
    obs, reward, terminated, _, info = env.step(4)  # a central first chip: gridfall steals it
    assert info["opponent_action"] == 9 and obs[:, 6, 4].tolist() == [0, 1]  # the chip is now the opponent's
    assert info["action_mask"][9] == 0 and info["action_mask"].sum() == 9 and reward == 0 and not terminated
    again, reward, terminated, _, info = env.step(9)  # STEAL out of turn: refused, nothing changes
    assert info["illegal_action"] and (again == obs).all() and not terminated and reward == 0
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == env.unwrapped.state.returns()[0] == -1.0  # the leftmost column every time loses to gridfall


def test_connect4_illegal_action_that_ends_the_episode_loses_it():
    """As CodinGame's referee and PettingZoo's game rule; it was 0, a draw for an agent in a lost position."""
    env = gymnasium.make("gridfall/Connect4-v0", seat=0, illegal_action="end")
    obs, info = env.reset(seed=3)
    assert info["action_mask"][9] == 0  # no STEAL for the first player's first move
    after, reward, terminated, truncated, info = env.step(9)
    assert info["illegal_action"] and reward == -1.0 and terminated and not truncated and (after == obs).all()
    assert not env.unwrapped.state.is_terminal()  # the episode ends, the game is left as it was
    env = gymnasium.make("gridfall/SameGame-v0", board="standard:1", illegal_action="end")
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.unwrapped.state.legal_actions_mask())[0]))
    illegal = int(np.flatnonzero(np.array(env.unwrapped.state.legal_actions_mask()) == 0)[0])
    assert env.step(illegal)[1:3] == (0.0, True)  # a one-player game keeps the points it has


def test_connect4_as_second_player_and_the_same_seed_gives_the_same_game():
    games = []
    for _ in range(2):
        env = gymnasium.make("gridfall/Connect4-v0", opponent="mcts:100", seat=1)
        obs, info = env.reset(seed=5)
        assert info["seat"] == 1 and info["opponent_action"] in range(9) and obs[1].sum() == 1
        terminated, rng = False, np.random.default_rng(1)
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        games.append(env.unwrapped.state.history())
    assert games[0] == games[1]
    seats = {gymnasium.make("gridfall/Connect4-v0").reset(seed=s)[1]["seat"] for s in range(8)}
    assert seats == {0, 1}  # by default a seat is drawn at each reset


class Leftmost:
    """A player of the user's own: the leftmost open column, never STEAL; it counts its moves."""

    name = "leftmost"

    def __init__(self):
        self.moves = 0

    def act(self, state, seconds=None):
        self.moves += 1
        state.apply_action(min(state.legal_actions()))  # it may play on what it is given: a clone
        return state.history()[-1]


def test_connect4_plays_against_a_player_of_ones_own_kept_across_resets():
    leftmost = Leftmost()
    env = gymnasium.make("gridfall/Connect4-v0", opponent=leftmost, seat=1)
    obs, info = env.reset(seed=3)
    assert info["opponent_action"] == 0 and obs[1, 6, 0] == 1 and leftmost.moves == 1
    obs, reward, terminated, _, info = env.step(5)
    assert info["opponent_action"] == 0 and env.unwrapped.state.history() == [0, 5, 0]  # no STEAL: column 0 again
    env.reset(seed=4)  # a seeded reset keeps the player given: its seed is the user's
    assert env.unwrapped.opponent is leftmost and leftmost.moves == 3
    shown = gymnasium.make("gridfall/Connect4-v0", opponent=leftmost, seat=0, render_mode="ansi")
    shown.reset(seed=1)
    assert shown.render().endswith("you are player 0 (the 0 chips), against leftmost")
    # gridfall's own players are players too; a move as soon as it is the opponent's turn
    greedy = gridfall.load_player("connect4", "greedy")
    env = gymnasium.make("gridfall/Connect4-v0", opponent=greedy, seat=0)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, _, info = env.step(4)
    assert info["opponent_action"] in range(10) and len(env.unwrapped.state.history()) == 2


def test_connect4_names_an_opponent_that_is_no_player_or_chooses_an_illegal_action():
    with pytest.raises(TypeError, match="opponent=42: a name of gridfall.load_player .* or a player"):
        gymnasium.make("gridfall/Connect4-v0", opponent=42)

    class Stealer:
        def act(self, state, seconds=None):
            return 9  # STEAL, even where it is not offered

    env = gymnasium.make("gridfall/Connect4-v0", opponent=Stealer(), seat=1)
    with pytest.raises(IllegalAction, match=r"the opponent Stealer chose 9, not one of the legal actions \[0, 1"):
        env.reset(seed=0)


def test_connect4_plays_the_classic_board_too():
    # width, height and steal as load_game takes them: 7x6 without STEAL, against any of the players
    env = gymnasium.make("gridfall/Connect4-v0", width=7, height=6, steal=False, opponent="alphabeta:4", seat=1)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert obs.shape == (2, 6, 7) and env.action_space.n == 7 and info["action_mask"].tolist() == [1] * 7
    assert obs[1].sum() == 1  # the opponent's first chip, no STEAL to answer it with
    terminated = False
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == env.unwrapped.state.returns()[1] and str(env.unwrapped.game).startswith("connect4")
    with pytest.raises(ValueError, match="a 3x6 board is not supported"):
        gymnasium.make("gridfall/Connect4-v0", width=3, height=6)
    with pytest.raises(ValueError, match="steal must be True or False, not 'yes'"):
        gymnasium.make("gridfall/Connect4-v0", steal="yes")


def test_connect4_refuses_a_wrong_opponent_seat_or_time_by_name():
    with pytest.raises(ValueError, match="unknown agent 'deep-blue'"):
        gymnasium.make("gridfall/Connect4-v0", opponent="deep-blue")
    with pytest.raises(ValueError, match="seat 2: 0 \\(first\\), 1 \\(second\\)"):
        gymnasium.make("gridfall/Connect4-v0", seat=2)
    for seconds in (-1, float("nan"), "0.1"):  # at make, not at the opponent's first move
        with pytest.raises(ValueError, match=f"opponent_seconds={seconds!r}: a finite time of 0 or more"):
            gymnasium.make("gridfall/Connect4-v0", opponent_seconds=seconds)
