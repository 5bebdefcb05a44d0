"""The suite's own settings (pyproject.toml) fail a test that leaves an open file to the garbage
collector, so a leak in a referee shows as a failed test, not as a warning nobody reads: a referee
that dropped one descriptor a game would run out of them in a long league.  A thread that dies of
an exception fails its test too."""

import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

PYPROJECT = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"

TESTS = '''
def test_drops_an_open_file(tmp_path):
    (tmp_path / "f").write_text("x")
    open(tmp_path / "f").read()


def test_closes_it(tmp_path):
    (tmp_path / "f").write_text("x")
    with open(tmp_path / "f") as f:
        f.read()


def test_a_thread_dies():
    import threading
    worker = threading.Thread(target=lambda: 1 / 0)
    worker.start()
    worker.join()
'''


def test_a_test_that_drops_an_open_file_or_whose_thread_dies_fails(tmp_path):
    (tmp_path / "test_files.py").write_text(TESTS)
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path),
                           "-p", "no:cacheprovider", "-n", "0", "-q", str(tmp_path / "test_files.py")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "FAILED test_files.py::test_drops_an_open_file" in done.stdout, done.stdout + done.stderr
    assert "FAILED test_files.py::test_a_thread_dies" in done.stdout and "ZeroDivisionError" in done.stdout
    assert "ResourceWarning: unclosed file" in done.stdout and "2 failed, 1 passed" in done.stdout, done.stdout
