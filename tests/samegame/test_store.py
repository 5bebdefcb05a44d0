"""The solution store: recoloured boards, improvements only, replay on read and import."""

import io
import json
import os

import pytest

from gridfall.samegame import rules
from gridfall.samegame.line import Line
from gridfall.samegame.boards import load_board
from gridfall.samegame.codingame import make_planner
from gridfall.samegame.protocol import BotConfig, play_one_turn
from gridfall.samegame.store import SolutionStore, StoreError, board_key

from .test_rules import reference_solutions

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def reference_line(number):
    for n, score, _, _, moves in reference_solutions():
        if n == number:
            return score, list(Line.from_text(moves))


@pytest.fixture
def store(tmp_path):
    s = SolutionStore(tmp_path / "store.sqlite")
    yield s
    s.close()


def test_recoloured_board_finds_the_same_entry(store):
    score, line = reference_line(1)
    assert store.offer(load_board("standard:1"), line, algo="test", seconds=1)
    recoloured = load_board("codingame:31")
    assert recoloured != load_board("standard:1")
    assert board_key(recoloured) == board_key(load_board("standard:1"))
    entry = store.best(recoloured)
    assert entry is not None and entry.score == score
    assert rules.play_sequence(recoloured, entry.line())[1] == score
    assert set(entry.names()) == {"standard:1", "codingame:11", "codingame:31", "codingame:6"}


def test_only_improvements_are_written(store):
    board = load_board("standard:2")
    score, line = reference_line(2)
    worse = line[:10]
    assert store.offer(board, worse, algo="a", seconds=1)
    assert store.offer(board, line, algo="b", seconds=2)
    assert not store.offer(board, worse, algo="c", seconds=3)
    assert store.best(board).score == score and store.best(board).algo == "b"


def test_illegal_lines_are_refused(store):
    with pytest.raises(StoreError, match="Region of size 1|Selected empty tile"):
        store.offer(load_board("standard:1"), [(14, 14)], algo="x", seconds=0)


def test_tampered_entry_is_ignored_on_read(store):
    board = load_board("standard:3")
    score, line = reference_line(3)
    store.offer(board, line, algo="x", seconds=0)
    store._db.execute("UPDATE solutions SET score = score + 1")
    assert store.best(board) is None


def test_export_import_round_trip(store, tmp_path):
    for n in (4, 5):
        store.offer(load_board(f"standard:{n}"), reference_line(n)[1], algo="ref", seconds=0)
    out = io.StringIO()
    assert store.export_jsonl(out) == 2
    path = tmp_path / "shared.jsonl"
    path.write_text(out.getvalue())
    with SolutionStore(tmp_path / "other.sqlite") as other:
        assert other.import_file(str(path)) == (2, 2)
        assert other.best(load_board("codingame:35")).score == reference_line(5)[0]
    assert json.loads(out.getvalue().splitlines()[0])["names"]


def test_results_format_round_trip(store, tmp_path):
    store.offer(load_board("standard:6"), reference_line(6)[1], algo="ref", seconds=0)
    out = io.StringIO()
    store.export_results(out, "standard")
    text = out.getvalue()
    assert "\n6\t" in text and text.startswith("# gridfall standard")
    path = tmp_path / "results.txt"
    path.write_text(text)
    with SolutionStore(tmp_path / "other.sqlite") as other:
        assert other.import_file(str(path)) == (1, 1)


def test_results_import_keeps_who_found_each_line(store, tmp_path):
    board = load_board("standard:6")
    store.offer(board, reference_line(6)[1], algo="nrpa x2 tabu_rank=1", seconds=60, seed=1001)
    out = io.StringIO()
    store.export_results(out, "standard")
    path = tmp_path / "results.txt"
    path.write_text(out.getvalue())
    with SolutionStore(tmp_path / "other.sqlite") as other:
        other.import_file(str(path))
        mine, theirs = store.best(board), other.best(board)
    assert (theirs.algo, theirs.seconds, theirs.seed, theirs.found) == ("nrpa x2 tabu_rank=1", 60, 1001, mine.found)


def test_import_names_the_bad_line(store, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# comment\n1\t5\t14 14;0 0\n")
    with pytest.raises(StoreError, match=r"bad.txt:2: line refused"):
        store.import_file(str(path))


def test_an_import_line_nested_too_deeply_is_a_bad_line(store, tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"board": ' + "[" * 100_000 + "\n")  # was an internal error (RecursionError)
    with pytest.raises(StoreError, match=r"deep.jsonl:1: JSON nested too deeply"):
        store.import_file(str(path))


def test_one_turn_bot_plays_the_stored_line(store):
    score, line = reference_line(7)
    store.offer(load_board("standard:7"), line, algo="ref", seconds=0)
    out = io.StringIO()
    config = BotConfig(first_turn_budget=5, store=str(store.path))
    play_one_turn(io.StringIO(load_board("codingame:37").text() + "\n"), out, config, make_planner(config),
                  log=io.StringIO())
    judged = rules.judge(load_board("codingame:37"), rules.split_one_turn(out.getvalue()))
    assert judged.ok and judged.score == score


def filled_store(tmp_path, name="filled.sqlite"):
    s = SolutionStore(tmp_path / name)
    for number in (1, 2, 3):
        s.offer(load_board(f"standard:{number}"), reference_line(number)[1], algo="test", seconds=1)
    return s


def test_a_damaged_file_is_a_store_error_naming_it_and_the_bot_still_searches(tmp_path):
    s = filled_store(tmp_path)
    s.close()
    path = tmp_path / "filled.sqlite"
    with open(path, "r+b") as f:  # a corrupt page, as a disk or a copy gone wrong makes
        f.seek(4096)
        f.write(b"\xff" * 8192)
    with SolutionStore(path) as damaged:
        with pytest.raises(StoreError, match="filled.sqlite: the solution store is damaged"):
            damaged.entries()
        with pytest.raises(StoreError, match="damaged"):
            damaged.best(load_board("standard:1"))
    out, log = io.StringIO(), io.StringIO()
    board = load_board("codingame:37")
    config = BotConfig(first_turn_budget=0.5, store=str(path))
    play_one_turn(io.StringIO(board.text() + "\n"), out, config, make_planner(config, log), log=log)
    assert "damaged" in log.getvalue() and "searching instead" in log.getvalue()
    assert rules.judge(board, rules.split_one_turn(out.getvalue())).ok


def test_a_row_that_does_not_replay_is_ignored_and_replaced(tmp_path):
    s = filled_store(tmp_path)
    s._db.execute("UPDATE solutions SET score = 999999 WHERE key = ?", (board_key(load_board("standard:2")),))
    board = load_board("standard:2")
    assert s.best(board) is None
    assert [e.replays() for e in s.entries()].count(False) == 1
    exported = io.StringIO()
    assert s.export_jsonl(exported) == 2 and "999999" not in exported.getvalue()
    worse = Line.from_text("0 0") if len(board.region(0, 0)) > 1 else Line([next((g.x, g.y) for g in board.groups())])
    assert s.offer(board, worse, algo="a short line", seconds=0)  # any sound line beats a bogus one
    assert s.best(board).algo == "a short line"
    s.close()


def test_an_import_is_checked_whole_then_committed_whole(tmp_path):
    s = SolutionStore(tmp_path / "s.sqlite")
    score, line = reference_line(4)
    good = f"4\t{score}\t{Line(line).text()}\n"
    for bad, message in [("5\n", r"BOARD<TAB>SCORE<TAB>\.\.\.MOVES, found 1"), ("6\t1\t0 0;x\n", "not properly formatted"),
                         ('{"board": 5}\n', "moves|board"), ("[1, 2]\n", "expected BOARD"),
                         ('{"board": [], "moves": "0 0"}\n', "expected 15"),
                         ("7\t1\t14 14\n", "refused by the rules"),
                         (f"4\t{score + 1}\t{Line(line).text()}\n",
                          rf"claims {score + 1} but replays to {score} on standard:4 \(another set\?"),
                         ('{"board": %s, "moves": "%s", "score": 7}\n' % (json.dumps(load_board("standard:4").text()
                                                                                 .splitlines()), Line(line).text()),
                          f"claims 7 but replays to {score} on its board")]:
        path = tmp_path / "mixed.txt"
        path.write_text(good + bad)
        with pytest.raises(StoreError, match=message) as e:
            s.import_file(str(path))
        assert "mixed.txt:2" in str(e.value) and "nothing was imported" in str(e.value)
        assert s.entries() == []  # the good first line was not committed either
    path.write_text(good)
    assert s.import_file(str(path)) == (1, 1)
    s.close()


def test_a_folder_given_as_the_store_is_named(tmp_path, monkeypatch):
    with pytest.raises(StoreError, match=f"{tmp_path}: cannot open the solution store: it is a folder; name a file"):
        SolutionStore(tmp_path)
    monkeypatch.setenv("GRIDFALL_STORE", str(tmp_path))  # the default path, from the environment
    with pytest.raises(StoreError, match="is a folder"):
        SolutionStore()


def test_a_store_named_in_a_missing_folder_is_refused_and_the_default_ones_folder_is_made(tmp_path, monkeypatch):
    # `--store /nonexistent/x` made the folder and an empty store in it: a slip went unnoticed
    with pytest.raises(StoreError, match=f"cannot open the solution store: the folder {tmp_path / 'typo'} does not exist"):
        SolutionStore(tmp_path / "typo" / "s.sqlite")
    assert not (tmp_path / "typo").exists()
    monkeypatch.setenv("GRIDFALL_STORE", str(tmp_path / "data" / "s.sqlite"))  # the user's, made on first use
    SolutionStore().close()
    assert (tmp_path / "data" / "s.sqlite").is_file()


def test_a_store_linked_to_a_missing_folder_names_the_link_and_the_folder(tmp_path, monkeypatch):
    """A store kept on a disk that is not mounted now: SQLite said only "unable to open database
    file"; and a default path under a file, where making its folder said only "File exists"."""
    (tmp_path / "solutions.sqlite").symlink_to(tmp_path / "unmounted" / "solutions.sqlite")
    monkeypatch.setenv("GRIDFALL_STORE", str(tmp_path / "solutions.sqlite"))
    for opening in (lambda: SolutionStore(tmp_path / "solutions.sqlite"), SolutionStore):
        with pytest.raises(StoreError, match=f"a link to {tmp_path / 'unmounted' / 'solutions.sqlite'}, and the "
                                             f"folder {tmp_path / 'unmounted'} does not exist"):
            opening()
    assert not (tmp_path / "unmounted").exists()
    (tmp_path / "loop.sqlite").symlink_to(tmp_path / "loop.sqlite")  # was an internal error (RuntimeError)
    with pytest.raises(StoreError, match="a link in a loop of links"):
        SolutionStore(tmp_path / "loop.sqlite")
    (tmp_path / "notes").write_text("a file")
    monkeypatch.setenv("GRIDFALL_STORE", str(tmp_path / "notes" / "s.sqlite"))
    with pytest.raises(StoreError, match=f"{tmp_path / 'notes'} is a file, not a folder"):
        SolutionStore()


def test_a_device_or_a_pipe_given_as_the_store_is_named(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(StoreError, match="pipe: cannot open the solution store: not a regular file"):
        SolutionStore(pipe)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no journal beside it


def test_a_name_too_long_for_the_file_system_is_named_once():
    with pytest.raises(StoreError, match=r"x: cannot open the solution store: File name too long$"):
        SolutionStore("x" * 5000)


def test_imported_text_can_never_start_a_row_of_a_results_file(tmp_path):
    # an algo or a date with a line break, written into the file's "# N: ..." line, made a row
    path, store = tmp_path / "one.jsonl", filled_store(tmp_path)
    with open(path, "w") as out:
        store.export_jsonl(out)
    line = json.loads(path.read_text().splitlines()[0])
    for key, value, says in (("algo", "x\nstandard:3\t9\t0 0", "must be one line"),
                             ("algo", "nrpa\x1b[2J\x1b]0;pwned\x07", "must be one line of printable text"),
                             ("found", "2026\nstandard:4\t1\t0 0", "is not a date and time"),
                             ("seconds", float("nan"), "is not a time")):
        path.write_text(json.dumps({**line, key: value}) + "\n")
        with pytest.raises(StoreError, match=says), SolutionStore(tmp_path / f"{key}.sqlite") as other:
            other.import_file(str(path))
    entry = store.entries()[0]  # a store written by hand, or by an older gridfall, is made safe as it is written
    store.close()
    from dataclasses import replace

    from gridfall.samegame.store import provenance_line

    assert provenance_line(1, replace(entry, algo="a\nstandard:3\t9\t0 0")).count("\n") == 0


def fill_up(connection) -> None:
    """Give the connection's database no room to grow: SQLite's own "database or disk is full"."""
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_is_named_as_such_and_leaves_the_store_as_it_was(store):
    board = load_board("standard:2")
    score, line = reference_line(2)
    assert store.offer(board, line[:10], algo="a", seconds=1)
    fill_up(store._db)
    with pytest.raises(StoreError) as refused:
        for number in range(3, 21):  # lines of other boards, until one needs a page more
            store.offer(load_board(f"standard:{number}"), reference_line(number)[1], algo="b", seconds=1)
    # not "damaged ... move the file aside": the file is sound, the disk is full
    assert "cannot write to the solution store: database or disk is full" in str(refused.value)
    assert "damaged" not in str(refused.value)
    assert store.best(board).algo == "a"  # still readable, and the transaction rolled back whole
    store._db.execute("PRAGMA max_page_count = 1073741823")  # room made: the same store goes on
    assert store.offer(board, line, algo="c", seconds=1) and store.best(board).score == score
