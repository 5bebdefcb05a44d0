"""Running arena commands as a user does: a subprocess of ``python -m gridfall``."""

import json
import os
import subprocess
import sys
from pathlib import Path

BOTS = Path(__file__).parent / "bots"


def pick(rule: str, delay: float = 0.0) -> str:
    return f"{sys.executable} -I {BOTS / 'pick.py'} {rule} {delay:g}"


def gridfall(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridfall", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200"})


def gridfall_json(*args: str, timeout: float = 300) -> dict:
    done = gridfall(*args, "--json", timeout=timeout)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
