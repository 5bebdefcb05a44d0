"""Replay pages: self-contained, made from the records through the rules, bot text kept as data."""

import re
from pathlib import Path

import pytest

from gridfall.connect4.replay import replay_game as connect4_replay
from gridfall.connect4.rules import STEAL, Game
from gridfall.match3.codeabbey import play_challenge
from gridfall.match3.replay import replay_run
from gridfall.samegame.boards import load_board
from gridfall.samegame.greedy import greedy_line
from gridfall.samegame.replay import replay_game as samegame_replay
from gridfall.samegame.rules import play_sequence
from gridfall.viewer import page

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_a_samegame_replay_ends_on_the_rules_score_with_each_group_outlined():
    board = load_board("standard:1")
    line = greedy_line(board)
    game = samegame_replay(board, line, "greedy")
    final, score = play_sequence(board, line)
    assert game["score"] == score == game["frames"][-1]["score"]
    assert len(game["frames"]) == len(line) + 1
    for frame, (x, y) in zip(game["frames"], line):
        assert frame["next"] == f"{x} {y}" and len(frame["group"]) == frame["size"] >= 2
        assert all(frame["cells"][i] != "." for i in frame["group"])
    assert game["frames"][-1]["left"] == final.cell_count()


def test_a_connect4_replay_shows_steal_times_messages_and_the_winning_four():
    moves = [4, STEAL, 3, 5, 3, 5, 3, 5, 3]  # after the STEAL, player 0 stacks column 3
    game = Game(steal=True)
    for m in moves:
        game.apply_action(m)
    assert game.winner == 0
    replay = connect4_replay(moves, ["a", "b"], "t", times=[0.5] * 9, messages=["<script>x</script>"] * 9,
                             reason="four in a row")
    assert replay["frames"][2]["action"] == "STEAL" and replay["frames"][2]["player"] == 1
    last = replay["frames"][-1]
    assert last["result"] == "a wins (four in a row)" and len(last["win"]) == 4
    assert all(last["cells"][i] == "0" for i in last["win"])
    assert replay["frames"][1]["time"] == 500 and replay["frames"][1]["message"] == "<script>x</script>"


def test_a_match3_replay_follows_the_referee_move_for_move():
    def ask(board, board_no, move_no, elapsed):
        from gridfall.match3.rules import Board

        moves = Board(tuple(board)).legal_moves()
        return (moves[0] if move_no <= 5 else (1, 1, "Q")), 0.0

    report = play_challenge(ask, seed=11, time_limit=None)
    games = replay_run(11, [g.actions for g in report.games], "first legal move")
    assert len(games) == 4
    for game, record in zip(games, report.games):
        last = game["frames"][-1]
        assert last["move"] == record.moves == 5
        scores = [f["points"] for f in game["frames"] if f["phase"] == "refill"]
        assert sum(scores) == record.score
        assert {"swap", "explode", "fall", "refill"} <= {f["phase"] for f in game["frames"]}


def test_the_page_is_self_contained_and_bot_text_cannot_break_out():
    replay = connect4_replay([4, 4], ["</script><script>alert(1)</script>", "b"], "<b>title</b>",
                             messages=["</script><img src=x onerror=alert(1)>", "ok"], times=[0.1, 0.1])
    text = page.build("connect4", "a <b>test</b>", [replay])
    assert "</script><script>alert" not in text and "<img src=x" not in text
    assert "<title>a &lt;b&gt;test&lt;/b&gt;</title>" in text
    assert not re.search(r"(src|href)=\"https?:", text)  # nothing is fetched
    data = page.read_data(text)
    assert data["games"][0]["frames"][1]["message"] == "</script><img src=x onerror=alert(1)>"
    assert data["games"][0]["names"][0].startswith("</script>")
    assert "textContent" in text and "innerHTML" not in text


def test_a_page_needs_frames():
    with pytest.raises(ValueError, match="at least one game"):
        page.build("samegame", "t", [])
    with pytest.raises(ValueError, match="unknown game"):
        page.build("chess", "t", [{"frames": [{}]}])


def test_the_replays_in_the_docs_are_made_by_todays_viewer():
    """docs/replays are pages the README links to: rebuilt from their own records by the viewer
    as it is now, they must come out the same (regenerate them as the README says when not)."""
    import html

    from gridfall.viewer import page

    pages = sorted((Path(__file__).resolve().parents[2] / "docs" / "replays").glob("*.html"))
    assert len(pages) == 2
    for path in pages:
        text = path.read_text(encoding="utf-8")
        data = page.read_data(text)
        title = html.unescape(re.search(r"<title>(.*)</title>", text).group(1))
        assert page.build(data["kind"], title, data["games"], data["interval"]) == text, path.name
