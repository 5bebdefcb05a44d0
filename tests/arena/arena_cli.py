"""Running arena commands as a user does: a subprocess of ``python -m gridfall``."""

import json
import os
import sqlite3
import subprocess
import sys
import threading
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


class Output:
    """A started command's stdout and stderr, read as they come (by a thread each), so that a test
    can wait for a line instead of sleeping for as long as the line may take."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(pipe, lines), daemon=True)
                        for pipe, lines in ((process.stdout, self.out), (process.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(pipe, lines: list[str]) -> None:
        with pipe:
            for line in pipe:
                lines.append(line)

    def wait_for(self, text: str, timeout: float = 120) -> bool:
        """Wait until a line of stderr holds ``text`` (False: not within ``timeout``, or it ended)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in list(self.err)):
                return True
            if self.process.poll() is not None and not any(reader.is_alive() for reader in self.readers):
                return False
            time.sleep(0.1)
        return False

    def finish(self, timeout: float = 120) -> tuple[str, str]:
        """Wait for the command's end; its whole stdout and stderr."""
        self.process.wait(timeout=timeout)
        for reader in self.readers:
            reader.join(timeout=timeout)
        return "".join(self.out), "".join(self.err)


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
