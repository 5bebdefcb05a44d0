"""Warming the kernels: the stamp of a warm cache, and a bot's kernels got without pausing it."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.processes import stat_fields

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def _python(code: str, cache, timeout: float = 60) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_sessions_cache_is_stamped_warm_and_an_empty_one_is_not(tmp_path):
    from gridfall.warmup import is_warm

    assert all(is_warm(game) for game in ("samegame", "connect4", "match3"))  # conftest warmed everything
    assert _python("from gridfall.warmup import is_warm; print(is_warm('samegame'))", tmp_path) == "False\n"


def test_a_warm_stamp_holds_for_the_python_and_numba_that_wrote_it(tmp_path):
    # a stand-in numba of another version, first on the path: the cache numba 0.68 warmed is cold to
    # it (numba drops another version's index), in the shared folder and in the default one
    site = tmp_path / "site"
    (site / "numba").mkdir(parents=True)
    (site / "numba" / "__init__.py").write_text("")
    (site / "numba-0.1.dist-info").mkdir()
    shared, stamp = tmp_path / "shared", "from gridfall import warmup; warmup._stamp_warm('match3'); "
    ask = "from gridfall import warmup, numba_cache; print(numba_cache.compiler(), warmup.is_warm('match3'))"
    python = f"py{sys.version_info[0]}{sys.version_info[1]}"
    shared.mkdir()
    assert _python(stamp + ask, shared).split()[1] == "True"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(shared), "PYTHONPATH": str(site)}
    told = subprocess.run([sys.executable, "-c", ask], capture_output=True, text=True, timeout=60, env=env)
    assert told.stdout.split() == [f"{python}-0.1", "False"], told.stderr
    folders = set()
    for path in ("", str(site)):
        env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "PYTHONPATH": path,
               "XDG_CACHE_HOME": str(tmp_path / "home")}
        told = subprocess.run([sys.executable, "-c", "from gridfall import numba_cache; print(numba_cache.CACHE_DIR)"],
                              capture_output=True, text=True, timeout=60, env=env)
        folders.add(told.stdout.strip())
    assert len(folders) == 2 and all(folder.startswith(str(tmp_path / "home")) for folder in folders), folders


COLD_START = """
import io, os, sys, time
from gridfall.warmup import in_background

def children():
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(pid)
        except OSError:
            pass
    return found

log = io.StringIO()
ready = in_background("samegame", log)
deadline = time.monotonic() + 30
while not children() and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(1)  # the thread would have started compiling in this process by now
(child,) = children()
command = open(f"/proc/{child}/cmdline").read().replace("\\0", " ")
print(ready is None, "gridfall.samegame.engine" in sys.modules, child, repr(log.getvalue()), command)
"""


def test_a_cold_cache_is_compiled_in_a_child_that_outlives_the_bot_at_idle_priority(tmp_path):
    # compiling in the bot's own process paused it 20-300 ms at a time (numba's garbage), longer than a turn
    ready, imported, child, log, command = _python(COLD_START, tmp_path).split(" ", 4)
    try:
        assert (ready, imported, log) == ("True", "False", "''") and "warm_when_idle('samegame')" in command
        assert _running(child), "the child stopped with the bot: a short game would never fill the cache"
        if hasattr(os, "SCHED_IDLE"):  # Linux: it takes only CPU time that nothing else wants
            deadline = time.monotonic() + 10
            while os.sched_getscheduler(int(child)) != os.SCHED_IDLE and time.monotonic() < deadline:
                time.sleep(0.05)
            assert os.sched_getscheduler(int(child)) == os.SCHED_IDLE
    finally:
        try:
            os.kill(int(child), signal.SIGKILL)  # it would compile SameGame's kernels for a minute
        except ProcessLookupError:
            pass


def _running(pid: str) -> bool:
    try:
        return stat_fields(pid)[0] not in ("Z", "X")
    except OSError:
        return False


def test_warmup_of_one_game_warms_that_game_alone(monkeypatch):
    # what a referee runs in a copy of gridfall that a bot's command runs (arena/warm_bots.py);
    # that warm() stamps its game alone: tests/connect4/test_cold_start.py, on an empty cache
    from click.testing import CliRunner

    import gridfall.warmup
    from gridfall.cli import main

    warmed: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "warm", warmed.append)
    result = CliRunner().invoke(main, ["warmup", "--game", "match3"])
    assert result.exit_code == 0 and warmed == ["match3"], result.output
    assert result.output.startswith("match3") and "ready in" in result.output and "numba cache:" in result.output
    assert CliRunner().invoke(main, ["warmup", "--game", "chess"]).exit_code == 2
    monkeypatch.undo()
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are samegame, connect4, match3"):
        gridfall.warmup.warm("chess")


@pytest.mark.parametrize("cold", [True, False])
def test_a_log_is_told_when_the_kernels_must_compile_and_only_then(monkeypatch, cold):
    """A spinner prints nothing into a log or a pipe, and a cold cache is a minute of silence."""
    from click.testing import CliRunner

    import gridfall.warmup
    from gridfall.cli import main

    warmed: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "warm", warmed.append)
    monkeypatch.setattr(gridfall.warmup, "is_warm", lambda game: not cold)
    result = CliRunner().invoke(main, ["samegame", "solve", "standard:1", "--time", "0.2", "--no-store"])
    assert result.exit_code == 0 and warmed == ["samegame"], result.output
    said = "gridfall: compiling the samegame kernels on their first use (about a minute; then cached)\n"
    assert (said in result.stderr) == cold, result.stderr


def test_a_terminal_gets_a_spinner_and_a_run_where_its_games_play_a_line(monkeypatch, capsys):
    import io

    from rich.console import Console

    import gridfall.warmup
    from gridfall.arena.warm_bots import warm_bots
    from gridfall.cli_output import warm_kernels

    warmed: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "warm", warmed.append)
    monkeypatch.setattr(gridfall.warmup, "is_warm", lambda game: False)
    screen = io.StringIO()
    warm_kernels("connect4", Console(file=screen, force_terminal=True))
    assert warmed == ["connect4"] and "loading the connect4 kernels" in screen.getvalue()
    warm_bots("connect4", ["mcts", "python3 bot.py"], ("mcts",))  # a league's warm-up, on each worker
    assert warmed == ["connect4"] * 2
    assert capsys.readouterr().err == ("gridfall: compiling the connect4 kernels on their first use "
                                       "(about a minute; then cached)\n")


def test_match3_play_warms_the_strong_agent_before_its_first_move(monkeypatch):
    from click.testing import CliRunner

    import gridfall.match3.agents
    import gridfall.warmup
    from gridfall.cli import main

    warmed: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "warm", warmed.append)
    monkeypatch.setattr(gridfall.warmup, "is_warm", lambda game: False)
    fast = gridfall.match3.agents.PortableAgent("fast", time_budget=1.0)  # strong's moves, quicker
    monkeypatch.setattr(gridfall.match3.agents, "make_agent", lambda name, **settings: fast)
    result = CliRunner().invoke(main, ["match3", "play", "--agent", "strong", "--json"])
    assert result.exit_code == 0 and warmed == ["match3"], result.output
    assert "gridfall: compiling the match3 kernels" in result.stderr
    assert CliRunner().invoke(main, ["match3", "play", "--agent", "fast", "--json"]).exit_code == 0
    assert warmed == ["match3"]  # the portable agents have no kernels


def test_warmup_names_the_caches_older_sources_left_and_prune_removes_only_those(tmp_path):
    # an upgrade compiles into a folder of its own and left the old one, tens of MB, for ever
    import shutil

    from gridfall.numba_cache import CACHE_DIR, source_digest

    numba = tmp_path / "home" / "gridfall" / "numba"
    shutil.copytree(CACHE_DIR, numba / source_digest())  # warm, as conftest left the session's
    for old in ("0123456789ab", "fedcba987654"):
        (numba / old).mkdir()
        (numba / old / "kernel.nbc").write_bytes(b"x" * 3_000_000)
    (numba / "my-notes").mkdir()  # not a cache of gridfall's: never touched
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "XDG_CACHE_HOME": str(tmp_path / "home")}

    def warmup(*args):
        done = subprocess.run([sys.executable, "-m", "gridfall", "warmup", "--game", "match3", *args],
                              capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    said = warmup()
    assert "2 older caches beside it, of other versions of the source (6 MB): `gridfall warmup --prune`" in said
    assert (numba / "0123456789ab").exists()  # listed, not removed
    assert "removed 2 older caches (6 MB)" in warmup("--prune")
    assert sorted(p.name for p in numba.iterdir()) == sorted([source_digest(), "my-notes"])
    assert "older cache" not in warmup()


# C code that calls Python back, as LLVM calls numba's cache hooks while it compiles: a signal that
# comes meanwhile is raised inside the callback, where ctypes prints it and drops it
STOPPED_IN_A_COMPILE = '''
import ctypes, os, signal, threading, time
from gridfall.main_thread import off_the_main_thread
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C's, even under a shell that ignores it
hook = ctypes.CFUNCTYPE(None)(lambda: time.sleep(0.05))

def compiling():
    end = time.monotonic() + 30
    while time.monotonic() < end:
        hook()

threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    off_the_main_thread(compiling)
    print("compiled to the end")
except KeyboardInterrupt:
    print(f"stopped after {time.monotonic() - start:.1f} s")
'''


def test_a_stop_during_a_compile_is_not_lost_in_the_compilers_callbacks(tmp_path):
    """A Ctrl-C during a first compile was lost 1 time in 14 (the command ran on to its end and
    exited 0): off_the_main_thread compiles elsewhere, so the stop lands in the main thread's wait."""
    done = subprocess.run([sys.executable, "-c", STOPPED_IN_A_COMPILE], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("stopped after"), (done.stdout, done.stderr)
    assert float(done.stdout.split()[2]) < 10 and "Exception ignored" not in done.stderr, (done.stdout, done.stderr)


def test_a_compile_off_the_main_thread_raises_its_error_in_the_caller():
    from gridfall.main_thread import off_the_main_thread

    def failing():
        raise ValueError("no such kernel")

    with pytest.raises(ValueError, match="no such kernel"):
        off_the_main_thread(failing)


GROUPS_MODULE = '''
import os, sys, time

def _note(name, seconds):
    began = time.monotonic()
    time.sleep(seconds)
    with open(os.environ["GROUPS_LOG"], "a") as log:
        log.write(f"{name} {os.getpid()} {began} {time.monotonic()}\\n")

def quick():
    _note("quick", 0)

def slow_a():
    _note("slow_a", 1.0)

def slow_b():
    _note("slow_b", 1.0)

def endless():
    with open(os.environ["GROUPS_LOG"], "a") as log:
        log.write(f"endless {os.getpid()}\\n")
    time.sleep(600)

def fails():
    sys.exit("no such kernel")
'''


@pytest.fixture
def groups_module(tmp_path, monkeypatch):
    """A module of stand-in groups the children import, which note their process and times in a
    log; and two cores to share them on, whatever this test may use."""
    import gridfall.warmup

    (tmp_path / "stand_in_groups.py").write_text(GROUPS_MODULE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("GROUPS_LOG", str(tmp_path / "log"))
    monkeypatch.setattr(gridfall.warmup.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    return tmp_path / "log"


def test_a_cold_caches_groups_compile_in_children_two_at_once_and_a_failed_one_is_left_to_the_caller(groups_module):
    from gridfall.warmup import compiled_apart

    groups = [(name, "game", f"stand_in_groups:{name}") for name in ("slow_a", "fails", "slow_b")]
    assert [name for name, _seconds in compiled_apart(groups)] == ["slow_a", "slow_b"]  # "fails": the caller's
    ran = {name: (int(pid), float(began), float(ended))
           for name, pid, began, ended in (line.split() for line in groups_module.read_text().splitlines())}
    assert set(ran) == {"slow_a", "slow_b"} and ran["slow_a"][0] != ran["slow_b"][0] != os.getpid()
    assert ran["slow_b"][1] < ran["slow_a"][2], ran  # slow_b started (in fails' place) while slow_a slept
    assert list(compiled_apart(groups[:1])) == []  # one group: no child, the caller compiles it


def test_a_caller_that_stops_asking_kills_the_children_still_compiling(groups_module):
    from gridfall.warmup import compiled_apart

    apart = compiled_apart([(name, "game", f"stand_in_groups:{name}") for name in ("quick", "endless")])
    assert next(apart)[0] == "quick"
    deadline = time.monotonic() + 30
    while "endless" not in groups_module.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(groups_module.read_text().split("endless ")[1].split()[0])
    assert _running(str(pid))
    apart.close()  # as a stop does: the generator's finally
    assert not _running(str(pid))
