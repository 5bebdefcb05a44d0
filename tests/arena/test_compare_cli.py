"""``gridfall samegame compare`` and ``gridfall match3 compare``: both bots on the same boards,
stored, and judged by the paired bootstrap."""

import json
import sys
import textwrap

import pytest

from tests.arena.arena_cli import gridfall, gridfall_json
from tests.sqlite_files import changing, rows

# The SameGame bots here answer at once, far inside their clocks, one game at a time: the tests
# share the machine (machine_sharing.py).  A Match-3 player that plans the whole run's second runs alone.
pytestmark = pytest.mark.parallel_safe

SAMEGAME_BOT = '''
import sys
from gridfall.samegame import rules
RULE = sys.argv[1]
while True:
    rows = [sys.stdin.readline() for _ in range(15)]
    if not rows[-1]:
        break
    board = rules.Board.from_rows([[int(v) for v in r.split()] for r in rows])
    groups = board.groups()
    g = max(groups, key=lambda g: g.size) if RULE == "largest" else min(groups, key=lambda g: (g.size, g.x, g.y))
    print(g.x, g.y, "<b>" + RULE + "</b>", flush=True)
'''


def _samegame_bots(tmp_path):
    path = tmp_path / "rule_bot.py"
    path.write_text(textwrap.dedent(SAMEGAME_BOT))
    return [f"largest={sys.executable} {path} largest", f"smallest={sys.executable} {path} smallest"]


def test_samegame_compare_says_which_bot_is_better_and_stores_each_board(tmp_path):
    largest, smallest = _samegame_bots(tmp_path)
    db = tmp_path / "compare.sqlite"
    boards = [f"tuning:{n}" for n in range(1, 7)]
    out = gridfall_json("samegame", "compare", "--bot", largest, "--bot", smallest, *boards, "--db", str(db),
                        "--workers", "1", "--turn-ms", "2000")
    comparison = out["comparison"]
    # taking the smallest group first lets the others grow: it wins on these boards
    assert comparison["losses"] >= 5 and comparison["verdict"].startswith("smallest is better")
    assert comparison["high"] < 0
    stored = rows(db, "SELECT job, seats, moves, result, messages FROM games")
    assert len(stored) == 12 and all("<b>" in messages for *_, messages in stored)
    # resuming plays nothing again, and the text output names the verdict
    again = gridfall("samegame", "compare", "--bot", largest, "--bot", smallest, *boards, "--db", str(db),
                     "--turn-ms", "2000")
    assert again.returncode == 0 and "smallest is better" in again.stdout


def test_a_board_file_travels_as_its_cells_and_its_games_replay_once_it_changed(tmp_path):
    """A worker on another machine has no such file, and the replay must show the board played."""
    from gridfall.arena.limits import Limits
    from gridfall.samegame.boards import load_board, rows_spec
    from gridfall.samegame.match import BoardJob, play_board
    from gridfall.viewer.records import run_games

    largest, smallest = _samegame_bots(tmp_path)
    board, cells = tmp_path / "mine.txt", rows_spec(load_board("tuning:3"))
    board.write_text(load_board("tuning:3").text() + "\n")
    db = tmp_path / "compare.sqlite"
    gridfall_json("samegame", "compare", "--bot", largest, "--bot", smallest, str(board), "--db", str(db),
                  "--turn-ms", "2000")
    stored = {json.loads(seats)[0]: json.loads(result)
              for seats, result in rows(db, "SELECT seats, result FROM games")}
    assert set(stored) == {"largest", "smallest"} and stored["largest"]["played"] != stored["smallest"]["played"]
    assert all(r["board"] == str(board) and r["cells"] == cells for r in stored.values())
    board.write_text(load_board("tuning:4").text() + "\n")  # the file changes after the run
    kind, games, _ = run_games(db, ())
    assert kind == "samegame" and all(str(board) in game["title"] for game in games)
    assert sorted(game["score"] for game in games) == sorted(r["played"] for r in stored.values())
    # nothing left to play: the stored verdict stands, whatever the file holds now
    again = gridfall_json("samegame", "compare", "--bot", largest, "--bot", smallest, str(board), "--db", str(db),
                          "--turn-ms", "2000")
    assert again["comparison"]["wins"] + again["comparison"]["ties"] + again["comparison"]["losses"] == 1
    # a run stopped after one game and resumed now would play the new board against the old: refused, by name
    with changing(db) as connection:
        connection.execute("DELETE FROM games WHERE job LIKE '% smallest'")
    refused = gridfall("samegame", "compare", "--bot", largest, "--bot", smallest, str(board), "--db", str(db),
                       "--turn-ms", "2000")
    assert refused.returncode == 2 and f"{board}: the board file changed since the run played" in refused.stderr
    # what a worker elsewhere is given: the cells, not the path (which is not there)
    board.unlink()
    row = play_board(BoardJob("j", str(board), cells, "largest", largest.partition("=")[2], False,
                              Limits(first_turn=5.0, turn=2.0), 0))
    assert row.result["ok"] and row.result["played"] == stored["largest"]["played"]


def test_two_equal_bots_cannot_be_told_apart(tmp_path):
    largest, _ = _samegame_bots(tmp_path)
    twin = largest.replace("largest=", "twin=", 1)
    out = gridfall_json("samegame", "compare", "--bot", largest, "--bot", twin, "tuning:1", "tuning:2", "tuning:3",
                        "--db", str(tmp_path / "c.sqlite"), "--workers", "1", "--turn-ms", "2000")
    assert out["comparison"]["ties"] == 3 and "cannot tell" in out["comparison"]["verdict"]


def test_three_bots_are_ranked_each_against_the_first_with_every_pairing(tmp_path):
    largest, smallest = _samegame_bots(tmp_path)
    twin = largest.replace("largest=", "twin=", 1)
    boards = [f"tuning:{n}" for n in range(1, 7)]
    out = gridfall_json("samegame", "compare", "--bot", largest, "--bot", twin, "--bot", smallest, *boards,
                        "--db", str(tmp_path / "c.sqlite"), "--workers", "1", "--turn-ms", "2000")
    ranking = out["ranking"]
    assert [place["bot"] for place in ranking] == ["smallest", "largest", "twin"]  # twin ties largest: given order
    assert ranking[0]["verdict"] == "first" and ranking[0]["against_first"] is None
    assert all(place["verdict"] == "smallest is better" for place in ranking[1:])
    assert ranking[1]["mean"] == ranking[2]["mean"] < ranking[0]["mean"] and ranking[0]["best_on"] >= 5
    assert [(c["a"], c["b"]) for c in out["comparisons"]] == [("largest", "twin"), ("largest", "smallest"),
                                                                ("twin", "smallest")]
    assert out["comparisons"][0]["ties"] == 6 and "comparison" not in out  # the pair's own key: two bots only
    assert all(set(board) == {"board", "largest", "twin", "smallest"} for board in out["boards"])
    # `gridfall standings` reads the same from the database, without playing or writing
    before = (tmp_path / "c.sqlite").read_bytes()
    standing = gridfall_json("standings", str(tmp_path / "c.sqlite"))
    assert (standing["ranking"], standing["comparisons"]) == (out["ranking"], out["comparisons"])
    assert (tmp_path / "c.sqlite").read_bytes() == before
    text = gridfall("standings", str(tmp_path / "c.sqlite"))
    assert text.returncode == 0 and "smallest is better" in text.stdout
    assert "may still be playing" not in text.stdout and "games stored in" in text.stdout  # every game played
    with changing(tmp_path / "c.sqlite") as db:  # a game still to play: so far
        db.execute("DELETE FROM games WHERE id = (SELECT MAX(id) FROM games)")
    text = gridfall("standings", str(tmp_path / "c.sqlite")).stdout
    assert "So far: the run may still be playing." in text and "games stored in" not in text, text


ONE_TURN_BOT = '''
import sys
from gridfall.samegame import rules
board = rules.Board.from_rows([[int(v) for v in sys.stdin.readline().split()] for _ in range(15)])
line = []
while board.groups():
    group = max(board.groups(), key=lambda g: g.size)
    line.append(f"{group.x} {group.y}")
    board, _ = board.play(group.x, group.y)
print(";".join(line), flush=True)
'''


def test_a_bot_of_the_other_flavour_is_named_under_the_comparison(tmp_path):
    """Under --one-turn, a turn-by-turn bot answers one click and scores it, 'ok': the line under
    the table names it, as `samegame referee`'s does, and so does `gridfall standings`."""
    largest, _ = _samegame_bots(tmp_path)
    (tmp_path / "line.py").write_text(textwrap.dedent(ONE_TURN_BOT))
    db = tmp_path / "c.sqlite"
    bots = ["--bot", largest.replace("largest=", "[turn]=", 1), "--bot", f"line={sys.executable} {tmp_path / 'line.py'}"]
    done = gridfall("samegame", "compare", *bots, "tuning:1", "tuning:2", "--one-turn", "--db", str(db))
    said = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert "[turn] answered a single click on a board it did not finish (2: tuning:1, tuning:2)" in said
    assert "line answered" not in said and "line is better" in said
    standing = " ".join(gridfall("standings", str(db)).stdout.split())
    assert "[turn] answered a single click on a board it did not finish (2: tuning:1, tuning:2)" in standing
    out = gridfall_json("standings", str(db))
    assert [board["[turn]"]["other_flavour"] for board in out["boards"]] == [True, True]
    assert all("other_flavour" not in board["line"] for board in out["boards"])


@pytest.mark.alone  # the fast player plans its second, two runs side by side
def test_match3_compare_over_seeds(tmp_path):
    for agent in ("fast", "greedy"):
        assert gridfall("match3", "export", str(tmp_path / f"{agent}.py"), "--agent", agent).returncode == 0
    out = gridfall_json("match3", "compare", "--bot", f"fast={tmp_path / 'fast.py'}", "--bot",
                        f"greedy={tmp_path / 'greedy.py'}", "--seeds", "1-4", "--db", str(tmp_path / "m.sqlite"),
                        "--workers", "2")
    assert out["measure"] == "log2(1 + total)"
    assert len(out["seeds"]) == 4 and all(s["fast"]["ok"] and s["greedy"]["ok"] for s in out["seeds"])
    assert out["comparison"]["wins"] + out["comparison"]["ties"] + out["comparison"]["losses"] == 4
    standing = gridfall_json("standings", str(tmp_path / "m.sqlite"))  # in the measure the run used
    assert standing["measure"] == "log2(1 + total)" and standing["comparison"] == out["comparison"]
    assert all("output" not in s[name] for s in out["seeds"] for name in ("fast", "greedy"))  # they print nothing
    assert out["faults"] == []


def test_a_match3_comparison_speaks_of_seeds(tmp_path):
    (tmp_path / "quit.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")  # ends each board at once
    bots = ["--bot", f"a={tmp_path / 'quit.py'}", "--bot", f"b={tmp_path / 'quit.py'}", "--seeds", "1",
            "--db", str(tmp_path / "m.sqlite"), "--time", "0"]
    text = " ".join(gridfall("match3", "compare", *bots).stdout.split())
    assert "1 seed with both" in text and "fewer than two seeds" in text, text  # was "1 seeds", "two boards"
    assert gridfall_json("match3", "compare", *bots)["comparison"]["verdict"] == \
        "the data cannot tell yet (fewer than two seeds)"
    ranked = gridfall("match3", "compare", *bots[:6], "--bot", f"c={tmp_path / 'quit.py'}", "--time", "0",
                      "--db", str(tmp_path / "three.sqlite"))  # three bots: a ranking
    assert "ranking over the 1 seed every bot played" in " ".join(ranked.stdout.split()), ranked.stdout


def test_one_file_under_two_interpreters_each_bot_its_own(tmp_path):
    """NAME="INTERPRETER FILE" runs that bot's file with its own interpreter: one file on PyPy and
    on CPython, paired seed by seed (which one to pick on CodeAbbey)."""
    import os
    import shutil

    pypy = shutil.which("pypy3")
    if pypy is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true and pypy3 is missing: .ci/run installs Debian's pypy3", pytrace=False)
        pytest.skip("pypy3 is not installed (Debian: apt-get install pypy3)")
    (tmp_path / "who.py").write_text("import sys\n\ndef suggest(board):\n    print(sys.implementation.name)\n"
                                     "    return 1, 1, 'Q'\n")
    db = str(tmp_path / "m.sqlite")
    bots = ["--bot", f"pypy=pypy3 {tmp_path / 'who.py'}", "--bot", f"here={tmp_path / 'who.py'}"]
    out = gridfall_json("match3", "compare", *bots, "--seeds", "1-2", "--db", db, "--time", "0")
    said = {name: {text for seed in out["seeds"] for text in seed[name]["output"]} for name in ("pypy", "here")}
    assert said == {"pypy": {"pypy\n"}, "here": {"cpython\n"}}, said
    stored = gridfall_json("standings", db)  # the run keeps each bot's interpreter with its file
    assert stored["seeds"] == out["seeds"]
    again = gridfall("match3", "compare", *bots, "--seeds", "1-2", "--db", db, "--time", "0")
    assert again.returncode == 0 and "2 seeds with both" in " ".join(again.stdout.split())  # resumed, nothing played
    for value, says in ((f"x=nope {tmp_path / 'who.py'}", "'nope' (bot x): not an interpreter on this machine"),
                        (f"x=pypy3 {tmp_path / 'missing.py'}", "(bot x) is not a file, nor an interpreter and a file"),
                        ("x=pypy3 a b", "(bot x) is not a file, nor an interpreter and a file"),
                        (f"x=pypy3 {tmp_path / 'who.lua'}", "a Lua file runs through lupa")):
        (tmp_path / "who.lua").write_text("function suggest(board) return 1, 1, 'Q' end\n")
        done = gridfall("match3", "compare", "--bot", value, "--bot", f"here={tmp_path / 'who.py'}", "--db", db)
        assert done.returncode == 2 and says in " ".join(done.stderr.split()), (value, done.stderr)


def test_a_suggest_file_that_cannot_load_is_refused_before_the_first_seed(tmp_path):
    """Its syntax, as the Python that would run it reads it: every seed would fail on it, stored."""
    (tmp_path / "quit.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")
    (tmp_path / "open.py").write_text("def suggest(board):\n    return (1, 1, 'Q'\n")
    (tmp_path / "walrus.py").write_text("def suggest(board):\n    return (y := 1), 1, 'Q'\n")
    db = tmp_path / "m.sqlite"
    for bot, says in (("open.py", "bot b: cannot load {path}: SyntaxError at line 2: '(' was never closed"),
                      ("walrus.py", "bot b: {path}, line 2: not Python 3.6 syntax (CodeAbbey runs 3.6)"),
                      (f"{sys.executable} open.py", "bot b: {path}, line 2: SyntaxError: '(' was never closed "
                                                    f"({sys.executable} cannot compile it)")):
        path = tmp_path / bot.split()[-1]
        value = f"{bot.split()[0]} {path}" if " " in bot else str(path)
        done = gridfall("match3", "compare", "--bot", f"a={tmp_path / 'quit.py'}", "--bot", f"b={value}",
                        "--seeds", "1-3", "--db", str(db), "--time", "0")
        assert done.returncode == 2 and says.format(path=path) in " ".join(done.stderr.split()), (bot, done.stderr)
        assert not db.exists()
    # an interpreter of its own judges for itself: 3.8's syntax is not 3.6's
    done = gridfall_json("match3", "compare", "--bot", f"a={tmp_path / 'quit.py'}", "--bot",
                         f"b={sys.executable} {tmp_path / 'walrus.py'}", "--seeds", "1", "--db", str(db), "--time", "0")
    assert done["seeds"][0]["b"]["ok"], done


def test_a_broken_bot_is_told_from_a_weak_one(tmp_path):
    """A bot whose games fail scores 0 on them, as a weak one might: the faults table says why."""
    assert gridfall("match3", "export", str(tmp_path / "greedy.py"), "--agent", "greedy").returncode == 0
    (tmp_path / "broken.py").write_text("def suggest(board):\n    raise RuntimeError('<b>no</b> idea ' + 'x' * 90)\n")
    bots = ["--bot", f"greedy={tmp_path / 'greedy.py'}", "--bot", f"broken={tmp_path / 'broken.py'}", "--seeds", "1-2",
            "--db", str(tmp_path / "m.sqlite")]
    out = gridfall_json("match3", "compare", *bots)
    [fault] = out["faults"]
    assert fault["bot"] == "broken" and fault["games"] == 2
    [(reason, count)] = fault["reasons"].items()
    assert "RuntimeError: <b>no</b> idea" in reason and count == 2
    text = gridfall("match3", "compare", *bots).stdout
    assert "seeds where a bot failed" in text and "<b>no</b> idea" in text  # bot text shown as text
    assert "0 (4 errors)" in text  # each of its four games ended on the raise


def test_a_samegame_verdict_that_its_detail_names_again_is_said_once(tmp_path):
    """The referee stores "verdict: detail", and a refused action's detail names the verdict itself."""
    (tmp_path / "hello.py").write_text("print('hello world', flush=True)\n")
    bots = [f"a={sys.executable} {tmp_path / 'hello.py'}", f"b={sys.executable} {tmp_path / 'hello.py'}"]
    args = ("samegame", "compare", "--bot", bots[0], "--bot", bots[1], "tuning:1", "--db", str(tmp_path / "h.sqlite"))
    [fault, _] = gridfall_json(*args)["faults"]
    assert list(fault["reasons"]) == ["turn 1: Action not properly formatted. Should be: 'x y [message]', "
                                      "got 'hello world'"]
    text = gridfall(*args).stdout
    assert "0 (turn 1: Action not properly formatted." in text and text.count("not properly formatted") == 4, text


def test_a_reason_cut_to_fit_its_cell_says_so():
    from gridfall.arena.compare_cli import shortened

    assert shortened("x" * 60, 60) == "x" * 60 and shortened("x" * 61, 60) == "x" * 59 + "…"


@pytest.mark.alone  # the fast player plans its second
def test_a_match3_players_prints_are_stored_and_replayed_board_by_board(tmp_path):
    from gridfall.viewer import page

    assert gridfall("match3", "export", str(tmp_path / "fast.py"), "--agent", "fast").returncode == 0
    chatty = (tmp_path / "fast.py").read_text().replace("def suggest(board, boardNo=1, move=1, elapsed=0.0):",
                                                        "def suggest(board, boardNo=1, move=1, elapsed=0.0):\n"
                                                        "    print(boardNo, move)")
    assert chatty != (tmp_path / "fast.py").read_text()
    (tmp_path / "chatty.py").write_text(chatty)
    db = tmp_path / "m.sqlite"
    gridfall_json("match3", "compare", "--bot", f"chatty={tmp_path / 'chatty.py'}", "--bot",
                  f"fast={tmp_path / 'fast.py'}", "--seeds", "1", "--db", str(db))
    done = gridfall("view", str(db), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 0, done.stderr
    games = page.read_data((tmp_path / "page.html").read_text())["games"]
    chatty_boards = [g for g in games if ": chatty" in g["title"]]
    assert len(chatty_boards) == 4
    for number, game in enumerate(chatty_boards, start=1):
        swaps = [f for f in game["frames"] if f["phase"] == "swap"]
        assert swaps and [f["output"] for f in swaps] == [f"{number} {k}\n" for k in range(1, len(swaps) + 1)]


def test_more_boards_grow_a_comparison_and_leaving_one_out_is_refused(tmp_path):
    largest, smallest = _samegame_bots(tmp_path)
    compare = ["samegame", "compare", "--bot", largest, "--bot", smallest, "--workers", "1", "--turn-ms", "2000"]
    first = subprocess_in(tmp_path, *compare, "tuning:1", "tuning:2", "--db", "c.sqlite")
    assert first.returncode == 0, first.stderr
    grown = subprocess_in(tmp_path, *compare, "tuning:3", "tuning:1", "tuning:2", "--db", "c.sqlite", "--json")
    assert grown.returncode == 0 and "the run grows: boards was 2, now 3" in grown.stderr, grown.stderr
    assert [b["board"] for b in json.loads(grown.stdout)["boards"]] == ["tuning:3", "tuning:1", "tuning:2"]
    count = "SELECT count(*) FROM games"
    assert rows(tmp_path / "c.sqlite", count)[0][0] == 6  # four kept, two played
    refused = subprocess_in(tmp_path, *compare, "tuning:2", "tuning:3", "--db", "c.sqlite")
    assert refused.returncode == 2 and "not shrink (boards: tuning:1 is stored but not in the new list)" in refused.stderr
    other = subprocess_in(tmp_path, *compare, "tuning:4")  # other boards, the default --db: a run of their own
    assert other.returncode == 0 and "grows" not in other.stderr, other.stderr
    (made,) = tmp_path.glob("compare-*.sqlite")
    assert rows(made, count)[0][0] == 2


def subprocess_in(folder, *args):
    import os
    import subprocess

    return subprocess.run([sys.executable, "-m", "gridfall", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "200"})


def test_bad_compare_arguments_are_usage_errors(tmp_path):
    real = tmp_path / "real.py"
    real.write_text("def suggest(board):\n    return 1, 1, 'Q'\n")
    # the bots' commands are ones that start (`true`): a command that cannot is refused first
    for args, words in [(["samegame", "compare", "--bot", "a=true", "tuning:1"], "give at least two bots (got 1)"),
                        (["samegame", "compare", "--bot", "a=true", "--bot", "b=true", "--bot", "a=true", "tuning:1"],
                         "the name 'a' is given twice"),
                        (["samegame", "compare", "--bot", "a=true", "--bot", "b=true", "--one-turn", "--turn-ms", "100",
                          "tuning:1"], "--turn-ms: the one-turn flavour has a first turn only"),
                        (["samegame", "compare", "--bot", "a=true", "--bot", "b=true", "standard", "standard:3"],
                         "standard:3 is given twice"),  # one stored game would count twice
                        (["samegame", "compare", "--bot", "a=true", "--bot", "b=true", "nowhere:3"], "BOARDS"),
                        # a name is shown in tables, pages and standings: an ESC there reached the terminal
                        (["samegame", "compare", "--bot", "\x1b[2Ja=true", "--bot", "b=true", "tuning:1"],
                         "the name holds '\\x1b'; a name is one line of printable text"),
                        (["match3", "compare", "--bot", f"two\nlines={real}", "--bot", f"b={real}"], "the name holds '\\n'"),
                        (["match3", "compare", "--bot", "a=missing.py", "--bot", "b=missing.py"], "is not a file"),
                        (["match3", "compare", "--bot", f"a={real}", "--bot", f"b={real}", "--seeds", "one"], "seeds")]:
        done = gridfall(*args)
        assert done.returncode == 2 and words in done.stderr, (args, done.stderr)
