"""A bot's command that cannot start (a typo in its program or its file, a quote left open, a
script's #! line) is refused before any game, rather than lost game after game as a crash and
stored in the run under that name; a command the shell must run, or one whose program comes from
a runner's environment, is left to the shell once the shell can read it."""

import shutil
import subprocess
import sys

import click
import pytest

from gridfall.arena.bot_command import cannot_start, program_file, shell_words
from gridfall.arena.runs import plays_here
from tests.arena.arena_cli import gridfall

pytestmark = pytest.mark.parallel_safe  # one core; no bot plays


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder holding bot.py, an executable ./bot, a file that is not executable and a folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("print(4)\n")
    (tmp_path / "bot").write_text("#!/bin/sh\necho 4\n")
    (tmp_path / "bot").chmod(0o755)
    (tmp_path / "notes.txt").write_text("not a program\n")
    (tmp_path / "sub").mkdir()
    return tmp_path


def test_the_program_file_is_the_one_the_shell_would_run_or_none_where_that_cannot_be_told(here):
    """One reading for the start check and for warming each copy of gridfall once
    (warm_bots.one_spelling): a path joined to env -C's folder, a name looked up on the PATH."""
    def found(command):
        reading = program_file(shell_words(command))
        return None if reading is None else (reading.at, reading.path)

    assert found("./bot --seed 3") == (0, str(here / "bot"))
    assert found("env -C sub ../bot") == (3, str(here / "bot"))  # sub/../bot, not followed through links
    assert found("env -C sub ./nobot") == (3, str(here / "sub" / "nobot"))  # a path is not checked
    assert found(f"env PYTHONPATH=lib {sys.executable} -c 1") == (2, sys.executable)
    assert found("sh -c 'echo 4'")[1].endswith("/sh")
    assert found("no-such-program-here") == (0, None)
    for moved in ("uv run python3 bot.py", "env -i python3 bot.py", "env PATH=/opt/bin python3 bot.py",
                  "env -u PATH python3 bot.py", "env PYTHONPATH=lib", ""):
        assert found(moved) is None, moved


@pytest.mark.parametrize("command,why", [
    ("no-such-program-here", "no-such-program-here: no such command on the PATH"),
    ("python3 nobot.py", "nobot.py: no such file for python3 to run"),
    ("python3 -u -W ignore nobot.py --seed 3", "nobot.py: no such file for python3 to run"),
    ("env PYTHONPATH=lib python3 -I nobot.py", "nobot.py: no such file for python3 to run"),
    ("env -C elsewhere python3 bot.py", "bot.py: no such file for python3 to run"),  # bot.py is not in elsewhere/
    ("./nobot", "./nobot: no such file"),
    ("./notes.txt", "./notes.txt: not an executable file"),
    ("./sub", "./sub: not an executable file"),  # a folder
])
def test_a_command_that_cannot_start_is_named_with_the_word_at_fault(here, command, why):
    assert cannot_start(command) == why


@pytest.mark.parametrize("command", [
    "python3 bot.py", "./bot", f"{sys.executable} -m gridfall connect4 bot", "python3 -c 'print(4)'",
    "sh -c 'exit 3'", "python3 -- bot.py", "python3 - < bot.py", "cd . && ./bot", "exec ./bot", "FOO=1 ./nobot",
    "uv run nobot", "env -i nobot", "env PATH=/elsewhere nobot", "$HOME/nobot",
])
def test_a_command_that_starts_or_is_the_shells_to_read_is_left_be(here, command):
    assert cannot_start(command) is None


@pytest.mark.parametrize("command", ["python3 'unclosed", "python3 bot.py | (cat", "./bot; fi"])
def test_a_command_the_shell_cannot_read_is_named_in_the_shells_words(here, command):
    """/bin/sh reads the command with -n (it runs none of it), so its own syntax is judged too."""
    why = cannot_start(command)
    assert why is not None and why.startswith("the shell cannot read it: ") and "\n" not in why, why
    assert not (here / "ran").exists()
    assert cannot_start("echo $x\x00") == "it holds a NUL character, which no command line can"


def _script(here, name: str, first_line: bytes) -> str:
    (here / name).write_bytes(first_line + b"print(4)\n")
    (here / name).chmod(0o755)
    return f"./{name}"


def test_a_script_whose_first_line_cannot_start_it_is_named(here):
    """The shell would say "not found" and exit with 127 at each start: a #! line copied from
    another machine, saved with Windows line endings, or giving env a program and its options as
    one word (Linux passes what follows the interpreter as one argument)."""
    def why(name, first_line):
        return cannot_start(_script(here, name, first_line))

    assert why("gone.py", b"#!/no/such/python3\n") == "./gone.py: its #! line names /no/such/python3, which is not on this machine"
    assert why("dir.py", b"#!/tmp\n") == "./dir.py: its #! line names /tmp, which is not an executable file"
    assert why("crlf.py", b"#!/usr/bin/env python3\r\n") == (
        "./crlf.py: its #! line ends in a carriage return (Windows line endings); save the file with Unix ones (LF)")
    assert why("py9.py", b"#!/usr/bin/env no-such-python9\n") == (
        "./py9.py: its #! line runs no-such-python9 through env, and there is no no-such-python9 on the PATH")
    if sys.platform.startswith("linux"):
        assert why("opts.py", b"#!/usr/bin/env python3 -u\n") == (
            "./opts.py: its #! line has env look for a program called 'python3 -u': Linux passes all after the "
            "interpreter as one word (write '#!/usr/bin/env -S python3 -u')")
    for starts in (b"#!/usr/bin/env python3\n", b"#! /bin/sh\n", b"#!/usr/bin/env -S python3 -u\n",
                   b"#!python3\n", b"print(3)\n", b"#!/bin/sh -eu\n"):  # a relative interpreter: not told here
        command = _script(here, "fine.py", starts)
        assert cannot_start(command) is None, starts
    for command in ("./opts.py", "./crlf.py", "./gone.py"):  # what the check names, the shell refuses: 127
        assert subprocess.run(["/bin/sh", "-c", command], cwd=here, capture_output=True).returncode == 127, command


def _compiles(python: str, source: str) -> bool:
    """Whether ``python`` itself compiles ``source``."""
    return subprocess.run([python, "-c", "import sys; compile(sys.stdin.read(), 'x', 'exec')"], input=source,
                          capture_output=True, text=True).returncode == 0


def test_a_script_that_its_own_python_cannot_compile_is_named_with_the_line_and_the_error(here):
    """The bot's interpreter judges the syntax (not the referee's): the same text can be valid on
    one Python and not on another, and nothing of the script runs."""
    (here / "bad.py").write_text("import sys\nopen('ran', 'w')\nprint('x'\n")
    (here / "tabs.py").write_text("def f():\n\treturn 1\n        return 2\n")
    (here / "folder.py").mkdir()
    assert cannot_start("python3 -u bad.py --seed 3") == ("bad.py, line 3: SyntaxError: '(' was never closed "
                                                         "(python3 cannot compile it)")
    assert cannot_start("env -C .. python3 " + here.name + "/bad.py").startswith(here.name + "/bad.py, line 3: ")
    assert cannot_start("python3 tabs.py").startswith("tabs.py, line 3: TabError: ")
    assert not (here / "ran").exists()
    for left in ("python3 bot.py", "python3 folder.py", "python3 - < bad.py", "python3 -c 'print(4' bad.py",
                 "sh bad.py"):  # compiles; python runs a folder; not the file; no script; not python
        assert cannot_start(left) is None, left
    # a match statement is valid from Python 3.10: each interpreter judges it by its own grammar
    # (Debian's PyPy is 3.9's, and refuses it; the suite runs on 3.10 or later)
    (here / "matching.py").write_text("match 4:\n    case 4:\n        print(4)\n")
    for python in (sys.executable, shutil.which("pypy3")):
        if python is not None:
            compiles = _compiles(python, (here / "matching.py").read_text())
            assert (cannot_start(f"{python} matching.py") is None) == compiles, python
            assert compiles or "matching.py, line 1: SyntaxError" in cannot_start(f"{python} matching.py")


def test_the_referees_and_runs_refuse_it_before_any_game_and_leave_no_database(tmp_path):
    db = tmp_path / "run.sqlite"
    broken = tmp_path / "broken.py"
    broken.write_text("def play(:\n")
    for args, hint in [(["connect4", "sprt", "--new", f"python3 {broken}", "--base", "greedy", "--db", str(db)],
                        "--new"),  # a syntax error
                       (["connect4", "referee", "--p1", "pyhton3 bot.py", "--p2", "greedy"], "--p1"),
                       (["connect4", "referee", "--p1", "python3 bot.py 'x", "--p2", "greedy"], "--p1"),  # a quote
                       (["connect4", "league", "--bot", "a=./nobot", "--bot", "greedy", "--db", str(db)], "--bot a"),
                       (["connect4", "sprt", "--new", "pyhton3 bot.py", "--base", "greedy", "--db", str(db)], "--new"),
                       (["connect4", "play", "--opponent", "pyhton3 bot.py", "--no-browser", "--db", str(db)],
                        "--opponent"),
                       (["samegame", "referee", "--bot", "pyhton3 bot.py", "standard:1"], "--bot"),
                       (["samegame", "compare", "--bot", "a=pyhton3 bot.py", "--bot", "gridfall", "standard:1",
                         "--db", str(db)], "--bot a"),
                       (["connect4", "league", "--bot", "a=./nobot", "--bot", "greedy", "--db", str(db),
                         "--cluster", "local:1"], "--bot a")]:
        done = gridfall(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert hint in done.stderr and "cannot start" in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert not db.exists()


def test_a_lone_word_that_is_no_program_names_the_games_built_in_bots(tmp_path):
    for args, says in [(["connect4", "referee", "--p1", "gridfal", "--p2", "greedy"],
                        "gridfal: no such command on the PATH (did you mean gridfall? the built-in bots: random, "
                        "greedy, alphabeta, mcts, mcts-solver, gridfall, portable)"),
                       (["connect4", "referee", "--p1", "mtcs:200", "--p2", "greedy"], "(did you mean mcts? "),
                       (["samegame", "referee", "--bot", "greedy", "standard:1"],
                        "greedy: no such command on the PATH (the built-in bots: gridfall)"),
                       (["samegame", "compare", "--bot", "a=gridfal", "--bot", "gridfall", "standard:1", "--db",
                         str(tmp_path / "c.sqlite")], "(did you mean gridfall? the built-in bots: gridfall)")]:
        done = gridfall(*args)
        assert done.returncode == 2 and says in done.stderr, done.stderr
    done = gridfall("connect4", "referee", "--p1", "python3 nobot.py", "--p2", "greedy")  # a command: no list
    assert done.returncode == 2 and "built-in" not in done.stderr


def test_samegames_built_in_bot_is_taken_by_name_where_the_gridfall_script_is_not_on_the_path(monkeypatch):
    """`python -m gridfall samegame referee --bot gridfall` from a venv that is not activated: the
    name was checked as a program on the PATH and refused, though it plays as `python -m gridfall`."""
    from gridfall.cli_options import bot_command
    from gridfall.samegame.referee_cli import _built_in

    monkeypatch.setenv("PATH", "/nonexistent")
    assert bot_command(_built_in)(None, None, "gridfall") == "gridfall"
    with pytest.raises(click.BadParameter, match="gridfal: no such command on the PATH"):
        bot_command(_built_in)(None, None, "gridfal")


def test_only_a_scheduler_elsewhere_plays_where_this_machine_cannot_look():
    assert plays_here(None) and plays_here("local:2")
    assert not plays_here("tcp://10.0.0.7:8786")
