"""`export --player`: a user's interface player as one CodinGame file, run in a bare interpreter
(no gridfall, no numba, no NumPy) under gridfall's referees, and refused, with the reason, where
the platform could not run it."""

import json
import os
import subprocess
import sys

import pytest

from tests.exports.commands import gridfall, refused_export, write

HELPER = '''
def describe(state):
    return f"{len(state.legal_actions())} legal actions"
'''

UCT_PLAYER = '''
"""A researcher's Connect Four player: gridfall's UCT, a helper module beside it, prints."""
from gridfall.uct import UCTPlayer

import helpers

print("loaded")


class Mine:
    def __init__(self, seed):
        self.uct = UCTPlayer(seed=seed)

    def act(self, state, seconds):
        print("thinking:", helpers.describe(state))  # debug output: it must not reach the referee
        return self.uct.act(state, seconds * 0.8)


def make(game, seed):
    return Mine(seed)
'''

BIGGEST = '''
class Biggest:
    """The click that scores most at once (ties: the lowest action id)."""

    def act(self, state, seconds):
        return max(state.legal_actions(), key=lambda a: (state.child(a).returns()[0], -a))
'''


def test_a_uct_player_with_a_helper_module_plays_connect_four_from_one_file(tmp_path, bare_python):
    write(tmp_path, "helpers.py", HELPER)
    write(tmp_path, "mine.py", UCT_PLAYER)
    out = tmp_path / "bot.py"
    made = gridfall("connect4", "export", str(out), "--player", "mine.py:make", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "your player mine.py:make with gridfall's modules" in made.stdout
    assert "loaded" not in made.stdout  # the player's import-time print went to stderr
    text = out.read_text()
    assert "and yours (helpers, mine)" in text and "'gridfall.uct'" in text
    assert "'gridfall.connect4.agents'" not in text  # only what the player needs
    elsewhere = tmp_path / "elsewhere"  # the file needs nothing beside it
    elsewhere.mkdir()
    done = gridfall("connect4", "referee", "--p1", f"{bare_python} -I {out}", "--p2", "random", "--games", "2",
                    "--json", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout)["games"]
    assert [g["reason"] for g in games] == ["four in a row"] * 2, games
    assert all(g["seats"][g["winner"]].startswith("A:") for g in games), games  # UCT beats random


def test_a_samegame_player_plays_the_same_moves_exported_and_on_the_command_line(tmp_path, bare_python):
    write(tmp_path, "biggest.py", BIGGEST)
    out = tmp_path / "bot.py"
    made = gridfall("samegame", "export", str(out), "--player", "biggest.py:Biggest", "--no-store", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    scores = {}
    for how, command in (("exported", f"{bare_python} -I {out}"),
                         ("bot", f"{sys.executable} -m gridfall samegame bot --player {tmp_path}/biggest.py:Biggest")):
        done = gridfall("samegame", "referee", "--bot", command, "standard:1", "tuning:2", "--json")
        assert done.returncode == 0, done.stderr
        boards = json.loads(done.stdout)["boards"]
        assert [b["outcome"] for b in boards] == ["ok", "ok"], boards
        scores[how] = [(b["score"], b["actions"]) for b in boards]
    assert scores["exported"] == scores["bot"] and scores["bot"][0][0] > 0


def test_the_exported_player_takes_its_seed_from_gridfall_seed(tmp_path):
    write(tmp_path, "seeded.py", '''
        class Seeded:
            def __init__(self, seed):
                self.seed = seed

            def act(self, state, seconds):
                legal = state.legal_actions()
                return legal[self.seed % len(legal)]
    ''')
    out = tmp_path / "bot.py"
    assert gridfall("connect4", "export", str(out), "--player", "seeded.py:Seeded", cwd=tmp_path).returncode == 0
    first_turn = "0 1\n0\n" + ".........\n" * 7 + "9\n" + "".join(f"{c}\n" for c in range(9)) + "-1\n"
    for seed in ("3", "7"):
        run = subprocess.run([sys.executable, "-I", str(out)], input=first_turn, capture_output=True, text=True,
                             timeout=60, env={"GRIDFALL_SEED": seed})
        assert run.stdout.split()[0] == str(int(seed) % 9), run.stderr
        installed = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "bot", "--player", "seeded.py:Seeded"],
                                   input=first_turn, capture_output=True, text=True, timeout=60, cwd=tmp_path,
                                   env={**os.environ, "GRIDFALL_SEED": seed})  # bot --player reads it too
        assert installed.stdout.split()[0] == str(int(seed) % 9), installed.stderr
    import gridfall as package  # and so does samegame bot --player
    from gridfall.samegame.boards import load_board

    state = package.load_game("samegame", board="standard:1").new_initial_state()
    for seed in ("3", "7"):
        installed = subprocess.run([sys.executable, "-m", "gridfall", "samegame", "bot", "--player", "seeded.py:Seeded"],
                                   input=load_board("standard:1").text() + "\n", capture_output=True, text=True,
                                   timeout=60, cwd=tmp_path, env={**os.environ, "GRIDFALL_SEED": seed})
        legal = state.legal_actions()
        assert installed.stdout.splitlines()[0] == state.action_to_string(legal[int(seed) % len(legal)]), installed.stderr
    # the referee's --seed reaches it: the same seed plays the same game, another seed another
    out = tmp_path / "samegame_bot.py"
    assert gridfall("samegame", "export", str(out), "--player", "seeded.py:Seeded", "--no-store",
                    cwd=tmp_path).returncode == 0
    played = {}
    for run_number, seed in enumerate(("3", "3", "4")):
        done = gridfall("samegame", "referee", "--bot", f"{sys.executable} -I {out}", "standard:1", "--seed", seed,
                        "--json")
        assert done.returncode == 0, done.stderr
        played[run_number] = json.loads(done.stdout)["boards"][0]["moves"]
    assert played[0] == played[1] != played[2]


def test_a_file_in_another_encoding_is_read_as_python_reads_it(tmp_path, bare_python):
    (tmp_path / "latin.py").write_bytes(b'# -*- coding: latin-1 -*-\nNAME = "caf\xe9"\n\n\nclass P:\n'
                                        b'    def act(self, state, seconds):\n        print(NAME)\n'
                                        b'        return state.legal_actions()[0]\n')
    out = tmp_path / "bot.py"
    made = gridfall("connect4", "export", str(out), "--player", "latin.py:P", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    first_turn = "0 1\n0\n" + ".........\n" * 7 + "9\n" + "".join(f"{c}\n" for c in range(9)) + "-1\n"
    run = subprocess.run([bare_python, "-I", str(out)], input=first_turn, capture_output=True, text=True, timeout=60)
    assert run.stdout == "0\n" and "café" in run.stderr, (run.stdout, run.stderr)


def test_a_player_of_the_package_itself_is_exported_by_its_module_name(tmp_path, bare_python):
    """gridfall.uct:UCTPlayer: bundled as the package's module, with no module of yours."""
    out = tmp_path / "bot.py"
    assert gridfall("connect4", "export", str(out), "--player", "gridfall.uct:UCTPlayer").returncode == 0
    assert "and yours" not in out.read_text() and "'gridfall.uct'" in out.read_text()
    first_turn = "0 1\n0\n" + ".........\n" * 7 + "9\n" + "".join(f"{c}\n" for c in range(9)) + "-1\n"
    run = subprocess.run([bare_python, "-I", str(out)], input=first_turn, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.split()[0] in "012345678", (run.stdout, run.stderr)


@pytest.mark.parametrize("name, text, says", [
    ("engine_user.py", "from gridfall.connect4.agents import make_agent\nclass P:\n    def act(self, s, t): return 0\n",
     "imports numba, which is neither in the standard library nor bundled nor a declared extra (numpy); your player "
     "needs it through engine_user -> gridfall.connect4.agents -> "),
    ("uses_load.py", "import gridfall\nclass P:\n    def act(self, s, t): return gridfall.load_game('connect4')\n",
     "uses_load, line 3: uses gridfall.load_game, which the exported file does not carry"),
    ("json.py", "class P:\n    def act(self, s, t): return 0\n",
     "a module of yours named 'json' would stand in for json in the exported file; rename it"),
    ("lazy.py", "class P:\n    def act(self, s, t):\n        import scipy\n        return 0\n",
     "lazy, line 3: imports scipy, which is neither in the standard library nor bundled"),
    ("noact.py", "class P:\n    pass\n", "made a P, which has no act(state, seconds) method"),
])
def test_what_the_platform_could_not_run_is_refused_naming_why(tmp_path, name, text, says):
    stderr = refused_export(tmp_path, "connect4", name, text)
    assert says in stderr, stderr


def test_a_samegame_player_exported_for_one_turn_sends_its_line_as_the_bot_does(tmp_path, bare_python):
    write(tmp_path, "biggest.py", BIGGEST)
    out = tmp_path / "bot.py"
    made = gridfall("samegame", "export", str(out), "--player", "biggest.py:Biggest", "--one-turn", "--move-share",
                    "0.5", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "one-turn flavour, each move given 0.5 of the time left" in made.stdout and "share=0.5" in out.read_text()
    lines = {}
    for how, command in (("exported", f"{bare_python} -I {out}"),
                         ("bot", f"{sys.executable} -m gridfall samegame bot --one-turn --player "
                                 f"{tmp_path}/biggest.py:Biggest")):
        done = gridfall("samegame", "referee", "--bot", command, "standard:1", "--one-turn", "--json")
        assert done.returncode == 0, done.stderr
        [board] = json.loads(done.stdout)["boards"]
        assert board["outcome"] == "ok", board
        lines[how] = (board["score"], board["actions"])
    assert lines["exported"] == lines["bot"] and lines["bot"][0] > 0
    refused = gridfall("samegame", "export", str(tmp_path / "other.py"), "--player", "biggest.py:Biggest",
                       "--move-share", "0.5", cwd=tmp_path)
    assert refused.returncode == 2 and "give it with --player and --one-turn" in refused.stderr
    for flags, message in ((["--player", "biggest.py:Biggest", "--set", "tuning"], "--set: the lines of gridfall's"),
                           (["--set", "tuning"], "--set: only with --from")):
        refused = gridfall("samegame", "export", str(tmp_path / "other.py"), *flags, cwd=tmp_path)
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr