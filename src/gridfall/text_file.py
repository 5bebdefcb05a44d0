"""A text file a user gives gridfall (a board, a results file, a store import, a Match-3 player),
read as its bytes say.

Files come from many editors.  Windows editors save UTF-8 with a byte-order mark, and PowerShell
5's ``>`` writes UTF-16 with one: both are read as the text they hold, marks dropped.  Anything
else must be UTF-8; a byte that is not is named with its line, so the user can find it.  At most
MOST_BYTES are read: a file named by mistake (a log, a disk image, ``/dev/zero``) is refused
instead of filling the memory.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path
from typing import BinaryIO

_UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
MOST_BYTES = 64 << 20  # far above any board, results file or store export (10,000 lines: 6 MB)


class NotText(ValueError):
    """The file is not text gridfall reads: bytes of no encoding read here, or far too many."""


def _opened(path: str | Path) -> BinaryIO:
    """``path`` open for reading, without waiting for a writer.  Opening a named pipe (a FIFO)
    waits until a program opens it to write: one named by mistake hung the command for good.
    Opened at once and then read as usual, it gives what a writer sends (``<(...)`` in a shell),
    or nothing if there is none."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # not on Windows, which has no such files
    fd = os.open(path, os.O_RDONLY | nonblocking)
    try:
        if nonblocking:
            os.set_blocking(fd, True)
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: str | Path, utf16: bool = True) -> str:
    """The text of the file at ``path``: OSError if it cannot be read, NotText if it is not text
    (not ``utf16`` for a file that another program reads as UTF-8, such as Python source)."""
    with _opened(path) as stream:
        data = stream.read(MOST_BYTES + 1)
    if len(data) > MOST_BYTES:
        raise NotText(f"more than {MOST_BYTES >> 20} MB, far more than a board, a results file, a store export "
                      "or a player holds: is it the file you meant?")
    if utf16 and data.startswith(_UTF16_MARKS):
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
