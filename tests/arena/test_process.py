"""The bot runner survives silent, crashing, flooding and deaf bots and leaves nothing behind."""

import os
import sys
import time

import pytest

from gridfall.arena.process import BotExited, BotFlooded, BotProcess, BotTimeout
from tests.processes import stat_fields


def python_bot(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_echo_round_trip_and_timing():
    with BotProcess(python_bot("import sys\nfor line in sys.stdin: print('got', line.strip(), flush=True)")) as bot:
        line, took = bot.ask("hello\n", 5)
        assert line == "got hello"
        assert 0 < took < 5


def test_each_turns_stderr_is_the_output_written_before_its_answer_bounded_and_escaped():
    # stderr goes through a pipe of its own, drained by a thread: what the bot wrote before its
    # answer must be in that turn, never the next, however the thread and the referee interleave
    code = ("import sys\nprint('loading', file=sys.stderr, flush=True)\n"
            "for n, line in enumerate(sys.stdin, 1):\n"
            "    sys.stderr.write(f'turn {n}\\x1b[2J\\n' + ('x' * 3000 if n == 7 else '')); sys.stderr.flush()\n"
            "    print('ok', n, flush=True)\n")
    with BotProcess(python_bot(code)) as bot:
        outputs = []
        for _ in range(300):
            bot.ask("go\n", 5)
            outputs.append(bot.take_output())
        bot.ask("go\n", 5)
    assert outputs[0] == "loading\nturn 1\\x1b[2J\n"  # a control character is shown, never sent to a terminal
    assert outputs[6].startswith("turn 7\\x1b[2J\nxxx") and outputs[6].endswith("\n[... 1,011 more bytes]")
    assert len(outputs[6]) == 2000 + 3 + len("\n[... 1,011 more bytes]")  # ESC shown as 4 characters
    assert [o for i, o in enumerate(outputs) if i not in (0, 6)] == [f"turn {n}\\x1b[2J\n" for n in range(2, 301)
                                                                     if n != 7]
    assert bot.take_output() == "turn 301\\x1b[2J\n"  # after the close: the thread read the pipe to its end


def test_a_bot_that_floods_stderr_without_end_cannot_hold_up_the_referee():
    code = ("import sys, threading\n"
            "def flood():\n"
            "    while True: sys.stderr.write('x' * 65536)\n"
            "threading.Thread(target=flood, daemon=True).start()\n"
            "for line in sys.stdin:\n"
            "    sys.stderr.write('x' * 65536); sys.stderr.flush()  # this turn's, for certain\n"
            "    print('ok', flush=True)\n")
    start = time.monotonic()
    with BotProcess(python_bot(code)) as bot:
        for _ in range(20):
            assert bot.ask("go\n", 10)[0] == "ok"
            output = bot.take_output()
            assert output.startswith("x" * 2000) and output.endswith(" more bytes]")
    assert time.monotonic() - start < 60  # each take reads a bounded amount, then lets go


def test_a_limit_too_long_for_the_os_clock_is_no_limit():
    # --time-scale 1e30 ended every game in "internal error: OverflowError" from select
    code = "import sys, time\nfor line in sys.stdin: time.sleep(0.1); print('got', line.strip(), flush=True)"
    for memory_mb in (None, 768):  # the wait that checks memory too
        with BotProcess(python_bot(code), memory_mb=memory_mb) as bot:
            assert bot.ask("hello\n", 1e30)[0] == "got hello"


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="one CPU per bot needs Linux")
def test_one_cpu_pins_the_bot_and_all_it_starts_from_its_birth_and_leaves_the_referee_alone():
    # the bot reports at once, from a thread it starts and from a child it starts: pinned after
    # its start, these could have escaped
    code = ("import os, subprocess, sys, threading\n"
            "t = threading.Thread(target=lambda: print(sorted(os.sched_getaffinity(0)), flush=True))\n"
            "t.start(); t.join()\n"
            "subprocess.run([sys.executable, '-c', 'import os; print(sorted(os.sched_getaffinity(0)))'])\n"
            "input()")
    everything = sorted(os.sched_getaffinity(0))
    with BotProcess(python_bot(code), one_cpu=True) as a, BotProcess(python_bot(code), one_cpu=True) as b, \
            BotProcess(python_bot(code)) as free:
        lines = {bot: [bot.read_line(time.monotonic() + 10) for _ in range(2)] for bot in (a, b, free)}
    assert lines[a] == [str([a.cpu])] * 2 and lines[b] == [str([b.cpu])] * 2
    assert lines[free] == [str(everything)] * 2 and free.cpu is None
    if len(everything) > 1:
        assert a.cpu != b.cpu  # the least used CPU: two bots, two CPUs
    assert sorted(os.sched_getaffinity(0)) == everything  # the thread that started them has its own mask back


def test_silent_bot_times_out_on_time():
    with BotProcess(python_bot("import time; time.sleep(60)")) as bot:
        start = time.monotonic()
        with pytest.raises(BotTimeout):
            bot.ask("hello\n", 0.3)
        assert time.monotonic() - start < 2


def test_a_timeout_says_how_late_the_answer_came_or_that_none_came():
    """A bot that answers 0.3 s into a 0.2 s turn is told by how much (a margin to widen); one
    that hangs, that no line came; a late answer is waited for at most as long again."""
    late = "import sys, time\nfor line in sys.stdin: time.sleep(0.3); print('4', flush=True)"
    with BotProcess(python_bot(late)) as bot:
        bot.ask("warm\n", 5)  # started: the interpreter's start is not the turn's
        with pytest.raises(BotTimeout) as e:
            bot.ask("turn\n", 0.2)
        took = int(e.value.detail.removeprefix("answered after ").partition(" ")[0])
        assert 290 <= took < 400 and e.value.detail.endswith(" ms, over the limit of 200 ms"), e.value.detail
    for how_late, waited in ((True, 0.4), (False, 0.2)):
        with BotProcess(python_bot("import time; time.sleep(60)")) as bot:
            start = time.monotonic()
            with pytest.raises(BotTimeout) as e:
                bot.ask("hello\n", 0.2, how_late=how_late)
            assert e.value.detail == "no answer line in time" and waited <= time.monotonic() - start < waited + 1


def test_line_read_after_the_deadline_is_a_timeout():
    # the referee cannot tell when a line it reads late was written: late is late
    code = "import sys, time; sys.stdout.write('a\\nb\\n'); sys.stdout.flush(); time.sleep(60)"
    with BotProcess(python_bot(code)) as bot:
        assert bot.ask("", 5)[0] == "a"  # 'b' came in the same chunk and waits in the buffer
        with pytest.raises(BotTimeout):
            bot.read_line(time.monotonic() - 0.01)
        assert bot.read_line(time.monotonic() + 5) == "b"


def test_crashing_bot_reports_exit_code_and_stderr():
    with BotProcess(python_bot("import sys; sys.stderr.write('boom\\n'); sys.exit(3)")) as bot:
        with pytest.raises(BotExited) as e:
            bot.ask("hello\n", 5)
    assert "exited with code 3" in e.value.detail
    assert "boom" in e.value.detail


def test_flood_without_newline_is_stopped():
    with BotProcess(python_bot("import sys\nwhile True: sys.stdout.write('x' * 65536)"), max_output=1 << 18) as bot:
        with pytest.raises(BotFlooded):
            bot.ask("hello\n", 10)


def test_bot_that_never_reads_cannot_block_the_writer():
    with BotProcess(python_bot("import time; time.sleep(60)")) as bot:
        start = time.monotonic()
        with pytest.raises(BotTimeout):
            bot.ask("x" * (10 << 20), 0.5)  # far more than a pipe holds
        assert time.monotonic() - start < 3


def test_missing_program_is_a_clear_failure():
    with pytest.raises(BotExited) as e:
        with BotProcess("definitely-not-a-program-gridfall") as bot:
            bot.ask("hello\n", 5)
    assert "127" in str(e.value) or "not found" in str(e.value)


def test_close_kills_the_whole_process_group(tmp_path):
    pid_file = tmp_path / "child.pid"
    code = f"import subprocess, time; p = subprocess.Popen(['sleep', '60']); open({str(pid_file)!r}, 'w').write(str(p.pid)); print('ready', flush=True); time.sleep(60)"
    bot = BotProcess(python_bot(code))
    assert bot.read_line(time.monotonic() + 10) == "ready"
    child = int(pid_file.read_text())
    bot.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a zombie still answers kill(0); it is gone once its state is Z or it is reaped
        try:
            if stat_fields(child)[0] == "Z":
                break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bot's child process survived close()")
    assert bot.proc.poll() is not None


def test_a_bot_run_through_a_shell_leaves_no_zombie(tmp_path):
    """The shell and the bot die together; a bot dead first is adopted dead by the referee (a
    subreaper), and must be reaped there, not left a zombie for the rest of the run."""
    from gridfall.arena.reaper import SUBREAPER

    if not SUBREAPER:
        pytest.skip("only a Linux subreaper adopts a bot's orphans")
    children = []
    script = tmp_path / "bot.py"
    script.write_text("import os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\n"
                      "print('ready', flush=True)\ntime.sleep(60)\n")
    for i in range(5):
        pid_file = tmp_path / f"bot{i}.pid"
        # "; true" keeps the shell from exec-ing the bot: the bot is the shell's child
        bot = BotProcess(["sh", "-c", f"'{sys.executable}' '{script}' '{pid_file}'; true"])
        assert bot.read_line(time.monotonic() + 10) == "ready"
        children.append(int(pid_file.read_text()))
        bot.close()
    time.sleep(0.2)
    left = [pid for pid in children if os.path.exists(f"/proc/{pid}")]
    assert left == [], f"zombies left: {left}"


def test_bots_started_and_closed_at_once_in_threads_never_kill_each_other():
    """Closing a bot kills the strays adopted by the referee; a bot another thread is starting at
    that moment must not be taken for one (it is registered under the same lock as it starts)."""
    from concurrent.futures import ThreadPoolExecutor

    echo = python_bot("import sys\nfor line in sys.stdin: print(line.strip(), flush=True)")

    def game(i):
        with BotProcess(echo) as bot:
            return bot.ask(f"{i}\n", 10)[0]

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert list(pool.map(game, range(60))) == [str(i) for i in range(60)]


def test_a_child_that_leaves_the_session_is_killed_with_its_bot():
    import subprocess

    marker = f"gridfall-setsid-{os.getpid()}"
    code = ("import subprocess, sys, time\n"
            f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(1000)', '{marker}'], start_new_session=True)\n"
            "print('ready', flush=True)\ntime.sleep(1000)\n")
    with BotProcess(python_bot(code)) as bot:
        assert bot.ask("", 10)[0] == "ready"
    time.sleep(0.2)
    alive = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert alive == []


def test_the_bots_of_a_referee_that_died_are_killed_and_reaped(tmp_path):
    """A referee in another process of ours (a Dask worker) killed mid-game leaves its bots to us,
    the subreaper: kill_strays ends the live one and reaps the dead one, and spares our own bots."""
    import subprocess

    from gridfall.arena.process import kill_strays
    from gridfall.arena.reaper import SUBREAPER

    if not SUBREAPER:
        pytest.skip("only a Linux subreaper adopts a dead referee's bots")
    # the "referee" starts a bot that never ends and one that ends at once, each in its own
    # session as the referee does, and dies without waiting for either
    referee = ("import os, subprocess, sys\n"
               "quiet = dict(start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
               "hung = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(1000)'], **quiet)\n"
               "done = subprocess.Popen(['true'], **quiet)\n"
               "print(hung.pid, done.pid, flush=True)\nos._exit(0)\n")
    with BotProcess(python_bot("import sys\nfor line in sys.stdin: print(line.strip(), flush=True)")) as ours:
        run = subprocess.run([sys.executable, "-c", referee], capture_output=True, text=True, timeout=30)
        hung, done = map(int, run.stdout.split())
        deadline = time.monotonic() + 10
        while stat_fields(done)[0] != "Z" and time.monotonic() < deadline:  # adopted, then dead: a zombie
            time.sleep(0.01)
        assert stat_fields(done)[0] == "Z"
        assert kill_strays() == {hung, done}
        assert not os.path.exists(f"/proc/{hung}") and not os.path.exists(f"/proc/{done}")
        assert ours.ask("still here\n", 10)[0] == "still here"
    assert kill_strays() == set()


def test_a_stop_during_a_bots_start_waits_for_it_and_leaves_no_bot_and_no_lock(monkeypatch):
    # a SIGTERM handled inside Popen (the Match-3 referee starts its player in the main thread)
    # raised there: the child ran on with no one to kill it, and the registry's lock stayed held,
    # so the exit's kill_all() hung on it
    import signal
    import subprocess

    from gridfall.arena import process
    from gridfall.arena.signals import Stopped, stopping_on_signals

    started, popen = [], subprocess.Popen

    def popen_then_a_signal(*args, **kwargs):
        proc = popen(*args, **kwargs)
        started.append(proc)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # the handler runs here, mid-start
        return proc

    monkeypatch.setattr(process.subprocess, "Popen", popen_then_a_signal)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}  # a stop leaves them noting
    try:
        with pytest.raises(Stopped), stopping_on_signals():
            BotProcess(python_bot("import time; time.sleep(60)"))
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    held = not process._live_lock.acquire(timeout=1)
    process._live_lock.release()  # ours, or the one left held: a failure here must not hang the session
    assert not held
    assert [bot.proc for bot in process._live] == started  # registered whole: the stop path can kill it
    process.kill_all()
    assert started[0].poll() is not None and not process._live


def test_a_start_that_fails_unexpectedly_lets_go_of_the_registry(monkeypatch):
    # only OSError and ValueError let go of the lock: any other error left it held for good
    from gridfall.arena import process

    def popen_fails(*args, **kwargs):
        raise RecursionError("deep")

    monkeypatch.setattr(process.subprocess, "Popen", popen_fails)
    with pytest.raises(RecursionError):
        BotProcess(python_bot("pass"))
    held = not process._live_lock.acquire(timeout=1)
    process._live_lock.release()  # ours, or the one left held: a failure here must not hang the session
    assert not held


def test_a_stop_while_a_worker_starts_a_bot_finds_it_whole_or_not_at_all(monkeypatch):
    # the stop path's kill_all() (main thread) met a bot a worker had registered but whose stderr
    # thread was not started yet, and its close() failed: "cannot join thread before it is
    # started" (a stopped league, 1 run in some 30)
    import threading
    import types

    from gridfall.arena import process

    starting = threading.Event()

    class SlowToStart(threading.Thread):
        def start(self):
            starting.set()
            time.sleep(0.3)  # the window, made wide
            super().start()

    monkeypatch.setattr(process, "threading", types.SimpleNamespace(**{**vars(threading), "Thread": SlowToStart}))
    made = []
    worker = threading.Thread(target=lambda: made.append(BotProcess(python_bot("import time; time.sleep(60)"))))
    worker.start()
    assert starting.wait(10)
    process.kill_all()  # waits for the start to finish, then kills the bot whole
    worker.join(10)
    assert made and made[0].proc.poll() is not None and not process._live


@pytest.mark.parametrize("private_channel", [False, True])
def test_a_bot_that_starts_but_cannot_be_set_up_is_killed_and_its_pipes_closed(monkeypatch, private_channel):
    # a system out of threads fails the stderr thread's start after Popen: the child, not yet
    # registered, ran on where neither kill_all() nor close() could find it
    import subprocess
    import threading
    import types

    from gridfall.arena import process

    class NoThreads(threading.Thread):
        def start(self):
            raise RuntimeError("can't start new thread")

    started, popen = [], subprocess.Popen

    def popen_recorded(*args, **kwargs):
        started.append(popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(process.subprocess, "Popen", popen_recorded)
    monkeypatch.setattr(process, "threading", types.SimpleNamespace(**{**vars(threading), "Thread": NoThreads}))
    fds_before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(process.MachineCannotStartBot, match="new thread"):  # the machine's fault, not the bot's
        BotProcess(python_bot("import time; time.sleep(60)"), private_channel=private_channel)
    assert started and started[0].poll() is not None  # killed and reaped
    assert set(os.listdir("/proc/self/fd")) <= fds_before  # every pipe closed
    assert not process._live
    held = not process._live_lock.acquire(timeout=1)
    process._live_lock.release()
    assert not held


def test_a_machine_that_cannot_start_a_bot_is_not_the_bots_fault(monkeypatch):
    # out of file descriptors, a league scored every game as lost by a bot that "could not start"
    import errno
    import subprocess

    from gridfall.arena import process

    def popen_fails(code):
        def popen(*args, **kwargs):
            raise OSError(code, os.strerror(code))
        return popen

    fds_before = set(os.listdir("/proc/self/fd"))
    for code, advice in ((errno.EMFILE, r"ulimit -n"), (errno.EAGAIN, r"ulimit -u"), (errno.ENOMEM, "memory")):
        monkeypatch.setattr(process.subprocess, "Popen", popen_fails(code))
        with pytest.raises(process.MachineCannotStartBot, match=f"cannot start .*: {os.strerror(code)} .*{advice}"):
            BotProcess(python_bot("pass"), private_channel=code == errno.EAGAIN)
    monkeypatch.setattr(process.subprocess, "Popen", popen_fails(errno.ENOENT))
    with pytest.raises(BotExited, match="No such file"):  # a program that is not there is the bot's own
        BotProcess(["/no/such/bot"])
    monkeypatch.setattr(process.subprocess, "Popen", subprocess.Popen)

    def no_pipes():
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr(process.os, "pipe", no_pipes)
    with pytest.raises(process.MachineCannotStartBot, match="Too many open files"):  # was a bare OSError
        BotProcess(python_bot("pass"))
    assert set(os.listdir("/proc/self/fd")) <= fds_before and not process._live


def test_a_jobs_stop_kills_its_bots_alone_and_refuses_its_next_ones():
    """A Dask worker's threads play several runs' games: a stopped run's cancelled game went on
    there with its bots (for good with a bot that hangs and turns of 1e300 ms), since only the
    coordinator's own bots were killed."""
    import threading

    from gridfall.arena import job_name
    from gridfall.arena.process import BotStopped

    sleeper = python_bot("import time; time.sleep(600)")
    bots, seen = {}, {}
    started = threading.Barrier(3)

    def job(owner):
        with job_name.running_as(owner):
            with BotProcess(sleeper) as bot:
                bots[owner] = bot
                started.wait(10)
                try:
                    bot.read_line(time.monotonic() + 600)
                except BotStopped:  # closed under it: the wait ends at once
                    seen[owner] = "BotStopped"
            try:
                with BotProcess(sleeper):  # the job's next game
                    seen[owner] += ", started again"
            except BotStopped as e:
                seen[owner] += f", then {e}"

    threads = [threading.Thread(target=job, args=(owner,), daemon=True) for owner in ("run 1", "run 2")]
    for thread in threads:
        thread.start()
    started.wait(10)
    job_name.stop(["run 1", "a job not under way here"])
    threads[0].join(10)
    assert not threads[0].is_alive() and seen["run 1"].startswith(
        "BotStopped, then Stopped by the referee: not started: its game was stopped")
    assert bots["run 2"].proc.poll() is None and "run 2" not in seen  # another run's game plays on
    job_name.stop(["run 2"])
    threads[1].join(10)
    with job_name.running_as("run 1"):  # the name again, once its job is over: a new job's
        with BotProcess(sleeper) as bot:
            assert bot.proc.poll() is None
