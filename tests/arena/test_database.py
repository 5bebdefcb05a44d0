"""The run database: games survive, settings guard a resume, bad files get clear errors."""

import os
import re
import sqlite3

import pytest

from gridfall.arena.database import GameRow, RunDatabase, RunDatabaseError
from tests.sqlite_files import changing, rows

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def _row(job, message="ok"):
    return GameRow(job=job, game="connect4", commands=["a", "b"], seats=["A", "B"], moves=[4, 4, 3],
                   result={"winner": 0}, reason="four in a row", times=[0.01, 0.02], messages=[message, ""])


def test_rows_round_trip_and_a_job_is_stored_once(tmp_path):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 4}, command=["gridfall", "x"]) as db:
        db.add(_row("pair 0 game 0"), _row("pair 0 game 1"))
        db.add(_row("pair 0 game 0", "second copy"))
    with RunDatabase(path, "connect4 league", {"games": 4}) as db:
        rows = db.rows()
        assert db.done() == {"pair 0 game 0", "pair 0 game 1"}
        assert db.command == ["gridfall", "x"]
    assert [r.job for r in rows] == ["pair 0 game 0", "pair 0 game 1"]
    assert rows[0].moves == [4, 4, 3] and rows[0].result == {"winner": 0} and rows[0].messages == ["ok", ""]
    assert rows[0].host and rows[0].finished > 0


def test_bot_text_is_data_not_sql(tmp_path):
    evil = "'); DROP TABLE games; -- [bold red]x[/]"
    with RunDatabase(tmp_path / "run.sqlite", "k", {}) as db:
        db.add(_row("j", evil))
        assert db.rows()[0].messages[0] == evil


def test_other_settings_are_refused_naming_what_differs(tmp_path):
    path = tmp_path / "run.sqlite"
    RunDatabase(path, "connect4 league", {"games": 4, "seed": 1}).close()
    with pytest.raises(RunDatabaseError, match=r"games: was 4, now 6.*resume"):
        RunDatabase(path, "connect4 league", {"games": 6, "seed": 1})
    with pytest.raises(RunDatabaseError, match="holds a 'connect4 league' run"):
        RunDatabase(path, "connect4 sprt", {"games": 4, "seed": 1})


def test_a_count_named_as_growing_may_grow_not_shrink_and_the_run_keeps_the_new_one(tmp_path):
    path = tmp_path / "run.sqlite"
    RunDatabase(path, "connect4 league", {"games": 4, "seed": 1}, grows=("games",)).close()
    with RunDatabase(path, "connect4 league", {"games": 4, "seed": 1}, grows=("games",)) as db:
        assert db.grew == {}
    with RunDatabase(path, "connect4 league", {"games": 10, "seed": 1}, grows=("games",)) as db:
        assert db.grew == {"games": (4, 10)}
    with pytest.raises(RunDatabaseError, match=r"games: was 10, now 12"):  # not named as growing here
        RunDatabase(path, "connect4 league", {"games": 12, "seed": 1})
    with pytest.raises(RunDatabaseError, match=r"a run can grow, not shrink \(games: was 10, now 8\)"):
        RunDatabase(path, "connect4 league", {"games": 8, "seed": 1}, grows=("games",))
    with pytest.raises(RunDatabaseError, match=r"seed: was 1, now 2"):  # growing, but with another setting
        RunDatabase(path, "connect4 league", {"games": 12, "seed": 2}, grows=("games",))
    with pytest.raises(RunDatabaseError, match=r"games: was 10, now True"):  # a count is a whole number
        RunDatabase(path, "connect4 league", {"games": True, "seed": 1}, grows=("games",))
    with RunDatabase(path, "connect4 league", {"games": 10, "seed": 1}) as db:  # the stored count is the new one
        assert db.grew == {}


def test_a_list_of_items_named_as_growing_may_gain_items_not_lose_them(tmp_path):
    path = tmp_path / "run.sqlite"
    RunDatabase(path, "match3 compare", {"seeds": [1, 2]}, grows=("seeds",)).close()
    with RunDatabase(path, "match3 compare", {"seeds": [3, 1, 2]}, grows=("seeds",)) as db:
        assert db.grew == {"seeds": ([1, 2], [1, 2, 3])}  # the stored order, the new items after it
        assert db.settings == {"seeds": [1, 2, 3]}
    with RunDatabase(path, "match3 compare", {"seeds": [2, 3, 1]}, grows=("seeds",)) as db:
        assert db.grew == {} and db.settings == {"seeds": [1, 2, 3]}  # the same items in another order
    with pytest.raises(RunDatabaseError, match=r"not shrink \(seeds: 2 is stored but not in the new list\)"):
        RunDatabase(path, "match3 compare", {"seeds": [1, 3, 4]}, grows=("seeds",))
    with pytest.raises(RunDatabaseError, match=r"\(seeds: 1, 2, 3 are stored but not in the new list\)"):
        RunDatabase(path, "match3 compare", {"seeds": [5]}, grows=("seeds",))
    with pytest.raises(RunDatabaseError, match=r"seeds: was \[1, 2, 3\], now 4"):  # a list does not become a count
        RunDatabase(path, "match3 compare", {"seeds": 4}, grows=("seeds",))
    with RunDatabase(path, "match3 compare", {"seeds": [1, 2, 3]}) as db:
        assert db.extra("joins") is None
        db.keep_extra("joins", [[0, 2], [5, 3]])
    with RunDatabase(path, "match3 compare", {"seeds": [1, 2, 3]}) as db:
        assert db.extra("joins") == [[0, 2], [5, 3]]


def test_other_limits_are_named_in_the_options_words(tmp_path):
    from gridfall.arena.limits import Limits, setting_text

    path = tmp_path / "run.sqlite"
    RunDatabase(path, "connect4 league", {"limits": Limits(1.0, 0.1, 768).setting()}).close()
    with pytest.raises(RunDatabaseError, match=r"\(limits: was 1000 ms then 100 ms a turn, now 1000 ms then 50 ms a "
                                               r"turn with 512 MB on one CPU\)"):
        RunDatabase(path, "connect4 league", {"limits": Limits(1.0, 0.05, 512, one_cpu=True).setting()})
    assert setting_text([2.5, 0.1, None]) == "2500 ms then 100 ms a turn with no memory limit"
    for damaged in ([1.0], {"turn": 1}, [1.0, "x"], [1.0, 0.1, "two CPUs"], [True, 0.1]):
        assert setting_text(damaged) == repr(damaged)


def test_a_shrinking_list_names_what_it_drops_as_the_user_gave_it(tmp_path):
    """A league's bots are stored as [name, command]: named back as --bot takes them."""
    path = tmp_path / "run.sqlite"
    bots = [["a", "python3 a.py"], ["mcts", "mcts"], ["b", "python3 b.py\x1b[2J"], ["c", "c"], ["d", "d"]]
    RunDatabase(path, "connect4 league", {"bots": bots}, grows=("bots",)).close()
    with pytest.raises(RunDatabaseError, match=r"\(bots: mcts is stored but not in the new list\)"):
        RunDatabase(path, "connect4 league", {"bots": bots[:1] + bots[2:]}, grows=("bots",))
    with pytest.raises(RunDatabaseError) as dropped:  # a command changed: its bot is another one
        RunDatabase(path, "connect4 league", {"bots": [["a", "python3 a2.py"]] + bots[1:]}, grows=("bots",))
    assert "(bots: a=python3 a.py is stored but not in the new list)" in str(dropped.value)
    with pytest.raises(RunDatabaseError) as dropped:  # a shared file's text is shown on one line, escaped
        RunDatabase(path, "connect4 league", {"bots": [["e", "e"]]}, grows=("bots",))
    assert ("(bots: a=python3 a.py, mcts, b=python3 b.py\\x1b[2J and 2 more are stored but not in the new list)"
            in str(dropped.value))


def test_the_default_name_leaves_out_a_growing_count_and_finds_a_run_named_before(tmp_path, monkeypatch):
    from gridfall.arena.runs import _named, default_db

    monkeypatch.chdir(tmp_path)
    settings = {"games": 4, "seed": 1}
    assert default_db("connect4 league", settings, ("games",)) == default_db("connect4 league", {"games": 8, "seed": 1},
                                                                            ("games",))
    assert default_db("connect4 league", settings) != default_db("connect4 league", {"games": 8, "seed": 1})
    # a list is named: other bots (or seeds) are another run, not the stored one's growth
    assert default_db("x", {"bots": ["a", "b"]}, ("bots",)) != default_db("x", {"bots": ["a", "c"]}, ("bots",))
    earlier = _named("connect4 league", settings)  # what an earlier gridfall named this run
    (tmp_path / earlier).touch()
    assert default_db("connect4 league", settings, ("games",)) == earlier


def test_bad_paths_and_corrupt_files_get_clear_errors(tmp_path):
    with pytest.raises(RunDatabaseError, match="is a directory"):
        RunDatabase(tmp_path, "k", {})
    with pytest.raises(RunDatabaseError, match="does not exist"):
        RunDatabase(tmp_path / "missing" / "run.sqlite", "k", {})
    (tmp_path / "moved.sqlite").symlink_to(tmp_path / "unmounted" / "run.sqlite")  # was "unable to open database file"
    with pytest.raises(RunDatabaseError, match="a link to .*run.sqlite, and the folder .*unmounted does not exist"):
        RunDatabase(tmp_path / "moved.sqlite", "k", {})
    (tmp_path / "moved.sqlite").unlink()
    (tmp_path / "loop.sqlite").symlink_to(tmp_path / "loop.sqlite")  # was "unable to open", and the link deleted
    with pytest.raises(RunDatabaseError, match="a link in a loop of links"):
        RunDatabase(tmp_path / "loop.sqlite", "k", {})
    assert (tmp_path / "loop.sqlite").is_symlink()
    (tmp_path / "loop.sqlite").unlink()
    with pytest.raises(RunDatabaseError, match="cannot be a database file: File name too long"):
        RunDatabase("x" * 5000, "k", {})  # was an internal error (OSError)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # or /dev/null: SQLite made /dev/null-journal, and said "disk I/O error"
    with pytest.raises(RunDatabaseError, match="pipe: not a regular file"):
        RunDatabase(pipe, "k", {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"this is not a database, just text " * 100)
    with pytest.raises(RunDatabaseError, match="not a gridfall run database"):
        RunDatabase(corrupt, "k", {})


def test_a_damaged_row_is_refused_at_open_naming_it_and_the_way_out(tmp_path):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 4}) as db:
        db.add(_row("pair 0 game 0"), _row("pair 0 game 1"))
    with changing(path) as connection:
        connection.execute("UPDATE games SET result = '{bad' WHERE job = 'pair 0 game 1'")
    with pytest.raises(RunDatabaseError, match=r"run.sqlite: game row 2 is damaged.*DELETE FROM games WHERE id = 2"):
        RunDatabase(path, "connect4 league", {"games": 4})
    with changing(path) as connection:  # the way out the message gives
        connection.execute("DELETE FROM games WHERE id = 2")
    with RunDatabase(path, "connect4 league", {"games": 4}) as db:
        assert db.done() == {"pair 0 game 0"}


@pytest.mark.parametrize("settings, why", [
    ("{bad", "Expecting property name"),
    ("[" * 100_000, "JSON nested too deeply"),  # was an internal error (RecursionError)
    ("5", "5 is not a table of settings"),  # was an internal error (AttributeError)
    (None, "they are missing"),
])
def test_damaged_settings_are_refused_naming_the_file(tmp_path, settings, why):
    path = tmp_path / "run.sqlite"
    RunDatabase(path, "connect4 league", {"games": 4}).close()
    with changing(path) as connection:
        if settings is None:
            connection.execute("DELETE FROM run WHERE key = 'settings'")
        else:
            connection.execute("UPDATE run SET value = ? WHERE key = 'settings'", (settings,))
    with pytest.raises(RunDatabaseError, match=rf"run.sqlite: its run's settings are damaged \({why}"):
        RunDatabase(path, "connect4 league", {"games": 4})


@pytest.mark.parametrize("column, value, why", [
    ("result", "5", "its result is not an object"),  # was an internal error in `gridfall view` (AttributeError)
    ("result", "null", "its result is not an object"),
    ("seats", '"AB"', "its seats is not a list of texts"),
    ("messages", "[1]", "its messages is not a list of texts"),
    ("times", '["slow"]', "its times is not a list of numbers"),
    ("moves", "{}", "its moves is not a list or a text"),
    # what standings once called damaged settings, naming no row
    ("result", '{"winner": "x"}', r"its Connect Four result is not a winner of two seats \(0, 1 or null"),
    ("result", '{"winner": true}', "its Connect Four result is not a winner of two seats"),
    ("seats", '["A"]', "its Connect Four result is not a winner of two seats"),
    ("result", '{"winner": 0, "output": "turn 1"}', r"its result's output \(each turn's stderr\) is not a list of texts"),
    ("result", '{"winner": 0, "opening": "2"}', r"its Connect Four result's opening is not a count of moves \(found '2'\)"),
    ("result", '{"winner": 0, "opening": -1}', "its Connect Four result's opening is not a count of moves"),
])
def test_a_row_of_json_in_the_wrong_shape_is_a_damaged_row(tmp_path, column, value, why):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 4}) as db:
        db.add(_row("pair 0 game 0"))
    with changing(path) as connection:
        connection.execute(f"UPDATE games SET {column} = ?", (value,))
    with pytest.raises(RunDatabaseError, match=rf"game row 1 is damaged, {why}.*; delete it"):
        RunDatabase(path, "connect4 league", {"games": 4})


@pytest.mark.parametrize("result, found", [("{}", "None"), ('{"score": "x"}', "'x'"), ('{"score": false}', "False")])
def test_a_scored_game_without_a_number_for_its_score_is_a_damaged_row(tmp_path, result, found):
    """A SameGame or Match-3 row: `standings` once failed on one with an internal error (float('x'))."""
    path = tmp_path / "run.sqlite"
    row = GameRow(job="tuning:1 a", game="samegame", commands=["bot"], seats=["a"], moves=["0 0"],
                  result={"score": 4, "board": "tuning:1"}, reason="ok", times=[0.1], messages=[""])
    campaign = GameRow(job="pass 1 tuning:2", game="samegame", commands=["nrpa:1"], seats=["tuning:2"], moves="0 0",
                       result={"scores": [4], "best": None}, reason="ok", times=[1.0], messages=[""])
    with RunDatabase(path, "samegame compare", {}) as db:
        db.add(row, campaign)
    RunDatabase(path, "samegame compare", {}).close()  # both read back: a campaign's row has scores, not a score
    with changing(path) as connection:
        connection.execute("UPDATE games SET result = ? WHERE id = 1", (result,))
    with pytest.raises(RunDatabaseError, match=rf"game row 1 is damaged, its result has no score \(a number; found "
                                               rf"{found}\)"):
        RunDatabase(path, "samegame compare", {})


def test_a_row_nested_too_deeply_is_a_damaged_row(tmp_path):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 4}) as db:
        db.add(_row("pair 0 game 0"))
    with changing(path) as connection:
        connection.execute("UPDATE games SET moves = ?", ("[" * 100_000,))
    with pytest.raises(RunDatabaseError, match="game row 1 is damaged.*nested too deeply"):
        RunDatabase(path, "connect4 league", {"games": 4})


def test_a_row_is_committed_when_add_returns(tmp_path):
    path = tmp_path / "run.sqlite"
    db = RunDatabase(path, "k", {})
    db.add(_row("pair 3 game 0"))
    # another connection (as after a crash of this process) sees it at once
    assert rows(path, "SELECT job FROM games") == [("pair 3 game 0",)]
    db.close()


def test_a_full_disk_keeps_the_games_stored_before_and_says_how_to_resume(tmp_path):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 400}) as db:
        db.add(_row("pair 0 game 0"))
        pages = db.connection.execute("PRAGMA page_count").fetchone()[0]
        db.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
        with pytest.raises(RunDatabaseError) as refused:
            for k in range(1, 200):
                db.add(_row(f"pair {k} game 0", "x" * 500))
        message = str(refused.value)
        assert "run.sqlite: cannot store a finished game: database or disk is full" in message
        assert "run the same command again to resume" in message and "not a gridfall" not in message
        stored = db.done()
    with RunDatabase(path, "connect4 league", {"games": 400}) as db:  # room made: the run resumes
        assert db.done() == stored and "pair 0 game 0" in stored
        db.add(_row("pair 399 game 0"))
        assert "pair 399 game 0" in db.done()


def test_a_run_is_played_by_one_process_at_a_time(tmp_path):
    # the same league started twice played every game twice, each copy's bots starved by the other's
    path = tmp_path / "run.sqlite"
    first = RunDatabase(path, "connect4 league", {"games": 4})
    with pytest.raises(RunDatabaseError, match="run.sqlite: this process has the run open already"):
        RunDatabase(path, "connect4 league", {"games": 4})
    (tmp_path / "run.sqlite.lock").write_text("")  # as another process would see it: the lock, not the owner
    with pytest.raises(RunDatabaseError, match="run.sqlite: this run is being played now by another process; "
                                               "wait for it to end, or give another --db"):
        RunDatabase(path, "connect4 league", {"games": 4})
    first.close()
    with RunDatabase(path, "connect4 league", {"games": 4}) as again:
        assert again.done() == set()
    with pytest.raises(RunDatabaseError, match="other settings"):
        RunDatabase(path, "connect4 league", {"games": 8})
    with RunDatabase(path, "connect4 league", {"games": 4}):  # a refused open let go of the run at once
        pass
    play = tmp_path / "play.sqlite"  # two play servers: each game a job of its own, so they may share
    with RunDatabase(play, "connect4 play", {}, exclusive=False) as one, \
            RunDatabase(play, "connect4 play", {}, exclusive=False) as two:
        one.add(_row("game a"))
        two.add(_row("game b"))
        assert one.done() == two.done() == {"game a", "game b"}


def test_the_lock_file_goes_with_the_run(tmp_path):
    path = tmp_path / "run.sqlite"
    with RunDatabase(path, "connect4 league", {"games": 4}):
        assert (tmp_path / "run.sqlite.lock").exists()
    assert not (tmp_path / "run.sqlite.lock").exists()  # no leftover beside the database
    with RunDatabase(path, "connect4 league", {"games": 4}) as again:
        again.close()
        again.close()  # twice: the second must not delete a lock another run holds now
    assert not (tmp_path / "run.sqlite.lock").exists()


def test_a_run_that_never_started_is_discarded_and_one_with_games_is_kept(tmp_path):
    path = tmp_path / "run.sqlite"
    RunDatabase(path, "connect4 league", {"games": 4}).discard()
    assert list(tmp_path.iterdir()) == []
    with RunDatabase(path, "connect4 league", {"games": 4}) as run:
        run.add(_row("pair 0 game 0"))
    kept = RunDatabase(path, "connect4 league", {"games": 4})
    kept.discard()
    with RunDatabase(path, "connect4 league", {"games": 4}) as again:
        assert path.exists() and again.done() == {"pair 0 game 0"}


def test_a_discarded_run_through_a_link_deletes_the_file_it_made_and_keeps_the_link(tmp_path):
    """The user's link (to a disk of runs, say) is theirs: only the file behind it was this open's."""
    (tmp_path / "disk").mkdir()
    link = tmp_path / "run.sqlite"
    link.symlink_to(tmp_path / "disk" / "run.sqlite")
    RunDatabase(link, "connect4 league", {"games": 4}).discard()  # deleted the link, and left the file
    assert link.is_symlink() and list((tmp_path / "disk").iterdir()) == []


def test_a_file_that_cannot_be_opened_is_not_left_behind_if_the_open_made_it(tmp_path, monkeypatch):
    """A full disk at the start: SQLite makes the file, then fails to write its journal."""
    from gridfall.arena import database

    def failing(connection, path, what):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(database, "refuse_other_tables", failing)
    with pytest.raises(RunDatabaseError, match=r"run.sqlite: cannot use it: disk I/O error"):
        RunDatabase(tmp_path / "run.sqlite", "k", {})
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # neither the file nor its lock
    monkeypatch.undo()
    RunDatabase(tmp_path / "run.sqlite", "k", {}).close()  # one that existed before is never deleted
    monkeypatch.setattr(database, "refuse_other_tables", failing)
    with pytest.raises(RunDatabaseError):
        RunDatabase(tmp_path / "run.sqlite", "k", {})
    assert (tmp_path / "run.sqlite").exists()


def test_a_run_resumed_by_another_gridfall_says_so(tmp_path, capsys):

    from gridfall.arena.runs import open_run
    from gridfall.fingerprint import fingerprint

    path = tmp_path / "run.sqlite"
    with open_run(str(path), "connect4 league", {"games": 4}) as run:
        assert run.started_by == fingerprint()
        run.add(_row("pair 0 game 0"))
    open_run(str(path), "connect4 league", {"games": 4}).close()
    assert capsys.readouterr().err == ""  # the same gridfall: nothing to say
    with changing(path) as connection:  # as if the first games were played before an upgrade
        connection.execute("UPDATE run SET value = '0.0.9+0123456789ab' WHERE key = 'gridfall'")
    open_run(str(path), "connect4 league", {"games": 4}).close()
    said = capsys.readouterr().err
    assert f"{path}: this run was started by gridfall 0.0.9+0123456789ab (1 game stored)" in said
    assert f"this is gridfall {fingerprint()}" in said and "another --db starts a clean run" in said


def test_jobs_sort_in_the_schedules_order_numbers_by_value():
    from gridfall.arena.database import job_order

    jobs = ["pair 10 game 0", "pair 9 game 1", "pair 9 game 0", "standard:10 new", "standard:2 new", "seed 3 base"]
    assert sorted(jobs, key=job_order) == ["pair 9 game 0", "pair 9 game 1", "pair 10 game 0", "seed 3 base",
                                           "standard:2 new", "standard:10 new"]


@pytest.mark.parametrize("content, says", [(b"not a database" * 100, "not an SQLite file (it does not begin as one)"),
                                           (b"SQLite format 3\x00" + bytes(range(256)) * 8, "a damaged SQLite file")])
def test_a_file_no_way_reads_leaves_no_connection_open(tmp_path, monkeypatch, content, says):
    # "file is not a database" is no OperationalError: the reader once returned the error without
    # closing its connection, which Python 3.13 reports as an unclosed database when it is collected
    from gridfall.arena import database

    opened, real_connect = [], sqlite3.connect

    def connect(*args, **kwargs):
        opened.append(real_connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(database.sqlite3, "connect", connect)
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=re.escape(says)):
        with database.read_only(path):
            pass
    assert opened
    for connection in opened:
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            connection.execute("SELECT 1")
