"""The exported Connect Four bot: one file, standard library only, legal and in time under the
referee in a bare interpreter, and stronger than greedy."""

import json
import subprocess
import sys

from gridfall.connect4.export import export_source
from gridfall.connect4.openings import OpeningTable


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


FIRST_TURN = "0 1\n0\n" + ".........\n" * 7 + "9\n" + "".join(f"{x}\n" for x in range(9)) + "-1\n"


def test_the_export_reads_its_seed_from_gridfall_seed_and_says_when_it_is_not_a_number(tmp_path):
    out = tmp_path / "bot.py"
    out.write_text(export_source())
    for value, complaint in (("12", False), ("", False), ("abc", True)):
        run = subprocess.run([sys.executable, "-I", str(out)], input=FIRST_TURN, capture_output=True, text=True,
                             timeout=60, env={"GRIDFALL_SEED": value})
        assert run.returncode == 0 and run.stdout.split() == [str(OpeningTable.load().first_move)], run.stderr
        assert ("GRIDFALL_SEED='abc' is not a whole number" in run.stderr) == complaint, run.stderr


def test_the_export_plays_its_books_move(tmp_path):
    from gridfall.connect4.book import Book
    from gridfall.connect4.rules import Game

    out = tmp_path / "bot.py"
    out.write_text(export_source())
    book = Book.load()
    # as first player after two answers; as second after an edge chip, which the table does not steal
    first = OpeningTable.load().first_move
    for moves in (f"{first}3", f"{first}4", "0", "8"):
        game = Game.from_moves(moves)
        expected = book.lookup(game)
        turn = (f"{game.turn % 2} {1 - game.turn % 2}\n{game.turn}\n" + "".join(r + "\n" for r in game.position.rows_text())
                + f"{len(game.legal_actions())}\n" + "".join(f"{a}\n" for a in game.legal_actions()) + "3\n")
        run = subprocess.run([sys.executable, "-I", str(out)], input=turn, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and run.stdout.split() == [str(expected)], (moves, run.stdout, run.stderr)


def test_the_export_exits_1_on_input_that_is_not_the_protocol_and_0_at_its_end(tmp_path):
    out = tmp_path / "bot.py"
    out.write_text(export_source())
    for given, code, says in ((FIRST_TURN, 0, ""), ("garbage\n", 1, "line 1: expected myId oppId"),
                              (FIRST_TURN.split("\n", 3)[0] + "\n" + "hello\n", 1, "line 2: expected the turn index")):
        run = subprocess.run([sys.executable, "-I", str(out)], input=given, capture_output=True, text=True, timeout=60)
        assert run.returncode == code and says in run.stderr, (given, run.returncode, run.stderr)
