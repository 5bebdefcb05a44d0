"""Whether a bot's script can start from its ``#!`` line, read without running it.

A script run as a program (``./bot.py``) starts by the interpreter its first line names.  When
that line is wrong, the shell prints "not found" and exits with 127 at every start, so the bot
would lose every game of a run as a crash.  Three faults are common enough to name:

- the line names an interpreter that is not on this machine (``#!/usr/local/bin/python3``
  copied from another one);
- the file was saved with Windows line endings: the line ends in a carriage return, so the
  interpreter looked for is ``python3\\r``;
- on Linux, everything after the interpreter is one argument: ``#!/usr/bin/env python3 -u`` makes
  env look for a program called ``python3 -u`` (``env -S`` splits it).
"""

from __future__ import annotations

import os
import shutil
import sys

LONGEST_LINE = 4096  # bytes of a #! line the kernel reads (BINPRM_BUF_SIZE is 256 before Linux 5.1)


def shebang_fault(path: str, linux: bool = sys.platform.startswith("linux")) -> str | None:
    """Why the script at ``path`` cannot start from its ``#!`` line, on one line; None when it can,
    when it has no such line (a compiled program, or a script the shell runs itself), and when it
    cannot be told (an interpreter found by a relative path, ``env`` with options)."""
    try:
        with open(path, "rb") as file:
            head = file.read(LONGEST_LINE)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0]
    if line.endswith(b"\r"):
        return "its #! line ends in a carriage return (Windows line endings); save the file with Unix ones (LF)"
    text = line.decode("utf-8", "replace").strip(" \t")
    interpreter, _, argument = text.partition(" ") if " " in text else text.partition("\t")
    argument = argument.strip(" \t")
    if not interpreter or not os.path.isabs(interpreter):
        return None
    if not os.path.exists(interpreter):
        return f"its #! line names {interpreter}, which is not on this machine"
    if os.path.isdir(interpreter) or not os.access(interpreter, os.X_OK):
        return f"its #! line names {interpreter}, which is not an executable file"
    if os.path.basename(interpreter) != "env" or not argument or argument.startswith("-"):
        return None
    if linux and any(c in argument for c in " \t"):
        return (f"its #! line has env look for a program called {argument!r}: Linux passes all after the "
                f"interpreter as one word (write '#!{interpreter} -S {argument}')")
    if shutil.which(argument) is None:
        return f"its #! line runs {argument} through env, and there is no {argument} on the PATH"
    return None
