"""A bare interpreter for exported files: a virtual environment without gridfall or numba,
run with -I (no user site, no PYTHONPATH, no current directory), as a platform would run it."""

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory) -> str:
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(Path(venv) / "bin" / "python")
    check = subprocess.run([python, "-I", "-c", "import gridfall"], capture_output=True, text=True)
    assert check.returncode != 0, "the bare interpreter must not see gridfall"
    return python
