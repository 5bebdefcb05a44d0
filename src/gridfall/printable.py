"""Text from outside (a bot's stderr, a player's error, a shared store) made safe to print.

rich prints ESC as it is, and ESC starts the sequences that clear the screen, move the cursor
or retitle the window: such text is data, never a command to the user's terminal.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but tab and newline, DEL, C1
_LINE_BREAKER = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # Unicode's Cc, Zl and Zp: all of them


def printable(text: str) -> str:
    """``text`` with each control character but tab and newline written as an escape (``\\x1b``)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def line_breaker(text: str) -> str | None:
    """The first character of ``text`` that would not print as itself on one line (a control
    character, tab and newline included, or a line or paragraph separator), else None: a name a
    table or a page shows must hold none."""
    found = _LINE_BREAKER.search(text)
    return found.group() if found else None


def one_line(text: str) -> str:
    """``text`` with each character :func:`line_breaker` finds written as its escape (``\\n``,
    ``\\x1b``, ``\\u2028``)."""
    return _LINE_BREAKER.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
