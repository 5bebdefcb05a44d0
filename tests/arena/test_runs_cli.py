"""``gridfall runs``: the run databases of a folder, each with its kind, games and the command
that resumes it, read while a run plays too."""

import json
import os

import pytest

from gridfall.samegame.store import SolutionStore
from tests.arena.arena_cli import gridfall, gridfall_json, pick
from tests.sqlite_files import changing, rows

# The test bots answer at once, far inside these clocks (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe

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
    assert set(why) == {"notes.sqlite", "store.sqlite"} and "a SameGame solution store, not a run database" in why["store.sqlite"]
    assert f"`gridfall samegame store list --store {tmp_path / 'store.sqlite'}` lists it" in why["store.sqlite"]
    text = gridfall("runs", str(tmp_path))
    assert text.returncode == 0 and "1 run in" in text.stdout and "connect4 league" in text.stdout
    assert rows(tmp_path / "a.sqlite", "SELECT count(*) FROM games")[0][0] == 4


def test_the_command_listed_resumes_the_file_listed_from_where_it_is_listed(tmp_path):
    """A run started in another folder (its --db relative to it, or its default name there), or
    whose file moved since: the command as stored would start another run from here."""
    import shlex
    import subprocess
    import sys

    there = tmp_path / "there"
    there.mkdir()
    league = ["connect4", "league", "--bot", f"first={pick('first')}", "--bot", "greedy", "--games", "2", *FAST]
    for db in (["--db", "named.sqlite"], []):  # relative to where it ran; the default name, in that folder
        started = subprocess.run([sys.executable, "-m", "gridfall", *league, *db], cwd=there, capture_output=True,
                                 text=True, timeout=300)
        assert started.returncode == 0, started.stderr
    (there / "named.sqlite").rename(there / "moved.sqlite")
    listed = json.loads(subprocess.run([sys.executable, "-m", "gridfall", "runs", "there", "--json"], cwd=tmp_path,
                                       capture_output=True, text=True, timeout=120).stdout)["runs"]
    assert len(listed) == 2
    for run in listed:
        words = shlex.split(run["command"])
        assert words[words.index("--db") + 1] == run["file"] and words.count("--db") == 1, run
        resumed = subprocess.run([sys.executable, "-m", *words, "--json"], cwd=tmp_path, capture_output=True,
                                 text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr
        assert rows(tmp_path / run["file"], "SELECT count(*) FROM games")[0][0] == 2  # found, nothing played again
    assert not list(tmp_path.glob("*.sqlite"))  # no new run here


def test_a_run_stored_under_any_name_is_listed_and_other_files_are_not_read(tmp_path):
    from gridfall.arena.database import RunDatabase

    RunDatabase(tmp_path / "league.db", "connect4 league", {"bots": [["a", "random"], ["b", "greedy"]]}).close()
    SolutionStore(tmp_path / "solutions").close()
    (tmp_path / "notes.txt").write_text("SQLite format 2")
    (tmp_path / "folder").mkdir()  # neither is a folder, nor a pipe (opened, it would wait for a writer)
    os.mkfifo(tmp_path / "pipe")
    listed = gridfall_json("runs", str(tmp_path))
    assert [run["file"].rsplit("/", 1)[-1] for run in listed["runs"]] == ["league.db"]
    assert [other["file"].rsplit("/", 1)[-1] for other in listed["not_runs"]] == ["solutions"]


def test_a_pipe_or_a_broken_link_named_as_a_run_is_called_what_it_is(tmp_path):
    """SQLite calls a pipe's failure "disk I/O error" and a broken link's "unable to open": both
    were shown as "a damaged SQLite file", which sends a user to look for damage that is not there."""
    os.mkfifo(tmp_path / "pipe.sqlite")
    (tmp_path / "moved.sqlite").symlink_to(tmp_path / "gone" / "league.sqlite")
    (tmp_path / "loop.sqlite").symlink_to(tmp_path / "loop.sqlite")
    (tmp_path / "lost.sqlite").symlink_to(tmp_path / "lost-target.sqlite")  # its folder is there
    listed = gridfall_json("runs", str(tmp_path))
    why = {entry["file"].rsplit("/", 1)[-1]: entry["why"] for entry in listed["not_runs"]}
    assert "not a regular file (a device, a pipe or a socket)" in why["pipe.sqlite"]
    assert why["moved.sqlite"].endswith(f"a link to {tmp_path / 'gone' / 'league.sqlite'}, and the folder "
                                        f"{tmp_path / 'gone'} does not exist")
    assert "a link in a loop of links" in why["loop.sqlite"]
    assert why["lost.sqlite"].endswith(f"a link to {tmp_path / 'lost-target.sqlite'}, which does not exist")
    assert not any("damaged" in text for text in why.values())
    standings = gridfall("standings", str(tmp_path / "pipe.sqlite"))
    assert standings.returncode == 2 and "not a regular file" in standings.stderr and "Traceback" not in standings.stderr


def test_runs_of_an_empty_folder_and_a_missing_path(tmp_path):
    assert json.loads(gridfall("runs", str(tmp_path), "--json").stdout) == {"runs": [], "not_runs": []}
    empty = gridfall("runs", str(tmp_path))
    assert empty.returncode == 0 and f"No runs in {tmp_path}." in empty.stdout
    missing = gridfall("runs", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_a_named_file_that_is_not_a_run_fails_the_listing(tmp_path):
    """Named, a file is expected to be a run (a script that checks one stops there); found in a
    folder, a file that is not one is only listed with its reason."""
    notes = tmp_path / "notes.sqlite"
    notes.write_text("not a database")
    for words in (["runs", str(notes)], ["runs", str(notes), "--json"], ["runs", str(tmp_path), str(notes)]):
        done = gridfall(*words)
        assert done.returncode == 1, (words, done.stdout, done.stderr)
        assert "not an SQLite file" in done.stdout and "Traceback" not in done.stderr, words
    listed = gridfall("runs", str(tmp_path))
    assert listed.returncode == 0 and "notes.sqlite: not an SQLite file" in listed.stdout


def test_a_file_name_that_holds_an_escape_or_a_line_break_is_listed_on_one_line_as_text(tmp_path):
    """A shared folder's names are data: ESC would recolour or clear the user's terminal, and a
    newline would split a name over two lines of the listing."""
    (tmp_path / "a\x1b[2Jb\nc.sqlite").write_text("not a database")
    listed = gridfall("runs", str(tmp_path))
    assert listed.returncode == 0 and "\x1b" not in listed.stdout
    assert "a\\x1b[2Jb\\nc.sqlite: not an SQLite file" in listed.stdout


def test_a_stored_kind_is_shown_as_text_not_as_markup_or_an_escape(tmp_path):
    """A run's kind is read from its file, which may come from elsewhere or be edited: "[red]"
    would be rich's markup, and ESC would reach the terminal."""
    from gridfall.arena.database import RunDatabase

    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 2}):
        pass
    with changing(path) as connection:
        connection.execute("UPDATE run SET value = ? WHERE key = 'kind'", ("[red]odd\x1b[2J",))
    listed = gridfall("runs", str(tmp_path))
    assert listed.returncode == 0 and "\x1b" not in listed.stdout, listed.stdout
    assert "[red]odd" in listed.stdout and "\\x1b[2J" in listed.stdout.replace("\n", ""), listed.stdout
    assert gridfall_json("runs", str(tmp_path))["runs"][0]["kind"] == "[red]odd\\x1b[2J"


def test_a_row_of_the_wrong_shape_is_named_by_every_reader(tmp_path):
    """A game row whose result is JSON but not an object: `view` once failed on it with an
    internal error, and `standings` blamed the run's settings.  Each now names the row."""
    from gridfall.arena.database import GameRow, RunDatabase

    path = tmp_path / "league.sqlite"
    with RunDatabase(path, "connect4 league", {"bots": [["a", "random"], ["b", "greedy"]], "games": 2}) as db:
        db.add(GameRow(job="pair 0 game 0", game="connect4", commands=["random", "greedy"], seats=["a", "b"],
                       moves=[4, 4, 4, 4, 4, 4, 4], result={"winner": 0, "opening": 0}, reason="four in a row",
                       times=[], messages=[]))
    assert gridfall("standings", str(path)).returncode == 0
    with changing(path) as connection:
        connection.execute("UPDATE games SET result = '5'")
    for command in (["standings", str(path)], ["view", str(path), "-o", str(tmp_path / "page.html")],
                    ["connect4", "standings", str(path)]):
        done = gridfall(*command)
        assert done.returncode == 2, (command, done.stderr)
        assert "game row 1 is damaged, its result is not an object" in done.stderr, (command, done.stderr)
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    listed = gridfall_json("runs", str(tmp_path))
    assert listed["runs"] == [] and "game row 1 is damaged" in listed["not_runs"][0]["why"]


def test_standings_of_every_other_kind_name_damaged_settings_or_games(tmp_path):
    """A pie-rule run, a campaign and the browser's games, each with settings or a game of the
    wrong shape: an error naming the file, never an internal error."""
    from gridfall.arena.database import GameRow, RunDatabase

    damaged = [("connect4 openings", {"pairs": 3}, "column 0 pair 0 game 0", ["gridfall", "greedy"], {"winner": 0}),
               ("samegame campaign", {"set": "tuning", "boards": [1]}, "pass 1 tuning:1", ["tuning:1"],  # no passes
                {"scores": [3000], "best": 3000}),
               ("connect4 play", {}, "game 1", ["gridfall", "greedy"], {"winner": 0})]  # no "you" among its seats
    for kind, settings, job, seats, result in damaged:
        path = tmp_path / f"{kind.replace(' ', '-')}.sqlite"
        with RunDatabase(path, kind, settings) as db:
            db.add(GameRow(job=job, game="samegame" if "campaign" in kind else "connect4", commands=seats, seats=seats,
                           moves=[], result=result, reason="", times=[], messages=[]))
        done = gridfall("standings", str(path))
        assert done.returncode == 2 and f"{path}: its run's settings or games are damaged" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
