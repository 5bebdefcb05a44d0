"""The bot from a cold numba cache: gridfall's search in pure Python answers while a child process
compiles the kernels, and a later start plays the compiled bot (:mod:`gridfall.connect4.cold_start`)."""

import io
import os
import signal
import subprocess
import sys
import time

import pytest

from gridfall.arena.fallback import said_so
from gridfall.connect4 import cold_start
from gridfall.connect4.agents import AGENT_NAMES, COMPILED_AGENTS, GridfallAgent, MCTSAgent
from gridfall.connect4.portable import PortableAgent
from gridfall.connect4.protocol import turn_input
from gridfall.connect4.rules import Game
from tests.processes import stat_fields


def _cold(monkeypatch, warm: bool) -> list[str]:
    """Make the cache look ``warm`` or cold to the bot; the children it would start, listed."""
    import gridfall.warmup

    started: list[str] = []
    monkeypatch.setattr(gridfall.warmup, "is_warm", lambda game: warm)
    monkeypatch.setattr(gridfall.warmup, "compile_in_a_child", lambda game, log: started.append(game))
    return started


@pytest.mark.parallel_safe
def test_a_cold_cache_swaps_gridfalls_bot_for_the_portable_search_and_compiles_in_a_child(monkeypatch):
    started, log = _cold(monkeypatch, warm=False), io.StringIO()
    agent = cold_start.bot_agent("gridfall", 3, log)
    assert isinstance(agent, PortableAgent) and agent.seed == 3 and started == ["connect4"]
    assert said_so(log.getvalue()) and "(portable)" in log.getvalue() and "gridfall warmup" in log.getvalue()


@pytest.mark.parallel_safe
@pytest.mark.parametrize("spec", ["mcts", "gridfall:5000"])
def test_a_reference_opponent_is_never_swapped_and_says_it_compiles_on_its_first_turn(monkeypatch, spec):
    started, log = _cold(monkeypatch, warm=False), io.StringIO()
    agent = cold_start.bot_agent(spec, 0, log)
    assert type(agent) is (MCTSAgent if spec == "mcts" else GridfallAgent) and agent.name == spec
    assert started == [] and f"{spec} compiles them on its first turn" in log.getvalue()
    assert not said_so(log.getvalue())  # it is the compiled player, late: a referee counts a timeout instead


@pytest.mark.parallel_safe
@pytest.mark.parametrize("spec,warm", [("greedy", False), ("portable", False), ("gridfall", True), ("mcts", True)])
def test_a_warm_cache_or_an_agent_without_kernels_is_played_as_named_without_a_word(monkeypatch, spec, warm):
    from gridfall.connect4.loading import LoadingAgent

    started, log = _cold(monkeypatch, warm=warm), io.StringIO()
    agent = cold_start.bot_agent(spec, 0, log)
    assert agent.name == spec and isinstance(agent, LoadingAgent) == (spec == "gridfall")  # its search loads meanwhile
    assert (started, log.getvalue()) == ([], "")


NUMBA_AFTER = """
import sys
from gridfall.connect4.agents import make_agent
from gridfall.connect4.rules import Game
for spec in sys.argv[1:]:
    make_agent(spec).act(Game(), 0.01)
print("numba" in sys.modules)
"""


@pytest.mark.parallel_safe
def test_the_compiled_agents_are_the_ones_that_load_numba():
    # the list decides which bot a cold cache swaps or warns about: it must say which agents compile
    def loads_numba(*specs: str) -> bool:
        done = subprocess.run([sys.executable, "-c", NUMBA_AFTER, *specs], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout == "True\n"

    assert not loads_numba(*(name for name in AGENT_NAMES if name not in COMPILED_AGENTS))
    assert set(COMPILED_AGENTS) <= set(AGENT_NAMES)
    for name in COMPILED_AGENTS:
        assert loads_numba(name), name


# --- the whole story, as an outside referee runs the bot: from a cold cache to a warm one ------


def _compiling(cache) -> list[int]:
    """The live processes compiling Connect Four's kernels into ``cache``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"warm_when_idle('connect4')" not in f.read():
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"NUMBA_CACHE_DIR={cache}".encode() not in f.read().split(b"\0"):
                    continue
            if stat_fields(pid)[0] in ("Z", "X"):
                continue
        except OSError:
            continue
        found.append(int(pid))
    return found


def _first_turn(cache) -> tuple[str, str, float]:
    """Start the bot, give it the first turn as the first player, and close its input: (stdout,
    stderr, seconds until it ended)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "gridfall", "connect4", "bot"], input=turn_input(Game(), 0, True, -1),
                          capture_output=True, text=True, timeout=60, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr, time.monotonic() - start


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="the child's idle priority is Linux's SCHED_IDLE")
def test_a_cold_bot_answers_at_once_and_its_child_fills_the_cache_for_the_next_start(tmp_path):
    # alone (not parallel_safe): the child compiles only on a CPU that nothing else wants
    cache = tmp_path / "numba"
    try:
        answer, said, seconds = _first_turn(cache)
        assert answer.strip() in [str(column) for column in range(9)] and seconds < 5
        assert said_so(said) and "(portable)" in said
        (child,) = _compiling(cache)  # it outlives the bot: a game can be shorter than its 14 s
        deadline = time.monotonic() + 10  # set as the child begins: give it time to start Python
        while os.sched_getscheduler(child) != os.SCHED_IDLE and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.sched_getscheduler(child) == os.SCHED_IDLE
        _first_turn(cache)  # a second cold start while the first child compiles starts no second compile
        deadline = time.monotonic() + 10
        while _compiling(cache) != [child] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _compiling(cache) == [child]
        deadline = time.monotonic() + 240
        while _compiling(cache) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _compiling(cache), "the child compiled for four minutes"
        answer, said, _ = _first_turn(cache)
        assert said == "" and answer.strip().isdigit()  # the compiled bot, from the cache the child filled
        stamps = [name.split("-")[1] for name in os.listdir(cache) if name.startswith("warm-") and "." not in name]
        assert stamps == ["connect4"]  # the game it compiled, and no other
    finally:
        for pid in _compiling(cache):
            os.kill(pid, signal.SIGKILL)
