"""Replays of games played through the interface (gridfall.viewer.states): the page is the
state's game, move for move, for each of the three games."""

import random

import pytest

import gridfall
from gridfall.viewer import page
from gridfall.viewer.states import replay_games, save_replay

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def played(name, rng_seed, moves=None, **parameters):
    state, rng = gridfall.load_game(name, **parameters).new_initial_state(), random.Random(rng_seed)
    while not state.is_terminal() and (moves is None or len(state.history()) < moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_connect4_game_with_steal_replays_to_its_result(tmp_path):
    state = gridfall.load_game("connect4").new_initial_state()
    state.apply_action(4)
    state.apply_action(9)  # STEAL
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    out = tmp_path / "c4.html"
    assert save_replay(out, state, names=["mine", "<b>theirs</b>"]) == len(out.read_bytes())
    [game] = page.read_data(out.read_text())["games"]
    assert game["turns"] == len(state.history()) and game["frames"][2]["action"] == "STEAL"
    assert game["frames"][-1]["cells"] == "".join(str(state).split())
    winner = game["winner"]
    assert state.returns() == ([0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert "<b>theirs</b>" not in out.read_text()  # a name is data on the page, never markup


def test_other_sizes_and_unfinished_games_replay():
    kind, [game] = replay_games(played("connect4", 3, moves=10, width=7, height=6, steal=False))
    assert (kind, game["width"], game["height"], game["turns"]) == ("connect4", 7, 6, 10)
    assert game["frames"][-1]["result"] == "unfinished"


def test_samegame_and_match3_pages_total_what_the_states_scored():
    kind, games = replay_games([played("samegame", s, board=f"tuning:{s}") for s in (1, 2)])
    assert kind == "samegame" and [g["title"] for g in games] == ["samegame(board=tuning:1), game 1",
                                                                 "samegame(board=tuning:2), game 2"]
    assert [g["score"] for g in games] == [played("samegame", s, board=f"tuning:{s}").returns()[0] for s in (1, 2)]
    state = played("match3", 5, moves=30, size=11, seed=9)
    kind, [game] = replay_games(state, title="thirty moves")
    assert kind == "match3" and game["frames"][-1]["total"] == state.returns()[0] > 0
    assert game["frames"][0]["n"] == 11 and game["title"].startswith("thirty moves")


@pytest.mark.parametrize("states, names, message", [
    ([], None, "no state to replay"),
    (["4 4"], None, "is not a gridfall state"),
    ("text", None, "'4 4' is not a gridfall state or a list of them"),  # not taken letter by letter
    ("mixed", None, "the states are of connect4, samegame"),
    ("connect4", ["only one"], "Connect Four has two players"),
    ("connect4", "ab", "Connect Four has two players"),  # a text is not two names, letter by letter
])
def test_what_cannot_be_a_replay_is_named(states, names, message):
    if states == "text":
        states = "4 4"
    elif states == "mixed":
        states = [played("connect4", 1, moves=3), played("samegame", 1, moves=3)]
    elif states == "connect4":
        states = played("connect4", 1, moves=3)
    with pytest.raises(ValueError, match=message):
        replay_games(states, names)
