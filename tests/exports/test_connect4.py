"""The exported Connect Four bot: one file, standard library only, legal and in time under the
referee in a bare interpreter, and stronger than greedy."""

import json
import subprocess
import sys

from gridfall.connect4.export import export_source


def test_the_export_plays_legal_moves_in_time_in_a_bare_interpreter(tmp_path, bare_python):
    out = tmp_path / "bot.py"
    run = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "export", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and "standard library only" in run.stdout, run.stderr
    assert len(out.read_text()) <= 100_000 and "import numpy" not in out.read_text()
    bot = f"{bare_python} -I {out}"
    referee = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "referee", "--p1", bot, "--p2", "greedy",
                              "--games", "4", "--json"], capture_output=True, text=True, timeout=300)
    assert referee.returncode == 0, referee.stderr
    data = json.loads(referee.stdout)
    for game in data["games"]:  # every game ends on the board: no timeout, no invalid action
        assert game["reason"] in ("four in a row", "draw (board full)"), game["reason"]
        ours = 0 if game["seats"][0].startswith("A:") else 1
        assert game["slowest"][ours] < 0.100
    assert data["score"] >= 0.75


def test_the_export_is_built_from_the_rules_of_record():
    source = export_source()
    from gridfall.export import module_source

    assert repr(module_source("gridfall.connect4.rules")) in source
