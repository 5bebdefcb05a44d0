"""Running arena commands as a user does: a subprocess of ``python -m gridfall``."""

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.sqlite_files import rows

BOTS = Path(__file__).parent / "bots"


def pick(rule: str, delay: float = 0.0) -> str:
    return f"{sys.executable} -I {BOTS / 'pick.py'} {rule} {delay:g}"


def gridfall(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridfall", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200"})


def strict_json(text: str):
    """``json.loads`` as any JSON reader does it: Infinity and NaN, which Python writes and reads,
    are not JSON (jq and a browser's JSON.parse refuse them)."""

    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def gridfall_json(*args: str, timeout: float = 300) -> dict:
    done = gridfall(*args, "--json", timeout=timeout)
    assert done.returncode == 0, done.stderr
    return strict_json(done.stdout)


def start(*args: str) -> subprocess.Popen:
    """``python -m gridfall ARGS`` in the background, its output kept for ``communicate``."""
    return subprocess.Popen([sys.executable, "-m", "gridfall", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stored_games(db) -> int:
    """The games a run database holds (0 while its table is not made yet)."""
    try:
        return rows(db, "SELECT count(*) FROM games")[0][0]
    except sqlite3.OperationalError:
        return 0


def wait_for_games(db, at_least: int, timeout: float = 120) -> int:
    """Wait until a running command has stored ``at_least`` games; how many it has."""
    deadline = time.monotonic() + timeout
    while stored_games(db) < at_least and time.monotonic() < deadline:
        time.sleep(0.2)
    return stored_games(db)
