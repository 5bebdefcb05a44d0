"""Counts in sentences: "1 board", "2 boards", "0 problems"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, the noun plural (``plural``, or ``noun`` + s) unless the number is 1."""
    word = noun if number == 1 else plural or noun + "s"
    return f"{number:,} {word}"
