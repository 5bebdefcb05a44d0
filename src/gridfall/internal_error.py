"""How gridfall says its own fault (a bug, not bad input): one line on stderr, with the traceback
only when ``GRIDFALL_DEBUG`` is set.  The CLI and the play server's request threads say it alike."""

from __future__ import annotations

import os

DEBUG_VARIABLE = "GRIDFALL_DEBUG"


def show_tracebacks() -> bool:
    """Whether the user asked for the traceback of an internal error."""
    return bool(os.environ.get(DEBUG_VARIABLE))


def internal_error_line(error: BaseException, doing: str = "") -> str:
    """The one line for ``error`` (``doing``: what failed, as "answering a request")."""
    return (f"gridfall: internal error{' ' + doing if doing else ''}: {type(error).__name__}: {error} "
            f"({DEBUG_VARIABLE}=1 shows where)")
