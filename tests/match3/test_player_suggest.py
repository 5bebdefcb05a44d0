"""A player written against the one interface, as a suggest function: `match3 play --player`, and
`suggest_for` in a suggest file of the user's that the referee runs."""

import json

import pytest

from gridfall.match3.codeabbey import play_challenge, referee_file
from gridfall.match3.player_suggest import QUIT, suggest_for
from gridfall.match3.run_time import SAFETY
from gridfall.match3.suggest_files import files_of
from gridfall.match3.rules import Board, Generator, new_board
from gridfall.match3.state import Match3Game
from tests.arena.arena_cli import gridfall

# the first legal swap: fast, and blind to the time, so every run of it plays the same games
FIRST_LEGAL = """
def make(game, seed):
    class FirstLegal:
        def act(self, state, seconds):
            return state.legal_actions()[0]
    return FirstLegal()
"""


class Recorder:
    def __init__(self, answer=None):
        self.calls, self.answer = [], answer

    def act(self, state, seconds):
        self.calls.append((state, seconds))
        return state.legal_actions()[-1] if self.answer is None else self.answer


def test_a_state_from_a_board_is_that_board_with_the_moves_left():
    board = new_board(8, Generator(5))
    state = Match3Game.from_board(list(board.rows), seed=9, moves=3).new_initial_state()
    assert state.board == board and state.game.size == 8
    named = sorted(state.game.action_swap(a) for a in state.legal_actions())
    assert named == sorted(board.legal_moves())  # the rules of record's legal swaps
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    again = Match3Game.from_board("\n".join(board.rows), seed=9, moves=3).new_initial_state()
    assert again.board == board and again.generator.x == Generator(9).x  # the refills: the seed's, not the platform's


@pytest.mark.parametrize("rows, says", [(["AB", "BA", "AB"], "line 1: expected 3 jewels"),
                                        (["ABC", "BCA", "CAZ"], "'Z' is not a jewel"),
                                        (["ABC", "B*A", "CAB"], "a hole (*)")])
def test_a_board_that_is_not_one_is_named(rows, says):
    with pytest.raises(ValueError, match="the board") as caught:
        Match3Game.from_board(rows)
    assert says in str(caught.value)


def test_suggest_asks_the_player_with_the_board_and_a_share_of_the_run():
    player = Recorder()
    suggest = suggest_for(player, seed=1, run_seconds=2.0)
    board = list(new_board(11, Generator(3)).rows)
    col, row, direction = suggest(board, 2, 1, 0.5)
    state, seconds = player.calls[-1]
    assert list(state.board.rows) == board and state.game.moves == 1000
    assert (col, row, direction) == state.game.action_swap(state.legal_actions()[-1])
    assert Board(tuple(board)).is_legal(col, row, direction)
    assert seconds == pytest.approx((2.0 * SAFETY - 0.5) / 3000)  # board 2 of 4: a third of what is left
    suggest_for(player, run_seconds=2.0)(board, 4, 1000, 1.8)  # the run's last move: what is left of 95%
    assert player.calls[-1][0].game.moves == 1 and player.calls[-1][1] == pytest.approx(2.0 * SAFETY - 1.8)


def test_once_a_boards_time_is_spent_it_is_quit_without_asking_the_player():
    player = Recorder()
    suggest = suggest_for(player, run_seconds=1.0)
    board = list(new_board(8, Generator(3)).rows)
    suggest(board, 3, 1, 0.45)  # board 3 of 4: half of the 0.5 s left of 95%
    assert len(player.calls) == 1 and suggest(board, 3, 40, 0.70) == QUIT and len(player.calls) == 1
    suggest(board, 4, 1, 0.70)  # the next board has its own time
    assert len(player.calls) == 2


def wrapped_player(folder, name, source, factory):
    """FOLDER/NAME.py holding SOURCE, and the suggest file of two lines that asks its FACTORY."""
    (folder / f"{name}.py").write_text(source)
    wrapper = folder / "suggest.py"
    wrapper.write_text("from gridfall.match3.player_suggest import suggest_for\n"
                       f"suggest = suggest_for({f'{folder / name}.py:{factory}'!r})\n")
    return wrapper


@pytest.mark.alone
def test_a_player_that_overruns_every_share_still_ends_its_run_in_time(tmp_path):
    """2 ms a move, 4,000 moves a run at most: the run is kept by quitting, not failed by its limit."""
    wrapper = wrapped_player(tmp_path, "slow", "import time\n\n\nclass Slow:\n    def act(self, state, seconds):\n"
                             "        time.sleep(0.002)\n        return state.legal_actions()[0]\n", "Slow")
    report = referee_file(str(wrapper), seed=2)
    assert not report.failed and report.seconds < 1.0 and len(report.games) == 4
    assert report.games[-1].end == "quit" and sum(g.moves for g in report.games) > 100, report.games


def test_the_referees_time_limit_is_the_run_a_suggest_file_shares(tmp_path):
    wrapper = wrapped_player(tmp_path, "tell", "class Tell:\n    def act(self, state, seconds):\n"
                                               "        raise ValueError(f'given {seconds:.6f}')\n", "Tell")
    for limit, given in (("40", 40 * SAFETY / 4 / 1000), ("1", SAFETY / 4 / 1000)):
        report = json.loads(gridfall("match3", "referee", str(wrapper), "--time", limit, "--json").stdout)
        assert f"ValueError: given {given:.6f} at tell.py:3 in act" in report["games"][0]["end"], report["games"][0]


def test_an_answer_that_is_no_action_goes_back_as_it_is_and_a_number_that_is_no_action_id_is_named():
    board = list(new_board(8, Generator(1)).rows)
    assert suggest_for(Recorder("5 5 R"))(board) == "5 5 R"
    assert suggest_for(Recorder((2, 3, "D")))(board) == (2, 3, "D")  # a suggest answer: the referee judges it
    # a number went back as it was too, and the referee called it "expected three values col, row, dir"
    for number in (10**6, -1, 128):
        with pytest.raises(ValueError, match=rf"^act returned {number}, which is no action id of a 8x8 board "
                                             r"\(0\.\.127\)$"):
            suggest_for(Recorder(number))(board)


def test_what_is_not_a_player_is_refused():
    with pytest.raises(TypeError, match="has no act"):
        suggest_for(object())


@pytest.mark.parallel_safe  # one core: its 100 s run is never near its clock, and its player is blind to it
def test_play_with_a_player_is_the_referees_run_of_a_suggest_file_that_wraps_it(tmp_path):
    (tmp_path / "first.py").write_text(FIRST_LEGAL)
    target = f"{tmp_path / 'first.py'}:make"
    wrapper = tmp_path / "mine.py"
    # no run_seconds: the referee gives the player its --time, as play's --time does
    wrapper.write_text(f"from gridfall.match3.player_suggest import suggest_for\nsuggest = suggest_for({target!r})\n")
    played = gridfall("match3", "play", "--player", target, "--seed", "7", "--time", "100", "--json")
    judged = gridfall("match3", "referee", str(wrapper), "--seed", "7", "--time", "100", "--json")
    assert played.returncode == 0 and judged.returncode == 0, (played.stderr, judged.stderr)
    mine, theirs = json.loads(played.stdout), json.loads(judged.stdout)
    assert mine["total"] > 0 and mine["player"] == target
    assert [g["actions"] for g in mine["games"]] == [g["actions"] for g in theirs["games"]]
    assert mine["total"] == theirs["total"]
    # the same games as the player plays them through the interface, without the command line
    direct = suggest_for(target, seed=7, run_seconds=100)
    report = play_challenge(lambda *call: (direct(*call), 0.0), seed=7, time_limit=None)
    assert report.total == mine["total"]


def test_play_with_a_player_keeps_its_prints_off_the_report_and_ends_a_board_at_its_exception(tmp_path):
    (tmp_path / "loud.py").write_text(
        "def make():\n"
        "    class Loud:\n"
        "        def act(self, state, seconds):\n"
        "            print('<b>thinking</b>')\n"
        "            if state.game.size == 11:\n"
        "                raise RuntimeError('no plan for 11')\n"
        "            return state.legal_actions()[0]\n"
        "    return Loud()\n")
    done = gridfall("match3", "play", "--player", f"{tmp_path / 'loud.py'}:make", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # nothing the player printed is in it
    assert "<b>thinking</b>" in done.stderr
    ends = [g["end"] for g in report["games"]]
    assert ends[1] == "error at move 1: act raised RuntimeError: no plan for 11 at loud.py:6 in act"
    assert all(g["moves"] > 0 for g in report["games"] if g["size"] != 11)


def test_play_with_a_player_words_its_fault_as_the_referee_words_a_suggest_files(tmp_path):
    (tmp_path / "oops.py").write_text("def make():\n    class Oops:\n        def act(self, state, seconds):\n"
                                      "            return {}['x']\n    return Oops()\n")
    (tmp_path / "oops_suggest.py").write_text("def suggest(board):\n    return {}['x']\n")
    (tmp_path / "huge.py").write_text("def make():\n    class Huge:\n        def act(self, state, seconds):\n"
                                      "            return 10 ** 9\n    return Huge()\n")
    ends = {}
    for name, command in (("play", ("play", "--player", f"{tmp_path / 'oops.py'}:make")),
                          ("referee", ("referee", str(tmp_path / "oops_suggest.py"))),
                          ("huge", ("play", "--player", f"{tmp_path / 'huge.py'}:make"))):
        done = gridfall("match3", *command, "--json")
        assert done.returncode == 0, done.stderr
        ends[name] = json.loads(done.stdout)["games"][0]["end"]
    assert ends["play"] == "error at move 1: act raised KeyError: 'x' at oops.py:4 in act"
    assert ends["referee"] == "error at move 1: suggest raised KeyError: 'x' at line 2"
    # an answer refused is no fault in its code: said as it is, with no type to read past
    assert ends["huge"] == "error at move 1: act returned 1000000000, which is no action id of a 8x8 board (0..127)"


@pytest.mark.parametrize("args, says", [(["--player", "nowhere.py:make"], "nowhere.py is not a file"),
                                        (["--player", "collections:OrderedDict"], "has no act(state, seconds)"),
                                        (["--player", "json:dumps", "--agent", "fast"], "give --agent or --player"),
                                        (["--player", "json:dumps", "--turn-ms", "5"], "a share of --time")])
def test_play_with_a_bad_player_says_why(args, says):
    done = gridfall("match3", "play", *args)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_suggest_file_is_made_of_the_player_it_names_and_its_modules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mybot.py").write_text("import helpers\n" + FIRST_LEGAL)
    (tmp_path / "bots" / "helpers.py").write_text("")
    (tmp_path / "mine.py").write_text("from gridfall.match3 import player_suggest\n"
                                      "suggest = player_suggest.suggest_for('bots/mybot.py:make', seed=1)\n")
    (tmp_path / "keyword.py").write_text("from gridfall.match3.player_suggest import suggest_for\n"
                                         "suggest = suggest_for(player='bots/mybot.py:make')\n")
    assert files_of(str(tmp_path / "keyword.py"))[1:] == files_of(str(tmp_path / "mine.py"))[1:]
    (tmp_path / "plain.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")
    assert files_of(str(tmp_path / "mine.py")) == [str(tmp_path / name) for name in
                                                  ("mine.py", "bots/mybot.py", "bots/helpers.py")]
    assert files_of(str(tmp_path / "plain.py")) == [str(tmp_path / "plain.py")]
    (tmp_path / "broken.py").write_text("def (:\n")  # the referee says so when it runs
    assert files_of(str(tmp_path / "broken.py")) == [str(tmp_path / "broken.py")]


def test_a_comparison_refuses_to_resume_when_the_player_a_suggest_file_names_was_edited(tmp_path):
    player, wrapper, db = tmp_path / "mybot.py", tmp_path / "mine.py", str(tmp_path / "m.sqlite")
    player.write_text(FIRST_LEGAL)
    wrapper.write_text("from gridfall.match3.player_suggest import suggest_for\n"
                       f"suggest = suggest_for('{player}:make')\n")
    (tmp_path / "quit.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")
    args = ["match3", "compare", "--bot", f"mine={wrapper}", "--bot", f"quit={tmp_path / 'quit.py'}", "--seeds", "1",
            "--time", "0", "--db", db, "--json"]
    first = gridfall(*args)
    assert first.returncode == 0 and json.loads(first.stdout)["comparison"]["wins"] == 1, first.stderr
    player.write_text(FIRST_LEGAL.replace("[0]", "[-1]"))
    again = gridfall(*args)
    assert again.returncode == 2 and f"{player} (bot mine) has changed since the games stored in {db}" in again.stderr
