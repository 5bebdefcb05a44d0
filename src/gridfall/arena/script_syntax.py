"""Whether a bot's Python script compiles, asked of the interpreter that will run it.

A script with a syntax error crashes before its first answer, so it would lose every game of a
run as a crash, stored under its name.  The script is compiled, never run, and by the bot's own
interpreter rather than the referee's: which text is valid Python depends on the version
(``match`` is a statement from 3.10, a 3.12 f-string may be an error on 3.11, ``print "x"`` is
Python 2), so the referee's own ``compile`` could refuse a valid bot or pass a broken one.
"""

from __future__ import annotations

import os
import re
import subprocess

from gridfall.printable import one_line

# compile() reads a source's bytes as running the file does: its coding line or BOM, else UTF-8
COMPILE = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')"
ERRORS = ("SyntaxError:", "IndentationError:", "TabError:")
TIMEOUT_S = 10.0  # a script of megabytes compiles in a second; longer is not a syntax error's


def syntax_error(interpreter: str, script: str, cwd: str) -> str | None:
    """The error ``interpreter`` finds compiling ``script`` (relative to ``cwd``) on one line, as
    ``bot.py, line 2: SyntaxError: '(' was never closed``; None when it compiles, and when that
    cannot be told: not a ``.py`` file (python also runs a folder, a zip or a ``.pyc``), or the
    interpreter failed for another reason or took over :data:`TIMEOUT_S`."""
    if not script.endswith(".py") or not os.path.isfile(os.path.join(cwd, script)):
        return None
    try:
        done = subprocess.run([interpreter, "-c", COMPILE, script], cwd=cwd, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    if done.returncode == 0 or not lines or not lines[-1].startswith(ERRORS):
        return None
    where_in_script = re.compile(rf'\s*File "{re.escape(script)}", line (\d+)')
    places = [m.group(1) for m in map(where_in_script.match, lines) if m]
    where = f"{script}, line {places[-1]}" if places else script
    return one_line(f"{where}: {lines[-1].strip()}"[:300])
