"""``--replay FILE.html`` on the referees, solve and the arena: the page's record is the referee's."""

import json
import textwrap

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
    for game, record in zip(games, report["games"]):  # each call's time on its swap, and how the game ended
        swaps = [f for f in game["frames"] if f["phase"] == "swap"]
        assert [f["time"] for f in swaps] == [round(t * 1000) for t in record["times"]] and len(swaps) == 3
        assert game["frames"][-1]["result"] == record["end"] == "quit"  # (1, 1, "Q") quits the board
    kept = tmp_path / "m3.json"
    kept.write_text(done.stdout)
    db = tmp_path / "m3.sqlite"  # the same player's run, stored by a comparison, replays alike
    compared = gridfall("match3", "compare", "--bot", f"a={player}", "--bot", f"b={player}", "--seeds", "5",
                        "--db", str(db))
    assert compared.returncode == 0, compared.stderr
    assert gridfall("view", str(db), "--job", "seed 5 a", "-o", str(tmp_path / "db.html")).returncode == 0
    stored = page.read_data((tmp_path / "db.html").read_text())["games"]
    assert [g["frames"][-1]["result"] for g in stored] == [g["end"] for g in report["games"]]


def test_a_league_replay(tmp_path):
    out = tmp_path / "league.html"
    done = gridfall("connect4", "league", "--bot", f"a={pick('first')}", "--bot", f"b={pick('centre')}", "--games", "2",
                    "--db", str(tmp_path / "l.sqlite"), "--replay", str(out), *FAST)
    assert done.returncode == 0, done.stderr
    assert len(page.read_data(out.read_text())["games"]) == 2


def test_a_samegame_bot_s_replay_shows_each_turn_and_the_refused_click(tmp_path):
    """Each frame shows the turn that chose its click (time, message), and a game the referee
    ended on a refused click ends on that turn: its message and the verdict, named once."""
    from tests.samegame.script_bots import LARGEST, script_bot

    alone = textwrap.dedent('''
        if turn == 3:  # a cell alone in its region: the turn flavour ends the game on it
            x, y = next((x, y) for x in range(15) for y in range(15)
                        if board[x, y] != rules.EMPTY and len(board.region(x, y)) == 1)
            print(x, y, "<b>alone</b>", flush=True)
            continue
    ''')
    bot = script_bot(tmp_path, alone + LARGEST)
    out = tmp_path / "sg.html"
    done = gridfall("samegame", "referee", "--bot", bot, "standard:1", "--json", "--replay", str(out), *FAST)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)["boards"][0]
    assert record["outcome"] == "Region of size 1" and record["detail"].startswith("turn 3: Region of size 1 (x=")
    frames = page.read_data(out.read_text())["games"][0]["frames"]
    assert len(frames) == 3 and [f["message"] for f in frames] == ["msg", "msg", "<b>alone</b>"]
    assert [f["time"] for f in frames] == [round(t * 1000) for t in record["times"]]
    assert frames[-1]["result"] == record["detail"]  # "turn 3: Region of size 1 (x=.., y=..)", the verdict once
    kept = tmp_path / "sg.json"
    kept.write_text(done.stdout)
    assert gridfall("view", str(kept), "-o", str(tmp_path / "view.html")).returncode == 0
    assert page.read_data((tmp_path / "view.html").read_text())["games"][0]["frames"] == frames


def test_a_run_database_s_samegame_row_replays_its_turns_and_verdict():
    from gridfall.arena.database import GameRow
    from gridfall.viewer.records import replay_rows

    row = GameRow(job="standard:1 a", game="samegame", commands=["a"], seats=["a"], moves=["0 0"],
                  result={"board": "standard:1"}, reason="Region of size 1: turn 2: Region of size 1 (x=1, y=0)",
                  times=[0.5, 0.02], messages=["first", "second"])
    _, games = replay_rows([row])
    frames = games[0]["frames"]
    assert [(f["time"], f["message"]) for f in frames] == [(500, "first"), (20, "second")]
    assert frames[-1]["result"] == "turn 2: Region of size 1 (x=1, y=0)"
    campaign = GameRow(job="standard:1", game="samegame", commands=["nrpa"], seats=["standard:1"], moves="0 0",
                       result={}, reason="ok", times=[12.5], messages=["round 1: 900"])  # a campaign's best line
    frames = replay_rows([campaign])[1][0]["frames"]
    assert frames[0]["time"] is None and frames[0]["message"] == "" and frames[-1]["result"] is None
