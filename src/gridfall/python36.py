"""A module's source made to run on CodeAbbey's Python 3.6, for a one-file export.

The package is written for Python 3.10 and later, with ``from __future__ import annotations``:
its annotations (``int | None``, ``list[int]``) are never evaluated, so they may use what 3.6
cannot.  Python 3.6 knows no such import (3.7 added it).  :func:`for_python_36` does by hand
what the import does: every annotation becomes a string of its own text, and the import goes.
Only those spans change (the import's line is left blank, a long annotation keeps its lines), so
every other line, comment and line number stays as written.

What this cannot make old: syntax newer than 3.6 outside annotations (``:=``, ``match``, ``/`` in
parameters), which the bundle's parse under 3.6 refuses, and the standard library's later
modules (:data:`ADDED_AFTER_36`), which it refuses by name.  Nor a call of what 3.6 lacks
(``math.prod``, ``str.removeprefix``): :func:`newer_calls` finds those with vermin, where it is
installed (``pip install vermin``; the test extra has it).
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

# The standard modules that Python 3.6 does not have, with the version that added them (the
# "What's New" pages of 3.7-3.11; removals are not listed: the package uses none of them).
ADDED_AFTER_36 = {
    "dataclasses": "3.7", "contextvars": "3.7", "importlib.resources": "3.7", "importlib.metadata": "3.8",
    "graphlib": "3.9", "zoneinfo": "3.9", "tomllib": "3.11",
}


def newer_module(module: str) -> str | None:
    """The version that added ``module`` (or the package it is in) after 3.6; None if 3.6 has it."""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        added = ADDED_AFTER_36.get(".".join(parts[:i]))
        if added:
            return added
    return None


def can_find_calls() -> bool:
    """Whether :func:`newer_calls` can read calls: vermin is installed."""
    return importlib.util.find_spec("vermin") is not None


def newer_calls(sources: dict[str, str]) -> list[str] | None:
    """What vermin finds in ``sources`` (module name -> text made for 3.6) that Python 3.6 lacks,
    as ``"mine, line 5: 'math.prod' member needs Python 3.8"``, by module and line; None when
    vermin is not installed.  It reads the code, not the annotations (strings here)."""
    if not can_find_calls():
        return None
    with tempfile.TemporaryDirectory() as folder:
        for name, text in sources.items():
            (Path(folder) / f"{name}.py").write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", "--no-tips",
                               "--violations", "--format", "parsable", "-t=3.6-", folder],
                              capture_output=True, text=True, timeout=300)
    found = []
    for line in done.stdout.splitlines():  # PATH:LINE:COLUMN:PY2:PY3:WHAT; a file's summary has no line
        path, line_no, _, _, version, what = (line.split(":", 5) + [""] * 6)[:6]  # the folder has no colon
        if line_no.isdigit() and what:
            found.append((Path(path).stem, int(line_no), f"{what} needs Python {version}"))
    return [f"{name}, line {line_no}: {what}" for name, line_no, what in sorted(found)]


def for_python_36(source: str) -> str:
    """``source`` with its annotations made strings and ``from __future__ import annotations``
    taken out (kept are any other features that import names).  SyntaxError if it does not parse."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []  # (start, end, text): (line, column) 0-based
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            kept = [alias.name for alias in node.names if alias.name != "annotations"]
            text = f"from __future__ import {', '.join(kept)}" if kept else ""
            edits.append((_start(node, lines), _end(node, lines), text))
        for annotation in _annotations(node):
            if not (isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)):  # a string already
                edits.append((_start(annotation, lines), _end(annotation, lines), _as_string(annotation, lines)))
    for start, end, text in sorted(edits, reverse=True):  # from the end: earlier positions stay true
        (r0, c0), (r1, c1) = start, end
        lines[r0:r1 + 1] = [lines[r0][:c0] + text + lines[r1][c1:]]
    return "".join(lines)


def _annotations(node: ast.AST) -> list[ast.expr]:
    """The annotations a node holds itself (not those of the nodes inside it)."""
    if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
        return [node.annotation]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
        return [node.returns]
    return []


def _start(node: ast.expr | ast.stmt, lines: list[str]) -> tuple[int, int]:
    return node.lineno - 1, _column(lines[node.lineno - 1], node.col_offset)


def _end(node: ast.expr | ast.stmt, lines: list[str]) -> tuple[int, int]:
    assert node.end_lineno is not None and node.end_col_offset is not None
    return node.end_lineno - 1, _column(lines[node.end_lineno - 1], node.end_col_offset)


def _column(line: str, offset: int) -> int:
    """The character column of ``offset``, which ast counts in UTF-8 bytes."""
    return len(line.encode("utf-8")[:offset].decode("utf-8"))


def _as_string(annotation: ast.expr, lines: list[str]) -> str:
    """The annotation's text as a string literal; one over several lines stays on them, as
    strings side by side in parentheses."""
    (r0, c0), (r1, c1) = _start(annotation, lines), _end(annotation, lines)
    if r0 == r1:
        return repr(lines[r0][c0:c1])
    pieces = [lines[r0][c0:]] + lines[r0 + 1:r1] + [lines[r1][:c1]]
    return "(" + "\n".join(repr(piece) for piece in pieces) + ")"
