"""A text file a user gives gridfall (a board, a results file, a store import), read as its bytes say.

Files come from many editors.  Windows editors save UTF-8 with a byte-order mark, and PowerShell
5's ``>`` writes UTF-16 with one: both are read as the text they hold, marks dropped.  Anything
else must be UTF-8; a byte that is not is named with its line, so the user can find it.
"""

from __future__ import annotations

import codecs
from pathlib import Path

_UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class NotText(ValueError):
    """The file's bytes are not text in any encoding read here; the message says where."""


def read_text(path: str | Path) -> str:
    """The text of the file at ``path``: OSError if it cannot be read, NotText if it is not text."""
    data = Path(path).read_bytes()
    if data.startswith(_UTF16_MARKS):
        try:
            return data.decode("utf-16")  # the mark says which byte order, and is dropped
        except UnicodeDecodeError as e:
            raise NotText(f"it starts as UTF-16 text, but bytes {e.start}-{e.end - 1} are not UTF-16") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise NotText(f"not UTF-8 text: byte 0x{data[e.start]:02x} on line {line} (offset {e.start}); "
                      f"save it as UTF-8") from None
