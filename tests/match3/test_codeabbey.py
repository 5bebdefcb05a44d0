"""The suggest referee against well- and badly-behaved player files; exported players."""

import ast
import time
from pathlib import Path

import pytest

from gridfall.match3.agents import PortableAgent, StrongAgent
from gridfall.match3.codeabbey import play_challenge, referee_file
from gridfall.match3.export import export_source

# The runs here have no whole-run limit (time_limit=None), unless a test is marked alone.
pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def player(tmp_path, body, name="player.py"):
    path = tmp_path / name
    path.write_text(body)
    return str(path)


FIRST_LEGAL = '''
def suggest(board, boardNo, move, elapsed):
    n = len(board)
    def line(b, r, c):
        j = b[r][c]
        h = 1 + sum(1 for k in range(1, 3) if c - k >= 0 and b[r][c - k] == j and all(b[r][c - m] == j for m in range(1, k + 1)))
        h += sum(1 for k in range(1, 3) if c + k < n and all(b[r][c + m] == j for m in range(1, k + 1)))
        v = 1 + sum(1 for k in range(1, 3) if r - k >= 0 and all(b[r - m][c] == j for m in range(1, k + 1)))
        v += sum(1 for k in range(1, 3) if r + k < n and all(b[r + m][c] == j for m in range(1, k + 1)))
        return h >= 3 or v >= 3
    for r in range(n):
        for c in range(n):
            for dr, dc, d in ((0, 1, "R"), (1, 0, "D")):
                r2, c2 = r + dr, c + dc
                if r2 < n and c2 < n:
                    b = [list(x) for x in board]
                    b[r][c], b[r2][c2] = b[r2][c2], b[r][c]
                    if line(b, r, c) or line(b, r2, c2):
                        return c + 1, r + 1, d
    return 1, 1, "Q"
'''


def ask_agent(agent):
    def ask(board, board_no, move, elapsed):
        start = time.perf_counter()
        return agent.suggest(board, board_no, move, elapsed), time.perf_counter() - start
    return ask


def test_a_correct_player_plays_four_games(tmp_path):
    report = referee_file(player(tmp_path, FIRST_LEGAL + "\nprint('debug output must not break the referee')\n"),
                          seed=3, time_limit=None)
    assert not report.failed
    assert [g.size for g in report.games] == [8, 11, 12, 13]
    assert all(g.moves > 0 and g.score >= g.moves and not g.error for g in report.games)


def test_what_the_player_prints_is_kept_with_each_move_and_shown_in_the_replay(tmp_path):
    from gridfall.match3.replay import replay_run

    body = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):",
                               "import sys\nprint('loading')\n\ndef suggest(board, boardNo, move, elapsed):\n"
                               "    print('board', boardNo, 'move', move, '<b>', file=sys.stderr if move % 2 else sys.stdout)")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert not report.failed
    for game in report.games:
        expected = [f"board {game.board_no} move {k} <b>\n" for k in range(1, game.moves + 1)]
        if game.board_no == 1:
            expected[0] = "loading\n" + expected[0]  # its prints while it loaded go with its first move
        assert game.output == expected
    frames = replay_run(3, [g.actions for g in report.games], "t", output=[g.output for g in report.games])[1]["frames"]
    assert [f["output"] for f in frames if f["phase"] == "swap"] == report.games[1].output
    assert all(f.get("output", "") == "" for f in frames if f["phase"] != "swap")


def test_the_prints_of_the_call_that_ended_a_game_are_kept_after_its_moves(tmp_path):
    from gridfall.match3.replay import replay_run

    body = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):",
                               "def suggest(board, boardNo, move, elapsed):\n"
                               "    print('thinking', move)\n"
                               "    if boardNo == 1 and move == 3:\n"
                               "        raise KeyError('oops')")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    first = report.games[0]
    assert first.moves == 2 and "suggest raised KeyError" in first.end
    assert first.output == ["thinking 1\n", "thinking 2\n", "thinking 3\n"]  # the call that raised, last
    frames = replay_run(3, [g.actions for g in report.games], "t", output=[g.output for g in report.games])[0]["frames"]
    assert frames[-1]["last_output"] == "thinking 3\n"


@pytest.mark.parametrize("name, source", [
    ("draws.py", "import random\n\ndef suggest(board):\n    print(random.random(), list({'a', 'b', 'c', 'd'}))\n"
                 "    return 1, 1, 'Q'\n"),
    ("draws.lua", "function suggest(board)\n  print(math.random())\n  return 1, 1, 'Q'\nend\n")], ids=["python", "lua"])
def test_a_player_that_draws_plays_the_same_run_for_the_same_seed(tmp_path, name, source):
    """The referee seeds the player's random numbers (Python's random, Lua's math.random) with
    the challenge's seed, so a run is played again as it was, as its boards are."""
    if name.endswith(".lua"):
        need_lupa()
    path = player(tmp_path, source, name)

    def draws(seed):
        return [g.output for g in referee_file(path, seed=seed, time_limit=None).games]

    first = draws(3)
    assert len({text for output in first for text in output}) == 4  # a draw a board, the sequence going on
    assert draws(3) == first and draws(4) != first


def test_one_argument_suggest_is_accepted(tmp_path):
    body = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):", "def suggest(board):")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert not report.failed and report.games[0].moves > 0


def test_a_suggest_of_any_arguments_is_given_all_four_and_one_of_two_is_refused(tmp_path):
    # suggest(board, *rest) was refused as taking 2 arguments; it takes all four
    body = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):", "def suggest(board, *rest):")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert not report.failed and report.games[0].moves > 0
    body = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):", "def suggest(board, boardNo):")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert "suggest must take 1 argument (board) or 4" in report.failed and "it takes 2" in report.failed


@pytest.mark.parametrize("body, message", [
    ("def suggest(board):\n    return 'R'\n", "expected col, row, dir"),
    ("def suggest(board):\n    return (1, 2)\n", "expected three values"),
    # a value that is no move is shown cut, without a repr of all of it (which the clock counts)
    ("def suggest(board):\n    return list(range(10 ** 6))\n",
     "returned [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, ...] (1,000,000 items); "
     "expected three values"),
    ("def suggest(board):\n    return 'x' * 500\n", "xxx' (500 characters); expected three values"),
    # a repr that fails is the value's fault, not suggest's: it returned, it did not raise
    ("def suggest(board):\n    return 10 ** 5000\n", "returned <int that cannot be shown: ValueError>; expected three"),
    ("def suggest(board):\n    return (1, 1, 'X')\n", "dir must be R, L, D, U or Q"),
    ("def suggest(board):\n    return ('a', 1, 'R')\n", "must be integers"),
    ("def suggest(board):\n    return (99, 1, 'R')\n", "is outside the"),
    ("def suggest(board):\n    return (0, 0, 'R')\n", "board (columns and rows run 1.."),  # a 0-based answer
    ("def suggest(board):\n    raise KeyError('oops')\n", "suggest raised KeyError: 'oops' at line 2"),
    # the line of the player's file, not of the library that raised (json's decoder: "at line 353")
    ("import json\n\ndef suggest(board):\n    return json.loads('{bad')\n", "char 1) at line 4"),
])
def test_bad_returns_end_each_game_with_a_clear_message(tmp_path, body, message):
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert len(report.games) == 4 and not report.failed
    for game in report.games:
        assert game.error and "error at move 1" in game.end and message in game.end, game.end


def test_an_error_in_a_module_of_the_players_is_placed_there(tmp_path):
    """A suggest file that asks a player of its own (`suggest_for`): the error's place is the
    player's module, not the file's line nor gridfall's bridge."""
    player(tmp_path, "import json\n\n\ndef make(game, seed):\n    return Mine()\n\n\nclass Mine:\n"
                     "    def act(self, state, seconds):\n        return json.loads('{bad')\n", "mine.py")
    wrapper = player(tmp_path, "from gridfall.match3.player_suggest import suggest_for\n"
                               f"suggest = suggest_for({str(tmp_path / 'mine.py:make')!r})\n")
    report = referee_file(wrapper, seed=3, time_limit=None)
    assert all("char 1) at mine.py:10 in act" in game.end for game in report.games), report.games[0].end


def test_a_move_that_scores_nothing_is_an_error(tmp_path):
    report = referee_file(player(tmp_path, "def suggest(board):\n    return (1, 1, 'R') if board[0][0] != board[0][1] else (1, 1, 'D')\n"),
                          seed=3, time_limit=None)
    assert any("makes no line" in g.end for g in report.games)


def test_quit_ends_only_that_game(tmp_path):
    body = FIRST_LEGAL.replace("    n = len(board)", "    if boardNo == 2: return 0, 0, 'Q'\n    n = len(board)")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None)
    assert report.games[1].end == "quit" and report.games[1].moves == 0
    assert report.games[2].moves > 0


@pytest.mark.alone
def test_endless_loop_fails_the_run_on_time_and_keeps_the_points(tmp_path):
    body = FIRST_LEGAL.replace("    n = len(board)", "    if boardNo == 2 and move == 3:\n        while True: pass\n    n = len(board)")
    start = time.monotonic()
    report = referee_file(player(tmp_path, body), seed=3, time_limit=1.0)
    assert time.monotonic() - start < 20
    assert "time limit" in report.failed and "board 2, move 3" in report.failed
    assert report.games[0].score > 0 and report.games[1].moves == 2
    assert report.seconds >= 1.0  # the call that hung was spent in suggest too: the whole second, not what finished


@pytest.mark.alone
def test_per_call_limit(tmp_path):
    body = "import time\n" + FIRST_LEGAL.replace("    n = len(board)", "    time.sleep(0.05 if move == 2 else 0)\n    n = len(board)")
    report = referee_file(player(tmp_path, body), seed=3, time_limit=None, per_call=0.02)
    assert all("the call took" in g.end for g in report.games)


def test_file_that_cannot_load(tmp_path):
    report = referee_file(player(tmp_path, "def suggest(board:\n"), seed=3)
    assert "SyntaxError" in report.failed and not report.games
    report = referee_file(player(tmp_path, "x = 1\n"), seed=3)
    assert "suggest" in report.failed


def test_exported_players_are_python36_and_score_like_the_builtin(tmp_path):
    for agent in ("fast", "greedy", "plan"):
        source = export_source(agent, time_budget=1000.0)
        ast.parse(source, feature_version=(3, 6))
        from gridfall.match3.codeabbey import SuggestFile

        file_player = SuggestFile(player(tmp_path, source, f"{agent}.py"), None, None)
        try:
            via_file = play_challenge(file_player.ask, seed=5, time_limit=None, moves=40)
        finally:
            file_player.close()
        builtin = play_challenge(ask_agent(PortableAgent(agent, time_budget=1000.0)), seed=5, time_limit=None, moves=40)
        assert via_file.total == builtin.total and [g.moves for g in via_file.games] == [g.moves for g in builtin.games]


def python_3_6():
    """A real Python 3.6 (CodeAbbey's 3.6.9 is that line): on the PATH, or one that pyenv keeps."""
    import shutil

    found = shutil.which("python3.6")
    if found is not None and "shims" not in Path(found).parts:  # a pyenv shim may not run it
        return found
    kept = sorted(Path.home().glob(".pyenv/versions/3.6*/bin/python3.6"))
    return str(kept[-1]) if kept else None


def test_exported_players_run_under_a_real_python_3_6_and_play_as_in_this_one(tmp_path):
    """The syntax check above cannot see a library call 3.6 lacks (math.comb, str.removeprefix):
    only running the files under 3.6 can."""
    py36 = python_3_6()
    if py36 is None:
        pytest.skip("no Python 3.6 here (python3.6 on the PATH, or pyenv's 3.6)")
    from gridfall.match3.codeabbey import SuggestFile

    for agent in ("fast", "greedy", "plan"):
        path = player(tmp_path, export_source(agent, time_budget=1000.0), f"{agent}.py")
        file_player = SuggestFile(path, None, None, python=py36)
        try:
            via_36 = play_challenge(file_player.ask, seed=5, time_limit=None, moves=40)
        finally:
            file_player.close()
        builtin = play_challenge(ask_agent(PortableAgent(agent, time_budget=1000.0)), seed=5, time_limit=None, moves=40)
        assert not any(g.error for g in via_36.games), agent
        assert via_36.total == builtin.total and [g.moves for g in via_36.games] == [g.moves for g in builtin.games]


@pytest.mark.alone
def test_fast_player_fits_the_default_second(tmp_path):
    report = referee_file(player(tmp_path, export_source("fast")), seed=11)
    assert not report.failed and report.seconds < 1.0
    assert sum(g.moves for g in report.games) > 100


@pytest.mark.alone
def test_plan_player_fits_the_second_and_cashes_each_board(tmp_path):
    report = referee_file(player(tmp_path, export_source("plan")), seed=11)
    assert not report.failed and report.seconds < 1.0
    assert all(g.end in ("quit", "no legal move") for g in report.games)  # each board's cascade cashed, then Q
    assert max(report.games, key=lambda g: g.moves).board_no == 4  # most of the second goes to the 13x13 board


@pytest.mark.alone
def test_strong_agent_plays_legal_moves_and_beats_greedy_on_a_short_game():
    strong = play_challenge(ask_agent(StrongAgent(budget=0.003, seed=1, min_samples=2)), seed=9, time_limit=None, moves=25)
    greedy = play_challenge(ask_agent(PortableAgent("greedy", time_budget=1e9)), seed=9, time_limit=None, moves=25)
    assert not any(g.error for g in strong.games)
    assert strong.total > greedy.total


def test_a_file_that_is_not_python_3_6_is_refused_unless_another_interpreter_judges_it(tmp_path):
    import sys

    walrus = player(tmp_path, "def suggest(board):\n    if (n := len(board)):\n        return 1, 1, 'Q'\n")
    report = referee_file(walrus, seed=3)
    assert "line 2: not Python 3.6 syntax" in report.failed and not report.games
    ran = referee_file(walrus, seed=3, python=sys.executable)  # this interpreter takes :=
    assert not ran.failed and [g.end for g in ran.games] == ["quit"] * 4


@pytest.mark.alone
def test_the_harness_runs_standalone_under_another_interpreter(tmp_path):
    """--python runs the harness by its path, without gridfall on that interpreter's path."""
    import os
    import shutil

    pypy = shutil.which("pypy3")
    if pypy is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true and pypy3 is missing: .ci/run installs Debian's pypy3", pytrace=False)
        pytest.skip("pypy3 is not installed (Debian: apt-get install pypy3)")
    # The point is where the harness runs, not speed: quit each board after 50 moves (a 13x13 board
    # takes 1000 first-legal moves, 4.3 s of the run on a quiet machine, over 5 s under CI's load).
    quits_early = FIRST_LEGAL.replace("    n = len(board)\n", "    n = len(board)\n    if move > 50:\n"
                                      "        return 1, 1, 'Q'\n", 1)
    report = referee_file(player(tmp_path, quits_early), seed=3, python=pypy, time_limit=5.0)
    assert not report.failed and report.total > 0, report.failed
    assert [g.size for g in report.games] == [8, 11, 12, 13] and all(g.moves <= 51 for g in report.games)


LUA_PLAYER = Path(__file__).parent / "lua" / "first_legal.lua"


def need_lupa():
    from tests.adapters.extras import need

    need("lupa", "lua")


def test_a_lua_suggest_file_plays_under_the_same_referee():
    need_lupa()
    report = referee_file(str(LUA_PLAYER), seed=3, time_limit=None)
    assert not report.failed and report.total > 0, report.failed
    assert all(g.moves > 0 and not g.error for g in report.games)


def test_lua_faults_get_the_same_verdicts(tmp_path):
    need_lupa()
    broken = tmp_path / "broken.lua"
    broken.write_text("function suggest(board\n")
    # Lua names the file and the line, as Python does (the chunk was "<python>")
    failed = referee_file(str(broken), seed=3).failed
    assert "cannot load" in failed and "broken.lua:2: ')' expected near <eof>" in failed, failed
    compiled = tmp_path / "compiled.lua"
    compiled.write_bytes(b"\x1bLua\x54\x00")
    assert "attempt to load a binary chunk" in referee_file(str(compiled), seed=3).failed
    raises = tmp_path / "raises.lua"
    raises.write_text("function suggest(board)\n  error('no move [/x]')\nend\n")
    report = referee_file(str(raises), seed=3)
    # one line, where Lua says: no stack traceback, and not the line of lupa's own code it passed
    assert all(g.end.endswith("suggest raised LuaError: raises.lua:2: no move [/x]") for g in report.games), \
        report.games[0].end
    wrong = tmp_path / "wrong.lua"
    wrong.write_text("function suggest(board) return 'hello' end\n")
    assert all("returned 'hello'" in g.end for g in referee_file(str(wrong), seed=3).games)
    slow = tmp_path / "slow.lua"
    slow.write_text("function suggest(board) while true do end end\n")
    assert "time limit exceeded" in referee_file(str(slow), seed=3).failed


def test_a_player_over_its_memory_limit_fails_the_run_there_with_its_points_kept(tmp_path):
    hog = FIRST_LEGAL.replace("def suggest(board, boardNo, move, elapsed):",
                              "HOARD = []\ndef suggest(board, boardNo, move, elapsed):\n"
                              "    HOARD.append(b'x' * (30 << 20))")
    report = referee_file(player(tmp_path, hog), seed=3, time_limit=None, memory_mb=150)
    assert "Memory limit exceeded" in report.failed and "over the 150 MB allowed" in report.failed
    assert report.games[0].moves >= 2 and report.total > 0  # a few moves' points, scored before the limit
    assert not referee_file(player(tmp_path, FIRST_LEGAL), seed=3, time_limit=None, memory_mb=150).failed
