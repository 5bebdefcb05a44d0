"""The fingerprint names the files a wheel ships, wherever gridfall was imported from."""

import os
import shutil
import subprocess
import sys

import pytest

import gridfall
from gridfall.fingerprint import fingerprint

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def _fingerprint_of(folder) -> str:
    done = subprocess.run([sys.executable, "-c", "from gridfall.fingerprint import fingerprint; print(fingerprint())"],
                          env={**os.environ, "PYTHONPATH": str(folder)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_copy_agrees_whatever_else_lies_beside_its_files_and_an_edit_changes_it(tmp_path):
    copy = tmp_path / "gridfall"
    shutil.copytree(os.path.dirname(gridfall.__file__), copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _fingerprint_of(tmp_path) == fingerprint()
    (copy / "rules.py~").write_text("an editor's backup")
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "engine.step-10.py311.nbi").write_bytes(b"a numba cache file")
    (copy / "replay.html").write_text("a page written into a checkout")
    assert _fingerprint_of(tmp_path) == fingerprint()
    with open(copy / "words.py", "a") as f:
        f.write("# edited\n")
    assert _fingerprint_of(tmp_path) != fingerprint()
    (copy / "words.py").write_text((copy / "words.py").read_text().replace("# edited\n", ""))
    data = next((copy / "data").rglob("*.json"))
    data.write_text(data.read_text() + " ")
    assert _fingerprint_of(tmp_path) != fingerprint()
