"""An interpreter given to the Match-3 referee is asked its version before any run: Python 2.7
failed in the harness's own first lines with a SyntaxError that read as the player's, and a
program that is no Python "crashed" at every run."""

import shutil
import sys

import pytest

from gridfall.match3.interpreter import interpreter_fault
from tests.arena.arena_cli import gridfall

pytestmark = pytest.mark.parallel_safe  # no player runs


def _program(folder, name: str, says: str) -> str:
    """An executable that answers the version question with ``says``, as an old Python would."""
    path = folder / name
    path.write_text(f"#!/bin/sh\nprintf '{says}'\n")
    path.chmod(0o755)
    return str(path)


def test_an_interpreter_too_old_or_no_python_at_all_is_named(tmp_path):
    assert interpreter_fault(sys.executable) is None
    assert interpreter_fault(_program(tmp_path, "python2", "2.7")) == (
        "Python 2.7; the referee's harness, as CodeAbbey, needs Python 3.6 or later (or PyPy 3)")
    assert interpreter_fault(_program(tmp_path, "python35", "3.5")).startswith("Python 3.5; ")
    assert interpreter_fault(_program(tmp_path, "python310", "3.10")) is None  # not compared as text
    assert interpreter_fault(shutil.which("true")) == "not a Python interpreter (it did not say its version)"
    assert interpreter_fault(_program(tmp_path, "chatty", "hello")) == (
        "not a Python interpreter (it did not say its version)")
    assert interpreter_fault(str(tmp_path / "nothing")) == "not an interpreter on this machine"


def test_the_referee_and_compare_refuse_it_before_any_run(tmp_path):
    (tmp_path / "quit.py").write_text("def suggest(board):\n    return 1, 1, 'Q'\n")
    old = _program(tmp_path, "python2", "2.7")
    done = gridfall("match3", "referee", str(tmp_path / "quit.py"), "--python", old)
    assert done.returncode == 2 and "Python 2.7; the referee's harness" in " ".join(done.stderr.split()), done.stderr
    done = gridfall("match3", "compare", "--bot", f"a={old} {tmp_path / 'quit.py'}", "--bot",
                    f"b={tmp_path / 'quit.py'}", "--db", str(tmp_path / "m.sqlite"))
    assert done.returncode == 2 and "(bot a): Python 2.7" in " ".join(done.stderr.split()), done.stderr
    assert not (tmp_path / "m.sqlite").exists()
