"""Exporting a portable agent as one CodeAbbey-ready file."""

from __future__ import annotations

import re
from importlib import resources


def export_source(agent: str, time_budget: float = 1.0) -> str:
    """The source of :mod:`gridfall.match3.portable` with AGENT and TIME_BUDGET set."""
    if agent not in ("fast", "greedy"):
        raise ValueError(f"only the portable agents can be exported (fast, greedy), not {agent!r}")
    source = resources.files("gridfall").joinpath("match3", "portable.py").read_text()
    source = re.sub(r'^AGENT = .*$', f'AGENT = "{agent}"', source, count=1, flags=re.M)
    source = re.sub(r'^TIME_BUDGET = .*$', f"TIME_BUDGET = {time_budget!r}", source, count=1, flags=re.M)
    header = (f"# Exported by gridfall (match3 export-suggest --agent {agent}): a CodeAbbey problem 370 player.\n"
              "# Standard library only; runs on Python 3.6 and later.\n")
    return header + source
