"""Before any game a referee warms this gridfall's kernels for a built-in bot, and the copy of
gridfall a bot's command runs (``env PYTHONPATH=copy python -m gridfall ...``) with that copy's
own ``warmup --game``, once a copy."""

import io
import os
import sys
import textwrap

import pytest
from click.testing import CliRunner

from gridfall.arena.warm_bots import one_spelling, warm_bots, warm_copies, warmup_words
from gridfall.cli import main

pytestmark = pytest.mark.parallel_safe  # one core; the copies' bots answer at once, far inside their clocks


@pytest.mark.parametrize("command,words", [
    ("env PYTHONPATH=variant/src python3 -m gridfall connect4 bot --seed 3",
     ["env", "PYTHONPATH=variant/src", "python3", "-m", "gridfall", "warmup", "--game", "connect4"]),
    ("python3 -Im gridfall connect4 bot", ["python3", "-Im", "gridfall", "warmup", "--game", "connect4"]),
    ("python3 -mgridfall connect4 bot", ["python3", "-mgridfall", "warmup", "--game", "connect4"]),
    ("env -C 'my dir' NUMBA_CACHE_DIR=/tmp/c /usr/bin/python3.11 -X dev -m gridfall connect4 bot",
     ["env", "-C", "my dir", "NUMBA_CACHE_DIR=/tmp/c", "/usr/bin/python3.11", "-X", "dev", "-m", "gridfall", "warmup",
      "--game", "connect4"]),
    ("gridfall connect4 bot --seed 2", ["gridfall", "warmup", "--game", "connect4"]),  # the installed script
    ("env X=1 /venv/bin/gridfall connect4 bot", ["env", "X=1", "/venv/bin/gridfall", "warmup", "--game", "connect4"]),
    ("uv run python3 -m gridfall connect4 bot", ["uv", "run", "python3", "-m", "gridfall", "warmup", "--game", "connect4"]),
    ("poetry run gridfall connect4 bot", ["poetry", "run", "gridfall", "warmup", "--game", "connect4"]),
])
def test_the_warmup_runs_the_commands_interpreter_options_and_environment(command, words):
    assert warmup_words(command, "connect4") == words


def test_the_warmup_reads_the_shells_tilde_and_variables_as_the_bots_shell_does(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("VARIANT", "variant/src")
    assert warmup_words("env PYTHONPATH=$VARIANT ~/venv/bin/python3 -m gridfall connect4 bot", "connect4") == \
        ["env", "PYTHONPATH=variant/src", f"{tmp_path}/venv/bin/python3", "-m", "gridfall", "warmup", "--game", "connect4"]
    assert warmup_words("~/venv/bin/gridfall samegame bot", "samegame") == \
        [f"{tmp_path}/venv/bin/gridfall", "warmup", "--game", "samegame"]


@pytest.mark.parametrize("command", ["python3 bot.py", "python3 -m mybot", "python3 -c 'import gridfall'",
                                     "./bot", "python3 -m gridfall.cli connect4 bot", "python3 'unclosed", "",
                                     "python3 -m gridfall connect4 bot --player mine.py:make",
                                     "gridfall connect4 bot --player mine.py:make", "uv run python3 bot.py",
                                     "uv run --with numba python3 -m gridfall connect4 bot", "uv run"])
def test_a_command_that_runs_no_copy_of_gridfall_is_not_warmed(command):
    assert warmup_words(command, "connect4") is None


# A stand-in for a copy of gridfall: it writes down each command it is given, and as a bot plays
# the first valid action of every turn (CodinGame's Connect Four protocol).
COPY = """
import sys
with open(sys.argv[0].rsplit("gridfall", 1)[0] + "calls.txt", "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
if sys.argv[1] == "warmup":
    if "--game" in sys.argv and {fail}:
        sys.exit("Error: No such option: --game")
    sys.exit(0)
if sys.argv[1] == "samegame":
    print("0 14", flush=True)  # one click, whatever the board: a judged game
    sys.exit(0)
turn = 0
for line in sys.stdin:
    turn += 1
    if turn == 1:
        continue  # myId oppId
    # the turn index, 7 rows, the count of actions, the actions, the opponent's last action
    rows = [sys.stdin.readline() for _ in range(7)]
    count = int(sys.stdin.readline())
    actions = [sys.stdin.readline().strip() for _ in range(count)]
    sys.stdin.readline()
    print(actions[0], flush=True)
"""


def _copy(folder, fail: bool = False) -> str:
    (folder / "gridfall").mkdir(parents=True)
    (folder / "gridfall" / "__init__.py").write_text("")
    (folder / "gridfall" / "__main__.py").write_text(textwrap.dedent(COPY.format(fail=fail)))
    return f"env PYTHONPATH={folder} {sys.executable} -m gridfall"


def test_each_copy_is_warmed_once_and_a_copy_that_cannot_be_is_named(tmp_path):
    good, old = _copy(tmp_path / "good"), _copy(tmp_path / "old", fail=True)
    log = io.StringIO()
    bots = [f"{good} connect4 bot", f"{good} connect4 bot --seed 2", f"{old} connect4 bot", "python3 bot.py"]
    warm_copies("connect4", bots, log)
    assert (tmp_path / "good" / "calls.txt").read_text() == "warmup --game connect4\n"
    assert (tmp_path / "old" / "calls.txt").read_text() == "warmup --game connect4\n"
    warming_good, warming_old, failed = log.getvalue().splitlines()  # the copy given twice is warmed once
    assert "warming the kernels of the gridfall that" in warming_good and str(tmp_path / "good") in warming_good
    assert "warming the kernels of the gridfall that" in warming_old and str(tmp_path / "old") in warming_old
    assert failed.startswith("gridfall: could not warm the gridfall that") and str(tmp_path / "old") in failed
    assert "No such option: --game" in failed and "played without its compiled kernels" in failed


def test_the_connect4_referee_warms_a_copy_before_its_first_game(tmp_path):
    copy = _copy(tmp_path / "copy")
    result = CliRunner().invoke(main, ["connect4", "referee", "--p1", f"{copy} connect4 bot", "--p2", "greedy",
                                       "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    calls = (tmp_path / "copy" / "calls.txt").read_text().splitlines()
    assert calls == ["warmup --game connect4", "connect4 bot", "connect4 bot"]


def test_two_spellings_of_one_copy_are_warmed_once_and_a_runners_as_written(tmp_path, monkeypatch):
    script = tmp_path / "bin" / "gridfall"
    script.parent.mkdir()
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(COPY.format(fail=False)))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(tmp_path)
    log = io.StringIO()
    # the script by name, by its path and by a relative path: one copy, one warm-up
    warm_copies("connect4", ["gridfall connect4 bot", f"{script} connect4 bot --seed 3", "bin/gridfall connect4 bot"],
                log)
    assert (tmp_path / "bin" / "calls.txt").read_text() == "warmup --game connect4\n", log.getvalue()
    assert log.getvalue().count("warming the kernels") == 1
    # a link is another name: followed, a venv's python would read as the system's (other packages)
    link = tmp_path / "gridfall-link"
    link.symlink_to(script)
    assert one_spelling(["gridfall-link", "warmup"]) == ("gridfall-link", "warmup")  # not on the PATH: as written
    assert one_spelling(["./gridfall-link", "warmup"]) == (str(link), "warmup") != one_spelling([str(script), "warmup"])
    # a runner has a PATH of its own, and env may set one: each spelling stands
    assert one_spelling(["uv", "run", "gridfall", "warmup"]) == ("uv", "run", "gridfall", "warmup")
    assert one_spelling(["env", "PATH=/elsewhere", "gridfall", "warmup"])[2] == "gridfall"
    for unset in (["-u", "PATH"], ["-uPATH"], ["--unset=PATH"], ["-i"]):
        assert one_spelling(["env", *unset, "gridfall", "warmup"])[-2] == "gridfall", unset
    assert one_spelling(["env", "-u", "PYTHONPATH", "gridfall", "warmup"])[-2] == str(script)
    assert one_spelling(["env", "GRIDFALL_SEED=1", "gridfall", "warmup"])[2] == str(script)


def test_a_gridfall_script_that_is_not_there_is_named(tmp_path):
    log = io.StringIO()
    warm_copies("samegame", [f"{tmp_path}/bin/gridfall samegame bot"], log)
    warming, failed = log.getvalue().splitlines()
    assert failed.startswith("gridfall: could not warm the gridfall that")
    assert f"no program '{tmp_path}/bin/gridfall' here (not on the PATH" in failed


class Here:
    """An executor that runs its setup in this process and counts them."""

    def __init__(self):
        self.setups = 0

    def prepare(self, setup):
        self.setups += 1
        setup()


def test_a_league_or_sprt_warms_the_copies_where_its_games_run_and_prepares_nothing_without_one(tmp_path):
    from gridfall.connect4.arena_cli import _ready_bots
    from gridfall.connect4.codingame import LIMITS

    copy, here = _copy(tmp_path / "copy"), Here()
    _ready_bots(here, ["python3 bot.py", "python3 other.py"], LIMITS)
    assert here.setups == 0
    _ready_bots(here, [f"{copy} connect4 bot", "python3 bot.py"], LIMITS)
    assert here.setups == 1 and (tmp_path / "copy" / "calls.txt").read_text() == "warmup --game connect4\n"


def test_built_in_bots_warm_this_gridfall_and_commands_their_copies(tmp_path, monkeypatch):
    import gridfall.warmup

    warmed: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "warm", warmed.append)
    copy = _copy(tmp_path / "copy")
    warm_bots("samegame", [f"{copy} samegame bot --one-turn", "python3 bot.py"], ("gridfall",))
    assert warmed == [] and (tmp_path / "copy" / "calls.txt").read_text() == "warmup --game samegame\n"
    warm_bots("connect4", ["mcts:500", "python3 bot.py"], ("mcts", "greedy"))  # a built-in name with its parameter
    assert warmed == ["connect4"] and (tmp_path / "copy" / "calls.txt").read_text() == "warmup --game samegame\n"


def test_the_samegame_referee_warms_a_copy_before_its_first_board(tmp_path):
    copy = _copy(tmp_path / "copy")
    result = CliRunner().invoke(main, ["samegame", "referee", "--bot", f"{copy} samegame bot", "standard:1", "--json"])
    assert result.exit_code == 0, result.output
    calls = (tmp_path / "copy" / "calls.txt").read_text().splitlines()
    assert calls == ["warmup --game samegame", "samegame bot"]


def test_the_referee_warms_the_gridfall_script_as_the_readme_runs_it(tmp_path):
    """``--bot "gridfall samegame bot ..."``: the installed script, not ``python -m``."""
    script = tmp_path / "bin" / "gridfall"
    script.parent.mkdir()
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(COPY.format(fail=False)))
    script.chmod(0o755)
    result = CliRunner().invoke(main, ["samegame", "referee", "--bot", f"{script} samegame bot --first-turn-ms 900",
                                       "standard:1", "--json"])
    assert result.exit_code == 0, result.output
    calls = (tmp_path / "bin" / "calls.txt").read_text().splitlines()
    assert calls == ["warmup --game samegame", "samegame bot --first-turn-ms 900"]


def test_the_play_server_warms_a_copy_it_will_play(tmp_path):
    import socket

    copy = _copy(tmp_path / "copy")
    with socket.socket() as taken:  # the server cannot listen there: the command ends after its warm-up
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = CliRunner().invoke(main, ["connect4", "play", "--opponent", f"{copy} connect4 bot", "--no-browser",
                                           "--port", str(taken.getsockname()[1]), "--db", str(tmp_path / "play.sqlite")])
    assert result.exit_code == 2 and "cannot listen on 127.0.0.1" in result.output
    assert (tmp_path / "copy" / "calls.txt").read_text() == "warmup --game connect4\n"
