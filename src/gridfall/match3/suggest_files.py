"""What a comparison checks of a suggest file before its first run: that it loads, and which files
it is made of (a file that asks a player of yours, :func:`gridfall.match3.player_suggest.suggest_for`,
is also that player's files), to notice an edit."""

from __future__ import annotations

import ast
import os

from gridfall.arena.bot_files import modules_of


def cannot_load(path: str, interpreter: str | None) -> str | None:
    """Why the suggest file at ``path`` cannot load, so that every run of it would fail before its
    first call: its syntax, as the referee checks it for gridfall's own Python (``interpreter``
    None: Python 3.6's grammar, :func:`~gridfall.match3.codeabbey.check_syntax`), or as
    ``interpreter`` compiles it.  None for a Lua file, and when it loads or that cannot be told."""
    import shutil

    from gridfall.arena.script_syntax import syntax_error
    from gridfall.match3.codeabbey import check_syntax

    if path.endswith(".lua"):
        return None
    if interpreter is None:
        return check_syntax(path) or None
    error = syntax_error(shutil.which(interpreter) or interpreter, path, os.getcwd())
    return None if error is None else f"{error} ({interpreter} cannot compile it)"


def files_of(path: str) -> list[str]:
    """The files a suggest file is made of, for a comparison's check that no bot was edited
    (:mod:`gridfall.arena.bot_files`): the file itself, and each player it names through
    ``suggest_for("FILE.py:NAME")`` (relative to the working folder, as the referee runs it) with
    the modules of that player's folder it imports; the file alone for any other."""
    found = [path]
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):  # not Python (a Lua file), or broken: the referee says so
        return found
    for target in _targets_written(tree):
        where = target.rpartition(":")[0]
        if where.endswith(".py") and os.path.isfile(where):
            player = os.path.abspath(where)
            found += [f for f in (player, *modules_of(player)) if f not in found]
    return found


def _targets_written(tree) -> list[str]:
    """The texts a source gives ``suggest_for`` as its player, where they are written out (first
    argument, or ``player=``)."""
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "suggest_for":
            for given in node.args[:1] + [k.value for k in node.keywords if k.arg == "player"]:
                if isinstance(given, ast.Constant) and isinstance(given.value, str):
                    texts.append(given.value)
    return texts
