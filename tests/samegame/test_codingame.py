"""The referee against scripted bots, and gridfall's own bot under the protocol."""

import io
import sys

import pytest

from gridfall.arena.fallback import said_so
from gridfall.samegame import rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.codingame import Limits, referee_game
from gridfall.samegame.greedy import greedy_line
from gridfall.samegame.protocol import BotConfig, play_turns

from .conftest import board_from_columns
from .script_bots import LARGEST, script_bot

RELAXED = Limits(first_turn=20, turn=2)  # scripted Python bots on a busy CI machine


def test_the_bot_gets_the_seed_as_GRIDFALL_SEED(tmp_path):
    says = "import os; g = max(board.groups(), key=lambda g: g.size); print(g.x, g.y, os.environ['GRIDFALL_SEED'], flush=True)\n"
    report = referee_game(script_bot(tmp_path, says), load_board("standard:7"), "standard:7", limits=RELAXED, seed=42)
    assert report.ok and set(report.messages) == {"42"} and report.to_json()["seed"] == 42


def test_correct_bot_plays_to_the_end(tmp_path):
    board = load_board("standard:7")
    report = referee_game(script_bot(tmp_path, LARGEST), board, "standard:7", limits=RELAXED)
    assert report.ok, report
    # the same greedy line, replayed on the rules, gives the same score
    expected, b = 0, board
    while b.groups():
        g = max(b.groups(), key=lambda g: g.size)
        b, gained = b.play(g.x, g.y)
        expected += gained
    assert report.score == expected and report.actions > 10 and not report.other_flavour


def test_timeout_on_a_later_turn(tmp_path):
    bot = script_bot(tmp_path, "if turn == 3: time.sleep(5)\n" + LARGEST)
    report = referee_game(bot, load_board("standard:1"), "b", limits=Limits(first_turn=20, turn=0.3))
    assert report.outcome == "Timeout"
    assert report.actions == 2


def test_garbage_is_a_format_error(tmp_path):
    report = referee_game(script_bot(tmp_path, "print('hello world', flush=True)\n"), load_board("standard:1"), "b", limits=RELAXED)
    assert report.outcome == rules.FORMAT_VERDICT
    assert "hello world" in report.detail


def test_single_cell_click_loses(tmp_path):
    # (0, 14) on standard:1 is a 3 whose neighbours are 1 (right) and 3 (below)... find a true single
    board = load_board("standard:1")
    single = next((x, y) for x in range(15) for y in range(15) if len(board.region(x, y)) == 1)
    report = referee_game(script_bot(tmp_path, f"print('{single[0]} {single[1]}', flush=True)\n"), board, "b", limits=RELAXED)
    assert report.outcome == rules.REGION_OF_ONE
    assert report.score == 0 and report.actions == 0


def test_empty_cell_click_loses(tmp_path):
    board = board_from_columns([[0, 0, 1, 1], [2, 2]])
    report = referee_game(script_bot(tmp_path, "print('9 9', flush=True)\n"), board, "b", limits=RELAXED)
    assert report.outcome == rules.EMPTY_TILE


def test_bot_exiting_early_is_reported_as_a_crash(tmp_path):
    report = referee_game(script_bot(tmp_path, "if turn == 2: sys.exit(0)\n" + LARGEST), load_board("standard:1"), "b", limits=RELAXED)
    assert report.outcome == "Bot crashed"
    assert "exited with code 0" in report.detail
    assert report.actions == 1 and report.score >= 0


def test_flooding_bot_is_stopped(tmp_path):
    bot = script_bot(tmp_path, "while True: sys.stdout.write('9' * 100000)\n")
    report = referee_game(bot, load_board("standard:1"), "b", limits=RELAXED)
    assert report.outcome == "Output flood"


def test_empty_line_is_an_empty_action(tmp_path):
    report = referee_game(script_bot(tmp_path, "print(flush=True)\n"), load_board("standard:1"), "b", limits=RELAXED)
    assert report.outcome == "Empty action provided"


def test_one_turn_flavour_with_warnings(tmp_path):
    board = board_from_columns([[0, 0, 1, 1], [2, 2]])
    bot = script_bot(tmp_path, "print('9 9;0 0 hi;0 0;0 0', flush=True)\n")
    report = referee_game(bot, board, "b", one_turn=True, limits=RELAXED)
    assert report.ok
    assert report.actions == 3 and len(report.warnings) == 1
    assert report.cleared and report.score == 1000 and not report.other_flavour


def test_a_bot_of_the_other_flavour_is_named_under_the_table(tmp_path):
    """A turn-by-turn bot refereed with --one-turn scores one click, 'ok' as on the platform; a
    one-turn bot refereed turn by turn loses on its first line. Both get a line that says why."""
    from click.testing import CliRunner

    from gridfall.cli import main

    turn_bot = script_bot(tmp_path, LARGEST)
    done = CliRunner().invoke(main, ["samegame", "referee", "--one-turn", "--bot", turn_bot, "standard:7"])
    assert done.exit_code == 0, done.output
    assert "answered a single click on a board it did not finish (1: standard:7)" in " ".join(done.output.split())
    assert "Referee it without --one-turn, or export it with --one-turn." in " ".join(done.output.split())
    (tmp_path / "one").mkdir()
    line = "print(';'.join(f'{g.x} {g.y}' for g in board.groups()[:3]), flush=True)\n"
    one_turn_bot = script_bot(tmp_path / "one", line)
    report = referee_game(one_turn_bot, load_board("standard:7"), "standard:7", limits=RELAXED)
    assert report.outcome == rules.FORMAT_VERDICT and report.other_flavour and report.to_json()["other_flavour"]
    done = CliRunner().invoke(main, ["samegame", "referee", "--bot", one_turn_bot, "standard:7", "standard:8"])
    assert "answered several clicks on its first line (2: standard:7, standard:8)" in " ".join(done.output.split())
    # the right flavour: no such line
    done = CliRunner().invoke(main, ["samegame", "referee", "--one-turn", "--bot", one_turn_bot, "standard:7"])
    assert done.exit_code == 0 and "clicks" not in done.output and "click on" not in done.output


def test_missing_bot_program(tmp_path):
    report = referee_game(str(tmp_path / "nope.py"), load_board("standard:1"), "b", limits=RELAXED)
    assert report.outcome == "Bot crashed"


def test_gridfall_bot_replans_when_the_board_is_not_the_expected_one():
    board = load_board("standard:3")
    calls = []

    def planner(b, seconds, seed):
        calls.append(b)
        g = max(b.groups(), key=lambda g: g.size)
        return [(g.x, g.y)] * 3  # only the first can be right: the rest must be caught

    surprise = load_board("standard:4")
    inp = io.StringIO(board.text() + "\n" + surprise.text() + "\n")
    out = io.StringIO()
    play_turns(inp, out, BotConfig(first_turn_budget=1), planner=planner, log=io.StringIO())
    moves = [tuple(map(int, line.split())) for line in out.getvalue().splitlines()]
    assert len(moves) == 2
    assert calls == [board, surprise]
    board.check(*moves[0])
    surprise.check(*moves[1])


def test_input_that_is_no_board_stops_the_bot_naming_the_fault():
    rows = load_board("standard:3").text().splitlines()
    for text, says in [("\n".join(rows[:4]), "the input ended inside a board, after 4 of its 15 rows"),
                       ("\n".join(["hello world"] * 15), "line 1: expected 15 numbers, found 2"),
                       ("", "")]:
        out, log = io.StringIO(), io.StringIO()
        ended_well = play_turns(io.StringIO(text + "\n" if text else ""), out, BotConfig(first_turn_budget=1),
                                planner=lambda b, seconds, seed: [], log=log)
        assert out.getvalue() == "" and ended_well is not bool(says)  # the bot's exit code: 1 after a fault
        assert log.getvalue() == (f"gridfall bot: <referee input>: {says}\n" if says else ""), log.getvalue()


def test_gridfall_bot_never_plays_an_illegal_planned_move():
    board = load_board("standard:3")
    def bad_planner(b, seconds, seed):
        return [(14, 14), (14, 14)]  # usually illegal; the bot must fall back

    inp = io.StringIO(board.text() + "\n")
    out = io.StringIO()
    play_turns(inp, out, BotConfig(first_turn_budget=1), planner=bad_planner, log=io.StringIO())
    (x, y), = [tuple(map(int, line.split())) for line in out.getvalue().splitlines()]
    board.check(x, y)


@pytest.mark.parametrize("one_turn", [False, True])
def test_gridfall_bot_under_the_referee(one_turn):
    # 3 s: the kernels load from the cache in the first turn, about 1.2 s after the process starts
    # on an Intel Xeon of 2026-11-29, and the planner waits for them until 0.3 s before its answer
    command = f"{sys.executable} -m gridfall samegame bot --first-turn-ms 3000" + (" --one-turn" if one_turn else "")

    report = referee_game(command, load_board("standard:2"), "standard:2", one_turn=one_turn,
                          limits=Limits(first_turn=20, turn=0.150))
    assert report.ok, report
    assert report.score > 1000
    assert report.first_turn_seconds < 5


@pytest.mark.parametrize("one_turn", [False, True])
def test_a_newcomers_bot_answers_in_time_with_cold_kernels_and_no_data(tmp_path, one_turn):
    """An empty numba cache and an empty data directory, as on a fresh machine: the search kernels
    cannot compile within the first turn, so the bot answers with its pure-Python line in time,
    every turn within the platform's 50 ms (and goes on compiling for the next game, in a child
    process: in its own, the compiler's garbage collections made turns of 70-80 ms)."""
    import os

    from gridfall.samegame.codingame import LIMITS

    env_vars = {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "XDG_DATA_HOME": str(tmp_path / "data"),
                "GRIDFALL_STORE": "", "HOME": str(tmp_path)}
    command = " ".join(f"{k}={v}" for k, v in env_vars.items()) + \
        f" {sys.executable} -m gridfall samegame bot --first-turn-ms 3000" + (" --one-turn" if one_turn else "")
    report = referee_game(command, load_board("standard:2"), "standard:2", one_turn=one_turn,
                          limits=Limits(first_turn=6.0, turn=LIMITS.turn))
    assert report.ok, (report.outcome, report.detail)
    assert report.first_turn_seconds < 6.0
    assert said_so(report.output[0]) and "(the exported bot's beam search)" in report.output[0]
    # the beam starts from the greedy line and keeps the best line it finds: never below it
    assert report.score >= rules.play_sequence(load_board("standard:2"), greedy_line(load_board("standard:2")))[1]
    assert os.path.exists(tmp_path / "data" / "gridfall" / "samegame-solutions.sqlite")  # made, in the empty dir


def test_the_built_in_bot_plans_within_a_first_turn_shorter_than_the_platforms(tmp_path):
    """`samegame compare --bot gridfall ... --first-turn-ms 3000` once timed out on every board:
    the bot planned its platform 19.5 s.  It now plans the limit less its margin."""
    from gridfall.samegame.codingame import LIMITS
    from gridfall.samegame.match import bot_command
    from tests.arena.arena_cli import gridfall_json

    assert "--first-turn-ms" not in bot_command("gridfall", True, 0) + bot_command("gridfall", False, 0, LIMITS.scaled(2))
    assert bot_command("gridfall", True, 0, Limits(3, 0.05)).endswith("--one-turn --first-turn-ms 2500")
    assert bot_command("gridfall", False, 0, Limits(0.6, 0.05)).endswith("--first-turn-ms 300")
    out = gridfall_json("samegame", "compare", "--bot", "gridfall", "--bot", f"mine={script_bot(tmp_path, LARGEST)}",
                        "tuning:1", "--one-turn", "--first-turn-ms", "3000", "--db", str(tmp_path / "c.sqlite"))
    [board] = out["boards"]
    assert board["gridfall"]["ok"] and board["gridfall"]["score"] > 0, board["gridfall"]


def test_the_referee_and_the_bench_take_gridfall_alone_as_gridfalls_bot_as_compare_does():
    """`samegame referee --bot gridfall` ran the `gridfall` command, which printed its help and
    exited: "Bot crashed" on every board, while `compare` and `connect4 referee` take the name."""
    from tests.arena.arena_cli import gridfall_json

    out = gridfall_json("samegame", "referee", "--bot", "gridfall", "tuning:1", "--one-turn", "--first-turn-ms", "3000")
    [board] = out["boards"]
    assert board["outcome"] == "ok" and board["score"] > 0 and board["first_turn_seconds"] < 3.0, board
    bench = gridfall_json("samegame", "bench", "--bot", "gridfall", "--first", "1", "--time", "2", "--no-store")
    assert " -m gridfall samegame bot --one-turn " in bench["command"] and bench["command"].endswith(" --no-store")
    assert bench["boards"][0]["outcome"] == "ok" and bench["boards"][0]["score"] > 0


def test_a_first_turn_too_short_to_load_the_kernels_plays_the_beam_search_and_loads_nothing(monkeypatch):
    """A load still going on after the plan held the interpreter while the bot answered its 50 ms
    turns, and lost a board on time; a plan shorter than LEAST_PLAN_TO_LOAD does not start it."""
    import io

    from gridfall.arena.fallback import TOO_SHORT, said_loading
    from gridfall.samegame import codingame

    def no_loading(game, log):
        raise AssertionError("the kernels were loaded for a plan too short for them")

    monkeypatch.setattr(codingame, "in_background", no_loading)
    log = io.StringIO()
    config = BotConfig(first_turn_budget=codingame.LEAST_PLAN_TO_LOAD - 0.5, use_store=False)
    board = load_board("standard:2")
    line = codingame.make_planner(config, log)(board, 0.3, 0)
    assert rules.play_sequence(board, line)[1] >= rules.play_sequence(board, greedy_line(board))[1]
    assert said_so(log.getvalue()) and "(the exported bot's beam search)" in log.getvalue()
    assert TOO_SHORT in log.getvalue() and said_loading([log.getvalue()])  # no warm-up is advised for it
    asked: list[str] = []
    monkeypatch.setattr(codingame, "in_background", lambda game, log: asked.append(game))  # None: as if cold
    codingame.make_planner(BotConfig(first_turn_budget=codingame.LEAST_PLAN_TO_LOAD, use_store=False), log)
    assert asked == ["samegame"]  # from that plan on, the compiled search pays for its load


def test_the_bot_with_a_first_turn_too_short_to_load_answers_every_turn_in_time():
    command = f"{sys.executable} -m gridfall samegame bot --first-turn-ms 500"  # under LEAST_PLAN_TO_LOAD
    report = referee_game(command, load_board("standard:3"), "standard:3", limits=Limits(first_turn=1.0, turn=0.05))
    assert report.ok, (report.outcome, report.detail)
    assert "too short to load" in report.output[0] and report.first_turn_seconds < 1.0


def test_a_plan_of_centuries_waits_for_the_kernels_and_gives_the_search_the_time(monkeypatch):
    # the wait for the kernels overflowed threading's longest timeout (OverflowError: timestamp
    # out of range for platform time_t); the CLI caps the plan at 19.8 s, the Python API did not
    import threading

    from gridfall.samegame import codingame, search

    loaded = threading.Event()
    threading.Timer(0.2, loaded.set).start()
    monkeypatch.setattr(codingame, "in_background", lambda game, log: loaded)
    given: list[float] = []
    board = load_board("standard:2")

    def solve(board, seconds, **options):  # the search itself would take the centuries it is given
        given.append(seconds)
        return search.Solution(0, greedy_line(board), False, "greedy", seconds=0.0, seed=0)

    monkeypatch.setattr(search, "solve", solve)
    line = codingame.make_planner(BotConfig(first_turn_budget=1e297, use_store=False), io.StringIO())(board, 1e297, 0)
    assert line == greedy_line(board) and given[0] > 1e296
