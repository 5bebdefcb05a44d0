"""The files a bot is made of, fingerprinted, so that a stored run is not resumed by another version.

A run resumes by playing its remaining games with the bots its command names.  If a bot's file
was edited since the stored games were played, the run would mix two versions under one name (a
comparison, a league or an SPRT about neither), and a finished run would print the earlier
version's results as if they were the new one's.  So a run keeps a digest of each file its bots
name, and a run opened again with a different file is refused (:func:`check`).

The files of a command are the words after the program that name a regular file (``python3 -I
bot.py``: ``bot.py``; ``... --player mine.py:make``: ``mine.py``), or else the program's
(``./mybot``, a compiled bot): the interpreter that runs a bot's file is not the bot, and an
update of it must not refuse a run.  The program is the first word, or the one after ``env``'s
settings (:mod:`gridfall.arena.bot_command`), and the words are the shell's, ``~`` and ``$NAME``
replaced.  A module run with ``python -m`` brings its file, or its package's, when Python finds
it in the working folder or on ``PYTHONPATH``.  A Python
file brings what it imports from its folder, at any depth: the modules (``import helpers``:
``helpers.py`` beside it), as an export would bundle them, and the packages (``import tools``:
every ``.py`` file under ``tools/``, which holds an ``__init__.py``); and what it imports from
the command's ``PYTHONPATH`` folders, the same way.  Modules found elsewhere on the path (the
installed ones), and folders without an ``__init__.py`` (namespace packages, which a package of
that name anywhere on the path would stand in for), are not seen.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
from pathlib import Path

from gridfall.arena.bot_command import PythonRun, after_env, python_run, shell_words
from gridfall.export import folder_modules, imports_of

KEY = "bot files"  # the run's extra that keeps {bot name: {path: digest}}


def files_named(command: str) -> list[str]:
    """The bot's files that ``command`` names (``FILE:NAME`` names FILE), absolute: those its words
    after the first name, or else its first word's."""
    try:
        words = shell_words(command)
    except ValueError:  # an unclosed quote: the shell will say so when the bot starts
        words = command.split()
    start = after_env(words)[0]  # `env NAME=VALUE python3 bot.py`: python3 is the program, not env
    found: list[str] = []
    for word in words[start + 1:]:
        for candidate in (word, word.rpartition(":")[0]):
            if candidate and os.path.isfile(candidate):
                path = os.path.abspath(candidate)
                if path not in found:
                    found.append(path)
                break
    run = python_run(words)
    runs_module = run is not None and run.module is not None  # `python3 -m NAME`: the bot, never python
    if not found and not runs_module and start < len(words) and os.path.isfile(words[start]):
        found.append(os.path.abspath(words[start]))
    for path in list(found):
        for module in modules_of(path):
            if module not in found:
                found.append(module)
    path_folders = [Path(folder) for folder in run.path] if run is not None else []
    for i, folder in enumerate(path_folders):  # `env PYTHONPATH=lib python3 bot.py`: bot.py's from lib
        earlier = [Path(found[0]).parent, *path_folders[:i]] if found else []
        for path in list(found):
            for module in modules_of(path, set(found), folder):
                if module not in found and not shadowed(module, folder, earlier):
                    found.append(module)
    for path in run_module_files(run) if run is not None and runs_module else []:
        if path not in found:
            found.append(path)
    return found


def shadowed(module: str, folder: Path, earlier: list[Path]) -> bool:
    """Whether the name under which ``module`` (a file of ``folder``) is imported names a module or
    a package of a folder that Python searches before ``folder``: the script's own, or an earlier
    ``PYTHONPATH`` entry.  Python imports that one, so an edit to ``module`` changes nothing."""
    top = Path(module).relative_to(folder).parts[0].removesuffix(".py")
    return any((first / f"{top}.py").is_file() or (first / top / "__init__.py").is_file() for first in earlier)


def run_module_files(run: PythonRun) -> list[str]:
    """The files of the module that a ``python -m MODULE`` command runs, when Python finds it in
    one of ``run.module_folders``: a module's file, or every ``.py`` file of its top package, with
    what they import from the folder they were found in."""
    top = str(run.module).split(".")[0]
    if top in sys.stdlib_module_names:
        return []
    for folder in map(Path, run.module_folders):
        init = folder / top / "__init__.py"
        if init.is_file():  # a package comes before a module of the same name, as in Python
            files = [f for f in sorted(init.parent.rglob("*.py")) if "__pycache__" not in f.parts]
        elif (folder / f"{top}.py").is_file():
            files = [folder / f"{top}.py"]
        else:
            continue
        seen = {str(f) for f in files}
        found = [str(f) for f in files]
        for f in files:
            found += modules_of(str(f), seen, folder)
        return found
    return []


def modules_of(path: str, seen: set[str] | None = None, folder: Path | None = None) -> list[str]:
    """The modules and package files of ``folder`` (the Python file's own, by default) that the file
    imports, at any depth (none for a file that is not Python, or that does not parse: the bot will
    say so when it runs).  A package's files import from the bot's folder, the path's first entry,
    not from their own."""
    seen = set() if seen is None else seen
    seen.add(path)
    folder = Path(path).parent if folder is None else folder
    if not path.endswith(".py"):
        return []
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):  # ValueError: a null byte
        return []
    found: list[str] = []
    for module in folder_modules(tree, folder) + package_files(tree, folder, seen):
        name = str(module)
        if name not in seen:
            found += [name, *modules_of(name, seen, folder)]
    return found


def package_files(tree: ast.AST, folder: Path, seen: set[str] | frozenset[str] = frozenset()) -> list[Path]:
    """Every ``.py`` file of the packages of ``folder`` that a source imports (``import tools`` or
    ``from tools.x import y``: the files under ``tools/``, which holds an ``__init__.py``), sorted;
    none of a package whose ``__init__.py`` is in ``seen`` (its files were listed once already)."""
    found: list[Path] = []
    for top in dict.fromkeys(imported.split(".")[0] for imported, _, _ in imports_of(tree)):
        init = folder / top / "__init__.py"
        if top not in sys.stdlib_module_names and str(init) not in seen and init.is_file():
            found += [f for f in sorted(init.parent.rglob("*.py")) if "__pycache__" not in f.parts]
    return found


def digest(path: str) -> str | None:
    """The file's SHA-256 (16 hex digits), or None if it cannot be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()[:16]


def fingerprints(files: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """{bot name: {path: digest}} of each bot's files (those that can be read)."""
    out: dict[str, dict[str, str]] = {}
    for name, paths in files.items():
        out[name] = {}
        for path in paths:
            value = digest(path)
            if value is not None:
                out[name][path] = value
    return out


def changed(kept: dict, now: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """(bot name, path) of each file that a bot had when its run kept ``kept`` and that differs now
    (edited, or gone); a bot or a file the run did not keep is not compared."""
    out = []
    for name, files in now.items():
        before = kept.get(name)
        if not isinstance(before, dict):
            continue
        for path, value in before.items():
            if (files[path] if path in files else digest(path)) != value:  # a file not hashed yet, hashed once
                out.append((name, path))
    return out


def edited(kept) -> list[tuple[str, str]]:
    """(bot name, path) of each file in a run's ``kept`` digests that differs now."""
    return changed(kept, {name: {} for name in kept}) if isinstance(kept, dict) else []


def check(run, files: dict[str, list[str]]) -> str | None:
    """Keep the digests of the files of ``files`` ({bot name: paths}) with ``run``, and return why
    the run must not go on if a bot that has stored games lost a file's version: None if all is
    well.  A run with no game stored yet takes the files as they are now."""
    now = fingerprints(files)
    kept = run.extra(KEY)
    kept = kept if isinstance(kept, dict) and run.done() else {}
    edited = changed(kept, now)
    if edited:
        name, path = edited[0]
        return (f"{path} (bot {name}) has changed since the games stored in {run.path} were played: going on "
                f"would mix two versions of the bot under one name, and its results are the earlier one's. "
                f"Another --db starts a clean run (or put the earlier file back); `gridfall standings {run.path}` "
                f"shows the stored games")
    run.keep_extra(KEY, {**kept, **{name: now[name] for name in now if name not in kept}})
    return None
