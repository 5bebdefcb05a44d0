"""Strength at the platforms' limits: slow (minutes), kept out of the default suite.

    python -m pytest -m slow

The benchmarks under benchmarks/ measure strength in full and print tables; these runs are the
smallest checks that the players still play at the level the README reports.
"""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_samegame_one_turn_bot_at_20_s_clears_standard_boards():
    """The README's online figures: gridfall's one-turn bot, 20 s a board, one core, no store."""
    import json

    run = subprocess.run([sys.executable, "-m", "gridfall", "samegame", "bench", "--set", "standard", "--time", "20",
                          "--first", "4", "--workers", "2", "--no-store", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    boards = json.loads(run.stdout)["boards"]
    assert all(b["outcome"] == "ok" for b in boards), [(b["board"], b["outcome"], b["detail"]) for b in boards]
    # the README's online bench (all 20 boards, 20 s each) averages about 3,900 a board
    assert sum(b["score"] for b in boards) > 4 * 3_000


def test_connect4_gridfall_beats_mcts_at_codingame_limits():
    run = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "referee", "--p1", "gridfall", "--p2", "mcts",
                          "--games", "10", "--workers", "1", "--json"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    import json

    data = json.loads(run.stdout)
    lost = [(g["seats"], g["winner"], g["reason"]) for g in data["games"] if g["winner"] != g["seats"].index("A:gridfall")]
    assert data["score"] >= 0.75, (data["wins"], data["draws"], data["losses"], lost, run.stderr[-2000:])


def test_match3_strong_beats_greedy_by_orders_of_magnitude():
    from gridfall.match3.agents import PortableAgent, StrongAgent
    from gridfall.match3.codeabbey import play_challenge

    def ask(player):
        return lambda board, board_no, move, elapsed: (player.suggest(board, board_no, move, elapsed), 0.0)

    strong = play_challenge(ask(StrongAgent(budget=0.05, seed=1)), seed=3, time_limit=None, moves=200)
    greedy = play_challenge(ask(PortableAgent("greedy", time_budget=1e9)), seed=3, time_limit=None, moves=200)
    assert strong.total > 100 * greedy.total
