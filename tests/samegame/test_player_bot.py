"""A user's player, written against the interface, as a SameGame bot (`gridfall samegame bot
--player`): it plays under the referee what it plays through the interface, its answers go to the
referee as given, and what cannot be a player is named."""

import io
import json
import sys

import gridfall
from gridfall.samegame import player_bot
from gridfall.samegame.boards import load_board
from tests.arena.arena_cli import gridfall as run

PLAYERS = '''
import gridfall

print("loading")  # a player's prints go to stderr, never to the referee

def make(game, seed):
    return gridfall.load_player(game, "greedy", seed=seed)

class Corner:
    def act(self, state, seconds):
        return 0          # the cell (0, 0), whatever is there

class Says:
    def act(self, state, seconds):
        return "7 7 hello\\nsecond line"
'''


def test_a_player_plays_under_the_referee_what_it_plays_through_the_interface(tmp_path):
    (tmp_path / "players.py").write_text(PLAYERS)
    bot = f"{sys.executable} -m gridfall samegame bot --player {tmp_path / 'players.py'}:make"
    done = run("samegame", "referee", "--bot", bot, "tuning:2", "--json")
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)["boards"]
    game = gridfall.load_game("samegame", board="tuning:2")
    state, player = game.new_initial_state(), gridfall.load_player(game, "greedy")
    while not state.is_terminal():
        state.apply_action(player.act(state))
    assert record["outcome"] == "ok" and record["score"] == state.returns()[0]


def test_answers_are_sent_as_given_one_line_each():
    board = load_board("tuning:1")
    text = board.text() + "\n"

    class Says:
        def __init__(self, answer):
            self.answer = answer

        def act(self, state, seconds):
            assert state.board == board and seconds > 1
            return self.answer

    for answer, line in ((3 * 15 + 4, "3 4"), (4.0, "0 4"), ("7 7 hi\nmore", "7 7 hi"), (225, "225"), (None, "None")):
        out = io.StringIO()
        assert player_bot.play(Says(answer), io.StringIO(text), out, first_turn=5.0, turn=0.05)
        assert out.getvalue() == line + "\n"


def test_the_players_exception_and_bad_input_end_the_bot_named():
    class Raises:
        def act(self, state, seconds):
            raise KeyError("oops")

    log = io.StringIO()
    assert not player_bot.play(Raises(), io.StringIO(load_board("tuning:1").text()), io.StringIO(), first_turn=1,
                               turn=0.05, log=log)
    assert "the player failed: KeyError('oops')" in log.getvalue()
    log = io.StringIO()
    assert not player_bot.play(Raises(), io.StringIO("1 2 3\n"), io.StringIO(), first_turn=1, turn=0.05, log=log)
    assert "the input ended inside a board" in log.getvalue()


def test_the_bot_command_refuses_the_one_turn_flavour_and_a_target_that_is_not_a_player(tmp_path):
    (tmp_path / "players.py").write_text(PLAYERS)
    one_turn = run("samegame", "bot", "--one-turn", "--player", f"{tmp_path / 'players.py'}:make")
    assert one_turn.returncode == 2 and "--player plays the turn flavour" in one_turn.stderr
    missing = run("samegame", "bot", "--player", f"{tmp_path / 'players.py'}:Nobody")
    assert missing.returncode == 2 and "has no Nobody" in missing.stderr
    corner = run("samegame", "referee", "--bot", f"{sys.executable} -m gridfall samegame bot --player "
                 f"{tmp_path / 'players.py'}:Corner", "tuning:1", "--json")
    [record] = json.loads(corner.stdout)["boards"]
    assert record["outcome"] in ("Region of size 1", "Selected empty tile")  # clicking (0, 0) until it fails
