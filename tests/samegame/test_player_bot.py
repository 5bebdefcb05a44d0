"""A user's player, written against the interface, as a SameGame bot (`gridfall samegame bot
--player`): it plays under the referee what it plays through the interface, its answers go to the
referee as given, and what cannot be a player is named; in the one-turn flavour it plays its line
on its own copy of the board, each move given a share of the time left."""

import io
import json
import sys
import time

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

class Stuck:
    def __init__(self, game, seed):
        self.greedy, self.turns = gridfall.load_player(game, "greedy", seed=seed), 0

    def act(self, state, seconds):
        self.turns += 1
        if self.turns == 3:
            print("stuck at turn 3")
            import time
            time.sleep(1)
        return self.greedy.act(state)

class Chatty:
    def __init__(self, game, seed):
        self.greedy, self.turns = gridfall.load_player(game, "greedy", seed=seed), 0

    def act(self, state, seconds):
        self.turns += 1
        print(f"turn {self.turns}: <i>{len(state.legal_actions())} groups</i>")  # to stderr, as debug output
        return self.greedy.act(state)
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
    assert "the player failed: KeyError: 'oops' at " in log.getvalue()
    # a line that is no row is named at once; rows cut short are a board cut short
    for text, says in (("1 2 3\n", "line 1: expected 15 numbers, found 3"),
                       ("0 " * 15 + "\n" + "x" * 40 + "\n", "line 2: expected 15 numbers, found 1"),
                       ("".join(load_board("tuning:1").text().splitlines(True)[:3]),
                        "the input ended inside a board, after 3 of its 15 rows")):
        log = io.StringIO()
        assert not player_bot.play(Raises(), io.StringIO(text), io.StringIO(), first_turn=1, turn=0.05, log=log)
        assert says in log.getvalue(), text


def test_the_bot_command_refuses_a_target_that_is_not_a_player_and_a_move_share_it_would_not_use(tmp_path):
    (tmp_path / "players.py").write_text(PLAYERS)
    for args in (["--move-share", "0.5"], ["--player", f"{tmp_path / 'players.py'}:make", "--move-share", "0.5"]):
        unused = run("samegame", "bot", *args)
        assert unused.returncode == 2 and "give it with --player and --one-turn" in unused.stderr
    ignored = run("samegame", "bot", "--player", f"{tmp_path / 'players.py'}:make", "--algo", "beam")
    assert ignored.returncode == 2 and "--algo: gridfall's own search only" in ignored.stderr
    missing = run("samegame", "bot", "--player", f"{tmp_path / 'players.py'}:Nobody")
    assert missing.returncode == 2 and "has no Nobody" in missing.stderr
    corner = run("samegame", "referee", "--bot", f"{sys.executable} -m gridfall samegame bot --player "
                 f"{tmp_path / 'players.py'}:Corner", "tuning:1", "--json")
    [record] = json.loads(corner.stdout)["boards"]
    assert record["outcome"] in ("Region of size 1", "Selected empty tile")  # clicking (0, 0) until it fails


# -- the one-turn flavour ------------------------------------------------------------------


def test_one_turn_plays_the_same_line_as_the_turn_flavour_under_the_referee(tmp_path):
    (tmp_path / "players.py").write_text(PLAYERS)
    bot = f"{sys.executable} -m gridfall samegame bot --player {tmp_path / 'players.py'}:make"
    records = {}
    for flavour in ([], ["--one-turn"]):
        done = run("samegame", "referee", "--bot", " ".join([bot, *flavour]), "tuning:2", "standard:3", "--json",
                   *flavour)
        assert done.returncode == 0, done.stderr
        records[bool(flavour)] = [(b["outcome"], b["score"], b["actions"]) for b in json.loads(done.stdout)["boards"]]
    assert records[True] == records[False] and records[True][0][1] > 0


class Recorder:
    """Plays the lowest legal action, noting the time each act is given; sleeps (all of its time
    for its first ``thinks`` moves), fails or answers garbage at a chosen move."""

    def __init__(self, fail_at=None, garbage_at=None, sleep=0.0, thinks=0):
        self.given, self.fail_at, self.garbage_at, self.sleep, self.thinks = [], fail_at, garbage_at, sleep, thinks
        self.called = []  # when each act began (time.monotonic)

    def act(self, state, seconds):
        self.given.append(seconds)
        self.called.append(time.monotonic())
        state.apply_action(state.legal_actions()[0])  # its own copy: the bot's line must not move
        time.sleep(seconds if len(self.given) <= self.thinks else self.sleep)
        if len(self.given) == self.fail_at:
            raise KeyError("oops")
        if len(self.given) == self.garbage_at:
            return "7 7 hi\nmore"
        return state.history()[-1]


def one_turn(player, board="tuning:1", seconds=20.0, share=0.05):
    out, log = io.StringIO(), io.StringIO()
    ended_well = player_bot.play_one_turn(player, io.StringIO(load_board(board).text() + "\n"), out, seconds=seconds,
                                          share=share, log=log)
    return ended_well, out.getvalue(), log.getvalue()


def lowest_line(board="tuning:1"):
    state = gridfall.load_game("samegame", board=board).new_initial_state()
    cells = []
    while not state.is_terminal():
        cells.append(state.action_to_string(state.legal_actions()[0]))
        state.apply_action(state.legal_actions()[0])
    return cells


def test_each_act_gets_its_share_of_the_time_left_and_the_whole_line_is_sent_at_once():
    player = Recorder(thinks=6)  # its first six moves take all the time they are given, the rest none
    ended_well, out, log = one_turn(player, seconds=2.0, share=0.25)
    line = lowest_line()
    assert ended_well and out == ";".join(line) + "\n" and log == ""
    assert len(player.given) == len(line) > 20
    assert 0.49 < player.given[0] <= 0.5  # a quarter of 2 s
    assert all(later / earlier <= 0.75 for earlier, later in zip(player.given, player.given[1:7]))
    # a quarter of what is left when the act begins: the time left falls by what the act before took
    # (its sleep, which a busy machine stretches), not by what it was given
    for k in range(7):
        took = player.called[k + 1] - player.called[k]
        assert abs((player.given[k] - player.given[k + 1]) / 0.25 - took) < 0.01, (k, took, player.given[k:k + 2])
    assert player.given[7:] == sorted(player.given[7:], reverse=True) and player.given[-1] > 0.8 * player.given[6]


def test_the_line_ends_at_an_answer_that_is_not_legal_at_an_exception_and_when_time_is_up():
    line = lowest_line()
    ended_well, out, _ = one_turn(Recorder(garbage_at=4))
    assert ended_well and out == ";".join(line[:3] + ["7 7 hi"]) + "\n"  # sent as given, for the referee to judge
    ended_well, out, log = one_turn(Recorder(fail_at=4))
    assert not ended_well and out == ";".join(line[:3]) + "\n"  # the moves played so far are not lost
    assert "the player failed after 3 moves: KeyError: 'oops' at " in log
    ended_well, out, log = one_turn(Recorder(fail_at=1))
    assert not ended_well and out == "" and "after 0 moves" in log
    ended_well, out, log = one_turn(Recorder(sleep=0.6), seconds=0.5, share=1.0)  # its first move overran the time
    assert ended_well and out == line[0] + "\n" and "the time ran out after 1 move; sending the line" in log
    ended_well, out, log = one_turn(Recorder(), board="tuning:1", seconds=0.0)
    assert ended_well and out == "0 0\n" and "after 0 moves" in log  # no move: any click is only a warning


def test_what_a_bot_writes_to_stderr_is_kept_turn_by_turn_in_the_record_and_the_replay(tmp_path):
    from gridfall.viewer import page

    (tmp_path / "players.py").write_text(PLAYERS)
    bot = f"{sys.executable} -m gridfall samegame bot --player {tmp_path / 'players.py'}:Chatty"
    for flavour in ([], ["--one-turn"]):
        html = tmp_path / "page.html"
        done = run("samegame", "referee", "--bot", " ".join([bot, *flavour]), "tuning:2", "--json", "--replay",
                   str(html), *flavour)
        assert done.returncode == 0, done.stderr
        [record] = json.loads(done.stdout)["boards"]
        frames = page.read_data(html.read_text())["games"][0]["frames"]
        if flavour:  # one turn: the whole line's thinking, in frame 0
            assert len(record["output"]) == 1 and record["output"][0].startswith("loading\nturn 1: <i>")
            assert [line.split(":")[0] for line in record["output"][0].splitlines()[1:]] == [
                f"turn {k + 1}" for k in range(record["actions"])]
            assert frames[0]["output"] == record["output"][0] and all(f["output"] == "" for f in frames[1:])
        else:
            assert len(record["output"]) == record["actions"] and record["output"][0].startswith("loading\n")
            assert [out.splitlines()[-1].split(":")[0] for out in record["output"]] == [
                f"turn {k + 1}" for k in range(record["actions"])]
            assert [f["output"] for f in frames[:-1]] == record["output"]


def test_the_stderr_of_the_turn_a_bot_lost_is_kept_past_its_moves(tmp_path):
    from gridfall.viewer import page

    (tmp_path / "players.py").write_text(PLAYERS)
    bot = f"{sys.executable} -m gridfall samegame bot --player {tmp_path / 'players.py'}:Stuck"
    done = run("samegame", "referee", "--bot", bot, "tuning:2", "--json", "--replay", str(tmp_path / "p.html"))
    [record] = json.loads(done.stdout)["boards"]
    assert record["outcome"] == "Timeout" and record["actions"] == 2
    assert len(record["output"]) == 3 and record["output"][2] == "stuck at turn 3\n"  # the turn it lost
    frames = page.read_data((tmp_path / "p.html").read_text())["games"][0]["frames"]
    assert frames[-1]["move"] == 2 and frames[-1]["output"] == "stuck at turn 3\n"
