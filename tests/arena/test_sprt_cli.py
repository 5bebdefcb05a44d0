"""``gridfall connect4 sprt``: plays pairs until the test decides, and prints fishtest's block."""

import json

import pytest

from tests.arena.arena_cli import gridfall, gridfall_json, pick
from tests.sqlite_files import rows

# The test bots answer at once, far inside these clocks: the tests share the machine (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe
FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]


def test_a_much_stronger_candidate_is_accepted_and_the_counts_add_up(tmp_path):
    db = tmp_path / "sprt.sqlite"
    # greedy blocks the column that the lowest-column bot stacks, and wins every game
    out = gridfall_json("connect4", "sprt", "--new", "greedy", "--base", pick("first"), "--elo0", "0",
                        "--elo1", "50", "--db", str(db), "--workers", "2", *FAST)
    assert out["verdict"] == "H1"
    assert out["llr"] >= out["bounds"][1]
    assert out["games"] == 2 * sum(out["penta"]) == out["wins"] + out["draws"] + out["losses"]
    stored = rows(db, "SELECT count(*) FROM games")[0][0]
    assert stored >= out["games"]  # pairs in flight when it decided may be stored too
    again = gridfall_json("connect4", "sprt", "--new", "greedy", "--base", pick("first"), "--elo0", "0",
                          "--elo1", "50", "--db", str(db), "--workers", "2", *FAST)
    assert again["verdict"] == "H1" and again["games"] == out["games"]  # decided from the stored games


def test_the_block_and_bad_settings():
    done = gridfall("connect4", "sprt", "--new", "greedy", "--base", "random", "--elo0", "10", "--elo1", "0")
    assert done.returncode == 2 and "elo1" in done.stderr
    far = gridfall("connect4", "sprt", "--new", "greedy", "--base", "random", "--elo0", "1e6", "--elo1", "2e6")
    assert far.returncode == 2 and "'--elo0': 1000000.0 is not in the range -2000.0<=x<=2000.0" in far.stderr
    crossed = gridfall("connect4", "sprt", "--new", "greedy", "--base", "random", "--alpha", "0.9", "--beta", "0.9")
    assert crossed.returncode == 2 and "alpha + beta" in crossed.stderr  # it used to accept H1 after 0 games
    odd = gridfall("connect4", "sprt", "--new", "greedy", "--base", "random", "--max-games", "7")
    assert odd.returncode == 2 and "--max-games': 7: games are played in seat-swapped pairs" in odd.stderr  # was 6


def test_the_printed_block(tmp_path):
    done = gridfall("connect4", "sprt", "--new", pick("first"), "--base", "greedy", "--elo1", "100",
                    "--db", str(tmp_path / "s.sqlite"), "--workers", "2", *FAST)
    assert done.returncode == 0, done.stderr
    for label in ("Elo:", "LLR:", "Games:", "Penta: ["):
        assert label in done.stdout
    assert "accepted" in done.stdout


def test_an_undecided_test_grows_with_a_larger_max_games(tmp_path):
    db = tmp_path / "s.sqlite"
    sprt = ["connect4", "sprt", "--new", pick("centre"), "--base", pick("centre"), "--elo0", "0", "--elo1", "5",
            "--db", str(db), "--workers", "2", *FAST]
    first = gridfall_json(*sprt, "--max-games", "4")
    assert first["verdict"] is None and first["games"] == 4  # two copies of one bot: no decision
    grown = gridfall(*sprt, "--max-games", "8", "--json")
    assert grown.returncode == 0 and "the run grows: max_games was 4, now 8" in grown.stderr, grown.stderr
    assert json.loads(grown.stdout)["games"] == 8
