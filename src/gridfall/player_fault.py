"""A player's exception in one line: what it was, and where in the player's code.

The place is the innermost frame of the traceback that is none of Python's own (its standard
library, installed packages) and none of gridfall's: ``json.loads`` raising in a player's ``act``
names the line of ``act`` that called it, not the decoder's.  In an exported file every module is
compiled as ``<gridfall NAME>``, so there a module is told by its name.

Standard library only and Python 3.6 syntax: the exported bots carry this module, and the Match-3
harness loads it by its path under any interpreter (CodeAbbey's 3.6 among them).
"""

import os
import traceback

_PYTHON = os.path.dirname(os.__file__)  # the standard library; installed packages are below it, or in site-packages
_GRIDFALL = os.path.dirname(os.path.abspath(__file__))
_EXPORTED = "<gridfall "


def _module_name(filename: str) -> "str | None":
    return filename[len(_EXPORTED):-1] if filename.startswith(_EXPORTED) and filename.endswith(">") else None


def _players(filename: str) -> bool:
    name = _module_name(filename)
    if name is not None:
        return name.split(".")[0] != "gridfall"
    path = os.path.abspath(filename)
    return not (path.startswith((_PYTHON + os.sep, _GRIDFALL + os.sep)) or "site-packages" in path
                or "dist-packages" in path or filename.startswith("<"))


def _shown(filename: str) -> str:
    name = _module_name(filename)
    return name.replace(".", "/") + ".py" if name is not None else os.path.basename(filename)


def players_frame(error: BaseException) -> "traceback.FrameSummary | None":
    """The innermost frame of the player's code that the error came through, or None."""
    mine = [frame for frame in traceback.extract_tb(error.__traceback__) if _players(frame.filename)]
    return mine[-1] if mine else None


def place(error: BaseException) -> str:
    """`` at mybot.py:12 in act``: the player's line that the error came through, or nothing if it
    came through none (a library's line would mislead)."""
    frame = players_frame(error)
    return f" at {_shown(frame.filename)}:{frame.lineno} in {frame.name}" if frame else ""


def what(error: BaseException) -> str:
    """``KeyError: 'x'``: the error's type and message, as Python's last traceback line has them
    (the type alone when the message is empty)."""
    message = str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def described(error: BaseException) -> str:
    """``KeyError: 'x' at mybot.py:12 in act``: the error, and where in the player's code.  The
    one wording of a player's fault, in every referee, bot and command."""
    return f"{what(error)}{place(error)}"
