"""How pytest-xdist's workers share the machine: the tests that may run side by side do, and the
others run alone.

A test (or a module) marked `parallel_safe` uses one core and runs no bot against a clock, or
gives its bots far more time than they need (a faulty bot that answers at once or never), so it
can run beside others, two workers a core.  Every other test starts bots that must answer in
time, or uses several cores (a referee's two games, a Dask cluster): it runs by itself, with the
other cores idle, as in a serial run.  `alone` marks such a test in a `parallel_safe` module.

The tests that may share run first, while every worker is busy, the `long` ones (tens of seconds)
before the rest; the others then take the machine one at a time.  A file lock keeps the rule:
shared (flock's LOCK_SH) around a test that may run beside others, exclusive around one that runs
alone.

Two workers a core, not one: a test that may share spends much of its time waiting, on a bot's
answer, on a search's deadline or on a timeout the test provokes, and a search given a deadline
takes that long however little of a core it gets.  On 2 cores (2026-12-07, Intel Xeon) the whole
suite took 762 s with two workers, 647 s with three and 550 s with four: the tests that run alone
took the same time (297, 303 and 268 s), and the shared ones went from about 445 s to about 260 s.
Only the shared tests were then run three times with six workers (three a core): one test failed
once, one that timed its own search's deadline (now marked `alone`).

Two things keep a core from idling at the turn from the first kind to the second.  A worker is
sent one test at a time (xdist's ``--maxschedchunk 1``): with the default chunks, a worker that
had run out of shared tests took tests that run alone and waited on the lock, while the other
worked through a queue of shared ones by itself (90 s of a 670 s run, 2026-11-29).  And a shared
test of a minute started last would be the only one running for that minute: `long` starts it first.
"""

import fcntl
import os
import tempfile

import pytest

WORKERS_A_CORE = 2
MAX_WORKERS = 4
# One lock file for all of a run's workers: each worker imports this module again, and inherits
# the first import's (the controller's) name for it.
LOCK = "GRIDFALL_TEST_LOCK"
os.environ.setdefault(LOCK, os.path.join(tempfile.mkdtemp(prefix="gridfall-test-"), "machine.lock"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: two workers for each core this process may run on (gridfall's count: its affinity,
    which a container's or `taskset`'s limit narrows; psutil's count of the machine's cores does
    not), at most four."""
    from gridfall.machine import usable_cores

    return max(1, min(WORKERS_A_CORE * usable_cores(), MAX_WORKERS))


def pytest_configure(config):
    if getattr(config.option, "maxschedchunk", "absent") is None:  # xdist's, and not given
        config.option.maxschedchunk = 1


def pytest_collection_modifyitems(config, items):
    """The tests that may run side by side first, the long ones of them before the others, then
    those that run alone: while the first kind lasts, every worker is busy; then the others take
    the machine one at a time.  The order within each kind, and so each module's tests together,
    is kept."""
    items.sort(key=lambda item: (not shares_the_machine(item), item.get_closest_marker("long") is None))  # stable


def shares_the_machine(item) -> bool:
    """A `parallel_safe` test uses one core and runs no bot against a clock, so it can run beside
    another such test; `alone` (on a test of such a module, say one that starts two workers)
    overrides it."""
    return item.get_closest_marker("parallel_safe") is not None and item.get_closest_marker("alone") is None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under pytest-xdist, hold the machine's lock around the test's set-up, call and tear-down
    (so around a module's fixtures too): shared or exclusive, as `shares_the_machine` says."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    with open(os.environ[LOCK], "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH if shares_the_machine(item) else fcntl.LOCK_EX)
        yield  # closing the file releases the lock
