"""The live processes this test session started, for the tests that check none is left behind.

conftest.py puts a mark of this session in the environment, which every process the tests start
inherits (bots, their children, their grandchildren).  A process is ours if it carries the mark:
another test run on the same machine (a second clone, CI) is never taken for a leftover of this one.
"""

import os
import signal

SESSION = "GRIDFALL_TEST_SESSION"


def live_commands(*words: str) -> list[str]:
    """Command lines of this session's live processes (zombies are dead: left out) that hold
    any of ``words``."""
    mark = f"{SESSION}={os.environ[SESSION]}".encode()
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if mark not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            state = stat_fields(name)[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state not in ("Z", "X") and any(word in cmdline for word in words):
            found.append(cmdline)
    return found


def describe(pid: int) -> str:
    """What /proc says of ``pid``, for a failure message: its state, and whether it carries the mark."""
    mark = f"{SESSION}={os.environ[SESSION]}".encode()
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            marked = mark in f.read().split(b"\0")
        return f"pid {pid}: state {stat_fields(pid)[0]}, {'marked' if marked else 'NOT marked'}"
    except OSError as error:
        return f"pid {pid}: {error}"


def stat_fields(pid) -> list[str]:
    """The fields of /proc/PID/stat after the command's name, which may hold spaces and ')': state,
    parent, process group, session, ...  OSError once the process is gone (and reaped)."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        return f.read().decode("ascii", "replace").rsplit(")", 1)[1].split()


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process: a zombie has ended."""
    try:
        return stat_fields(pid)[0] not in ("Z", "X")
    except OSError:
        return False


def reap(*pids: int, seconds: float = 5.0) -> None:
    """Collect those of ``pids`` that ended as this process's children, so none stays a zombie here.
    A process whose parent dies is adopted by init, or by this one if it is a subreaper (a test
    before imported gridfall.arena.reaper), and then its end waits here."""
    import time

    for pid in pids:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:  # not ours: init reaps it
                break
            time.sleep(0.02)


def stopped(process, signum: int, settle: float = 3.0) -> tuple[str, float]:
    """After ``settle`` seconds, send ``signum`` to ``process`` (a Popen with text pipes) and
    return its stderr and the seconds it took to end after the signal (killed at 60 s)."""
    import time

    try:
        time.sleep(settle)
        process.send_signal(signum)
        start = time.monotonic()
        _, err = process.communicate(timeout=60)
        return err, time.monotonic() - start
    finally:
        process.kill()
        process.communicate()


def as_in_a_terminal() -> None:
    """A child's stop signals as in a terminal (``preexec_fn=``): a test run started in the
    background by a non-interactive shell ignores SIGINT (and under nohup SIGHUP), and a child
    would inherit that, so a test's Ctrl-C would reach a deaf process; in a terminal a command
    has Python's Ctrl-C handler, and a hangup ends it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
