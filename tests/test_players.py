"""gridfall's players on the interface's states (gridfall.load_player): legal actions, the
state left as it was, the same moves as the players behind the bots, and clear refusals."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridfall
from gridfall.connect4.agents import make_agent
from gridfall.match3 import portable
from gridfall.samegame import rules
from gridfall.uct import UCTPlayer

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_a_connect4_player_steals_as_the_bot_does_and_names_steal_by_the_interfaces_id():
    game = gridfall.load_game("connect4")
    player = gridfall.load_player(game, "gridfall:20000", seed=1)
    state = game.new_initial_state()
    state.apply_action(4)  # a central chip: the opening table says steal it
    before = state.serialize()
    assert player.act(state) == game.width == state.string_to_action("STEAL")
    assert state.serialize() == before  # the state is left as it was
    agent, rules_game = make_agent("gridfall:20000", seed=1), state.rules.clone()
    assert agent.act(rules_game, 0.05) == -2  # the rules of record's STEAL
    rules_game.apply_action(-2)
    state.apply_action(game.width)
    assert player.act(state) == agent.act(rules_game, 0.05)  # the agent behind the bot, move for move


def test_a_connect4_player_with_a_budget_of_work_plays_the_same_game_against_uct_whatever_the_time():
    games = []
    for seconds in (0.001, 1.0):
        game = gridfall.load_game("connect4", width=7, height=6, steal=False)
        players = [gridfall.load_player(game, "gridfall:20000", seed=3), UCTPlayer(seed=3, iterations=100)]
        state = game.new_initial_state()
        while not state.is_terminal():
            action = players[0].act(state, seconds) if state.current_player() == 0 else players[1].act(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        games.append(state.history())
    assert games[0] == games[1] and state.returns() == [1.0, -1.0]  # gridfall beats 100-iteration UCT


def test_a_samegame_player_plans_once_follows_its_line_and_plans_again_off_it():
    game = gridfall.load_game("samegame", board="tuning:1")
    player = gridfall.load_player(game, "nrpa", seed=2, level=1, max_playouts=2000)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = player.act(state, 5.0)
        assert action in state.legal_actions()  # the group's canonical cell, as the interface names it
        state.apply_action(action)
    assert player.plans == 1
    from gridfall.samegame.search import solve

    line = solve(game.board, 5.0, algo="nrpa", seed=2, level=1, max_playouts=2000)
    assert state.returns() == [float(line.score)]  # a budget of work: the search's own line, click for click
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])  # not the line's first click
    player.act(state, 0.2)
    assert player.plans == 2


def test_match3_players_are_the_portable_and_numba_players():
    game = gridfall.load_game("match3", size=8, seed=4, moves=20)
    state = game.new_initial_state()
    for name, move in (("greedy", portable.greedy_move), ("fast", portable.fast_move)):
        assert gridfall.load_player(game, name).act(state) == game.swap_action(*move(list(state.board.rows)))
    strong = gridfall.load_player(game, seed=1)
    assert strong.name == "strong"
    while not state.is_terminal():
        state.apply_action(strong.act(state, 0.05))
    assert len(state.history()) == 20 and state.returns()[0] > 0


@pytest.mark.parametrize("game, name, params, message", [
    ("connect4", "deep-blue", {}, "unknown agent 'deep-blue'"),
    ("connect4", "gridfall:12", {}, "from 1,000"),
    ("connect4", "gridfall", {"nodes": 5}, "budget is in its name"),
    ("samegame", "quantum", {}, "unknown SameGame player 'quantum'"),
    ("samegame", "nrpa:level=3", {}, "its parameters go as keywords"),
    ("samegame", "nrpa", {"max_plays": 5}, "nrpa takes no parameter 'max_plays'"),
    ("samegame", "greedy", {"level": 2}, "greedy takes no parameters"),
    ("match3", "plan", {}, "plays the challenge"),
    ("match3", "strong", {"budget": 2}, "no keyword parameters"),
])
def test_a_wrong_name_or_parameter_is_named(game, name, params, message):
    with pytest.raises(ValueError, match=message):
        gridfall.load_player(game, name, **params)


def test_a_name_or_seed_of_the_wrong_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="load_game\\(123\\): give a game's name"):
        gridfall.load_game(123)
    with pytest.raises(TypeError, match="name=5: give a player's name"):
        gridfall.load_player("connect4", 5)
    with pytest.raises(TypeError, match="seed='x': give a whole number"):
        gridfall.load_player("connect4", "random", seed="x")  # random.Random took it as a seed
    assert repr(gridfall.load_player("match3", "greedy")) == "<Match3Player 'greedy'>"


def test_a_state_of_another_game_or_a_finished_one_is_refused():
    player = gridfall.load_player("match3", "greedy")
    with pytest.raises(ValueError, match="greedy plays match3; it was given SameGameState"):
        player.act(gridfall.load_game("samegame").new_initial_state())
    game = gridfall.load_game("samegame", board=rules.Board.from_rows([[0] * 15] * 15))
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(ValueError, match="the game is over"):
        gridfall.load_player(game, "greedy").act(state)
    with pytest.raises(TypeError, match="give a game from gridfall.load_game"):
        gridfall.load_player(42)


@pytest.mark.parametrize("game", ["connect4", "samegame", "match3"])
def test_a_time_that_is_not_a_finite_number_of_zero_or_more_is_refused(game):
    player = gridfall.load_player(game, "greedy")
    state = gridfall.load_game(game).new_initial_state()
    for seconds in (-1.0, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="a finite time of 0 or more"):
            player.act(state, seconds)
    assert player.act(state, 0) in state.legal_actions()  # no time at all: still a move, at once


PLAYERS = {  # every player, each with a budget that keeps an example to milliseconds
    "connect4": ["gridfall", "mcts", "mcts-solver", "alphabeta:2", "greedy", "random", "portable"],
    "samegame": ["auto", "nrpa", "beam", "nmcs", "mcbs", "anneal", "greedy"],
    "match3": ["strong", "greedy", "fast"],
}


def walked_state(game_name: str, rng: random.Random):
    """A state that random play reaches, not over: Connect Four's near-full boards and SameGame's
    last few groups included, where a search meets a move that ends the game, or only one move."""
    if game_name == "samegame":
        game = gridfall.load_game("samegame", board=f"random:{rng.randrange(1, 50)}")
    elif game_name == "match3":
        game = gridfall.load_game("match3", size=rng.choice((8, 13)), seed=rng.randrange(1, 1000))
    else:
        game = gridfall.load_game("connect4")
    state = game.new_initial_state()
    for _ in range(rng.randrange(0, 80)):
        after = state.child(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


@pytest.mark.parametrize("game_name", PLAYERS)
@settings(max_examples=8, deadline=None)
@given(st.randoms(use_true_random=False))
def test_every_player_gives_a_legal_action_and_leaves_the_state_as_it_was(game_name, rng):
    state = walked_state(game_name, rng)
    before = state.serialize()
    for name in PLAYERS[game_name]:
        action = gridfall.load_player(state.get_game(), name, seed=rng.randrange(100)).act(state, 0.003)
        assert action in state.legal_actions(), (name, str(state))
        assert state.serialize() == before, name
