"""Shared by the benchmark scripts: a console that never cuts tables, and the machine's name."""

from __future__ import annotations

import sys

from rich.console import Console

from gridfall.machine import cpu_name, machine_line  # noqa: F401 - the benchmarks' one import of both
from gridfall.samegame.campaign import parse_params


def console(stderr: bool = False) -> Console:
    """A rich console, 160 columns wide when the output is a file or a pipe."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 160, highlight=False)


def parse_options(options: list[str], where: str) -> dict:
    """``["level=2", "bias=0.3"]`` -> ``{"level": 2, "bias": 0.3}`` (a dot makes a float), or exit naming the bad one."""
    try:
        return parse_params(options, where)
    except ValueError as e:
        raise SystemExit(str(e)) from None
