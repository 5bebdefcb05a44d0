"""Every script under benchmarks/ runs to its table at its smallest settings.

The benchmarks are how speed and strength are checked, and none of them runs in a figure's
place in the suite, so a change to the package could break one unseen (the SameGame engine
benchmark stopped compiling for a day when the colour facts moved out of numba).  Each script
here runs once from the repository's root, as the README runs it, on a handful of boards,
positions or games: what is checked is that it finishes, exits 0 and prints its table with the
machine line, not what it measured.  Bad arguments get a message naming them, never a traceback.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import as_in_a_terminal

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"

# script -> its arguments; {tmp} is a folder of the test's own, {records} the games
# connect4_strength.py recorded there
SMALLEST = {
    "adapter_speed.py": "--seconds 0.05",
    "compile_stops.py": "--trials 1",
    "arena_throughput.py": "--games 2 --boards 1 --round beam:0.2 --bots greedy,random --workers 2",
    "connect4_cold_start.py": "--games 1 --opponent greedy",
    "connect4_accuracy.py": "--games 2 --empties 38 --searches portable:3,numba:3 --cache {tmp}/acc.jsonl "
                            "--seconds 1 --workers 1",
    "connect4_endgame.py": "--empties 16 --games 1 --cap 1",
    "connect4_eval_fit.py": "--from 39 --to 40",
    "connect4_lines.py": "{records} --actions 2 --min-games 1",
    "connect4_losses.py": "{records} --seconds 1",
    "connect4_search.py": "--games 1 --depth 3",
    "connect4_search_match.py": "src/gridfall/connect4/search.py --pairs 1 --depth 2",
    "connect4_solver.py": "--files 7x6/endgame_L1 --seconds-per-file 1 --table-bits 16",
    "connect4_startup.py": "--runs 1 --busy 0",
    "connect4_strength.py": "--games 2 --opponents greedy --workers 2 --record {records}",
    "match3.py": "--seeds 1 --skip strong --pythons current",
    "match3_listing.py": "--games 1 --moves 5 --rounds 1 --pythons current,pypy3",
    "match3_plan.py": "--games 1 --moves 3 --rounds 1 --pythons current,pypy3 --against src/gridfall/match3/portable.py",
    "player_deadlines.py": "--budgets 5 --positions 1 --games match3",
    "samegame_anatomy.py": "results/samegame-standard.txt",
    "samegame_continue.py": "--boards 31 --base nrpa:0.3 --continue anneal:0.3 --workers 1",
    "samegame_engine.py": "--seconds 0.05",
    "samegame_export.py": "tuning:1 --time 2 --flavours one-turn --workers 1",
    "samegame_search.py": "--boards 1 --time 0.3 --algos beam,nrpa --workers 1",
}
NO_MACHINE = {"samegame_anatomy.py"}  # reads a results file: nothing it prints depends on the machine
FIRST = ["connect4_strength.py"]  # its records feed the lines and losses scripts
ORDER = FIRST + sorted(set(SMALLEST) - set(FIRST))
# Runs that start workers or time bots against a clock take the machine alone (machine_sharing.py),
# and so do the two that may have to make connect4_strength.py's records themselves; the others
# use one core and only stop a search at a time they choose, so they share it.
ALONE = {"arena_throughput.py", "connect4_cold_start.py", "connect4_lines.py", "connect4_losses.py",
         "connect4_startup.py", "connect4_strength.py", "match3.py", "samegame_export.py"}


@pytest.mark.parallel_safe
def test_every_benchmark_script_has_its_smallest_run():
    scripts = {p.name for p in BENCHMARKS.glob("*.py")} - {"common.py"}
    assert scripts == set(SMALLEST), "give each benchmark script a smallest run here"


@pytest.fixture(scope="module")
def records_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("benchmarks")


def run_smallest(script, folder):
    """Run ``script`` at its smallest settings from the repository's root; check it printed its table."""
    arguments = SMALLEST[script].format(tmp=folder, records=folder / "games.jsonl").split()
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *arguments], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{script} {' '.join(arguments)}\n{run.stderr[-3000:]}"
    assert run.stdout.strip(), f"{script} printed nothing"
    if script not in NO_MACHINE:
        assert "cores, Python" in run.stdout and ", gridfall " in run.stdout, run.stdout[-2000:]  # the machine line


@pytest.mark.parametrize("script", [pytest.param(s, marks=() if s in ALONE else pytest.mark.parallel_safe)
                                    for s in ORDER])
def test_benchmark_runs_to_its_table(script, records_folder):
    if script == "arena_throughput.py":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            if os.environ.get("CI") == "true":
                raise
            pytest.skip("arena_throughput.py measures the Dask executor too: pip install '.[dask]'")
    if "{records}" in SMALLEST[script] and not (records_folder / "games.jsonl").exists():
        run_smallest(FIRST[0], records_folder)  # on a pytest-xdist worker that did not run it first
    run_smallest(script, records_folder)


BAD = [  # (script, arguments, what the message must name)
    ("samegame_search.py", "--algos bogus --boards 1", "--algos bogus"),
    ("samegame_search.py", "--algos nrpa:foo=1 --boards 1", "'foo'"),
    ("samegame_search.py", "--algos nrpa:polish=1.5 --boards 1", "polish must be a share of the time in [0, 1)"),
    ("samegame_search.py", "--boards 0", "--boards"),
    ("samegame_search.py", "--boards 251", "--boards 251: tuning:251: there is no board 251"),
    ("samegame_engine.py", "--seconds 0", "--seconds: '0' is not above 0"),  # a rate over 0 s divided by 0
    ("samegame_continue.py", "--boards 31-3x", "--boards"),
    ("samegame_continue.py", "--base nrpa:nan", "--base"),
    ("samegame_engine.py", "--set nope", "--set"),
    ("samegame_continue.py", "--set nope --boards 1", "--set nope --boards 1: nope:1: no such board"),
    ("samegame_continue.py", "--lines /nonexistent-gridfall/x --boards 31 --base nrpa:0.3 --continue anneal:0.3 "
                             "--workers 1", "--lines /nonexistent-gridfall/x: cannot write it"),  # before any search
    ("samegame_export.py", "tuning:3-1", "tuning:3-1"),
    ("samegame_export.py", "tuning:1 --time 1", "--time 1: each bot keeps 1.5 s of its first turn back"),
    ("samegame_export.py", "tuning:1 --flavours turn,one_turn", "'one_turn' is not a flavour"),
    ("samegame_export.py", "tuning:1 --from /nonexistent-gridfall", "--from: /nonexistent-gridfall: cannot read"),
    ("connect4_lines.py", "results/connect4-pie.sqlite", "results/connect4-pie.sqlite: not UTF-8 text"),
    ("connect4_accuracy.py", "--cache results/connect4-pie.sqlite --games 1 --empties 38",
     "--cache results/connect4-pie.sqlite: not UTF-8 text"),
    ("connect4_endgame.py", "--empties 99", "--empties '99': 99 empty cells is outside 1..60"),  # was an empty table
    ("connect4_search.py", "--empties 40,x", "--empties '40,x': 'x' is not a number"),
    ("connect4_solver.py", "--files nope", "--files"),
    ("connect4_strength.py", "--workers 0", "--workers"),
    ("arena_throughput.py", "--workers 0", "--workers: '0'"),
    ("connect4_cold_start.py", "--opponent nope", "--opponent: unknown agent 'nope'"),
    ("connect4_startup.py", "--agent nope", "--agent: unknown agent 'nope'"),
    ("connect4_startup.py", "--against nowhere", "--against nowhere: not the src folder"),
    ("connect4_strength.py", "--player gridfall:12", "--player: gridfall:12"),
    ("match3.py", "--seeds 0", "--seeds"),
    ("match3.py", "--skip stong", "'stong' is not a part"),
    ("match3.py", "--pythons nope", "--pythons nope: no interpreter found"),  # not 20 minutes of strong alone
    ("match3_listing.py", "--pythons nope", "--pythons nope: no interpreter"),
    ("match3_plan.py", "--against nope.py", "--against nope.py: no such file"),
]


@pytest.mark.parallel_safe
@pytest.mark.parametrize("script, arguments, named", BAD)
def test_a_benchmark_refuses_bad_input_naming_it(script, arguments, named):
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *arguments.split()], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert named in run.stderr and "Traceback" not in run.stderr, run.stderr[-2000:]


@pytest.mark.parallel_safe
def test_connect4_strength_appends_games_only_to_a_file_of_games(tmp_path):
    # --record appends: named a README by mistake, it wrote the games at the README's end
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\n")
    run = subprocess.run([sys.executable, str(BENCHMARKS / "connect4_strength.py"), "--games", "2",
                          "--opponents", "greedy", "--record", str(notes)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and f"--record {notes}:1: not a game record" in run.stderr, run.stderr[-2000:]
    assert notes.read_text() == "# notes\n"


def stopped_with_ctrl_c(script: str, arguments: str, after: str, stop=signal.SIGINT) -> subprocess.CompletedProcess:
    """Run ``script``, send it ``stop`` (Ctrl-C's SIGINT) once its stderr has shown ``after`` (3 s
    in if empty), and return what it printed.  Its stderr is read line by line, so the stop lands
    where the test says."""
    import time

    process = subprocess.Popen([sys.executable, str(BENCHMARKS / script), *arguments.split()], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=as_in_a_terminal)  # not deaf to Ctrl-C under a background run
    seen = []
    if after:
        for line in process.stderr:
            seen.append(line)
            if after in line:
                break
    else:
        time.sleep(3)
    process.send_signal(stop)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, out, "".join(seen) + err)


def test_a_benchmark_stopped_keeps_the_algorithms_that_finished_and_says_where_it_stopped():
    # beam with a budget of work ends at once; nrpa would search for 20 s a board
    run = stopped_with_ctrl_c("samegame_search.py", "--boards 2 --time 20 --algos beam:max_width=2,nrpa --workers 1",
                              after="beam:max_width=2: total")
    assert run.returncode == 130 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "stopped: the tables hold the algorithms measured on every board; not nrpa" in run.stderr
    assert "beam:max_width=2" in run.stdout and "nrpa" not in run.stdout.replace("beam:max_width=2", "")


@pytest.mark.parametrize("stop, how", [(signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM")])
def test_a_benchmark_stopped_inside_the_referee_stops_instead_of_going_on(stop, how):
    # the Match-3 referee keeps a stop in its report: the benchmark took the report as a finished
    # run and played every other seed, exit 0; SIGTERM killed it outright, without a word
    run = stopped_with_ctrl_c("match3.py", "--seeds 20 --skip strong --pythons current --workers 1", after="",
                              stop=stop)
    assert run.returncode == 128 + stop and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert f"stopped ({how}): only what was printed before counts" in run.stderr


@pytest.mark.parallel_safe
def test_each_benchmarks_help_says_its_whole_first_sentence():
    # the description was the docstring's first line in some scripts, and two of those lines
    # stopped mid-sentence ("...process start to its first answer, and"); all start at once
    import ast

    helps = {script: subprocess.Popen([sys.executable, str(BENCHMARKS / script), "--help"], cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for script in sorted(SMALLEST)}
    for script, run in helps.items():
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, f"{script} --help\n{err[-2000:]}"
        first = ast.get_docstring(ast.parse((BENCHMARKS / script).read_text())).split("\n\n")[0]
        assert " ".join(first.split()) in " ".join(out.split()), f"{script} --help:\n{out}"
        assert first.rstrip().endswith((".", "?")), f"{script}: the docstring's first paragraph is not a sentence"
        assert not options_unexplained(out), f"{script} --help: no help for {options_unexplained(out)}"


def options_unexplained(help_text: str) -> list[str]:
    """The options in an argparse --help that have no help text: neither beside the option nor
    on the line below it (argparse's place for it after a long metavar)."""
    import re

    lines = help_text.splitlines()
    bare = []
    for line, below in zip(lines, lines[1:] + [""]):
        option = re.match(r"^  (-{1,2}[\w-]+)(?: [A-Z_,{}-]+)?$", line)
        if option and not re.match(r"^ {8,}\S", below):
            bare.append(option.group(1))
    return bare


@pytest.mark.parallel_safe
def test_options_unexplained_finds_an_option_without_help():
    text = ("options:\n  -h, --help         show this help\n  --seeds SEEDS\n  --budget BUDGET    a ceiling\n"
            "  --table-bits TABLE_BITS\n                     entries\n  --numba\n")
    assert options_unexplained(text) == ["--seeds", "--numba"]


@pytest.mark.parallel_safe
def test_the_readmes_benchmark_commands_name_scripts_and_options_that_exist():
    import re

    text = (ROOT / "README.md").read_text().replace("\n", " ")
    commands = re.findall(r"python benchmarks/([a-z0-9_]+\.py)([^`]*)`", text)
    assert len(commands) >= 10
    shared = (BENCHMARKS / "common.py").read_text()  # options that several scripts take
    for script, arguments in commands:
        assert (BENCHMARKS / script).is_file(), f"README: python benchmarks/{script}: no such script"
        source = (BENCHMARKS / script).read_text() + shared
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", arguments):
            assert f'"{option}"' in source, f"README: python benchmarks/{script}{arguments}: no option {option}"


@pytest.mark.parallel_safe
def test_connect4_strength_names_the_games_lost_on_time_at_start_up_and_scores_without_them(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from connect4_strength import OPPONENT, PLAYER, start_up_note

    from gridfall.connect4.codingame import GameRecord

    def game(seats, winner, reason, turns, opening=0):
        return GameRecord(seats, winner, reason, opening=opening, times=[0.05] * turns)

    won = game((PLAYER, OPPONENT), 0, "four in a row", 20)
    assert start_up_note([won], "mcts") is None
    records = [
        won,
        game((PLAYER, OPPONENT), 0, f"{OPPONENT}: timeout (no answer line in time)", 1),  # its first turn, as second
        game((OPPONENT, PLAYER), 1, f"{OPPONENT}: timeout (no answer line in time)", 0),  # its first turn, as first
        game((PLAYER, OPPONENT), 0, f"{OPPONENT}: timeout (no answer line in time)", 7),  # a later turn: counted
        game((OPPONENT, PLAYER), 0, f"{PLAYER}: timeout (no answer line in time)", 0, opening=1),  # after an opening move
        game((OPPONENT, PLAYER), 0, "four in a row", 15),
    ]
    note = start_up_note(records, "mcts")
    assert note is not None and note.startswith("mcts: ")
    assert f"the {PLAYER} in 1 and the {OPPONENT} in 2 of 6 games" in note
    assert "the player scored 66.7% (2 W / 0 D / 1 L over 3)" in note


@pytest.mark.parallel_safe
def test_reading_a_pie_run_leaves_no_file_beside_it_and_names_a_damaged_one(tmp_path, monkeypatch):
    # the run database is in WAL mode: a connection opened read-only made its -wal and -shm files
    # beside it and could not delete them (they were left in results/ by every benchmark test run)
    import shutil

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from common import pie_run_games

    run = tmp_path / "run.sqlite"
    shutil.copyfile(ROOT / "results" / "connect4-pie.sqlite", run)
    games = pie_run_games(run)
    assert len(games) == 10_000 and {game.column for game in games} == set(range(5))  # 5-8 are their mirrors
    assert [path.name for path in tmp_path.iterdir()] == ["run.sqlite"]
    run.write_bytes(b"not a database" * 100)
    with pytest.raises(SystemExit, match=f"{run}: not an SQLite file"):
        pie_run_games(run)
    run.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    with pytest.raises(SystemExit, match=f"{run}: a damaged SQLite file"):
        pie_run_games(run)
