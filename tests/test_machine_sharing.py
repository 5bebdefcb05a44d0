"""machine_sharing.py's rule, on a small suite of its own under two pytest-xdist workers: the
tests marked `parallel_safe` run first and side by side, and each other test runs with nothing
beside it."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.parallel_safe  # its suite's workers use a core each, and none is timed

ROOT = Path(__file__).resolve().parents[1]

SUITE = {
    "conftest.py": "from tests.machine_sharing import pytest_collection_modifyitems, pytest_configure, "
                   "pytest_runtest_protocol\n",
    "record.py": """
        import os, time

        def record(name, seconds):
            start = time.monotonic()
            time.sleep(seconds)
            with open(os.environ["RECORD"], "a") as f:
                f.write(f"{name} {start} {time.monotonic()} {os.getpid()}\\n")
        """,
    # collected first: the rule, not the order of the files, puts these after the shared tests
    "test_a_alone.py": """
        import pytest
        from record import record

        @pytest.mark.parametrize("n", range(2))
        def test_alone(n):
            record(f"alone{n}", 0.5)
        """,
    "test_b_shared.py": """
        import pytest
        from record import record

        pytestmark = pytest.mark.parallel_safe

        @pytest.mark.parametrize("n", range(4))
        def test_shared(n):
            record(f"shared{n}", 1.0)

        @pytest.mark.alone
        def test_marked_alone():
            record("alone_mark", 0.5)

        @pytest.mark.long
        def test_long():
            record("long", 1.0)
        """,
}


def child_env(**more: str) -> dict[str, str]:
    """The environment of a pytest run inside this one: without this run's xdist variables and its
    lock (the inner suite has its own), with the repository importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GRIDFALL_TEST_LOCK"))}
    return {**env, "PYTHONPATH": str(ROOT), **more}


@pytest.mark.long
def test_parallel_safe_tests_run_first_and_side_by_side_and_the_others_alone(tmp_path):
    for name, text in SUITE.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = child_env(RECORD=str(tmp_path / "record.txt"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                           "-W", "ignore::pytest.PytestUnknownMarkWarning", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    runs = {}
    for line in (tmp_path / "record.txt").read_text().splitlines():
        name, start, end, pid = line.split()
        runs[name] = (float(start), float(end), pid)
    assert sorted(runs) == ["alone0", "alone1", "alone_mark", "long", "shared0", "shared1", "shared2", "shared3"]

    def overlap(a, b):
        return runs[a][0] < runs[b][1] and runs[b][0] < runs[a][1]

    shared = [name for name in runs if name.startswith(("shared", "long"))]
    alone = [name for name in runs if name.startswith("alone")]
    assert len({runs[name][2] for name in runs}) == 2  # both workers ran tests
    assert any(overlap(a, b) for a in shared for b in shared if a < b)  # side by side
    for a in alone:
        assert not any(overlap(a, b) for b in runs if b != a), f"{a} ran beside another test"
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0",
                             "-W", "ignore::pytest.PytestUnknownMarkWarning", str(tmp_path)],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    order = [line.split("::")[1] for line in listed.stdout.splitlines() if "::" in line]
    assert order == ["test_long"] + [f"test_shared[{n}]" for n in range(4)] + [
        "test_alone[0]", "test_alone[1]", "test_marked_alone"]


def test_a_worker_is_sent_one_test_at_a_time(request):
    if request.config.pluginmanager.hasplugin("xdist"):
        assert request.config.getoption("maxschedchunk") == 1


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="a process's CPUs are set on Linux")
def test_auto_starts_two_workers_a_core_of_the_cpus_the_run_may_use(tmp_path):
    """On one CPU (a container's or taskset's limit, not the machine's count), `-n auto` starts two
    workers: the shared tests spend much of their time waiting (machine_sharing.py's figures)."""
    (tmp_path / "conftest.py").write_text("from tests.machine_sharing import pytest_xdist_auto_num_workers\n")
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    env = child_env()
    one_cpu = min(os.sched_getaffinity(0))
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "auto", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.sched_setaffinity(0, {one_cpu}))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "created: 2/2 workers" in done.stdout, done.stdout[-3000:]
