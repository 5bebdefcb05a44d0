"""Warm every numba kernel once per session, as `gridfall warmup` does after install.

Bots under test run as subprocesses with timed first turns; they must load
compiled kernels from the cache, not compile them on the clock.
"""

import time


def pytest_sessionstart(session):
    from gridfall.warmup import warm_everything

    start = time.monotonic()
    for _ in warm_everything():
        pass
    session.config._gridfall_warmup_seconds = time.monotonic() - start


def pytest_report_header(config):
    from gridfall.jit import CACHE_DIR

    return f"gridfall numba cache: {CACHE_DIR}"
