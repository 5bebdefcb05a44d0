"""The fault suite: every referee against bots that break the protocol (tests/faults/).

For each fault it checks the verdict's wording, the exit code (0: the game was judged, whatever
the verdict), that the finished results were printed, and that no process is left behind.  Any
change to a referee must pass it.  The referees run as a user runs them: the `gridfall` command
in a subprocess.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sqlite_files import rows

from .processes import as_in_a_terminal, describe, live_commands, stopped

# The faulty bots answer at once or never, and each test's clocks are far longer than an answer
# takes on a busy core, so these tests share the machine (machine_sharing.py); the few whose
# built-in bots must answer in time run alone.  Each pytest-xdist worker has its own session
# mark, so one test's bots are never another's leftovers.
pytestmark = pytest.mark.parallel_safe
BOTS = Path(__file__).parent / "faults" / "bots"
PROTOCOL_BOT = f"{sys.executable} {BOTS / 'protocol.py'}"
SUGGEST_FILE = str(BOTS / "suggest_faults.py")
FAST = ["--first-turn-ms", "1500", "--turn-ms", "200"]  # limits short enough for a quick suite


def limits_for(fault: str) -> list[str]:
    """FAST, but a bot that grows past the memory limit gets all the time it needs to get there:
    on a busy machine its 800 MB can take more than a short first turn, and the verdict must be
    the memory's, not the clock's."""
    return ["--first-turn-ms", "20000", "--turn-ms", "200"] if fault.startswith("hog") else FAST


def gridfall(*args, env=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "gridfall", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def leftovers() -> list[str]:
    """Command lines of this session's live processes started by a faulty bot."""
    return live_commands("faults/bots/", "gridfall-fault-child")


def needs_pidfd(fault: str) -> None:
    """Without Linux's pidfd the referee learns a bot's end from its pipe only, which the child of
    exit-child keeps open: that bot is then judged by the clock."""
    if fault == "exit-child" and not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd on this system")


def no_leftovers():
    deadline = time.monotonic() + 2  # a killed process takes a moment to go
    while leftovers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert leftovers() == []


SAMEGAME_FAULTS = {
    "hang": ("Timeout", ""),
    "late": ("Timeout", ""),
    "garbage": ("Action not properly formatted", "hello there"),
    "empty": ("Empty action provided", ""),
    "out-of-range": ("Selected target out of bounds", ""),
    "exit": ("Bot crashed", "exited with code 0"),
    "crash": ("Bot crashed", "[/tmp/weights.bin]"),
    "close-stdout": ("Timeout", ""),  # its shell still holds the pipe: no end of file, no answer
    "flood-stdout": ("Output flood", ""),
    "flood-stderr": ("Timeout", ""),
    "deaf": ("Timeout", ""),
    "fork": ("Timeout", ""),
    "exit-child": ("Bot crashed", "exited with code 3; a process it started still holds its output"),
    "setsid": ("Bot crashed", "exited with code 0"),
    "markup": ("Action not properly formatted", "[/x] [bold]not a move[/bold]"),
    "bad-utf8": ("Action not properly formatted", "\ufffd"),
    "escape": ("Bot crashed", "\\x1b[2J\\x1b]0;pwned\\x07\\x1b[31m wiped"),  # shown, never obeyed
    "hog": ("Memory limit exceeded", "MB, over the 768 MB allowed"),
    "hog-child": ("Memory limit exceeded", "MB, over the 768 MB allowed"),
}


@pytest.mark.parametrize("fault", SAMEGAME_FAULTS)
def test_samegame_referee(fault):
    needs_pidfd(fault)
    verdict, detail = SAMEGAME_FAULTS[fault]
    run = gridfall("samegame", "referee", "standard:1", "--bot", f"{PROTOCOL_BOT} {fault}", *limits_for(fault), "--json")
    assert run.returncode == 0, run.stderr
    (board,) = json.loads(run.stdout)["boards"]
    assert board["board"] == "standard:1" and board["outcome"] == verdict and detail in board["detail"], board
    no_leftovers()
    if fault in ("markup", "escape"):  # the table shows the bot's text as text
        run = gridfall("samegame", "referee", "standard:1", "--bot", f"{PROTOCOL_BOT} {fault}", *FAST)
        text = " ".join(run.stdout.replace("│", " ").split())  # a long cell wraps: compare words
        assert run.returncode == 0 and detail in text and "\x1b" not in run.stdout, run.stdout
    if fault == "hang":  # a first turn never answered has no time to show (the table said 0.00 s)
        run = gridfall("samegame", "referee", "standard:1", "--bot", f"{PROTOCOL_BOT} {fault}", *FAST)
        assert run.returncode == 0 and "Timeout" in run.stdout and " s " not in run.stdout, run.stdout


CONNECT4_FAULTS = {
    "hang": "timeout",
    "late": "timeout",
    "garbage": "invalid action 'hello there'",
    "empty": "invalid action ''",
    "out-of-range": "column 99 is outside 0..8",
    "exit": "bot crashed (exited with code 0",
    "crash": "[/tmp/weights.bin]",
    "close-stdout": "timeout",
    "flood-stdout": "output flood",
    "flood-stderr": "timeout",
    "deaf": "timeout",
    "fork": "timeout",
    "exit-child": "bot crashed (exited with code 3; a process it started still holds its output",
    "setsid": "bot crashed",
    "markup": "invalid action '[/x] [bold]not a move[/bold]'",
    "bad-utf8": "invalid action '\ufffd\ufffd\ufffd 1'",
    "escape": "stderr: \\x1b[2J\\x1b]0;pwned\\x07\\x1b[31m wiped",
    "hog": "memory limit exceeded (its processes held",
    "hog-child": "memory limit exceeded (its processes held",
}


@pytest.mark.parametrize("fault", CONNECT4_FAULTS)
def test_connect4_referee(fault):
    needs_pidfd(fault)
    run = gridfall("connect4", "referee", "--p1", f"{PROTOCOL_BOT} {fault}", "--p2", "greedy", "--games", "1",
                   *limits_for(fault), "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    (game,) = data["games"]
    assert game["winner"] == 1 and CONNECT4_FAULTS[fault] in game["reason"], game
    assert data["losses"] == 1 and data["points"] == [0, 10]
    no_leftovers()
    if fault == "hang":  # lost at its first turn: no later turn, so no slowest one (the table said 0 ms)
        run = gridfall("connect4", "referee", "--p1", f"{PROTOCOL_BOT} {fault}", "--p2", "greedy", "--games", "1",
                       *FAST)
        assert run.returncode == 0 and "timeout" in run.stdout and " ms " not in run.stdout, run.stdout


MATCH3_FAULTS = {  # FAULT -> (what the run's failure says, what a game's end says)
    "hang": ("time limit exceeded", ""),
    "import-hang": ("did not load within 2 s", ""),
    "late": ("time limit exceeded", ""),
    "forge-clock": ("over the time limit", ""),
    "garbage": ("", "returned 'hello'; expected col, row, dir"),
    "raise": ("", "suggest raised ValueError: no move here [/x]"),
    "exit": ("the player's process failed", ""),
    "flood-stdout": ("", "quit"),
    "system-echo": ("", "quit"),
    "markup": ("", "returned '[/x]'"),
    "bad-utf8": ("", "returned '\ufffd\ufffd'"),
    "fork": ("", "quit"),
    "setsid": ("", "quit"),
    "huge": ("", "(1,000,000 items); expected three values"),
    "close-stdout": ("", ""),  # a second close of its stdout raises: the player's own error
    "escape": ("", "suggest raised ValueError: \\x1b[2J\\x1b]0;pwned\\x07 wiped"),
}


@pytest.mark.parametrize("fault", MATCH3_FAULTS)
def test_match3_referee(fault):
    failed, end = MATCH3_FAULTS[fault]
    run = gridfall("match3", "referee", SUGGEST_FILE, "--json", env={"FAULT": fault})
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert failed in report["failed"] and (failed or not report["failed"]), report["failed"]
    if end:
        assert all(end in game["end"] for game in report["games"]), [g["end"] for g in report["games"]]
    no_leftovers()


# -- signals: the finished games are printed and kept, nothing is left, exit 128 + the signal ---------


def start(*args, env=None):
    return subprocess.Popen([sys.executable, "-m", "gridfall", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
                            preexec_fn=as_in_a_terminal)


def stop_when(run, ready, signum):
    """Wait until ``ready()`` (or 20 s), then send ``signum``; the referee must exit within 3 s."""
    deadline = time.monotonic() + 20
    while not ready() and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    sent = time.monotonic()
    run.send_signal(signum)
    out, err = run.communicate(timeout=10)
    assert time.monotonic() - sent < 3, "the referee took too long to stop"
    assert run.returncode == 128 + signum, err
    return out


def _signalled_after(function: str, signum: int, argv: list[str]) -> subprocess.CompletedProcess:
    """``gridfall ARGV`` in a child that sends itself ``signum`` as soon as ``function``
    (module:name, looked up there by the command) returns: a signal that lands exactly there."""
    module, name = function.split(":")
    code = ("import os, sys\n"
            f"import {module} as patched\n"
            f"real = patched.{name}\n"
            "def then_a_signal(*args, **kwargs):\n"
            "    done = real(*args, **kwargs)\n"
            f"    os.kill(os.getpid(), {int(signum)})\n"
            "    return done\n"
            f"patched.{name} = then_a_signal\n"
            f"sys.argv = {['gridfall', *argv]!r}\n"
            "from gridfall.cli import run\n"
            "run()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          preexec_fn=as_in_a_terminal)


@pytest.mark.alone  # two greedy bots at CodinGame's limits
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_after_the_work_waits_for_its_results_to_be_printed(signum):
    # GNU timeout's SIGTERM landing as the last game ended killed the referee before it printed:
    # exit 143, nothing on stdout, the games lost.  The signal here lands exactly there.
    done = _signalled_after("gridfall.arena.pool:run_jobs", signum,
                            ["connect4", "referee", "--p1", "greedy", "--p2", "greedy", "--games", "1", "--json"])
    assert done.returncode == 128 + signum, done.stderr
    report = json.loads(done.stdout)
    assert not report["interrupted"] and len(report["games"]) == 1 and report["games"][0]["moves"]


def test_a_signal_between_two_pieces_of_work_stops_the_second():
    from gridfall.arena import signals

    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        signals.finish_what_is_done()
        with signals.stopping_on_signals():
            pass  # the first piece of work, ended whole
        os.kill(os.getpid(), signal.SIGTERM)  # noted, not fatal
        time.sleep(0.05)
        assert signals.late_signal() == signal.SIGTERM
        with pytest.raises(signals.Stopped), signals.stopping_on_signals():
            raise AssertionError("the second piece of work started")
        assert signals.exit_code(True) == 143
    finally:
        signals._finishing.clear()
        signals._late.clear()
        for s, handler in handlers.items():
            signal.signal(s, handler)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_before_the_work_stops_the_command_as_ctrl_c_does(signum):
    # while a command started (a cluster, a minute's compile of its kernels) SIGTERM killed it on
    # the spot with no word, and a local Dask cluster's semaphores were reported leaked
    done = _signalled_after("gridfall.warmup:warm", signum, ["warmup", "--game", "match3"])
    assert done.returncode == 128 + signum and done.stderr.strip() == "Aborted!", (done.returncode, done.stderr)


@pytest.mark.parametrize("game", ["samegame", "connect4"])
def test_a_gridfall_bot_ends_at_once_on_sigterm_as_a_platform_bot_does(game):
    # a bot's turn may be in a kernel, where a stop raised in Python waits for it to return
    bot = subprocess.Popen([sys.executable, "-m", "gridfall", game, "bot"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_in_a_terminal)
    err, _ = stopped(bot, signal.SIGTERM, settle=2.0)  # waiting for its first input
    assert bot.returncode == -signal.SIGTERM and "Aborted!" not in err, (bot.returncode, err)


def test_a_run_under_nohup_is_not_stopped_by_a_hangup():
    # nohup ignores SIGHUP so that a run outlives its terminal; gridfall took it over, and a
    # campaign stopped when its user logged out
    run = subprocess.Popen([sys.executable, "-m", "gridfall", "match3", "play", "--agent", "plan", "--time", "4",
                            "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    time.sleep(2)
    run.send_signal(signal.SIGHUP)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 0, err
    report = json.loads(out)
    assert not report["interrupted"] and all(game["end"] != "interrupted" for game in report["games"])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_samegame_referee_keeps_the_finished_boards(tmp_path, signum):
    run = start("samegame", "referee", "standard:1", "standard:2", "--bot", f"{PROTOCOL_BOT} hang-second",
                "--first-turn-ms", "20000", "--json", env={"FAULT_DIR": str(tmp_path)})
    # not "played": the first bot writes it before it answers, so the referee may not have judged it yet
    out = stop_when(run, lambda: (tmp_path / "second").exists(), signum)
    data = json.loads(out)
    assert data["interrupted"] and [b["board"] for b in data["boards"]] == ["standard:1"]
    assert data["boards"][0]["outcome"] == "Action not properly formatted"
    no_leftovers()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_connect4_referee_keeps_the_finished_games(tmp_path, signum):
    run = start("connect4", "referee", "--p1", f"{PROTOCOL_BOT} hang-second", "--p2", f"{PROTOCOL_BOT} hang",
                "--games", "2", "--first-turn-ms", "20000", "--json", env={"FAULT_DIR": str(tmp_path)})
    # the second bot starts at its first turn: in game 2, where the seats are swapped and it moves first
    out = stop_when(run, lambda: any(c.split()[-1:] == ["hang"] for c in leftovers()), signum)
    data = json.loads(out)
    assert data["interrupted"] and len(data["games"]) == 1 and "invalid action" in data["games"][0]["reason"]
    no_leftovers()


def test_a_referee_stopped_before_its_first_game_ended_prints_no_game_and_view_says_so(tmp_path):
    # `gridfall view` of such a JSON was an internal error ("a replay needs at least one game")
    run = start("connect4", "referee", "--p1", f"{PROTOCOL_BOT} hang", "--p2", f"{PROTOCOL_BOT} hang",
                "--games", "2", "--first-turn-ms", "20000", "--json")
    out = stop_when(run, lambda: any(c.split()[-1:] == ["hang"] for c in leftovers()), signal.SIGTERM)
    data = json.loads(out)
    assert data["interrupted"] and data["games"] == []
    record = tmp_path / "match.json"
    record.write_text(out)
    told = gridfall("view", str(record), "-o", str(tmp_path / "page.html"))
    assert told.returncode == 2 and "Traceback" not in told.stderr, told.stderr
    assert f"{record}: holds no finished game: its referee was stopped before the first one ended" in told.stderr
    assert not (tmp_path / "page.html").exists()
    no_leftovers()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_match3_referee_keeps_the_finished_games(tmp_path, signum):
    player, hanging = tmp_path / "player.py", tmp_path / "board-2"
    player.write_text(f"import time\n\ndef suggest(board, boardNo, move, elapsed):\n"
                      f"    if boardNo == 2:\n        open({str(hanging)!r}, 'w').close()\n        time.sleep(1000)\n"
                      f"    return 1, 1, 'Q'\n")
    run = start("match3", "referee", str(player), "--time", "0", "--json")
    out = stop_when(run, hanging.exists, signum)  # board 1 has ended (quit), board 2 hangs
    report = json.loads(out)
    assert report["interrupted"] and [g["end"] for g in report["games"]] == ["quit", "interrupted"]
    assert not [c for c in leftovers() if str(player) in c]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_match3_play_prints_its_games_and_says_it_stopped(signum):
    # `match3 play` printed the games but exited 0 at Ctrl-C, and a SIGTERM killed it unprinted
    run = start("match3", "play", "--agent", "plan", "--time", "100", "--json")  # pure Python: no compiling
    started = time.monotonic()
    report = json.loads(stop_when(run, lambda: time.monotonic() - started > 3, signum))
    assert report["interrupted"] and report["games"] and report["games"][-1]["end"] == "interrupted"


def test_the_leftover_check_sees_this_sessions_processes_and_no_others():
    # or every "nothing left behind" above would pass without looking
    command = [sys.executable, "-c", "import time; time.sleep(60)", "gridfall-fault-child"]
    ours = subprocess.Popen(command)
    other = subprocess.Popen(command, env={**os.environ, "GRIDFALL_TEST_SESSION": "another run"})
    try:
        deadline = time.monotonic() + 5
        while len(leftovers()) != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        # once (CI, Python 3.13, 2 workers) none was seen: say what each child was, if it happens again
        assert len(leftovers()) == 1, [(process.poll(), describe(process.pid)) for process in (ours, other)]
    finally:
        for process in (ours, other):
            process.kill()
            process.wait()
    assert leftovers() == []


def _out_of_files_from_start(n: int) -> str:
    """Code that makes the n-th start of a bot, and every later one, fail as a machine out of file
    descriptors does (EMFILE)."""
    return ("import errno, os, subprocess\n"
            "import gridfall.arena.process as process\n"
            "starts = [0]\n"
            "def popen(*args, **kwargs):\n"
            "    starts[0] += 1\n"
            f"    if starts[0] >= {n}:\n"
            "        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))\n"
            "    return subprocess.Popen(*args, **kwargs)\n"
            "process.subprocess = type('S', (), {**vars(subprocess), 'Popen': staticmethod(popen)})\n")


def _gridfall_with(prelude: str, *args):
    code = prelude + f"import sys\nsys.argv = ['gridfall', *{list(args)!r}]\nfrom gridfall.cli import run\nrun()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.alone  # greedy bots at FAST's 200 ms turns
def test_a_machine_out_of_files_stops_the_referee_after_printing_the_games_it_finished():
    # a bot that could not start for the machine's sake lost its game; a referee that met it in a
    # later game lost the games before it too, with "internal error: JobFailed"
    done = _gridfall_with(_out_of_files_from_start(3), "connect4", "referee", "--p1", "greedy", "--p2", "greedy",
                          "--games", "3", "--json", *FAST)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert len(report["games"]) == 1 and report["interrupted"] and "Too many open files" in report["error"]
    assert "Error: cannot start" in done.stderr and "ulimit -n" in done.stderr and "the games shown finished" in done.stderr
    assert "internal error" not in done.stderr and "could not start" not in done.stdout


@pytest.mark.alone  # alphabeta bots at FAST's 200 ms turns
def test_a_machine_out_of_files_stores_no_game_and_the_league_resumes(tmp_path):
    db = str(tmp_path / "league.sqlite")
    league = ["connect4", "league", "--bot", "greedy", "--bot", "alphabeta:1", "--games", "4", "--db", db,
              "--workers", "1", *FAST]
    done = _gridfall_with(_out_of_files_from_start(5), *league)  # the third game's first bot
    assert done.returncode == 1, done.stderr
    assert "Too many open files" in done.stderr and f"the games stored so far are kept in {db}" in done.stderr

    reasons = [r for (r,) in rows(db, "SELECT reason FROM games")]
    assert len(reasons) == 2 and not any("could not start" in r for r in reasons)  # its pair was not stored
    resumed = gridfall(*league, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert len(rows(db, "SELECT reason FROM games")) == 4
