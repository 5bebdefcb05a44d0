"""The machine a measurement ran on, and the gridfall that ran it: printed under every results table
and campaign line."""

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


def machine_line() -> str:
    """CPU, cores, Python, the gridfall that measured (version and a hash of its files) and date."""
    from gridfall.fingerprint import fingerprint

    return (f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, gridfall {fingerprint()}; "
            f"{time.strftime('%Y-%m-%d')}")
