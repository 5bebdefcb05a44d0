"""``gridfall connect4 league``: a rated league, stored game by game, resumable after a stop."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.arena.arena_cli import BOTS, gridfall, gridfall_json, pick, start, stored_games, wait_for_games
from tests.processes import live_commands
from tests.sqlite_files import changing, rows

# The test bots answer at once, far inside these clocks, and a league of one worker uses one core
# (its games' bots take turns): such tests share the machine (machine_sharing.py).  Two workers
# play no faster here, the games being mostly the bots' start-up.
pytestmark = pytest.mark.parallel_safe
FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]


def _league(db, games=6, *extra):
    return ["connect4", "league", "--bot", f"first={pick('first')}", "--bot", f"centre={pick('centre')}",
            "--bot", "greedy", "--games", str(games), "--db", str(db), "--workers", "1", *FAST, *extra]


def test_a_league_rates_its_bots_and_stores_every_game(tmp_path):
    db = tmp_path / "league.sqlite"
    out = gridfall_json(*_league(db))
    board = out["leaderboard"]
    assert {b["name"] for b in board} == {"first", "centre", "greedy"}
    assert [b["rating"] for b in board] == sorted((b["rating"] for b in board), reverse=True)
    assert sum(b["games"] for b in board) == 2 * 6
    assert not (tmp_path / "league.sqlite.lock").exists()  # let go as the command ended: nothing left beside it
    assert board[-1]["name"] == "first"  # the lowest open column loses to both others
    assert all(p["games"] >= 2 for p in out["pairs"])
    stored = rows(db, "SELECT job, times, messages, reason FROM games")
    assert len(stored) == 6
    job, times, messages, reason = stored[0]
    assert "game" in job and reason and len(json.loads(times)) == len(json.loads(messages)) > 0
    assert "DROP TABLE games" in messages  # the bots' words, stored as data


@pytest.mark.alone  # two games side by side, over the CPUs
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="one CPU per bot needs Linux")
def test_one_cpu_runs_every_bot_on_one_cpu_and_spreads_them(tmp_path, monkeypatch):
    record = tmp_path / "cpus.txt"
    monkeypatch.setenv("PICK_RECORD_CPUS", str(record))

    def league(db, *extra):  # two pairs side by side, long enough to overlap
        return gridfall_json("connect4", "league", "--bot", f"first={pick('first', 0.02)}",
                             "--bot", f"centre={pick('centre', 0.02)}", "--games", "4", "--db", str(tmp_path / db),
                             "--workers", "2", *FAST, *extra)

    league("pinned.sqlite", "--one-cpu")
    masks = record.read_text().split("\n")[:-1]
    assert len(masks) == 8 and all(len(mask.split()) == 1 for mask in masks)  # a thread the bot starts too
    if len(os.sched_getaffinity(0)) > 1:
        assert len(set(masks)) > 1  # the games side by side are spread over the CPUs
    record.unlink()
    done = gridfall("connect4", "referee", "--p1", pick("first"), "--p2", pick("centre"), "--games", "1", "--one-cpu")
    assert done.returncode == 0, done.stderr
    first, second = record.read_text().split("\n")[:-1]
    assert first == second and len(first.split()) == 1  # a game's two bots take turns on one CPU
    record.unlink()
    league("free.sqlite")
    everything = " ".join(map(str, sorted(os.sched_getaffinity(0))))
    assert record.read_text().split("\n")[:-1] == [everything] * 8


def test_the_leaderboard_is_printed_once_rated_in_the_schedules_order(tmp_path):
    # the live table (rated as games finished) stayed on screen above the final one (rated in the
    # schedule's order): two sets of slightly different ratings for the same games
    done = gridfall(*_league(tmp_path / "league.sqlite"))
    assert done.returncode == 0, done.stderr
    both = done.stdout + done.stderr
    assert both.count("leaderboard, 6 of 6 games") == 1 and "6 of 6 games" not in done.stderr


def _games(db):
    return rows(db, "SELECT job, moves FROM games ORDER BY job")


def test_the_same_command_resumes_grows_with_more_games_and_other_settings_are_refused(tmp_path):
    db = tmp_path / "league.sqlite"
    first = gridfall_json(*_league(db, 4))
    again = gridfall_json(*_league(db, 4))  # every game is stored: nothing is played again
    assert again["leaderboard"] == first["leaderboard"]
    four = _games(db)
    assert len(four) == 4
    grown = gridfall(*_league(db, 8), "--json")  # more games: the stored four are kept, four more played
    assert grown.returncode == 0, grown.stderr
    assert "the run grows: games was 4, now 8" in grown.stderr
    assert sum(row["games"] for row in json.loads(grown.stdout)["leaderboard"]) == 16
    eight = _games(db)
    assert len(eight) == 8 and set(four) <= set(eight)
    fresh = tmp_path / "fresh.sqlite"
    gridfall_json(*_league(fresh, 8))
    assert _games(fresh) == eight  # a grown league is the league that had the larger count from the start
    for refused, what in ((_league(db, 6), "a run can grow, not shrink (games: was 8, now 6)"),
                          (_league(db, 8, "--seed", "3"), "seed: was 0, now 3")):
        done = gridfall(*refused)
        assert done.returncode == 2 and what in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_bot_joins_a_stored_league_and_catches_up(tmp_path):
    db = tmp_path / "league.sqlite"
    gridfall_json(*_league(db, 6))
    six = _games(db)
    bots = ["--bot", "greedy", "--bot", f"centre={pick('centre')}", "--bot", f"first={pick('first')}"]  # any order
    joined = gridfall("connect4", "league", *bots, "--bot", "alphabeta:1", "--games", "14", "--db", str(db),
                      "--workers", "1", *FAST, "--json")
    assert joined.returncode == 0, joined.stderr
    assert "the run grows: bots was 3, now 4" in joined.stderr and "games was 6, now 14" in joined.stderr
    board = {row["name"]: row["games"] for row in json.loads(joined.stdout)["leaderboard"]}
    assert max(board.values()) - min(board.values()) <= 2 and board["alphabeta:1"] >= 6  # it caught up
    assert set(six) <= set(_games(db))
    again = gridfall("connect4", "league", *bots, "--bot", "alphabeta:1", "--games", "14", "--db", str(db),
                     "--workers", "1", *FAST)  # resumed: nothing to play, nothing grows
    assert again.returncode == 0 and "grows" not in again.stderr and len(_games(db)) == 14
    gone = gridfall(*_league(db, 14))  # alphabeta:1 left out: refused
    said = "not shrink (bots: alphabeta:1 is stored but not in the new list)"
    assert gone.returncode == 2 and said in gone.stderr, gone.stderr


def test_a_retired_bot_plays_no_more_and_its_games_still_rate_it(tmp_path):
    db = tmp_path / "league.sqlite"
    gridfall_json(*_league(db, 6))
    retired = gridfall(*_league(db, 12), "--retire", "greedy", "--json")
    assert retired.returncode == 0 and "from pair 3, greedy no longer plays" in retired.stderr, retired.stderr
    leaderboard = json.loads(retired.stdout)["leaderboard"]
    board = {row["name"]: row["games"] for row in leaderboard}
    assert board["greedy"] == 4 and board["first"] + board["centre"] == 24 - 4  # rated on its four games
    assert {row["name"] for row in leaderboard if row["retired"]} == {"greedy"}
    read = gridfall("connect4", "standings", str(db))
    assert "greedy (retired)" in read.stdout and "centre (retired)" not in read.stdout
    assert gridfall("standings", str(db)).stdout == read.stdout  # the command for every kind of run
    jobs = rows(db, "SELECT job, seats FROM games")
    assert all("greedy" not in seats for job, seats in jobs if int(job.split()[1]) >= 3)
    for args, what in ((["--retire", "nobody"], "'nobody' is not among the --bot names"),
                       (["--retire", "greedy", "--retire", "first"], "at least two bots that play")):
        done = gridfall(*_league(db, 12), *args)
        assert done.returncode == 2 and what in done.stderr, done.stderr


def test_a_retired_bot_need_not_start_any_more_but_one_that_plays_must(tmp_path):
    db, old = tmp_path / "league.sqlite", tmp_path / "old.py"
    old.write_text((BOTS / "pick.py").read_text())
    bots = ["--bot", f"old={sys.executable} -I {old} first 0", "--bot", "greedy", "--bot", f"centre={pick('centre')}",
            "--db", str(db), "--workers", "1", *FAST]
    gridfall_json("connect4", "league", *bots, "--games", "2")
    old.unlink()  # its file gone, as a bot that was replaced
    playing = gridfall("connect4", "league", *bots, "--games", "6")
    assert playing.returncode == 2 and f"--bot old: '{sys.executable} -I {old} first 0' cannot start" in playing.stderr
    retired = gridfall("connect4", "league", *bots, "--games", "6", "--retire", "old")
    assert retired.returncode == 0 and "from pair 1, old no longer plays" in retired.stderr, retired.stderr


def test_without_db_a_larger_count_finds_the_same_run(tmp_path):
    league = ["connect4", "league", "--bot", f"first={pick('first')}", "--bot", "greedy", "--workers", "1", *FAST]
    for games in ("2", "4"):
        done = subprocess.run([sys.executable, "-m", "gridfall", *league, "--games", games], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    (made,) = tmp_path.glob("league-*.sqlite")
    assert stored_games(made) == 4


@pytest.mark.alone  # two games in flight as it stops
def test_a_stopped_league_loses_only_its_games_in_flight_and_finishes_when_run_again(tmp_path):
    db = tmp_path / "league.sqlite"
    args = ["connect4", "league", "--bot", f"a={pick('first', 0.02)}", "--bot", f"b={pick('centre', 0.02)}",
            "--games", "16", "--db", str(db), "--workers", "2", *FAST]
    process = start(*args)
    wait_for_games(db, 4)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert 4 <= stored_games(db) < 16
    finished = gridfall_json(*args)
    jobs = [job for (job,) in rows(db, "SELECT job FROM games")]
    assert len(jobs) == len(set(jobs)) == 16
    assert sum(b["games"] for b in finished["leaderboard"]) == 32


@pytest.mark.parametrize("kind, count", [("league", "--games"), ("sprt", "--max-games")])
def test_a_run_of_a_trillion_games_starts_at_once(tmp_path, kind, count):
    # a typo's extra zeros: the league listed every pair before its first game (18 s and 240 MB for
    # a million games, memory without end for a trillion), and the SPRT walked every pair number
    db = tmp_path / "big.sqlite"
    bots = (["--bot", f"first={pick('first')}", "--bot", "greedy"] if kind == "league"
            else ["--new", "greedy", "--base", pick("first")])
    process = start("connect4", kind, *bots, count, str(10**12), "--db", str(db), "--workers", "1", *FAST)
    try:
        assert wait_for_games(db, 2, timeout=30) >= 2, "no game stored within 30 s"
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "1,000,000,000,000" in err or kind == "sprt", err
    read = gridfall("standings", str(db), timeout=30)
    assert read.returncode == 0 and "Traceback" not in read.stderr, read.stderr


def test_standings_read_a_league_while_it_plays_and_after(tmp_path):
    db = tmp_path / "league.sqlite"
    process = start("connect4", "league", "--bot", f"a={pick('first', 0.02)}", "--bot", f"b={pick('centre', 0.02)}",
                    "--bot", "greedy", "--games", "20", "--db", str(db), "--workers", "1", *FAST, "--json")
    try:
        wait_for_games(db, 4)
        playing = gridfall("connect4", "standings", str(db))
        assert playing.returncode == 0, playing.stderr
        assert "leaderboard, " in playing.stdout and " of 20 games" in playing.stdout and "Elo [95%]" in playing.stdout
        assert "leaderboard, 10 of 20" not in playing.stdout  # read while it played: not every game yet
    finally:
        out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err  # reading did not disturb the run
    after = gridfall_json("connect4", "standings", str(db))
    assert after["leaderboard"] == json.loads(out)["leaderboard"] and after["pairs"] == json.loads(out)["pairs"]


def test_standings_read_an_sprt_and_refuse_other_files(tmp_path):
    db = tmp_path / "sprt.sqlite"
    played = gridfall_json("connect4", "sprt", "--new", "greedy", "--base", pick("first"), "--elo0", "0", "--elo1",
                           "50", "--db", str(db), "--workers", "1", *FAST)
    read = gridfall_json("connect4", "standings", str(db))
    assert read["verdict"] == played["verdict"] == "H1" and read["penta"] == played["penta"]
    text = gridfall("connect4", "standings", str(db))
    assert "LLR" in text.stdout and "H1 accepted" in text.stdout
    (tmp_path / "notes.txt").write_text("not a database")
    with changing(tmp_path / "other.sqlite") as connection:
        connection.execute("CREATE TABLE t (x)")
    for path, what in (("notes.txt", "notes.txt: not an SQLite file (it does not begin as one), so not one of "
                                     "gridfall's run databases"), ("other.sqlite", "not a gridfall run database"),
                       ("missing.sqlite", "does not exist")):
        done = gridfall("connect4", "standings", str(tmp_path / path))
        assert done.returncode == 2 and what in done.stderr and "Traceback" not in done.stderr, done.stderr
    with changing(db) as connection:  # a test outside the Elo the SPRT can weigh, stored by an older gridfall
        connection.execute("UPDATE run SET value = replace(value, '\"elo1\": 50.0', '\"elo1\": 2000000.0') "
                           "WHERE key = 'settings'")
    done = gridfall("standings", str(db))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{db}: its run's settings or games are damaged (elo0 and elo1 must lie within +-2000" in done.stderr


def test_a_stored_name_with_an_escape_sequence_is_shown_escaped(tmp_path):
    # such a name is refused now, but a run stored before (or a file edited) may hold one: the
    # standings and the list of runs sent its ESC to the terminal
    db = tmp_path / "old.sqlite"
    gridfall_json("connect4", "league", "--bot", "red=greedy", "--bot", f"first={pick('first')}", "--games", "2",
                  "--db", str(db), "--workers", "1", *FAST)
    with changing(db) as connection:
        for key in ("settings", "extra bot files"):
            connection.execute("UPDATE run SET value = replace(value, '\"red\"', ?) WHERE key = ?",
                               ('"\\u001b[2Jred\\n"', key))
        connection.execute("UPDATE games SET seats = replace(seats, '\"red\"', ?)", ('"\\u001b[2Jred\\n"',))
    for command in (["standings", str(db)], ["connect4", "standings", str(db)], ["runs", str(tmp_path)]):
        done = gridfall(*command)
        assert done.returncode == 0 and "\x1b" not in done.stdout + done.stderr, (command, done.stdout, done.stderr)
    table = gridfall("standings", str(db)).stdout
    assert "\\x1b[2Jred\\n" in table, table
    names = {bot["name"] for bot in gridfall_json("standings", str(db))["leaderboard"]}
    assert names == {"\\x1b[2Jred\\n", "first"}  # the name and its games, escaped alike, still match


def test_bad_bots_are_usage_errors():
    for args, words in [(["--bot", "x=greedy"], "at least two bots"),
                        (["--bot", "greedy", "--bot", "greedy"], "given twice; to play a bot against itself, name each copy "
                                                                "(--bot greedy-a=greedy --bot greedy-b=greedy)"),
                        (["--bot", "x=greedy", "--bot", "x=random"], "the name 'x' is given twice\n"),
                        (["--bot", "greedy", "--bot", "wizard"], "NAME=COMMAND"),
                        (["--bot", "greedy", "--bot", "tab\tname=random"], "the name holds '\\t'"),
                        (["--bot", "greedy", "--bot", "alphabeta:99"], "depth"),
                        (["--bot", "greedy", "--bot", "random", "--games", "5"], "even")]:
        done = gridfall("connect4", "league", *args)
        assert done.returncode == 2 and words in done.stderr, (args, done.stderr)


def test_games_lost_by_a_fault_are_told_apart_from_games_lost_at_play(tmp_path):
    """A leaderboard alone does not tell a weak bot from a broken one: the league counts each bot's
    games lost by a fault and says what went wrong, the bot's words as plain text."""
    crashing = f"{sys.executable} -c \"import sys; sys.exit('out of luck')\""
    args = ["connect4", "league", "--bot", f"broken={crashing}", "--bot", f"garbage={sys.executable} -c "
            "\"print('[red]x[/red]')\"", "--bot", f"first={pick('first')}", "--games", "6", "--matchmaking",
            "round-robin", "--db", str(tmp_path / "faults.sqlite"), "--workers", "1", *FAST]
    out = gridfall_json(*args)
    faults = {f["bot"]: f for f in out["faults"]}
    assert set(faults) == {"broken", "garbage"}  # "first" lost only at play, if at all
    # each plays 4 of the 6 games; between the two, the one to move first loses by its fault
    assert faults["broken"]["games"] == faults["garbage"]["games"] == 3
    assert all("exited with code 1" in reason and "out of luck" in reason for reason in faults["broken"]["reasons"])
    assert all("[red]x[/red]" in reason for reason in faults["garbage"]["reasons"])
    shown = gridfall(*args)  # the same run again: nothing left to play, the tables from the stored games
    assert shown.returncode == 0, shown.stderr
    assert "games lost by a fault" in shown.stdout and "[red]x[/red]" in shown.stdout


def test_fault_of_reads_the_referees_reasons():
    from gridfall.arena.database import GameRow
    from gridfall.connect4.match import fault_of

    def row(winner, reason, seats=("four", "b")):
        return GameRow("pair 0 game 0", "connect4", ["x", "y"], list(seats), [], {"winner": winner}, reason, [], [])

    assert fault_of(row(1, "four: timeout (no answer line in time)")) == ("four", "timeout (no answer line in time)")
    assert fault_of(row(1, "four could not start: no such file")) == ("four", "could not start: no such file")
    assert fault_of(row(1, "four in a row")) is None  # won at play, even against a bot named "four"
    assert fault_of(row(None, "draw (board full)")) is None
    assert fault_of(row(0, "b: invalid action 'x'")) == ("b", "invalid action 'x'")
    assert fault_of(row(0, "solved")) is None  # a pie-rule game that the solver settled


def test_a_full_disk_stops_a_league_with_its_stored_games_kept_and_no_bot_left(tmp_path, monkeypatch, capsys):
    """The run database fills up mid-league (SQLite's own "database or disk is full"): the command
    says so and how to resume, in one line, keeps what it stored, and leaves no game playing."""
    from gridfall import cli
    from gridfall.arena.database import RunDatabase

    real_add = RunDatabase.add

    def add_then_fill(self, *rows):
        real_add(self, *rows)
        pages = self.connection.execute("PRAGMA page_count").fetchone()[0]
        self.connection.execute(f"PRAGMA max_page_count = {pages}")  # no room beyond this page

    monkeypatch.setattr(RunDatabase, "add", add_then_fill)
    db = tmp_path / "league.sqlite"
    monkeypatch.setattr(sys, "argv", ["gridfall", "connect4", "league", "--bot", f"a={pick('first', 0.02)}",
                                      "--bot", f"b={pick('centre', 0.02)}", "--games", "60", "--db", str(db),
                                      "--workers", "1", *FAST])
    with pytest.raises(SystemExit) as stopped:
        cli.run()
    err = capsys.readouterr().err
    assert stopped.value.code == 1 and "internal error" not in err
    assert f"Error: {db}: cannot store a finished game: database or disk is full" in err
    assert "run the same command again to resume" in err
    assert 1 <= stored_games(db) < 60
    assert not (tmp_path / "league.sqlite.lock").exists()
    deadline = time.monotonic() + 10
    while live_commands("pick.py") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live_commands("pick.py") == []


def test_the_same_league_started_twice_is_refused_while_the_first_plays(tmp_path):
    db = tmp_path / "league.sqlite"
    args = ["connect4", "league", "--bot", f"a={pick('first', 0.05)}", "--bot", f"b={pick('centre', 0.05)}",
            "--games", "40", "--db", str(db), "--workers", "1", *FAST]
    first = start(*args)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "league.sqlite.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        second = gridfall(*args)
        assert second.returncode == 2, second.stderr
        assert f"{db}: this run is being played now by another process (pid {first.pid} on " in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 128 + signal.SIGTERM
    assert not (tmp_path / "league.sqlite.lock").exists()


def test_the_pairings_without_a_game_are_named_under_the_table_and_in_json():
    # 8 games of 4 bots are 4 pairs for 6 pairings: the table listed 4 as "every pairing"
    from rich.console import Console

    from gridfall.arena.ratings import League
    from gridfall.connect4.arena_report import Caveats, league_json, pairs_table

    table = League(["a", "b", "c", "d"])
    for first, second in (("a", "b"), ("c", "d"), ("d", "a"), ("b", "c")):
        table.add(first, second, 1)
        table.add(second, first, 0.5)
    assert table.unplayed() == [("a", "c"), ("b", "d")]
    assert table.unplayed(leaving={"c"}) == [("b", "d")]  # a retired bot will never play its own
    out = Console(width=120, record=True)
    out.print(pairs_table(table, retired={"c"}))
    text = out.export_text()
    assert "every pairing that played" in text and "no game yet: b - d" in text and "a - c" not in text
    assert json.loads(league_json(table, Caveats(), "x.sqlite", False))["unplayed"] == [["a", "c"], ["b", "d"]]
    table.add("a", "c", 0)
    table.add("d", "b", 0)
    out = Console(width=120, record=True)
    out.print(pairs_table(table))
    assert "no game yet" not in out.export_text()


def test_standings_of_an_sprt_that_used_all_its_games_say_it_ended_undecided():
    from types import SimpleNamespace

    from gridfall.connect4.arena_report import sprt_conclusion

    settings = {"elo0": 0, "elo1": 5, "max_games": 20}
    for games, said in ((12, "undecided after 12 games of at most 20"), (20, "no decision within --max-games")):
        test = SimpleNamespace(verdict=lambda: None, games=SimpleNamespace(games=games))
        assert sprt_conclusion(test, settings, False, playing=True) == said
