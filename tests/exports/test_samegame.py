"""The exported SameGame bot: one file, standard library only, in a bare interpreter under the
referee: the user's known lines at once (recoloured boards too), a legal search elsewhere."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parents[2] / "results" / "samegame-standard.txt"


def export(tmp_path, *flags):
    out = tmp_path / "bot.py"
    run = subprocess.run([sys.executable, "-m", "gridfall", "samegame", "export", str(out), *flags],
                         capture_output=True, text=True)
    assert run.returncode == 0 and "standard library only" in run.stdout, run.stderr
    assert len(out.read_text()) <= 100_000
    return out


def referee(bot, *args):
    run = subprocess.run([sys.executable, "-m", "gridfall", "samegame", "referee", "--bot", bot, *args, "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)["boards"]


@pytest.mark.skipif(not RESULTS.exists(), reason="no results file in this checkout")
@pytest.mark.parametrize("one_turn", [False, True])
def test_known_boards_are_played_at_once_in_both_flavours(tmp_path, bare_python, one_turn):
    from gridfall.samegame.boards import load_board
    from gridfall.samegame.store import results_row

    bot = export(tmp_path, "--from", str(RESULTS), *(["--one-turn"] if one_turn else []))
    boards = referee(f"{bare_python} -I {bot}", "standard:3", "codingame:33",  # codingame:33 is standard:3 recoloured
                     *(["--one-turn"] if one_turn else []))
    row = next(results_row(line, "standard") for line in RESULTS.read_text().splitlines()
               if line.startswith("3\t"))
    assert load_board("codingame:33") != load_board("standard:3")
    for board in boards:
        assert board["outcome"] == "ok" and board["score"] == row[1] and board["first_turn_seconds"] < 2


@pytest.mark.parametrize("one_turn", [False, True])
def test_an_unknown_board_gets_a_legal_line_in_time(tmp_path, bare_python, one_turn):
    bot = export(tmp_path, "--no-store", "--first-turn-ms", "1500", *(["--one-turn"] if one_turn else []))
    (board,) = referee(f"{bare_python} -I {bot}", "tuning:3", "--first-turn-ms", "3000",
                       *(["--one-turn"] if one_turn else []))
    assert board["outcome"] == "ok" and board["score"] > 0 and board["first_turn_seconds"] < 3
    if not one_turn:
        assert board["slowest_turn_seconds"] < 0.050


def test_only_the_lines_of_boards_codingame_plays_go_in(tmp_path):
    # a store filled by tuning (250 boards) made the file 106,506 characters: refused as over the limit
    from gridfall.samegame.boards import load_board
    from gridfall.samegame.greedy import greedy_line
    from gridfall.samegame.store import SolutionStore

    store = SolutionStore(tmp_path / "s.sqlite")
    for spec in ("tuning:1", "tuning:2", "standard:5", "codingame:1"):
        board = load_board(spec)
        store.offer(board, greedy_line(board), algo="greedy", seconds=0)
    store.close()
    out = tmp_path / "bot.py"
    run = subprocess.run([sys.executable, "-m", "gridfall", "samegame", "export", str(out), "--store",
                          str(tmp_path / "s.sqlite")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "2 known boards" in run.stdout
    assert "left out the lines of 2 boards that CodinGame never plays" in run.stdout
    assert "KNOWN = " in out.read_text() and "# 2 boards: board key -> line" in out.read_text()


def test_the_export_exits_1_on_input_that_is_not_a_board_and_0_at_its_end(tmp_path):
    from gridfall.samegame.boards import load_board

    bot = export(tmp_path, "--no-store")
    for given, code, says in (("", 0, ""), ("hello\n" * 15, 1, "line 1: expected 15 numbers, found 1"),
                              ("\n".join(load_board("standard:3").text().splitlines()[:4]) + "\n", 1,
                               "the input ended inside a board, after 4 of its 15 rows")):
        run = subprocess.run([sys.executable, "-I", str(bot)], input=given, capture_output=True, text=True, timeout=60)
        assert run.returncode == code and says in run.stderr, (given[:20], run.returncode, run.stderr)
