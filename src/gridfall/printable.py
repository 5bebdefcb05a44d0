"""Text from outside (a bot's stderr, a player's error, a shared store) made safe to print.

rich prints ESC as it is, and ESC starts the sequences that clear the screen, move the cursor
or retitle the window: such text is data, never a command to the user's terminal.
"""

from __future__ import annotations

import re
import unicodedata

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but tab and newline, DEL, C1


def printable(text: str) -> str:
    """``text`` with each control character but tab and newline written as an escape (``\\x1b``)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def line_breaker(text: str) -> str | None:
    """The first character of ``text`` that would not print as itself on one line (a control
    character, tab and newline included, or a line or paragraph separator), else None: a name a
    table or a page shows must hold none."""
    return next((c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
