"""A player of the user's, written against the one interface and named on the command line.

``gridfall connect4 bot --player TARGET`` plays the CodinGame protocol with such a player, so that
it can meet any bot under the referee, in a league or an SPRT.  TARGET is ``module:name``
(importable) or ``path/to/file.py:name``; ``name`` is a class or a function that makes the player.
It is called with the keywords it takes of ``game`` (the interface's game) and ``seed``, and
what it returns must have ``act(state, seconds)``, returning an action id of the state, as
:class:`gridfall.uct.UCTPlayer` and :func:`gridfall.load_player`'s players do.  The player's
prints go to stderr (:func:`protocol_stdout`): only the bot's answers reach the referee.
``export --player TARGET`` writes the same player as one CodinGame file
(:mod:`gridfall.player_export`), which carries this module and calls :func:`made_by`.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Mapping
from pathlib import Path

from gridfall.player_fault import described, what


def protocol_stdout():
    """The stream for the protocol's answers; from now on the player's own prints go to stderr, as
    its debug output (a print in ``act``, or at import, would otherwise reach the referee as an
    answer)."""
    out = sys.stdout
    sys.stdout = sys.stderr
    return out


class TargetError(ValueError):
    """The target cannot be loaded or made into a player: the message says which and why."""


def load_target(text: str):
    """The object ``module:name`` or ``file.py:name`` names (``name`` may be dotted)."""
    where, colon, name = text.rpartition(":")
    if not colon or not where or not name:
        raise TargetError(f"{text!r}: give MODULE:NAME or FILE.py:NAME (the class or function that makes the player)")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise TargetError(f"{text!r}: {where} is not a file")
        sys.path.insert(0, str(path.resolve().parent))  # the file may import its neighbours
        # a name of its own: a file called json.py must not stand in for the json module
        spec = importlib.util.spec_from_file_location(f"gridfall_player_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise TargetError(f"{text!r}: {where} cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as e:
            raise TargetError(f"{text!r}: loading {where} raised {described(e)}") from None
    elif Path(where).is_file() or "/" in where:  # a path, not to a Python file: no import can find it
        raise TargetError(f"{text!r}: {where} is not a .py file (give FILE.py:NAME, or MODULE:NAME to import)")
    else:
        try:
            module = importlib.import_module(where)
        except Exception as e:
            raise TargetError(f"{text!r}: cannot import {where}: {what(e)}") from None
    found = module
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise TargetError(f"{text!r}: {where} has no {name}") from None
    return found


def make_player(text: str, game, seed: int):
    """The player that TARGET ``text`` makes for ``game`` with ``seed``."""
    return made_by(load_target(text), text, game, seed)


def made_by(factory, text: str, game, seed: int):
    """The player ``factory`` (named ``text``) makes for ``game`` with ``seed``: called with the
    keywords it takes of the two, and checked to have ``act``."""
    if not callable(factory):
        raise TargetError(f"{text!r} is a {type(factory).__name__}, not a class or function that makes a player")
    taken: Mapping[str, inspect.Parameter]
    try:
        taken = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a callable whose signature Python cannot read
        taken = {}
    any_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in taken.values())
    given = {key: value for key, value in (("game", game), ("seed", seed)) if key in taken or any_keyword}
    try:
        player = factory(**given)
    except Exception as e:
        raise TargetError(f"{text}({', '.join(given)}) raised {described(e)}") from None
    if not callable(getattr(player, "act", None)):
        raise TargetError(f"{text} made a {type(player).__name__}, which has no act(state, seconds) method")
    return player
