"""Exporting a portable agent as one CodeAbbey-ready file.

The file is :mod:`gridfall.match3.portable` itself (tested against the rules of record on random
games), with its agent and time budget set; it is checked as the bundler checks every export:
standard library only, Python 3.6 syntax, and within the size limit.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import resources

from gridfall.export import CODINGAME_LIMIT, ExportError
from gridfall.match3 import PORTABLE_AGENTS


def export_source(agent: str, time_budget: float = 1.0) -> str:
    """The source of :mod:`gridfall.match3.portable` with AGENT and TIME_BUDGET set."""
    if agent not in PORTABLE_AGENTS:
        raise ValueError(f"only the portable agents can be exported ({', '.join(PORTABLE_AGENTS)}), not {agent!r}")
    source = (resources.files("gridfall") / "match3" / "portable.py").read_text()
    source = re.sub(r'^AGENT = .*$', f'AGENT = "{agent}"', source, count=1, flags=re.M)
    source = re.sub(r'^TIME_BUDGET = .*$', f"TIME_BUDGET = {time_budget!r}", source, count=1, flags=re.M)
    header = (f"# Exported by gridfall (match3 export --agent {agent}): a CodeAbbey problem 370 player.\n"
              "# Standard library only; runs on Python 3.6 and later.\n")
    text = header + source
    try:
        tree = ast.parse(text, feature_version=(3, 6))
    except SyntaxError as e:
        raise ExportError(f"the export does not parse as Python 3.6 (CodeAbbey's): line {e.lineno}: {e.msg}") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] not in sys.stdlib_module_names:
                raise ExportError(f"the export imports {name} at line {node.lineno}: not in the standard library")
    if len(text) > CODINGAME_LIMIT:
        raise ExportError(f"the export has {len(text):,} characters, over {CODINGAME_LIMIT:,}")
    return text
