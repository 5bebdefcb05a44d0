"""arena/memory.py: what a bot's process tree holds, as the referee's memory limit measures it."""

import os
import subprocess
import sys

import pytest

from gridfall.arena.memory import MB, held_bytes

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="measured through Linux's /proc")

# allocates 100 MB, then forks CHILDREN children that share it copy-on-write, then says so
HOLDER = """import os, sys, time
held = b"x" * (100 << 20)
for _ in range(int(sys.argv[1])):
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
print("ready", flush=True)
time.sleep(60)
"""


def _holding(children: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(children)], stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    assert process.stdout.readline() == "ready\n"
    return process


def _stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, 9)
    process.communicate()  # reaped, its pipe closed


def test_a_bots_memory_counts_what_it_holds():
    process = _holding(0)
    try:
        assert 100 * MB < held_bytes(process.pid, limit=10**12) < 150 * MB
    finally:
        _stop(process)


def test_memory_shared_by_forked_children_counts_once_near_the_limit():
    # eight children map the parent's 100 MB: their resident sets add up to 900 MB and more,
    # a cgroup (and the proportional sets) count those pages once
    process = _holding(8)
    try:
        held = held_bytes(process.pid, limit=300 * MB)
        assert 100 * MB < held < 300 * MB
        assert held_bytes(process.pid, limit=10**12) > 800 * MB  # far from the limit: the cheap upper bound
    finally:
        _stop(process)


def test_a_process_that_is_gone_holds_nothing():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    assert held_bytes(process.pid, limit=MB) == 0


def test_a_runs_settings_name_the_memory_limit_only_when_it_is_not_the_platforms():
    # runs stored before the limit existed keep their settings, so they resume, under the same
    # default file name; another limit is another experiment
    from gridfall.arena.limits import CODINGAME_MEMORY_MB, Limits

    assert Limits(1.0, 0.1, CODINGAME_MEMORY_MB).setting() == [1.0, 0.1]
    assert Limits(1.0, 0.1, 500).setting() == [1.0, 0.1, 500]
    assert Limits(1.0, 0.1, None).setting() == [1.0, 0.1, None]
    assert Limits(1.0, 0.1, 500).scaled(2).memory_mb == 500  # --time-scale relaxes the times only
