"""``gridfall view``: pages from a run database, a store and a results file; clear errors."""

import json
from pathlib import Path

import pytest

from gridfall.fingerprint import fingerprint
from gridfall.samegame.boards import load_board
from gridfall.viewer import page
from tests.samegame.script_bots import LARGEST, script_bot
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
    assert "RECORD is a run database, a solution store, a results file or a referee's JSON" in done.stderr
    empty = tmp_path / "empty.txt"
    for text in ("", "# comments only\n\n"):
        empty.write_text(text)
        done = gridfall("view", str(empty))
        assert done.returncode == 2 and f"{empty}: no results row (board, score, moves) in it (RECORD is" in done.stderr
    garbled = tmp_path / "garbled.json"  # a .json file is read as JSON, whatever it starts with
    garbled.write_text("garbage\n")
    done = gridfall("view", str(garbled))
    assert done.returncode == 2 and f"{garbled}: not JSON (Expecting value" in done.stderr
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


MATCH3_PLAYER = """
from gridfall.match3.portable import greedy_move

def suggest(board, boardNo, move, elapsed):
    print("board", boardNo, "move", move)
    return greedy_move(board) if move <= 3 + boardNo else (1, 1, "Q")
"""


LIMITS = {"connect4": {"first_turn_ms": 3000, "turn_ms": 1000, "memory_mb": 768, "one_cpu": False},
          "samegame": {"first_turn_ms": 5000, "turn_ms": 1000, "memory_mb": 768, "one_cpu": False},
          "match3": {"time": None, "turn_ms": None, "memory_mb": None, "python": None}}


def games_of(page_path):
    return page.read_data(Path(page_path).read_text())["games"]


def test_a_referees_json_makes_the_page_its_replay_option_makes(tmp_path):
    """What `referee --json` printed replays later as `referee --replay` showed it then: each game's
    frames, times and the bots' output, for the three games; a SameGame board read from a file
    replays from the cells the JSON keeps, after the file is gone."""
    board_file = tmp_path / "board.txt"
    board_file.write_text(load_board("standard:2").text())
    bot = script_bot(tmp_path, "print(f'turn {turn}: <b>largest</b>', file=sys.stderr, flush=True)\n" + LARGEST)
    player = tmp_path / "suggest.py"
    player.write_text(MATCH3_PLAYER)
    runs = {
        "connect4": ["connect4", "referee", "--p1", pick("first"), "--p2", pick("centre"), "--games", "2",
                     "--first-turn-ms", "3000", "--turn-ms", "1000"],
        "samegame": ["samegame", "referee", "--bot", bot, "standard:1", str(board_file),
                     "--first-turn-ms", "5000", "--turn-ms", "1000"],
        "match3": ["match3", "referee", str(player), "--seed", "7", "--time", "0"],
    }
    for kind, arguments in runs.items():
        replay, record = tmp_path / f"{kind}-replay.html", tmp_path / f"{kind}.json"
        done = gridfall(*arguments, "--json", "--replay", str(replay))
        assert done.returncode == 0, done.stderr
        record.write_text(done.stdout)
        conditions = json.loads(done.stdout)  # what the result was measured under
        assert conditions["gridfall"] == fingerprint() and conditions["limits"] == LIMITS[kind]
        if kind == "samegame":
            board_file.unlink()  # the JSON keeps its cells
        viewed = gridfall("view", str(record), "-o", str(tmp_path / f"{kind}-view.html"))
        assert viewed.returncode == 0, viewed.stderr
        assert page.read_data((tmp_path / f"{kind}-view.html").read_text())["kind"] == kind
        made, shown = games_of(replay), games_of(tmp_path / f"{kind}-view.html")
        assert shown == made and len(made) == {"connect4": 2, "samegame": 2, "match3": 4}[kind]
        assert any("<b>" in frame.get("output", "") or "board 1 move 1" in frame.get("output", "")
                   for game in shown for frame in game["frames"])  # the bots' output, as text
    one = gridfall("view", str(tmp_path / "match3.json"), "--job", "board 2", "-o", str(tmp_path / "board2.html"))
    assert one.returncode == 0 and games_of(tmp_path / "board2.html") == games_of(tmp_path / "match3-replay.html")[1:2]
    game = gridfall("view", str(tmp_path / "connect4.json"), "--job", "game 2", "-o", str(tmp_path / "game2.html"))
    assert game.returncode == 0 and games_of(tmp_path / "game2.html") == games_of(tmp_path / "connect4-replay.html")[1:]
    board = gridfall("view", str(tmp_path / "samegame.json"), "--board", "standard:1", "-o", str(tmp_path / "b1.html"))
    assert board.returncode == 0 and games_of(tmp_path / "b1.html") == games_of(tmp_path / "samegame-replay.html")[:1]


def test_a_json_that_no_referee_printed_or_that_does_not_replay_gets_an_error_naming_it(tmp_path):
    record = tmp_path / "match.json"
    done = gridfall("connect4", "referee", "--p1", pick("first"), "--p2", pick("centre"), "--games", "2",
                    "--first-turn-ms", "3000", "--turn-ms", "1000", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    other = tmp_path / "other.json"
    other.write_text('{"name": "not a referee\'s"}')
    broken = tmp_path / "broken.json"
    broken.write_text('{"p1": "a", ')
    page_file = tmp_path / "page.html.orig"
    page_file.write_text("<!DOCTYPE html>\n<html><body>a replay</body></html>\n")
    for arguments, says in [((other,), "JSON, but not what a referee prints (connect4 referee --json;"),
                            ((page_file,), "an HTML page (a replay already? open it in a browser)"),
                            ((broken,), "not JSON (Expecting"),
                            ((record, "--job", "game 9"), "no game 'game 9' (games are named like: game 1, game 2)"),
                            ((record, "--board", "standard:1"), 'holds a connect4 referee\'s games: --job "game 3"'),
                            ((record, "--set", "tuning"), "--set: not for a referee's JSON"),
                            ((record,), "a damaged referee's JSON: IllegalAction: ")]:
        record.write_text(json.dumps(data))
        if arguments == (record,):  # a column played past the top of the board
            data["games"][0]["moves"] = [0] * 8
            record.write_text(json.dumps(data))
        told = gridfall("view", *map(str, arguments), "-o", str(tmp_path / "page.html"))
        assert told.returncode == 2 and says in told.stderr and "Traceback" not in told.stderr, (arguments, told.stderr)
        assert str(arguments[0]) in told.stderr or "--set" in says
        assert not (tmp_path / "page.html").exists()


def test_a_match3_run_that_failed_says_why_on_its_page(tmp_path):
    """CodeAbbey fails a whole run (a file that cannot load, the run's time over): the page shows
    the board it stopped on, the first if it stopped before any, and the failure on its last frame."""
    (tmp_path / "broken.py").write_text("def suggest(board):\n    return (1, 1, 'Q'\n")
    (tmp_path / "slow.py").write_text("import time\n\ndef suggest(board):\n    time.sleep(0.3)\n    return 1, 1, 'Q'\n")
    (tmp_path / "quit.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")

    def results(path):
        return [(g["title"].rsplit(", board ", 1)[1], g["frames"][-1]["result"]) for g in page.read_data(
            path.read_text())["games"]]

    broken = "the run failed: cannot load broken.py: SyntaxError at line 2: '(' was never closed"
    done = gridfall("match3", "referee", str(tmp_path / "broken.py"), "--replay", str(tmp_path / "broken.html"),
                    "--json")
    assert done.returncode == 0 and "replay:" in done.stderr, done.stderr  # no page was written, and none said so
    assert [(board, text.replace(str(tmp_path) + "/", "")) for board, text in results(tmp_path / "broken.html")] == \
        [("1 (8x8, 0 moves)", broken)]
    (tmp_path / "broken.json").write_text(done.stdout)
    viewed = gridfall("view", str(tmp_path / "broken.json"), "-o", str(tmp_path / "viewed.html"))
    assert viewed.returncode == 0, viewed.stderr  # was "holds no finished game: its referee was stopped ..."
    assert results(tmp_path / "viewed.html") == results(tmp_path / "broken.html")
    slow = gridfall_json("match3", "referee", str(tmp_path / "slow.py"), "--time", "0.5")
    (tmp_path / "slow.json").write_text(json.dumps(slow))
    assert gridfall("view", str(tmp_path / "slow.json"), "-o", str(tmp_path / "slow.html")).returncode == 0
    [*_, (board, said)] = results(tmp_path / "slow.html")  # board 2, unless the machine is slow
    assert said == f"time limit exceeded; the run failed: {slow['failed']}", said
    assert slow["failed"].startswith(f"board {board.split()[0]}, move 1: over the time limit"), (board, said)
    db = tmp_path / "m.sqlite"  # a comparison stores the failure as the run's reason
    gridfall_json("match3", "compare", "--bot", f"quit={tmp_path / 'quit.py'}", "--bot", f"slow={tmp_path / 'slow.py'}",
                  "--seeds", "1", "--time", "0.5", "--db", str(db))
    assert gridfall("view", str(db), "--job", "seed 1 slow", "-o", str(tmp_path / "db.html")).returncode == 0
    [*_, (board, said)] = results(tmp_path / "db.html")
    assert said.startswith(f"time limit exceeded; the run failed: board {board.split()[0]}, move 1: over"), said
