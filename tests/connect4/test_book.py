"""The exported file's opening book: its keys, its coverage of the file's own tree, and its use."""

import dataclasses
import json
import pathlib
import random

import pytest

from gridfall.connect4.book import DIGITS, PAIRS, Book, pack, position_of, unpack
from gridfall.connect4.book_build import build, engine_layout
from gridfall.connect4.engine import from_game
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.portable import PortableAgent
from gridfall.connect4.rules import STEAL, Game

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def random_games(count, seed, max_moves=30):
    rng = random.Random(seed)
    for _ in range(count):
        game = Game()
        for _ in range(rng.randrange(max_moves)):
            if game.is_terminal():
                break
            game.apply_action(rng.choice(game.legal_actions()))
        yield game


def key(game):
    return Book(9, 7, {}, "keys").key(*position_of(game))


def test_a_key_is_one_position_and_the_search_sees_the_same_one():
    # the book is keyed in the file's layout and searched in the numba engine's
    by_key = {}
    for game in random_games(400, seed=1):
        current, mask = position_of(game)
        engine_position = from_game(game)
        assert (engine_layout(current, 9, 7), engine_layout(mask, 9, 7)) == engine_position
        assert by_key.setdefault(key(game), engine_position) == engine_position
    assert len(by_key) > 300
    # after the first chip and after a stolen one, the side to move sees the same position
    assert key(Game.from_moves("3")) == key(_stolen(3))


def _stolen(column):
    game = Game()
    game.apply_action(column)
    game.apply_action(STEAL)
    return game


def _reachable(book, agent, turns, stolen_turns=None, first_turns=None):
    """Every position where the file is to move, up to ``turns`` actions (``stolen_turns`` after the
    opponent steals the file's first chip, ``first_turns`` when it plays on), and not decided by its
    table."""
    found = []
    frontier = [(Game(), seat) for seat in (0, 1)]
    while frontier:
        game, seat = frontier.pop()
        if seat == 1:
            limit = turns
        elif game.history[1:2] == [STEAL]:
            limit = stolen_turns or turns
        else:
            limit = first_turns or turns
        if game.is_terminal() or game.turn > limit:
            continue
        if game.current_player() == seat:
            action = agent.table_move(game)
            if action is None:
                found.append(game)
                action = book.move(*position_of(game), 9, 7)
                assert action is not None and game.position.can_play(action), game.moves_string()
            actions = [action]
        else:
            actions = game.legal_actions()
        for a in actions:
            child = game.clone()
            child.apply_action(a)
            frontier.append((child, seat))
    return found


def test_a_built_book_holds_every_position_of_the_files_tree_and_is_the_same_again():
    small = build(depth=4, turns=3, workers=1)
    agent = PortableAgent(book=small, seed=0)
    positions = _reachable(small, agent, turns=3)  # the tree by the rules of record, not by the walk
    keys = {key(g) for g in positions}
    assert keys == set(small.moves) and len(keys) > 50
    assert (small.depth, small.turns) == (4, 3)
    again = build(depth=4, turns=3, workers=2)  # from an empty table each: the order does not matter
    assert again.moves == small.moves
    data = small.to_data()
    # a transposition is walked again only with more actions left than before (here the position
    # after the file's first chip, met with the move after a STEAL and then as second player)
    assert len(keys) <= data["positions"] <= len(keys) + 1 < len(positions)
    assert len(data["tree"]) == (data["positions"] + 1) // 2  # two a character on 9 columns
    assert Book.from_data(data) == small


def test_a_book_that_walks_every_path_still_reads():
    """Until 2026-11-29 the tree's walk met a position again on each path to it (no
    ``each_position_once`` field): such a book reads to the same moves, in about twice the text."""
    book = Book.load()
    every_path = dataclasses.replace(book, each_position_once=False)
    legacy = every_path.to_data()
    del legacy["each_position_once"]
    assert legacy["positions"] > 2 * book.to_data()["positions"]
    assert Book.from_data(legacy).moves == book.moves


def test_the_line_after_a_stolen_first_chip_reaches_further_and_a_build_extends_a_book():
    small = build(depth=4, turns=3, workers=1)
    deeper = build(depth=4, turns=3, stolen_turns=6, workers=1)
    agent = PortableAgent(book=deeper, seed=0)
    positions = _reachable(deeper, agent, turns=3, stolen_turns=6)
    assert {key(g) for g in positions} == set(deeper.moves)
    stolen_line = [g for g in positions if g.history[1:2] == [STEAL] and g.turn > 3]
    assert len(stolen_line) > 50 and {g.turn for g in stolen_line} == {4, 6}  # two more moves of the file
    assert set(small.moves) < set(deeper.moves)
    assert all(deeper.moves[k] == column for k, column in small.moves.items())
    assert Book.from_data(deeper.to_data()) == deeper and deeper.to_data()["stolen_turns"] == 6
    # extending the small book searches only the new positions, to the same answers
    searched = []
    extended = build(depth=4, turns=3, stolen_turns=6, workers=1, known=small, progress=searched.append)
    assert extended.moves == deeper.moves
    assert sum(int(line.split(": ")[1].split()[0]) for line in searched) == len(deeper.moves) - len(small.moves)
    # a book without stolen_turns (made before it existed) reaches as far in every line
    data = small.to_data()
    del data["stolen_turns"], data["first_turns"]
    assert Book.from_data(data).stolen_turns == Book.from_data(data).first_turns == 3


def test_the_line_where_the_opponent_plays_on_after_the_files_first_chip_reaches_further():
    small = build(depth=4, turns=3, workers=1)
    deeper = build(depth=4, turns=3, first_turns=5, workers=1, known=small)
    positions = _reachable(deeper, PortableAgent(book=deeper, seed=0), turns=3, first_turns=5)
    assert {key(g) for g in positions} == set(deeper.moves)
    played_on = [g for g in positions if len(g.history) > 1 and g.history[1] != STEAL and g.current_player() == 0]
    assert len(played_on) > 50 and {g.turn for g in played_on} == {2, 4}  # one more move of the file
    assert all(deeper.moves[k] == column for k, column in small.moves.items())
    assert Book.from_data(deeper.to_data()) == deeper and deeper.to_data()["first_turns"] == 5


def test_packed_columns_read_back_and_a_book_written_before_packing_still_reads():
    for width, count in ((9, 0), (9, 1), (9, 2), (9, 7), (7, 5), (10, 5), (36, 3)):  # wider than 9: a digit each
        columns = [(i * 5 + 3) % width for i in range(count)]
        text = pack(columns, width)
        assert unpack(text, width, count) == columns and len(text) == (count if width > 9 else (count + 1) // 2)
        assert all(c in PAIRS for c in text) and json.dumps(text)[1:-1] == text and repr(text)[1:-1] == text
    book = Book.load()
    data = book.to_data()
    legacy = {key: value for key, value in data.items() if key != "positions"}
    legacy["tree"] = "".join(DIGITS[c] for c in unpack(data["tree"], book.width, data["positions"]))
    assert Book.from_data(legacy) == book  # one digit a position, as books were written until 2026-11-29


def test_a_corrupt_tree_is_refused_by_name():
    data = Book.load().to_data()
    for tree in (data["tree"][:-1], data["tree"] + "0", " " + data["tree"][1:], "\\" + data["tree"][1:]):
        with pytest.raises(ValueError, match="corrupt book"):
            Book.from_data({**data, "tree": tree})
    for positions in (data["positions"] - 1, data["positions"] + 1, data["positions"] + 2):
        with pytest.raises(ValueError, match="corrupt book"):
            Book.from_data({**data, "positions": positions})
    with pytest.raises(ValueError, match="lacks first_move, stolen"):
        Book.from_data({key: value for key, value in data.items() if key not in ("first_move", "stolen")})


def test_the_packaged_book_is_read_once_and_shared():
    # every agent reads it: a seeded Connect4-v0 reset makes one, and must not walk the tree again
    from gridfall.connect4.agents import GridfallAgent

    first, second = GridfallAgent(seed=1), GridfallAgent(seed=2)
    assert first.opening.book is second.opening.book is Book.load()


def test_the_packaged_book_covers_the_files_tree_as_it_says():
    book = Book.load()
    assert book.depth >= 12 and book.turns >= 6
    # built for the table's first move and steals: a change to either leaves the book stale
    table = OpeningTable.load()
    assert book.first_move == table.first_move and book.stolen == tuple(c for c in range(9) if table.should_steal(c))
    agent = PortableAgent(seed=0)
    positions = _reachable(book, agent, book.turns, book.stolen_turns, book.first_turns)
    assert {key(g) for g in positions} == set(book.moves)
    assert book.to_data()["positions"] == len(book.moves)  # each position written once


def test_the_file_plays_the_book_then_searches():
    game = Game.from_moves("03")  # the file opened in column 0, the opponent answered in 3
    for column in (1, 7):
        agent = PortableAgent(book=Book(9, 7, {key(game): column}, "test"), seed=0)
        assert agent.act(game, 0.05) == column and agent.last is None
    agent = PortableAgent(book=Book(9, 7, {}, "empty"), seed=0)
    assert agent.act(game, 0.05) in range(9) and agent.last is not None  # not in the book: searched
    full = Game.from_moves("0" * 7 + "3")
    agent = PortableAgent(book=Book(9, 7, {key(full): 0}, "bad"), seed=0)
    assert agent.act(full, 0.05) != 0  # a full column in the book is not played


def test_the_walked_book_is_kept_on_disk_and_a_damaged_copy_is_walked_again(tmp_path):
    """The numba bot reads the book in its first turn: the walk's result is kept (book_cache), and
    a kept file that is not a book's is never trusted."""
    import marshal
    import subprocess
    import sys

    from gridfall.connect4.book import shipped_text
    from gridfall.connect4.book_cache import keep_moves, kept_moves, kept_path

    text = shipped_text()
    walked = Book.load().moves
    folder = str(tmp_path)
    assert kept_moves(folder, text, 9, len(walked)) is None  # nothing kept yet
    keep_moves(folder, text, walked)
    assert kept_moves(folder, text, 9, len(walked)) == walked
    assert kept_moves(folder, text + " ", 9, len(walked)) is None  # another book's text has another name
    whole = pathlib.Path(kept_path(folder, text)).read_bytes()
    for damage in (b"", b"not marshal", whole[: len(whole) // 2], marshal.dumps([1, 2]), marshal.dumps({}),
                   marshal.dumps({1: 9}), marshal.dumps({"1": 3})):
        with open(kept_path(folder, text), "wb") as f:
            f.write(damage)
        assert kept_moves(folder, text, 9, len(walked)) is None, damage[:20]
    keep_moves(str(tmp_path / "no such folder"), text, walked)  # a folder that cannot take it: no error

    # a new process with a damaged file walks the tree, keeps it anew, and the next one reads it
    read = ("import sys; from gridfall.connect4 import book_cache; "
            "print(len(book_cache.load(sys.argv[1]).moves))")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", read, folder], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.split() == [str(len(walked))], done.stderr
        assert kept_moves(folder, text, 9, len(walked)) == walked


@pytest.mark.alone  # two workers searching
@pytest.mark.parametrize("signum, workers", [("SIGINT", 2), ("SIGTERM", 2), ("SIGINT", 1)])
def test_a_stopped_build_ends_its_workers_at_once_and_writes_nothing(tmp_path, signum, workers):
    # deep in a search, its workers were waited for: Ctrl-C at --depth 26 was deaf for minutes, and
    # SIGTERM killed the command outright (no word, and "leaked semaphore objects" from Python);
    # one worker searched in the main thread, where a numba kernel holds Ctrl-C until it returns
    import signal
    import subprocess
    import sys

    from tests.processes import as_in_a_terminal, stopped

    out = tmp_path / "book.json"
    build_command = [sys.executable, "-m", "gridfall", "connect4", "book", "--rebuild", "--depth", "26", "--turns", "1",
                     "--workers", str(workers), "--out", str(out)]
    process = subprocess.Popen(build_command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=as_in_a_terminal)
    while "actions 0:" not in process.stderr.readline():  # the walk's first level: the searches begin
        if process.poll() is not None:
            pytest.fail(f"the build ended before it searched: {process.communicate()[1]}")
    err, took = stopped(process, getattr(signal, signum))
    assert process.returncode == 128 + getattr(signal, signum), err
    assert took < 15 and "stopped: nothing written (the book is written whole)" in err, (took, err)
    assert "leaked" not in err and "Traceback" not in err and not out.exists()
