"""OpenSpiel: the three games registered as pyspiel Python games; OpenSpiel's MCTS plays
gridfall's Connect Four with STEAL; OpenSpiel's native C++ connect_four judges gridfall's rules."""

import random

import numpy as np
import pytest

import gridfall
from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

pyspiel = need("pyspiel", "openspiel")

import gridfall.adapters.openspiel  # noqa: E402,F401  (registers the games)

NAMES = ["python_gridfall_samegame", "python_gridfall_connect4", "python_gridfall_match3"]
DIFFERENTIAL_GAMES = 2000


def test_registered_and_loadable_by_name_with_parameters():
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert all("gridfall" in name for name in NAMES)
    game = pyspiel.load_game("python_gridfall_connect4(width=7,height=6,steal=False)")
    assert game.num_distinct_actions() == 7 and game.num_players() == 2
    assert pyspiel.load_game("python_gridfall_match3(size=11,seed=4)").num_distinct_actions() == 242


def test_a_samegame_state_from_a_board_file_replays_once_the_file_is_gone(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(gridfall.load_game("samegame", board="standard:4").board.text() + "\n")
    game = pyspiel.load_game("python_gridfall_samegame", {"board": str(path)})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    path.unlink()
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.returns() == state.returns() and again.history() == state.history()
    assert str(again_game) == str(game) and "rows:" in str(game)


@pytest.mark.parametrize("name", ["python_gridfall_connect4", "python_gridfall_samegame(board=random:3)",
                                  "python_gridfall_match3(size=8,seed=2,moves=40)"])
def test_openspiels_own_random_simulation_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=5, serialize=True, verbose=False)


def test_openspiels_cpp_bots_play_a_whole_game_through_the_python_states():
    game = pyspiel.load_game("python_gridfall_connect4")
    bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_observation_tensor_is_the_one_hot_board():
    game = pyspiel.load_game("python_gridfall_connect4")
    state = game.new_initial_state()
    state.apply_action(4)
    tensor = np.array(state.observation_tensor(1)).reshape(2, 7, 9)
    assert tensor[1, 6, 4] == 1 and tensor.sum() == 1  # player 1 sees the chip as the opponent's


def test_an_information_state_is_perfect_recall_and_an_observation_is_the_board():
    """Two orders of the same chips reach one board: one observation, two information states
    (the history, as OpenSpiel's own Python games give it), which CFR and its kin need apart."""
    game = pyspiel.load_game("python_gridfall_connect4")
    states = []
    for order in ([0, 1, 2, 3], [2, 1, 0, 3]):
        state = game.new_initial_state()
        for action in order:
            state.apply_action(action)
        states.append(state)
    first, second = states
    assert first.observation_string(0) == second.observation_string(0)
    assert first.information_state_string(0) == "0, 1, 2, 3" != second.information_state_string(0)


def test_openspiels_mcts_plays_connect4_with_steal_to_the_end():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_gridfall_connect4")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=60, random_state=np.random.RandomState(3),
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(4)))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.move_number() == 1:
            assert 9 in state.legal_actions()  # STEAL is offered to the second player's first action
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    replay = gridfall.load_game("connect4").new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.is_terminal() and replay.returns() == state.returns()


def test_native_connect_four_agrees_on_random_7x9_games():
    """OpenSpiel's C++ connect_four is an independent implementation of the rules: the same
    random games must offer the same actions and end on the same board with the same winner."""
    native_game = pyspiel.load_game("connect_four(rows=7,columns=9)")
    ours_game = gridfall.load_game("connect4", width=9, height=7, steal=False)
    rng = random.Random(2000)
    wins = [0, 0, 0]
    for _ in range(DIFFERENTIAL_GAMES):
        native, ours = native_game.new_initial_state(), ours_game.new_initial_state()
        while not native.is_terminal():
            assert not ours.is_terminal()
            assert ours.legal_actions() == native.legal_actions()
            assert ours.current_player() == native.current_player()
            action = rng.choice(native.legal_actions())
            native.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal()
        assert str(ours) == str(native).strip().replace("x", "0").replace("o", "1")
        assert ours.returns() == native.returns()
        wins[int(native.returns()[0]) + 1] += 1
    assert min(wins[0], wins[2]) > 0  # both players won some games


def test_gridfalls_players_are_openspiel_bots_that_beat_openspiels_mcts():
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("python_gridfall_connect4")
    theirs = mcts.MCTSBot(game, uct_c=2, max_simulations=100, random_state=np.random.RandomState(1),
                          evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    ours = gridfall.adapters.openspiel.GridfallBot(game, "gridfall:50000", seed=1)
    assert evaluate_bots.evaluate_bots(game.new_initial_state(), [ours, theirs], np.random) == [1.0, -1.0]
    assert pyspiel.evaluate_bots(game.new_initial_state(), [theirs, ours], 1) == [-1.0, 1.0]  # OpenSpiel's C++ loop
    samegame = pyspiel.load_game("python_gridfall_samegame(board=standard:2)")
    bot = gridfall.adapters.openspiel.GridfallBot(samegame, "nrpa", seed=1, level=1, max_playouts=1000)
    [score] = evaluate_bots.evaluate_bots(samegame.new_initial_state(), [bot], np.random)
    assert score > 1000 and bot.player.plans == 1
    with pytest.raises(ValueError, match="a GridfallBot plays the games this module registers"):
        gridfall.adapters.openspiel.GridfallBot(pyspiel.load_game("tic_tac_toe"))


@pytest.mark.parametrize("name", ["python_gridfall_samegame(board=standard:2)", "python_gridfall_match3(size=8,seed=3,moves=30)"])
def test_openspiels_rl_environment_pays_each_move_and_sums_to_the_return(name):
    """The one-player games pay points at every move (RewardModel.REWARDS, as OpenSpiel's own 2048
    and morpion_solitaire do), which is what OpenSpiel's RL environment hands its agents."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(name)
    assert env.observation_spec()["info_state"] == (int(np.prod(env.game.observation_tensor_shape())),)
    step, total, rng = env.reset(), 0.0, random.Random(2)
    while not step.last():
        step = env.step([rng.choice(step.observations["legal_actions"][0])])
        total += step.rewards[0]
    assert total > 0 and total == env.get_state.returns()[0]
