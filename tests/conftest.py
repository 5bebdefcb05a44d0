"""Test session set-up.

Every numba kernel is warmed once per session, as `gridfall warmup` does after
install: bots under test run as subprocesses with timed first turns and must
load compiled kernels from the cache, not compile them on the clock.

The suite runs on pytest-xdist's workers, two a core, and they share the machine by
the rule machine_sharing.py keeps: a test marked `parallel_safe` runs beside others,
and every other test runs alone.
"""

import os
import tempfile
import uuid

from tests.machine_sharing import (  # noqa: F401  (pytest finds hooks by their names here)
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_runtest_protocol,
    pytest_xdist_auto_num_workers,
)

# Tests (and the bots they start) use a throw-away solution store, never the user's.
os.environ["GRIDFALL_STORE"] = os.path.join(tempfile.mkdtemp(prefix="gridfall-test-"), "store.sqlite")
# Every process the tests start carries this session's mark (tests/processes.py finds leftovers by it).
os.environ["GRIDFALL_TEST_SESSION"] = uuid.uuid4().hex


def pytest_sessionstart(session):
    if "PYTEST_XDIST_WORKER" in os.environ:
        return  # the controller warmed the cache before it started its workers (xdist's own hook runs last)
    from gridfall.warmup import warm_everything

    for _ in warm_everything():
        pass


def pytest_report_header(config):
    from gridfall.jit import CACHE_DIR

    return f"gridfall numba cache: {CACHE_DIR}"
