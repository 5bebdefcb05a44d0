"""A player of the user's, written against the interface, plays the CodinGame protocol
(`gridfall connect4 bot --player FILE.py:NAME`): its state, its answers as it gave them, and
every way naming it can go wrong, named."""

import io
import json
import sys
import textwrap

import pytest

from gridfall.connect4.interface_agent import InterfaceAgent
from gridfall.connect4.protocol import play, turn_input
from gridfall.connect4.rules import STEAL, Game
from gridfall.connect4.state import Connect4Game, Connect4State
from gridfall.user_player import TargetError, make_player
from tests.arena.arena_cli import gridfall

PLAYERS = '''
from gridfall.uct import UCTPlayer

print("loading the players")  # a player's prints are its debug output, never an answer
seen = []

class Chatty(UCTPlayer):
    def act(self, state, seconds):
        print("thinking about", state.history())
        return super().act(state, seconds)

def make(seed):
    return Chatty(seed=seed, iterations=200)

def steal_when_you_can(game, **rest):
    class Player:
        def act(self, state, seconds):
            seen.append((type(state).__name__, state.game.width, seconds > 0, rest))
            return game.width if game.width in state.legal_actions() else state.legal_actions()[0]
    return Player()

class Answers:
    answer = 42
    def act(self, state, seconds):
        return self.answer

class Raises:
    def act(self, state, seconds):
        raise RuntimeError("my bug")

not_callable = 3

def no_act():
    return object()

def refuses(seed):
    raise ValueError("no seed for me")
'''


@pytest.fixture()
def players(tmp_path):
    path = tmp_path / "players.py"
    path.write_text(textwrap.dedent(PLAYERS))
    return path


def turn_after(*actions):
    game = Game()
    for action in actions:
        game.apply_action(action)
    return turn_input(game, game.current_player(), True, actions[-1] if actions else -1)


def test_the_player_gets_the_interfaces_state_and_its_steal_is_sent_as_steal(players):
    player = make_player(f"{players}:steal_when_you_can", Connect4Game(), 7)
    out = io.StringIO()
    assert play(InterfaceAgent(player, "mine"), io.StringIO(turn_after(4)), out, first_turn=0.3, fallback=False)
    assert out.getvalue() == "STEAL\n"
    seen = sys.modules[type(player).__module__].seen  # the module the file was loaded as
    assert seen == [("Connect4State", 9, True, {"seed": 7})]  # it takes **rest: it is given seed too


@pytest.mark.parametrize("answer, printed", [(42, "42"), ("3\nSTEAL", "3"), (3.0, "3"), (None, "None")])
def test_its_answer_is_sent_as_given_for_the_referee_to_judge(players, answer, printed):
    player = make_player(f"{players}:Answers", Connect4Game(), 0)
    player.answer = answer
    out = io.StringIO()
    play(InterfaceAgent(player, "mine"), io.StringIO(turn_after(4, STEAL)), out, fallback=False)
    assert out.getvalue() == printed + "\n"  # one line, never a second answer smuggled in


def test_an_exception_ends_the_bot_named_where_a_built_in_agent_would_be_replaced(players):
    log, out = io.StringIO(), io.StringIO()
    raises = InterfaceAgent(make_player(f"{players}:Raises", Connect4Game(), 0), "mine")
    assert not play(raises, io.StringIO(turn_after()), out, log=log, fallback=False)
    assert out.getvalue() == "" and "RuntimeError: my bug at " in log.getvalue()
    assert play(raises, io.StringIO(turn_after()), out, log=io.StringIO())  # fallback: a central column
    assert out.getvalue() == "4\n"


def test_a_module_target_and_the_interface_state_it_acts_on():
    player = make_player("gridfall.uct:UCTPlayer", Connect4Game(), 3)  # seed=3; it takes no game
    state = Connect4State(Connect4Game(), Game.from_moves("44"))
    assert InterfaceAgent(player, "uct").act(state.rules, 0.02) in range(9)


@pytest.mark.parametrize("target, message", [
    ("players.py", "give MODULE:NAME or FILE.py:NAME"),
    ("{dir}/missing.py:make", "missing.py is not a file"),
    ("no_such_module_here:make", "cannot import no_such_module_here: ModuleNotFoundError"),
    ("{dir}/broken.txt:make", r"broken.txt is not a .py file \(give FILE.py:NAME, or MODULE:NAME"),
    ("{dir}/sub/players:make", "players is not a .py file"),
    ("{dir}/players.py:absent", "players.py has no absent"),
    ("{dir}/players.py:not_callable", "is a int, not a class or function that makes a player"),
    ("{dir}/players.py:no_act", r"made a object, which has no act\(state, seconds\) method"),
    ("{dir}/players.py:refuses", r"refuses\(seed\) raised ValueError: no seed for me"),
    ("{dir}/broken.py:make", "loading .*broken.py raised ZeroDivisionError"),
])
def test_a_target_that_cannot_be_a_player_is_named(players, target, message):
    (players.parent / "broken.py").write_text("1 / 0\n")
    (players.parent / "broken.txt").write_text("1 / 0\n")
    with pytest.raises(TargetError, match=message):
        make_player(target.format(dir=players.parent), Connect4Game(), 0)


def test_the_bot_command_plays_a_users_player_under_the_referee(players, tmp_path):
    bot = f"{sys.executable} -m gridfall connect4 bot --player {players}:make"
    done = gridfall("connect4", "referee", "--p1", bot, "--p2", "greedy", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout)["games"]
    assert len(games) == 2 and all(g["reason"] in ("four in a row", "draw") for g in games)  # the prints: stderr
    both = gridfall("connect4", "bot", "--agent", "mcts", "--player", f"{players}:make")
    assert both.returncode == 2 and "give --agent or --player, not both" in both.stderr
    wrong = gridfall("connect4", "bot", "--player", f"{players}:nope")
    assert wrong.returncode == 2 and "Invalid value for --player" in wrong.stderr and "has no nope" in wrong.stderr
