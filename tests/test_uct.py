"""The generic UCT player drives all three games through the interface alone."""

import random

import pytest

import gridfall
from gridfall.uct import UCTPlayer

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def play_out(state, choose):
    while not state.is_terminal():
        state.apply_action(choose(state))
    return state


def test_uct_beats_random_at_connect4_in_both_seats():
    game = gridfall.load_game("connect4")
    points = 0.0
    for number in range(6):
        seat, player, rng = number % 2, UCTPlayer(seed=number, iterations=150), random.Random(number)
        state = play_out(game.new_initial_state(),
                         lambda s: player.act(s) if s.current_player() == seat else rng.choice(s.legal_actions()))
        points += (state.returns()[seat] + 1) / 2
    assert points >= 5.5


def random_mean(game, games):
    total = 0.0
    for number in range(games):
        rng = random.Random(number)
        total += play_out(game.new_initial_state(), lambda s: rng.choice(s.legal_actions())).returns()[0]
    return total / games


def test_uct_beats_random_play_at_samegame_and_match3():
    samegame = gridfall.load_game("samegame", board="tuning:1")
    player = UCTPlayer(seed=0, iterations=12)
    assert play_out(samegame.new_initial_state(), player.act).returns()[0] > random_mean(samegame, 20)
    match3 = gridfall.load_game("match3", size=8, seed=5, moves=15)
    player = UCTPlayer(seed=0, iterations=30, rollout_depth=2)
    assert play_out(match3.new_initial_state(), player.act).returns()[0] > 2 * random_mean(match3, 20)


def test_uct_is_reproducible_with_a_seed_and_keeps_to_a_deadline():
    import time

    state = gridfall.load_game("connect4").new_initial_state()
    state.apply_action(4)
    first = [UCTPlayer(seed=7, iterations=200).act(state) for _ in range(2)]
    assert first[0] == first[1]
    player = UCTPlayer(seed=1)
    start = time.monotonic()
    action = player.act(state, seconds=0.2)
    assert action in state.legal_actions() and time.monotonic() - start < 1.0 and player.last_iterations > 10


def test_no_time_still_gives_a_move_and_a_bad_budget_is_named():
    # seconds=0 ended in "max() arg is an empty sequence": no iteration had run
    state = gridfall.load_game("connect4").new_initial_state()
    player = UCTPlayer(seed=1)
    assert player.act(state, 0) in state.legal_actions() and player.last_iterations == 1
    with pytest.raises(ValueError, match="seconds=nan: a time of 0 or more"):
        player.act(state, float("nan"))
    with pytest.raises(ValueError, match="seconds=inf and no iterations: it would never answer"):
        player.act(state, float("inf"))
    assert UCTPlayer(seed=1, iterations=5).act(state, float("inf")) in state.legal_actions()  # iterations end it
    with pytest.raises(ValueError, match="iterations=0: at least 1"):
        UCTPlayer(iterations=0)


def test_a_rollout_stops_at_the_deadline_within_a_few_actions():
    # a Match-3 rollout ran to the game's 1000th move whatever the time: about 50 ms a move where
    # CodeAbbey's run gives each move a quarter of a millisecond
    from gridfall.uct import CLOCK_STEPS

    class Counting:
        """The state, counting the actions applied to it and its clones."""

        applied = 0

        def __init__(self, state):
            self.state = state

        def __getattr__(self, name):
            return getattr(self.state, name)

        def clone(self):
            return Counting(self.state.clone())

        def apply_action(self, action):
            Counting.applied += 1
            self.state.apply_action(action)

    state = gridfall.load_game("match3", size=8, seed=5).new_initial_state()
    player = UCTPlayer(seed=0)
    assert player.act(Counting(state), 0) in state.legal_actions() and player.last_iterations == 1
    assert 1 <= Counting.applied <= 1 + CLOCK_STEPS  # the expansion's action, then one clock's worth of rollout
    Counting.applied = 0
    UCTPlayer(seed=0, iterations=1).act(Counting(state))
    assert Counting.applied > 1 + CLOCK_STEPS  # with no deadline, the rollout runs on, here to the game's end (79)
