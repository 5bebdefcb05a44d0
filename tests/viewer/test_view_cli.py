"""``gridfall view``: pages from a run database, a store and a results file; clear errors."""

from pathlib import Path

import pytest

from gridfall.viewer import page
from tests.arena.arena_cli import gridfall, gridfall_json, pick
from tests.sqlite_files import changing, rows

# The test bots answer at once, far inside their clocks (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe

RESULTS = Path(__file__).resolve().parents[2] / "results" / "samegame-standard.txt"


def test_a_league_database_becomes_a_replay_of_each_game(tmp_path):
    db = tmp_path / "league.sqlite"
    gridfall_json("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "4",
                  "--db", str(db), "--first-turn-ms", "3000", "--turn-ms", "1000")
    with changing(db) as connection:  # as if the games had finished in the reverse order
        connection.execute("UPDATE games SET id = 100 - id")
    done = gridfall("view", str(db), "-o", str(tmp_path / "league.html"))
    assert done.returncode == 0, done.stderr
    data = page.read_data((tmp_path / "league.html").read_text())
    turns = dict(rows(db, "SELECT job, json_array_length(moves) FROM games"))
    assert data["kind"] == "connect4" and len(data["games"]) == 4
    schedule = ["pair 0 game 0", "pair 0 game 1", "pair 1 game 0", "pair 1 game 1"]  # not the finishing order
    assert [g["title"].split(":")[0] for g in data["games"]] == schedule
    assert [g["turns"] for g in data["games"]] == [turns[job] for job in schedule]
    one = gridfall("view", str(db), "--job", "pair 1 game 0", "-o", str(tmp_path / "one.html"))
    assert one.returncode == 0 and len(page.read_data((tmp_path / "one.html").read_text())["games"]) == 1
    assert "slow to open" not in done.stderr
    from click.testing import CliRunner

    from gridfall import cli
    from gridfall.viewer import cli as view_cli

    view_cli.LARGE_PAGE, large = 1000, view_cli.LARGE_PAGE  # what a hundred Match-3 runs weigh
    try:
        told = CliRunner().invoke(cli.main, ["view", str(db), "-o", str(tmp_path / "big.html")])
    finally:
        view_cli.LARGE_PAGE = large
    assert told.exit_code == 0 and "slow to open in a browser; --job picks the games" in told.stderr
    # each bot turn shows what the bot wrote to stderr in that turn (its input's turn counts from 0), as
    # text; the opening's moves, which the referee played, show none
    game, rule = data["games"][0], {"a": "first", "b": "centre"}
    assert [f["output"] for f in game["frames"][1:]] == [
        "" if f["opening"] else f"{rule[game['names'][f['player']]]} at turn {f['turn'] - 1}: <b>{f['action']}</b>\n"
        for f in game["frames"][1:]]
    assert sum(bool(f["output"]) for f in game["frames"]) == game["turns"] - 2  # a two-move opening


def test_a_page_leaves_nothing_beside_the_database_it_read(tmp_path):
    # a read-only connection made the run database's -wal and -shm files (WAL mode) and left them
    db = tmp_path / "league.sqlite"
    gridfall_json("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "2",
                  "--db", str(db), "--first-turn-ms", "3000", "--turn-ms", "1000")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.sqlite"]
    done = gridfall("view", str(db), "-o", str(tmp_path / "league.html"))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.html", "league.sqlite"]


def test_a_results_file_row_replays_to_its_score(tmp_path):
    done = gridfall("view", str(RESULTS), "--board", "standard:1", "-o", str(tmp_path / "best.html"))
    assert done.returncode == 0, done.stderr
    game = page.read_data((tmp_path / "best.html").read_text())["games"][0]
    claimed = int(next(line for line in RESULTS.read_text().splitlines() if line.startswith("1\t")).split("\t")[1])
    assert game["score"] == claimed == game["frames"][-1]["score"]


def test_bad_records_get_clear_errors(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("not a results row\n")
    done = gridfall("view", str(junk))
    assert done.returncode == 2 and "line 1 is not a results row" in done.stderr
    db = tmp_path / "league.sqlite"
    gridfall_json("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "2",
                  "--db", str(db), "--first-turn-ms", "3000", "--turn-ms", "1000")
    missing = gridfall("view", str(db), "--job", "pair 9 game 0")
    assert missing.returncode == 2 and "no game 'pair 9 game 0'" in missing.stderr
    for record, flag, value, kind in ((db, "--board", "standard:1", "run database"), (junk, "--job", "pair 1 game 0",
                                                                                     "results file")):
        unused = gridfall("view", str(record), flag, value)  # ignored, it would give every game: refused
        assert unused.returncode == 2 and f"{flag}: not for a {kind}" in unused.stderr
    assert gridfall("view", str(tmp_path / "nowhere.sqlite")).returncode == 2


def test_damaged_and_foreign_files_get_errors_naming_them(tmp_path):
    """A file that starts like SQLite but is not, bytes that are not text, a run database with a
    damaged row and one of another shape: each an error naming the file, never a traceback."""
    fake = tmp_path / "fake.sqlite"
    fake.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\xff\xfe\x80")
    shaped = tmp_path / "shaped.sqlite"
    with changing(shaped) as connection:
        connection.executescript("CREATE TABLE run (key TEXT); CREATE TABLE games (id INTEGER, job TEXT);")
    db = tmp_path / "league.sqlite"
    gridfall_json("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "2",
                  "--db", str(db), "--first-turn-ms", "3000", "--turn-ms", "1000")
    with changing(db) as connection:
        connection.execute("UPDATE games SET moves = '[1, 2' WHERE id = (SELECT MIN(id) FROM games)")
    (first_id,), = rows(db, "SELECT MIN(id) FROM games")
    for path, says in [(fake, "a damaged SQLite file"), (binary, "byte 0xff on line 1 (offset 1)"),
                       (shaped, "cannot read its games: a damaged file, or not a gridfall run database"),
                       (db, f"game row {first_id} is damaged, a field is not JSON")]:
        done = gridfall("view", str(path), "-o", str(tmp_path / "page.html"))
        assert done.returncode == 2, (path, done.stderr)
        assert str(path) in done.stderr and says in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "page.html").exists()


def test_a_bad_board_is_named_as_the_boards_fault_before_the_record_is_read(tmp_path):
    done = gridfall("view", str(RESULTS), "--board", "standard:99", "-o", str(tmp_path / "x.html"))
    assert done.returncode == 2 and "Invalid value for --board: standard:99: there is no board 99" in done.stderr
