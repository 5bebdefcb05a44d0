"""Run a bot program as a subprocess and talk to it line by line under deadlines.

The referee must survive any bot: one that never answers, one that dies, one
that prints without end, one that never reads its input.  So:

* stdout is read in chunks with ``select`` and a deadline, never with a
  blocking ``readline``; a line or a backlog over ``max_output`` bytes is a flood;
* stdin is written without blocking, within the same deadline, so a bot that
  does not read cannot stall the referee on a full pipe;
* stderr is drained by a thread that keeps only its tail (for crash reports);
* the bot runs in its own session and the whole process group is killed on
  close, so nothing it started is left behind.

Times are wall-clock from the first byte sent to the end of the answer line,
which is how the platforms measure a turn.
"""

from __future__ import annotations

import atexit
import errno
import os
import selectors
import signal
import subprocess
import threading
import time
from collections import deque


_live: set["BotProcess"] = set()
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kill every bot still running (on Ctrl-C and at exit)."""
    with _live_lock:
        bots = list(_live)
    for bot in bots:
        bot.close()


atexit.register(kill_all)


class BotFailure(Exception):
    """The bot broke the protocol; ``reason`` is a short referee-style verdict."""

    reason = "Bot failure"

    def __init__(self, detail: str = ""):
        super().__init__(f"{self.reason}: {detail}" if detail else self.reason)
        self.detail = detail


class BotTimeout(BotFailure):
    reason = "Timeout"


class BotExited(BotFailure):
    reason = "Bot crashed"


class BotFlooded(BotFailure):
    reason = "Output flood"


class BotProcess:
    """One running bot.  Use as a context manager so it is always killed.

    ``command`` is a shell command line (run with ``/bin/sh -c``) or an argv list.
    """

    def __init__(self, command: str, *, cwd: str | None = None, env: dict | None = None, max_output: int = 1 << 20):
        self.command = command
        self.max_output = max_output
        self._buffer = bytearray()
        self._stderr_tail: deque[bytes] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(
                command if isinstance(command, list) else ["/bin/sh", "-c", command],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except (OSError, ValueError) as e:
            raise BotExited(f"cannot start {command!r}: {e}") from None
        with _live_lock:
            _live.add(self)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._stdout_fd = self.proc.stdout.fileno()
        self._stdin_fd = self.proc.stdin.fileno()
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    # -- plumbing -------------------------------------------------------------

    def _drain_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._stderr_tail.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size > 8192 and len(self._stderr_tail) > 1:
                    self._stderr_size -= len(self._stderr_tail.popleft())

    def stderr_tail(self, lines: int = 5) -> str:
        with self._lock:
            text = b"".join(self._stderr_tail).decode("utf-8", "replace")
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def _exit_detail(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_thread.join(timeout=0.5)
        detail = "closed its output" if code is None else f"exited with code {code}"
        tail = self.stderr_tail()
        return f"{detail}; stderr: {tail}" if tail else detail

    # -- the protocol ---------------------------------------------------------

    def send(self, text: str, deadline: float) -> None:
        """Write text before ``deadline`` (a time.monotonic() value)."""
        data = memoryview(text.encode())
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdin_fd, selectors.EVENT_WRITE)
            while data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotTimeout("did not read its input")
                if not sel.select(remaining):
                    continue
                try:
                    written = os.write(self._stdin_fd, data)
                except BlockingIOError:
                    continue
                except OSError as e:
                    if e.errno in (errno.EPIPE, errno.EINVAL, errno.EBADF):
                        # The bot stopped reading (it may have exited).  An answer
                        # it already printed still counts: let the read decide.
                        return
                    raise
                data = data[written:]

    def read_line(self, deadline: float) -> str:
        """The next output line (without its newline), read before ``deadline``."""
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdout_fd, selectors.EVENT_READ)
            while True:
                newline = self._buffer.find(b"\n")
                if newline >= 0:
                    if time.monotonic() > deadline:  # read late: the referee cannot tell when it was written
                        raise BotTimeout("answer line completed after the time limit")
                    line = bytes(self._buffer[:newline])
                    del self._buffer[: newline + 1]
                    return line.decode("utf-8", "replace").rstrip("\r")
                if len(self._buffer) > self.max_output:
                    raise BotFlooded(f"more than {self.max_output} bytes without a newline")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotTimeout("no answer line in time")
                if not sel.select(remaining):
                    continue
                chunk = os.read(self._stdout_fd, 65536)
                if not chunk:
                    raise BotExited(self._exit_detail())
                self._buffer += chunk

    def ask(self, text: str, timeout: float) -> tuple[str, float]:
        """Send text, then read one answer line within ``timeout`` seconds in all.

        Returns the line and the seconds it took.  Extra lines a bot printed
        earlier are answers too, in order, as on the platform.
        """
        start = time.monotonic()
        deadline = start + timeout
        self.send(text, deadline)
        line = self.read_line(deadline)
        if len(self._buffer) > self.max_output:
            raise BotFlooded(f"more than {self.max_output} bytes of unread output")
        return line, time.monotonic() - start

    # -- lifetime -------------------------------------------------------------

    def close(self) -> None:
        """Kill the bot and everything it started; reap it.  Safe to call twice."""
        with _live_lock:
            _live.discard(self)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self._stderr_thread.join(timeout=1)
        try:
            self.proc.stderr.close()
        except OSError:
            pass

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
