"""Measuring the pie rule: the jobs, the estimate with its interval, and a whole small run."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from gridfall.arena.database import GameRow
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.pie import PieGame, estimate, schedule

# Its engines think 10 ms a move in the referee's process, with no clock to lose on (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe

SETTINGS = {"pairs": 3, "turn": 0.01, "engines": ["greedy", "random"], "plies": 2, "solve_empties": 10,
            "solve_seconds": 0.5, "seed": 7, "width": 9, "height": 7}


def row(column, pair, game, winner):
    return GameRow(f"column {column} pair {pair} game {game}", "connect4", ["a", "b"], ["a", "b"], [], {"winner": winner},
                   "", [], [])


def test_the_schedule_interleaves_pairs_across_the_five_openings():
    jobs = schedule(SETTINGS)
    assert len(jobs) == 3 * 5 * 2
    assert [j.column for j in jobs[:10]] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert len({j.key for j in jobs}) == len(jobs)


def test_both_games_of_a_pair_share_the_opening_and_swap_the_engines():
    a, b = (PieGame(2, 5, g, ("gridfall", "mcts-solver"), 2, 0.1, 24, 0.5, 0) for g in (0, 1))
    assert a.opening() == b.opening() and len(a.opening()) == 3
    assert a.opening()[0] in (2, 6)  # the chip, or its mirror image
    assert all(2 <= x <= 6 for x in a.opening()[1:])  # central moves
    assert a.owner_and_mover() == ("gridfall", "mcts-solver") and b.owner_and_mover() == ("mcts-solver", "gridfall")
    openings = {tuple(PieGame(2, p, 0, ("x", "y"), 2, 0.1, 24, 0.5, 0).opening()) for p in range(40)}
    assert len(openings) > 10  # diversified


def test_the_estimate_is_the_mean_of_pair_shares_with_its_interval():
    # pair shares for the mover (seat 1): 1, 1/2, 1/4 ... here 1.0, 0.5, 0.75
    rows = [row(3, 0, 0, 1), row(3, 0, 1, 1), row(3, 1, 0, 0), row(3, 1, 1, 1), row(3, 2, 0, None), row(3, 2, 1, 1),
            row(3, 3, 0, 1),  # half a pair: not counted
            row(4, 0, 0, 0), row(4, 0, 1, 0)]
    e = estimate(rows, 3)
    assert e.pairs == 3 and e.games == 6
    assert math.isclose(e.share, 0.75)
    half = 1.96 * 0.25 / math.sqrt(3)  # the pair shares' standard deviation is 0.25
    assert math.isclose(e.low, 0.75 - half) and math.isclose(e.high, min(1.0, 0.75 + half))
    assert estimate(rows, 4).share == 0.0 and estimate(rows, 2).pairs == 0


def test_a_small_run_writes_a_table_and_resumes(tmp_path):
    db, out = tmp_path / "pie.sqlite", tmp_path / "table.json"
    command = [sys.executable, "-m", "gridfall", "connect4", "openings", "--rebuild", "--pairs", "3", "--turn-ms", "10",
               "--engines", "greedy,random", "--solve-empties", "10", "--seed", "7", "--db", str(db), "--out", str(out),
               "--workers", "2", "--json"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    table = OpeningTable.from_data(json.loads(out.read_text()))
    assert sorted(table.values) == list(range(9)) and all(v.pairs == 3 for v in table.values.values())
    assert "greedy and random" in table.method
    shown = json.loads(first.stdout)
    assert shown["first_move"] == table.first_move and "columns" in shown
    standing = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(db)], capture_output=True, text=True,
                              timeout=120)
    assert standing.returncode == 0 and "30 games of 30 stored; the table they give so far:" in standing.stdout
    assert f"This table opens in column {table.first_move};" in standing.stdout
    again = subprocess.run(command[:-1], capture_output=True, text=True, timeout=300)  # the table, not JSON
    assert again.returncode == 0 and "30 games stored" in again.stderr and "0 to play" in again.stderr
    # written with --out, it is not what gridfall plays: it said "gridfall opens in column" all the same
    package = OpeningTable.load().first_move
    assert f"This table opens in column {table.first_move}; gridfall plays the package's table, which opens in " \
           f"column {package}." in again.stdout and "gridfall opens in" not in again.stdout
    grown = subprocess.run(command + ["--pairs", "4"], capture_output=True, text=True, timeout=300)  # the last wins
    assert grown.returncode == 0 and "the run grows: pairs was 3, now 4" in grown.stderr, grown.stderr
    assert "30 games stored in" in grown.stderr and "10 to play" in grown.stderr
    grown_table = OpeningTable.from_data(json.loads(out.read_text()))
    assert all(v.pairs == 4 for v in grown_table.values.values()) and "--pairs 4 " in grown_table.method
    for other, what in ((["--pairs", "3"], "a run can grow, not shrink (pairs: was 4, now 3)"),
                        (["--pairs", "4", "--seed", "8"], "seed: was 7, now 8")):
        refused = subprocess.run(command + other, capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and what in refused.stderr, refused.stderr


def test_the_engines_must_be_two_different_built_in_agents(tmp_path):
    for engines in ("gridfall", "gridfall,gridfall", "gridfall,nobody"):
        run = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "openings", "--rebuild", "--engines",
                              engines, "--db", str(tmp_path / "x.sqlite")], capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "--engines" in run.stderr and "Traceback" not in run.stderr


def test_the_shipped_table_is_what_the_shipped_games_give():
    """`gridfall standings` of results/connect4-pie.sqlite, read without writing it, gives the
    package's table value for value: the published numbers come from the published games."""
    games = Path(__file__).resolve().parents[2] / "results" / "connect4-pie.sqlite"
    done = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(games), "--json"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    table, shipped = OpeningTable.from_data(json.loads(done.stdout)), OpeningTable.load()
    assert table.values == shipped.values and table.first_move == shipped.first_move == 1
