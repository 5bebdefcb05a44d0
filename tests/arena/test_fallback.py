"""Games in which a bot said it played pure Python, not its compiled search (a cold numba cache):
each referee counts them apart, per bot, in its summary and its JSON (gridfall.arena.fallback)."""

import shlex
import sys

import pytest

from gridfall.arena.fallback import LOADING, NOTICE, TOO_SHORT, notice, said_loading, said_so, summary
from gridfall.connect4.arena_report import fallback_seats
from tests.arena.arena_cli import gridfall, gridfall_json, pick

FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]  # generous: the test bots answer at once
SAID = notice("portable", "the numba cache holds no Connect Four kernels of this version of gridfall yet")
LATE = notice("portable", f"the compiled search's kernels {LOADING} (not ready in time)")


def cold(rule: str) -> str:
    """A pick.py bot that starts with the line of a bot on its fallback, as gridfall's does from a cold cache."""
    return f"env PICK_FIRST_WORDS={shlex.quote(SAID)} {pick(rule)}"


@pytest.mark.parallel_safe
def test_the_seat_of_each_turn_follows_the_referees_opening():
    from collections import Counter

    assert said_so(SAID) and SAID.startswith(NOTICE) and not said_so("gridfall bot: solver found 12")
    assert fallback_seats([SAID, "", "", ""], opening=0) == {0}
    assert fallback_seats(["", SAID, ""], opening=0) == {1}
    assert fallback_seats([SAID, "x"], opening=3) == {1}  # three moves played: the first bot turn is player 1's
    assert fallback_seats(["", ""], opening=0) == set()
    assert summary(Counter(), Counter(a=4)) is None
    line = summary(Counter(b=2, a=0), Counter(a=4, b=4))
    assert "b in 2 of 4 games" in line and "a in" not in line and "gridfall warmup" in line
    assert "the bot on 1 of 3 boards" in summary(Counter({"the bot": 1}), Counter({"the bot": 3}), unit="board")
    # a warm cache whose kernels were still loading when a turn came: a warm-up is not the advice
    assert said_loading(["", LATE, "x\n" + LATE]) and not said_loading([LATE, SAID]) and not said_loading(["", "x"])
    assert said_loading([LATE, notice("beam", f"a plan of 0.5 s is {TOO_SHORT} them")])  # nor for a short first turn
    line = summary(Counter(b=1), Counter(b=4), loading=True)
    assert "b in 1 of 4 games" in line and "still loading" in line and "gridfall warmup" not in line


def test_a_league_and_its_standings_count_the_games_a_bot_played_on_its_fallback(tmp_path):
    db = tmp_path / "league.sqlite"
    league = ["connect4", "league", "--bot", f"warm={pick('first')}", "--bot", f"cold={cold('centre')}",
              "--games", "4", "--db", str(db), "--workers", "2", *FAST, "--opening-plies", "1"]
    out = gridfall_json(*league)
    assert out["fallback_games"] == {"cold": 4}  # whichever seat it took, after a one-move opening
    assert sum(b["games"] for b in out["leaderboard"]) == 8
    for read in (gridfall(*league), gridfall("connect4", "standings", str(db))):
        assert read.returncode == 0, read.stderr
        text = " ".join(read.stdout.split())  # the terminal's line breaks
        assert "Played pure Python, not the compiled search" in text and "cold in 4 of 4 games" in text
        assert "warm in" not in text and "gridfall warmup" in text


def test_the_referee_names_the_program_that_played_on_its_fallback(tmp_path):
    done = gridfall_json("connect4", "referee", "--p1", pick("first"), "--p2", cold("centre"), "--games", "2",
                         *FAST)
    assert done["fallback_games"] == {"B": 2}
    quiet = gridfall_json("connect4", "referee", "--p1", pick("first"), "--p2", pick("centre"), "--games", "2", *FAST)
    assert quiet["fallback_games"] == {}
    late = f"env PICK_FIRST_WORDS={shlex.quote(LATE)} {pick('centre')}"
    done = gridfall("connect4", "referee", "--p1", pick("first"), "--p2", late, "--games", "2", *FAST)
    text = " ".join(done.stdout.split())
    assert "B in 2 of 2 games" in text and "still loading from the cache" in text and "warmup" not in text, text


SAMEGAME_BOT = '''
import sys
from gridfall.samegame import rules
if len(sys.argv) > 1:
    print(sys.argv[1], file=sys.stderr, flush=True)
while True:
    rows = [sys.stdin.readline() for _ in range(15)]
    if not rows[-1]:
        break
    groups = rules.Board.from_rows([[int(v) for v in r.split()] for r in rows]).groups()
    g = max(groups, key=lambda g: g.size)
    print(g.x, g.y, flush=True)
'''


def test_the_samegame_referee_and_compare_count_the_boards_played_on_the_fallback(tmp_path):
    path = tmp_path / "largest.py"
    path.write_text(SAMEGAME_BOT)
    bot, on_fallback = f"{sys.executable} {path}", f"{sys.executable} {path} {shlex.quote(SAID)}"
    boards = ["tuning:1", "tuning:2"]
    refereed = gridfall_json("samegame", "referee", "--bot", on_fallback, *boards, "--turn-ms", "2000")
    assert refereed["fallback_boards"] == 2
    text = gridfall("samegame", "referee", "--bot", on_fallback, *boards, "--turn-ms", "2000").stdout
    assert "the bot on 2 of 2 boards" in " ".join(text.split())
    assert gridfall_json("samegame", "referee", "--bot", bot, *boards, "--turn-ms", "2000")["fallback_boards"] == 0
    compared = gridfall_json("samegame", "compare", "--bot", f"cold={on_fallback}", "--bot", f"warm={bot}", *boards,
                             "--db", str(tmp_path / "compare.sqlite"), "--turn-ms", "2000")
    assert compared["fallback_boards"] == {"cold": 2}
    assert compared["comparison"]["ties"] == 2  # the same player: only its words differ
