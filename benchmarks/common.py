"""Shared by the benchmark scripts: a console that never cuts tables, and the machine's name."""

from __future__ import annotations

import os
import platform
import sys
import time

from rich.console import Console


def console(stderr: bool = False) -> Console:
    """A rich console, 160 columns wide when the output is a file or a pipe."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 160, highlight=False)


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
    """CPU, cores, Python and date: printed under every results table."""
    return f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}; {time.strftime('%Y-%m-%d')}"


def parse_options(options: list[str], where: str) -> dict:
    """``["level=2", "bias=0.3"]`` -> ``{"level": 2, "bias": 0.3}`` (a dot makes a float)."""
    params = {}
    for option in options:
        key, sep, value = option.partition("=")
        try:
            if not sep:
                raise ValueError
            params[key] = float(value) if "." in value else int(value)
        except ValueError:
            raise SystemExit(f"{where}: option {option!r} is not KEY=NUMBER") from None
    return params
