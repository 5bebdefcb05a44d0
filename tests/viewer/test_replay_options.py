"""``--replay FILE.html`` on the referees, solve and the arena: the page's record is the referee's."""

import json

import pytest

from gridfall.viewer import page
from tests.arena.arena_cli import gridfall, pick

# The bots answer at once, far inside their clocks (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe

FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]


def test_the_connect4_referee_replay_ends_where_each_game_ended(tmp_path):
    out = tmp_path / "c4.html"
    done = gridfall("connect4", "referee", "--p1", pick("first"), "--p2", "greedy", "--games", "2", "--json",
                    "--replay", str(out), *FAST)
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)["games"]
    games = page.read_data(out.read_text())["games"]
    assert [g["turns"] for g in games] == [len(r["moves"]) for r in records]
    for game, record in zip(games, records):
        assert game["winner"] == record["winner"]
        if record["winner"] is not None:
            assert len(game["frames"][-1]["win"]) == 4
        bot_frames = [f for f in game["frames"][1:] if not f["opening"]]
        assert [f["message"] for f in bot_frames] == record["messages"]


def test_samegame_solve_and_referee_replays(tmp_path):
    solved = tmp_path / "solve.html"
    done = gridfall("samegame", "solve", "tuning:3", "--time", "1", "--no-store", "--workers", "1", "--json",
                    "--replay", str(solved))
    assert done.returncode == 0, done.stderr
    game = page.read_data(solved.read_text())["games"][0]
    assert game["score"] == json.loads(done.stdout)["score"] and game["plot"]
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nfrom gridfall.samegame import rules\nwhile True:\n"
                   "    rows = [sys.stdin.readline() for _ in range(15)]\n    if not rows[-1]:\n        break\n"
                   "    b = rules.Board.from_rows([[int(v) for v in r.split()] for r in rows])\n"
                   "    g = b.groups()[0]\n    print(g.x, g.y, flush=True)\n")
    refereed = tmp_path / "referee.html"
    done = gridfall("samegame", "referee", "--bot", f"python3 {bot}", "tuning:1", "tuning:2", "--json",
                    "--turn-ms", "2000", "--replay", str(refereed))
    assert done.returncode == 0, done.stderr
    scores = [b["score"] for b in json.loads(done.stdout)["boards"]]
    assert [g["score"] for g in page.read_data(refereed.read_text())["games"]] == scores


def test_the_match3_referee_replay_totals_the_run(tmp_path):
    player = tmp_path / "player.py"
    player.write_text("def suggest(board, boardNo, move, elapsed):\n"
                      "    return (1, 1, 'Q') if move > 3 else _first(board)\n"
                      "def _first(board):\n    n = len(board)\n"
                      "    for r in range(n):\n        for c in range(n - 1):\n"
                      "            g = [list(x) for x in board]\n            g[r][c], g[r][c + 1] = g[r][c + 1], g[r][c]\n"
                      "            rows = [''.join(x) for x in g]\n"
                      "            cols = [''.join(x[i] for x in g) for i in range(n)]\n"
                      "            if any(ch * 3 in line for line in rows + cols for ch in 'ABCDEFG'):\n"
                      "                return c + 1, r + 1, 'R'\n    return 1, 1, 'Q'\n")
    out = tmp_path / "m3.html"
    done = gridfall("match3", "referee", str(player), "--seed", "5", "--json", "--replay", str(out))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    games = page.read_data(out.read_text())["games"]
    assert len(games) == 4
    assert games[-1]["frames"][-1]["total"] == report["total"]


def test_a_league_replay(tmp_path):
    out = tmp_path / "league.html"
    done = gridfall("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "2",
                    "--db", str(tmp_path / "l.sqlite"), "--replay", str(out), *FAST)
    assert done.returncode == 0, done.stderr
    assert len(page.read_data(out.read_text())["games"]) == 2
