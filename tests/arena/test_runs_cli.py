"""``gridfall runs``: the run databases of a folder, each with its kind, games and the command
that resumes it, read while a run plays too."""

import json
import sqlite3

from gridfall.samegame.store import SolutionStore
from tests.arena.arena_cli import gridfall, gridfall_json, pick

FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]


def test_runs_lists_each_run_with_the_command_that_resumes_it_and_names_other_files(tmp_path):
    league = ["connect4", "league", "--bot", f"first={pick('first')}", "--bot", "greedy", "--db",
              str(tmp_path / "a.sqlite"), "--workers", "2", *FAST]
    gridfall_json(*league, "--games", "2")
    gridfall_json(*league, "--games", "4")  # grown: the first command would now be refused
    SolutionStore(tmp_path / "store.sqlite").close()
    (tmp_path / "notes.sqlite").write_text("not a database")
    listed = gridfall_json("runs", str(tmp_path))
    (run,) = listed["runs"]
    assert run["file"].endswith("a.sqlite") and run["kind"] == "connect4 league" and run["games"] == 4
    assert run["command"].startswith("gridfall connect4 league ") and "--games 4" in run["command"]
    assert run["started"] <= run["last_game"]
    why = {entry["file"].rsplit("/", 1)[-1]: entry["why"] for entry in listed["not_runs"]}
    assert set(why) == {"notes.sqlite", "store.sqlite"} and "not a gridfall run database" in why["store.sqlite"]
    text = gridfall("runs", str(tmp_path))
    assert text.returncode == 0 and "1 run in" in text.stdout and "connect4 league" in text.stdout
    assert sqlite3.connect(tmp_path / "a.sqlite").execute("SELECT count(*) FROM games").fetchone()[0] == 4


def test_runs_of_an_empty_folder_and_a_missing_path(tmp_path):
    assert json.loads(gridfall("runs", str(tmp_path), "--json").stdout) == {"runs": [], "not_runs": []}
    missing = gridfall("runs", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
