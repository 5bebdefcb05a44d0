"""A referee killed outright takes its bots with it (gridfall.arena.deadman)."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.processes import reap, running, stat_fields

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# a bot that never reads its input and ignores SIGTERM, started through /bin/sh as a command line is;
# it writes its pid, so the test knows the process to watch (the shell's child, not the shell)
DEAF_BOT = ("import os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "open(sys.argv[1], 'w').write(str(os.getpid()))\nwhile True:\n    time.sleep(1)\n")

# a referee of one bot, which says when the bot is running and then waits to be killed
REFEREE = ("import sys, time\nfrom gridfall.arena import deadman\nfrom gridfall.arena.process import BotProcess\n"
           "bot = BotProcess(sys.argv[1])\nprint(deadman._watcher.pid, flush=True)\ntime.sleep(600)\n")


def _gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether ``pid`` ends within ``seconds`` (a dead referee's children may wait as zombies here,
    where :func:`reap` collects them)."""
    deadline = time.monotonic() + seconds
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)


def _referee_with_a_deaf_bot(tmp_path) -> tuple[subprocess.Popen, int, int]:
    (tmp_path / "deaf.py").write_text(DEAF_BOT)
    pid_file = tmp_path / "bot.pid"
    command = f"{sys.executable} -I {tmp_path / 'deaf.py'} {pid_file}"
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, command], stdout=subprocess.PIPE, text=True,
                               preexec_fn=os.setpgrp)  # a group of its own, for the test to kill whole; and
    # this session: the test's process may be a subreaper (a test before imported reaper), which
    # adopts the dead referee's children and kills those of other sessions at its next bot's end
    assert referee.stdout is not None
    watcher = int(referee.stdout.readline())
    referee.stdout.close()
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)
    bot = int(pid_file.read_text())
    return referee, watcher, bot


@pytest.mark.parallel_safe
@pytest.mark.parametrize("whole_group", [False, True], ids=["the-referee", "its-process-group"])
def test_a_referee_killed_outright_takes_its_bot_with_it(tmp_path, whole_group):
    # before, the bot outlived a SIGKILL of its referee (the OOM killer, kill -9) and ran for good
    referee, watcher, bot = _referee_with_a_deaf_bot(tmp_path)
    shell = int(stat_fields(bot)[1])  # /bin/sh -c, the bot's root
    try:
        assert os.path.exists(f"/proc/{bot}")
        if whole_group:  # once the watcher is in its own group (at its birth on 3.11, as it starts on 3.10)
            deadline = time.monotonic() + 30
            while int(stat_fields(watcher)[2]) != watcher and time.monotonic() < deadline:
                time.sleep(0.02)
            os.killpg(referee.pid, signal.SIGKILL)
        else:
            referee.kill()
        referee.wait(timeout=10)
        assert _gone(bot), "the bot outlived its referee"
        assert _gone(watcher), "the watcher outlived its work"
    finally:
        referee.kill()
        referee.wait()
        if not _gone(bot, 0):
            os.kill(bot, signal.SIGKILL)
        reap(shell, bot, watcher)


@pytest.mark.parallel_safe
def test_a_referee_that_exits_leaves_no_watcher(tmp_path):
    code = ("import sys\nfrom gridfall.arena.process import BotProcess\n"
            "with BotProcess([sys.executable, '-c', 'input()']) as bot:\n    bot.send('x\\n', 1e18)\n"
            "from gridfall.arena import deadman\nprint(deadman._watcher.pid, flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert _gone(int(done.stdout)), "the watcher outlived a referee that exited"


@pytest.mark.parallel_safe
def test_the_watcher_kills_only_the_sessions_still_listed_when_its_pipe_ends():
    # a bot closed and reaped is struck off: by the pipe's end its pid may be another process's
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    listed, struck_off = (subprocess.Popen(sleeper, start_new_session=True) for _ in range(2))
    watcher = subprocess.Popen([sys.executable, "-c", "from gridfall.arena.deadman import watch; watch()"],
                               stdin=subprocess.PIPE)
    try:
        assert watcher.stdin is not None
        watcher.stdin.write(f"+{listed.pid}\n+{struck_off.pid}\n-{struck_off.pid}\n".encode())
        watcher.stdin.close()
        assert watcher.wait(timeout=30) == 0
        assert listed.wait(timeout=10) == -signal.SIGKILL
        assert struck_off.poll() is None
    finally:
        for process in (listed, struck_off, watcher):
            process.kill()
            process.wait()


@pytest.mark.parallel_safe
def test_a_referee_whose_watcher_was_killed_goes_on_and_starts_another():
    code = ("import os, signal\nfrom gridfall.arena import deadman\n"
            "deadman.started(2 ** 22 + 1)\nfirst = deadman._watcher\nos.kill(first.pid, signal.SIGKILL)\nfirst.wait()\n"
            "deadman.ended(2 ** 22 + 1)\nassert deadman._owner == 0\n"  # the write finds no reader: let go
            "deadman.started(2 ** 22 + 2)\nassert deadman._watcher.pid != first.pid and deadman._watcher.poll() is None\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
