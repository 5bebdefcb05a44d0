"""Test session set-up.

Every numba kernel is warmed once per session, as `gridfall warmup` does after
install: bots under test run as subprocesses with timed first turns and must
load compiled kernels from the cache, not compile them on the clock.

The suite runs on pytest-xdist's workers, one a core (at most four), and they share
the machine by a rule: a test marked `parallel_safe` runs beside others, and every
other test runs alone (see `pytest_runtest_protocol` below).
"""

import fcntl
import os
import tempfile
import time
import uuid

import pytest

# Tests (and the bots they start) use a throw-away solution store, never the user's.
os.environ["GRIDFALL_STORE"] = os.path.join(tempfile.mkdtemp(prefix="gridfall-test-"), "store.sqlite")
# Every process the tests start carries this session's mark (tests/processes.py finds leftovers by it).
os.environ["GRIDFALL_TEST_SESSION"] = uuid.uuid4().hex
# One lock file for all of a run's workers: each worker imports this module again, and inherits
# the first import's (the controller's) name for it.
os.environ.setdefault("GRIDFALL_TEST_LOCK", os.path.join(tempfile.mkdtemp(prefix="gridfall-test-"), "machine.lock"))
MAX_WORKERS = 4


def pytest_sessionstart(session):
    from gridfall.warmup import warm_everything

    start = time.monotonic()
    for _ in warm_everything():
        pass
    session.config._gridfall_warmup_seconds = time.monotonic() - start


def pytest_report_header(config):
    from gridfall.jit import CACHE_DIR

    return f"gridfall numba cache: {CACHE_DIR}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: a worker for each core this process may run on (its affinity, which a container's
    or `taskset`'s limit narrows; psutil's count of the machine's cores does not), at most four."""
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


def pytest_collection_modifyitems(config, items):
    """The tests that may run side by side first, then those that run alone: while the first
    kind lasts, every worker is busy; then the others take the machine one at a time.  The
    order within each kind, and so each module's tests together, is kept."""
    items.sort(key=lambda item: not shares_the_machine(item))  # a stable sort


def shares_the_machine(item) -> bool:
    """A `parallel_safe` test uses one core and runs no bot against a clock, so it can run beside
    another such test; `alone` (on a test of such a module, say one that starts two workers)
    overrides it."""
    return item.get_closest_marker("parallel_safe") is not None and item.get_closest_marker("alone") is None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under pytest-xdist, take the machine's lock around the test's set-up, call and tear-down:
    shared (flock's LOCK_SH) for a test that may run beside others, exclusive for one that runs
    alone.  A test that times a bot then runs as it would in a serial run, with the other cores
    idle: a worker beside it would take the core the bot's clock was set for."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    with open(os.environ["GRIDFALL_TEST_LOCK"], "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH if shares_the_machine(item) else fcntl.LOCK_EX)
        yield  # closing the file releases the lock
