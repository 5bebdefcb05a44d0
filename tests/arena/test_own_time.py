"""A command of gridfall's own bot under limits tighter than the platform's: the referee names the
time options it lacks (:mod:`gridfall.arena.own_time`)."""

import io
import sys

import pytest

from gridfall.arena.limits import Limits
from gridfall.arena.own_time import as_options, lacking, say_lacking
from gridfall.connect4 import match as connect4_match
from gridfall.samegame import match as samegame_match
from tests.arena.arena_cli import gridfall

pytestmark = pytest.mark.parallel_safe  # its bots answer at once or lose on time at once; no clock is judged here

TIGHT = {"--first-turn-ms": "250.0", "--turn-ms": "35.0"}


def test_the_built_in_names_get_the_times_of_tighter_limits_and_the_platforms_keep_the_bots_own():
    assert connect4_match.fitted_times(Limits(0.5, 0.05)) == TIGHT
    assert connect4_match.fitted_times(Limits(1.0, 0.05)) == {"--turn-ms": "35.0"}
    assert connect4_match.fitted_times(Limits(1.0, 0.1)) == connect4_match.fitted_times(Limits(5, 0.5)) == {}
    assert samegame_match.fitted_times(Limits(3.0, 0.05)) == {"--first-turn-ms": "2500"}
    assert samegame_match.fitted_times(Limits(20.0, 0.01)) == {}  # the later turns answer from the plan
    assert as_options(TIGHT) == " --first-turn-ms 250.0 --turn-ms 35.0" and as_options({}) == ""
    assert connect4_match.bot_command("gridfall", 1, Limits(0.5, 0.05)).endswith(as_options(TIGHT))
    from gridfall.connect4.agents import AGENT_NAMES, CLOCKED_AGENTS

    assert set(CLOCKED_AGENTS) < set(AGENT_NAMES)


@pytest.mark.parametrize("command, wanted", [
    ("gridfall connect4 bot", TIGHT),
    (f"{sys.executable} -m gridfall connect4 bot --agent mcts", TIGHT),
    ("env PYTHONPATH=variant/src python3 -m gridfall connect4 bot --turn-ms 30", {"--first-turn-ms": "250.0"}),
    ("python3 -m gridfall connect4 bot --turn-ms=30 --first-turn-ms=600", {}),  # its own times: the user's choice
    ("uv run gridfall connect4 bot --player mine:Bot", TIGHT),  # a user's player under gridfall's bot: the same clock
    ("gridfall connect4 bot --agent=portable --seed 3", TIGHT),
    ("gridfall connect4 bot --agent random", {}),  # it answers at once, whatever its time
    ("gridfall connect4 bot --agent mcts:2000", {}),  # its iterations, not its clock
    ("gridfall connect4 bot --agent gridfall:100000", {}),
    ("gridfall samegame bot", {}),  # another game's bot
    ("gridfall connect4 referee --p1 a --p2 b", {}),  # not the bot
    ("python3 mybot.py --turn-ms", {}),
    ("python3 'unclosed", {}),
])
def test_a_command_of_gridfalls_bot_lacks_the_options_it_does_not_give(command, wanted):
    assert lacking(command, "connect4", TIGHT, connect4_match.thinks_to_its_clock) == wanted


def test_each_command_is_named_once_with_what_it_lacks():
    log = io.StringIO()
    say_lacking("connect4", ["gridfall connect4 bot", "python3 mine.py", "gridfall connect4 bot"], TIGHT, log=log)
    assert log.getvalue().count("\n") == 1
    assert "'gridfall connect4 bot' runs gridfall's bot" in log.getvalue()
    assert "add --first-turn-ms 250.0 --turn-ms 35.0 to its command" in log.getvalue()
    say_lacking("connect4", ["gridfall connect4 bot"], {}, log=log)  # the platform's limits: nothing to say
    assert log.getvalue().count("\n") == 1


def test_the_referees_and_the_arena_name_a_command_that_would_lose_on_time(tmp_path):
    own = f"{sys.executable} -m gridfall connect4 bot --agent portable"  # pure Python: no kernels to load
    said = "runs gridfall's bot, which thinks CodinGame's time unless told"
    referee = gridfall("connect4", "referee", "--p1", own, "--p2", "random", "--games", "2", "--turn-ms", "50")
    assert referee.returncode == 0 and f"{own!r} {said}" in referee.stderr and "add --turn-ms 35.0 to" in referee.stderr
    league = gridfall("connect4", "league", "--bot", f"mine={own}", "--bot", "random", "--games", "2", "--workers", "1",
                      "--turn-ms", "50", "--db", str(tmp_path / "l.sqlite"))
    assert league.returncode == 0 and f"{own!r} {said}" in league.stderr, league.stderr
    mine = f"{sys.executable} -m gridfall samegame bot --no-store"
    compared = gridfall("samegame", "compare", "--bot", f"mine={mine}", "--bot", f"theirs={mine} --first-turn-ms 100",
                        "tuning:1", "--one-turn", "--first-turn-ms", "1500", "--db", str(tmp_path / "c.sqlite"))
    assert compared.returncode == 0 and f"{mine!r} {said}" in compared.stderr, compared.stderr
    assert "add --first-turn-ms 1000 to its command" in compared.stderr and compared.stderr.count(said) == 1
    sprt = ["connect4", "sprt", "--new", own, "--base", "random", "--max-games", "2", "--workers", "1", "--turn-ms",
            "50", "--db", str(tmp_path / "s.sqlite")]
    tested = gridfall(*sprt)
    assert tested.returncode == 0 and f"{own!r} {said}" in tested.stderr, tested.stderr
    # the same runs again: every game is stored, no bot plays, so none is named
    again = [gridfall("connect4", "league", "--bot", f"mine={own}", "--bot", "random", "--games", "2", "--workers", "1",
                      "--turn-ms", "50", "--db", str(tmp_path / "l.sqlite")), gridfall(*sprt),
             gridfall("samegame", "compare", "--bot", f"mine={mine}", "--bot", f"theirs={mine} --first-turn-ms 100",
                      "tuning:1", "--one-turn", "--first-turn-ms", "1500", "--db", str(tmp_path / "c.sqlite"))]
    assert all(run.returncode == 0 and ("2 stored" in run.stderr or "2 games stored" in run.stderr)
               and said not in run.stderr for run in again), again
