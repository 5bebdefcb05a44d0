"""Words for the user: counts in sentences ("1 board", "2 boards"), a verdict said once."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, the noun plural (``plural``, or ``noun`` + s) unless the number is 1."""
    word = noun if number == 1 else plural or noun + "s"
    return f"{number:,} {word}"


def said_once(reason: str) -> str:
    """A run database's stored ``verdict: detail`` reason as shown: the detail alone where it names
    the verdict again ("Region of size 1: turn 2: Region of size 1 (x=1, y=0)" is "turn 2: Region
    of size 1 (x=1, y=0)"), else the reason as it is.  A referee's record, whose verdict and detail
    are apart, is said by :func:`gridfall.samegame.rules.verdict_text`."""
    verdict, colon, detail = reason.partition(": ")
    return detail if colon and verdict in detail else reason
