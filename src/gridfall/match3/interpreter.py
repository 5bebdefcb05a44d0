"""Whether an interpreter given to the Match-3 referee (``--python``) can run its harness.

The harness (:mod:`gridfall.match3.harness`) is written in Python 3.6, CodeAbbey's oldest.  Given
Python 2.7, it failed at its own first line with a SyntaxError that read as the player's; given a
program that is no Python at all (``--python /bin/true``), every run "crashed".  So the
interpreter is asked its version first, by a line that Python 2 reads as well as 3.
"""

from __future__ import annotations

import shutil
import subprocess

OLDEST = (3, 6)  # the harness's syntax, and CodeAbbey's Python 3.6.9
ASK = "import sys; sys.stdout.write('%d.%d' % sys.version_info[:2])"
TIMEOUT_S = 10.0  # PyPy starts in well under a second


def interpreter_fault(python: str) -> str | None:
    """Why ``python`` cannot run the harness, on one line; None when it can."""
    found = shutil.which(python)
    if found is None:
        return "not an interpreter on this machine"
    try:
        done = subprocess.run([found, "-c", ASK], stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"it did not say its Python version ({type(e).__name__})"
    version = done.stdout.decode("ascii", "replace").strip()
    major, dot, minor = version.partition(".")
    if done.returncode != 0 or not dot or not (major + minor).isdigit():
        return "not a Python interpreter (it did not say its version)"
    if (int(major), int(minor)) < OLDEST:
        return (f"Python {version}; the referee's harness, as CodeAbbey, needs Python "
                f"{OLDEST[0]}.{OLDEST[1]} or later (or PyPy 3)")
    return None
