"""`match3 export --player`: a user's interface player as one CodeAbbey file (Python 3.6, the
standard library), run in a bare interpreter and under a real Python 3.6 where one is found, and
refused, with the reason, where CodeAbbey could not run it."""

import json
import subprocess
import sys

import pytest

from tests.adapters.extras import need
from tests.exports.commands import gridfall, refused_export, write
from tests.match3.test_codeabbey import python_3_6

# Written as a user of Python 3.10 writes: the future import, annotations 3.6 cannot evaluate
HELPER = '''
from __future__ import annotations


def gain(state) -> float | int:
    return state.returns()[0]
'''

GREEDY = '''
import random

import helpers

QUIT_AFTER = 25  # moves a board: keeps the test short


class Greedy:
    """The swap whose child scores most; ties by a seeded draw; quits a board after QUIT_AFTER."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state, seconds: float) -> int | tuple[int, int, str]:
        if state.game.moves <= 1000 - QUIT_AFTER:  # a state's game has the moves left of its board
            return 1, 1, "Q"
        scores: dict[int, float] = {a: helpers.gain(state.child(a)) for a in state.legal_actions()}
        top = max(scores.values())
        return self.rng.choice([a for a, s in scores.items() if s == top])


def make(game, seed):
    return Greedy(seed)
'''


def games_of(done):
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert not report["failed"], report["failed"]
    return [(g["score"], g["moves"], g["actions"], g["end"]) for g in report["games"]]


@pytest.fixture
def exported(tmp_path):
    write(tmp_path, "helpers.py", HELPER)
    write(tmp_path, "greedy.py", GREEDY)
    out = tmp_path / "suggest.py"
    made = gridfall("match3", "export", str(out), "--player", "greedy.py:make", "--time", "1000", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "your player greedy.py:make with gridfall's modules, planning for 1000 s a run" in made.stdout
    return out


def test_a_player_with_a_helper_plays_the_same_moves_exported_as_in_play(tmp_path, exported, bare_python):
    text = exported.read_text()
    assert "and yours (helpers, greedy)" in text and "'gridfall.match3.state'" in text
    assert "'gridfall.match3.agents'" not in text and "from __future__ import annotations" not in text
    in_play = games_of(gridfall("match3", "play", "--player", str(tmp_path / "greedy.py:make"), "--seed", "3",
                                "--time", "1000", "--json"))
    elsewhere = tmp_path / "elsewhere"  # the file needs nothing beside it
    elsewhere.mkdir()
    exported_file = games_of(gridfall("match3", "referee", str(exported), "--python", bare_python, "--seed", "3",
                                      "--time", "1000", "--json", cwd=elsewhere))
    assert exported_file == in_play
    assert [g[1] for g in in_play] == [25] * 4 and all(g[0] > 0 for g in in_play), in_play


def test_the_exported_player_runs_under_a_real_python_3_6(tmp_path, exported):
    """The checks of syntax and modules cannot see a library call 3.6 lacks: only a run can."""
    py36 = python_3_6()
    if py36 is None:
        pytest.skip("no Python 3.6 here (python3.6 on the PATH, or pyenv's 3.6)")
    in_play = games_of(gridfall("match3", "play", "--player", str(tmp_path / "greedy.py:make"), "--seed", "4",
                                "--time", "1000", "--json"))
    under_36 = games_of(gridfall("match3", "referee", str(exported), "--python", py36, "--seed", "4", "--time",
                                 "1000", "--json"))
    assert under_36 == in_play


@pytest.mark.parametrize("name, text, says", [
    ("record.py", "from dataclasses import dataclass\nclass P:\n    def act(self, s, t): return 0\n",
     "record, line 1: imports dataclasses, which Python 3.6 does not have (added in 3.7)"),
    ("walrus.py", "class P:\n    def act(self, s, t):\n        if (n := 0) == 0:\n            return n\n",
     "walrus, line 3: not Python 3.6"),
    ("numeric.py", "import numpy\nclass P:\n    def act(self, s, t): return 0\n",
     "numeric, line 1: imports numpy, which is neither in the standard library nor bundled"),
    ("engine_user.py", "from gridfall.match3.agents import make_agent\nclass P:\n    def act(self, s, t): return 0\n",
     "imports numpy, which is neither in the standard library nor bundled; your player needs it through "
     "engine_user -> gridfall.match3.agents"),
])
def test_what_codeabbey_could_not_run_is_refused_naming_why(tmp_path, name, text, says):
    stderr = refused_export(tmp_path, "match3", name, text)
    assert says in stderr, stderr
    if name == "engine_user.py":
        assert "CodeAbbey runs Python 3.6 (or PyPy) with the standard library" in stderr


def test_a_call_of_what_python_3_6_lacks_is_refused_where_vermin_can_read_it(tmp_path, monkeypatch):
    need("vermin", "test")
    stderr = refused_export(tmp_path, "match3", "newer.py",
                            "import math\nclass P:\n    def act(self, s, t): return math.prod([1])\n")
    assert "newer, line 3: 'math.prod' member needs Python 3.8, read by vermin; the file must run on Python 3.6" \
        in stderr, stderr
    from click.testing import CliRunner

    from gridfall.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("gridfall.python36.can_find_calls", lambda: False)  # as on a machine without vermin
    done = CliRunner().invoke(main, ["match3", "export", "out.py", "--player", "newer.py:P"])
    assert done.exit_code == 0 and "were not looked for: pip install vermin" in done.stderr, done.output


def test_an_agent_and_a_player_are_not_both_exported(tmp_path):
    done = gridfall("match3", "export", str(tmp_path / "x.py"), "--agent", "fast", "--player", "greedy.py:make")
    assert done.returncode == 2 and "give --agent or --player, not both" in done.stderr


def test_an_error_in_the_exported_player_is_placed_in_its_own_module(tmp_path, bare_python):
    """The file runs each module it carries under "<gridfall NAME>": the referee names the line of
    the user's module (the same line as in the source: the export keeps them)."""
    write(tmp_path, "helpers.py", "import json\n\n\ndef boom(state):\n    return json.loads('{bad')\n")
    write(tmp_path, "bad.py", "import helpers\n\n\ndef make(game, seed):\n    return Bad()\n\n\nclass Bad:\n"
                              "    def act(self, state, seconds: float) -> int:\n        return helpers.boom(state)\n")
    out = tmp_path / "suggest.py"
    assert gridfall("match3", "export", str(out), "--player", "bad.py:make", cwd=tmp_path).returncode == 0
    done = gridfall("match3", "referee", str(out), "--python", bare_python, "--json")
    ends = [g["end"] for g in json.loads(done.stdout)["games"]]
    assert len(ends) == 4 and all("JSONDecodeError" in e and e.endswith("at helpers.py:5 in boom") for e in ends), ends


def test_the_modules_the_file_carries_need_nothing_newer_than_python_3_6(tmp_path):
    """vermin reads the library calls the bundle's checks cannot see (math.comb, str.removeprefix),
    on every Python, where the run under a real 3.6 above needs one."""
    pytest.importorskip("vermin")
    from gridfall.export import module_source, package_closure
    from gridfall.player_export import GAMES
    from gridfall.python36 import for_python_36

    modules = package_closure([], start=(*GAMES["match3"].modules, "gridfall.run_seed", "gridfall.user_player"))
    assert "gridfall.match3.rules" in modules and "gridfall.interface" in modules
    for name in modules:
        (tmp_path / f"{name}.py").write_text(for_python_36(module_source(name)))
    done = subprocess.run([sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", "--no-tips",
                           "--violations", "-t=3.6-", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.alone  # against the clock: CodeAbbey's one second for the whole run
def test_a_player_of_the_package_ends_its_run_within_the_second_in_a_bare_python_and_in_3_6(tmp_path, bare_python):
    """gridfall.uct:UCTPlayer runs one iteration a move at least, longer than its share: the
    bridge quits each board once its time is spent, and the run ends within its limit.  Under 3.6
    the file also shows that `import gridfall.uct as _mine` finds the module it carries."""
    out = tmp_path / "suggest.py"
    assert gridfall("match3", "export", str(out), "--player", "gridfall.uct:UCTPlayer").returncode == 0
    for python in [bare_python] + ([python_3_6()] if python_3_6() else []):
        done = gridfall("match3", "referee", str(out), "--python", python, "--seed", "1", "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert not report["failed"] and report["seconds"] < 1.0 and len(report["games"]) == 4, (python, report)
        assert "quit" in [g["end"] for g in report["games"]] and report["total"] > 0, (python, report["games"])
