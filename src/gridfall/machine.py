"""The machine a measurement ran on, and the gridfall that ran it: printed under every results table
and campaign line; and how many of its cores this process may use, the default of every count of
workers."""

from __future__ import annotations

import os
import platform
import time


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def usable_cores() -> int:
    """The cores this process may run on: fewer than the machine's under `taskset`, a container's
    CPU set or a cluster scheduler's share (its CPU affinity, on Linux), else the machine's.  Work
    spread over the machine's count there shares cores, and each worker gets a part of one."""
    try:
        return len(os.sched_getaffinity(0))  # type: ignore[attr-defined]  # Linux
    except AttributeError:
        return os.cpu_count() or 1


def cores_text() -> str:
    """The machine's cores, and how many of them this process may use where that is fewer."""
    cores, usable = os.cpu_count() or 1, usable_cores()
    return f"{cores} cores" + (f" ({usable} usable)" if usable < cores else "")


def machine_line() -> str:
    """CPU, cores, Python, the gridfall that measured (version and a hash of its files) and date."""
    from gridfall.fingerprint import fingerprint

    return (f"{cpu_name()}, {cores_text()}, Python {platform.python_version()}, gridfall {fingerprint()}; "
            f"{time.strftime('%Y-%m-%d')}")
