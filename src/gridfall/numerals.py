"""Whole numbers as people and programs type them: ASCII digits only.

``str.isdigit()`` is also true of '²' and '٣'.  ``int()`` then fails on the first, an internal
error where a clear message was due, and reads the second as 3, a slip taken for a number.
"""

from __future__ import annotations


def ascii_digits(text: str) -> bool:
    """True if ``text`` is one or more of 0-9 (``"042"``; not ``""``, ``"-1"``, ``"²"``, ``"٣"``)."""
    return text.isascii() and text.isdigit()
