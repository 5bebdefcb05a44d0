"""What a bot's command will run, read without running it: its words as the shell gives them,
the program after ``env``'s settings (and after a project runner's ``run``: ``uv run python3
bot.py``) and the file the shell would find for it (:func:`program_file`), whether it is
gridfall, the files of the module that ``python -m MODULE`` runs, and whether it can start at
all (:func:`cannot_start`: the only steps that run anything are the shell reading the command and
the bot's Python compiling its script).

A bot can be a module run from a folder of its own: ``env PYTHONPATH=variant/src python3 -m
gridfall connect4 bot`` plays the copy of gridfall under ``variant/src``, which is how one
version of a package is tested against another.  No word of such a command names a file, so
the edited-bot check needs the folders Python will search, in Python's order:

- the working folder first, unless ``-I`` (isolated) or ``-P`` drops it;
- then the entries of ``PYTHONPATH`` (an empty entry is the working folder), unless ``-I`` or
  ``-E`` makes Python ignore the environment.  ``env NAME=VALUE`` sets it for the command only,
  ``env -i`` and ``env -u PYTHONPATH`` clear it, and ``env -C DIR`` moves the working folder.

The folders of the installed packages come after these, and are not read: the interpreter and
its site-packages are not the bot.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from typing import NamedTuple

from gridfall.arena.script_syntax import syntax_error
from gridfall.arena.shebang import shebang_fault
from gridfall.printable import one_line

INTERPRETER = re.compile(r"(python|pypy)(\d+(\.\d+)*)?")  # python, python3, python3.11, pypy3
# `uv run COMMAND` runs COMMAND in the project's virtual environment, as do these others; a runner
# given options of its own (`uv run --with x ...`) is not read, as their values vary by tool
RUNNERS = ("uv", "poetry", "pipenv", "pdm", "hatch")
TAKES_VALUE = set("cmWX")  # the short options of python whose value follows (-Wignore or -W ignore)


def shell_words(command: str) -> list[str]:
    """The words of a bot's command line as ``/bin/sh`` gives them to the program: split as the
    shell splits (:func:`shlex.split`, which raises ValueError at an unclosed quote), with ``~``
    at a word's start and ``$NAME`` or ``${NAME}`` replaced as the shell replaces them
    (``python3 ~/bots/mine.py``, ``env PYTHONPATH=$HOME/variant ...``).  A name that is not set
    is left as written, and a ``$`` the command single-quotes is replaced all the same: rare in a
    bot's command, and the referee's reading of it only, not the bot's."""
    return [os.path.expandvars(os.path.expanduser(word)) for word in shlex.split(command)]  # ~ at the start only


def after_env(words: list[str]) -> tuple[int, dict[str, str], str]:
    """Where the program starts in a command's words (past ``env``, its options and its NAME=VALUE
    settings, then past a runner's ``run``; 0 with neither), with the ``PYTHONPATH`` it gets and
    its working folder."""
    environment = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    cwd = os.getcwd()
    if not words or os.path.basename(words[0]) != "env":
        return after_runner(words, 0), environment, cwd
    at = 1
    while at < len(words) and words[at].startswith("-"):
        option, _, value = words[at].partition("=")
        if option in ("-i", "--ignore-environment", "-"):
            environment = {}
        elif option in ("-u", "--unset", "-C", "--chdir"):
            if not value and at + 1 < len(words):
                at += 1
                value = words[at]
            if option in ("-C", "--chdir"):
                cwd = os.path.join(cwd, value)
            else:
                environment.pop(value, None)
        at += 1
    while at < len(words) and "=" in words[at]:
        name, _, value = words[at].partition("=")
        environment[name] = value
        at += 1
    return after_runner(words, at), environment, cwd


def after_runner(words: list[str], at: int) -> int:
    """Past ``uv run`` (or another of :data:`RUNNERS`) at ``at`` when the command follows it at
    once, else ``at``."""
    if at + 2 < len(words) and os.path.basename(words[at]) in RUNNERS and words[at + 1] == "run" \
            and not words[at + 2].startswith("-"):
        return at + 2
    return at


def gridfall_arguments(words: list[str]) -> int | None:
    """Where gridfall's own arguments begin in the words of a command that runs gridfall, either
    ``python -m gridfall ...`` or its script ``gridfall ...``; None for any other command."""
    at = after_env(words)[0]
    if at < len(words) and os.path.basename(words[at]) == "gridfall":
        return at + 1
    run = python_run(words)
    return run.arguments if run is not None and run.module == "gridfall" else None


def gridfall_words(command: str) -> tuple[list[str], int] | None:
    """The words of a command that runs gridfall, and where gridfall's own arguments begin in them
    (:func:`gridfall_arguments`); None for any other command, or one whose quotes do not close
    (the referee names that when it starts the bot)."""
    try:
        words = shell_words(command)
    except ValueError:
        return None
    at = gridfall_arguments(words)
    return None if at is None else (words, at)


class PythonRun(NamedTuple):
    """What a command that runs python will search: read once from its words."""

    module: str | None  # what ``-m`` names (None: a script, ``-c`` code or stdin)
    module_folders: list[str]  # where ``-m`` looks: the working folder (unless -I, -P), then ``path``
    path: list[str]  # the PYTHONPATH folders it gets, absolute and in order (none under -I or -E)
    arguments: int  # where the module's own arguments begin in the words (len(words) without a module)


def python_run(words: list[str]) -> PythonRun | None:
    """The :class:`PythonRun` of a command whose program (possibly after ``env``) is python or
    pypy, or None for any other command."""
    at, environment, cwd = after_env(words)
    if at >= len(words) or not INTERPRETER.fullmatch(os.path.basename(words[at])):
        return None
    flags, module, after = python_options(words[at + 1:])
    entries = environment.get("PYTHONPATH", "")
    path = [] if not entries or flags & {"I", "E"} else \
        [os.path.abspath(os.path.join(cwd, entry)) for entry in entries.split(os.pathsep)]
    folders = ([] if flags & {"I", "P"} else [os.path.abspath(cwd)]) + path
    return PythonRun(module, list(dict.fromkeys(folders)), list(dict.fromkeys(path)),
                     at + 1 + after if module else len(words))


def python_options(words: list[str]) -> tuple[set[str], str | None, int]:
    """The one-letter flags given to python before its module (``c`` for ``-c`` code), the module
    that ``-m`` names (None when it runs a file, ``-c`` code or nothing), and where the words after
    the module begin.  Short options may be joined (``-Im``)."""
    flags: set[str] = set()
    at = 0
    while at < len(words):
        word = words[at]
        if not word.startswith("-") or word in ("-", "--"):  # a file, stdin or the end of options
            return flags, None, at
        if word.startswith("--check-hash-based-pycs") and "=" not in word:
            at += 1  # its value is the next word; the other long options take none
        elif not word.startswith("--"):
            for i, letter in enumerate(word[1:], start=1):
                if letter in TAKES_VALUE:
                    value = word[i + 1:]
                    if not value:
                        at += 1
                        value = words[at] if at < len(words) else ""
                    if letter == "c":
                        flags.add("c")  # the words from here are code and its arguments, not a file
                        return flags, None, at
                    if letter == "m":
                        return flags, value or None, at + 1
                    break  # -W or -X: the rest of the word, or the next one, was its value
                flags.add(letter)
        at += 1
    return flags, None, at


def moves_the_path(prefix: list[str], i: int) -> bool:
    """Whether word ``i`` of the words before the program changes where the program is looked
    for: a runner's ``run``, ``env -i`` (``-``, ``--ignore-environment``), ``PATH=...``, or
    ``env -u PATH`` (``-uPATH``, ``--unset=PATH``)."""
    word = prefix[i]
    return word in ("run", "-", "-i", "--ignore-environment", "-uPATH", "--unset=PATH") or \
        word.startswith("PATH=") or (word == "PATH" and i > 0 and prefix[i - 1] in ("-u", "--unset"))


class ProgramFile(NamedTuple):
    """The program of a command's words, as the shell would find it here."""

    at: int  # where the program is in the words
    cwd: str  # the folder it starts in (``env -C``'s)
    path: str | None  # a path with a slash joined to ``cwd``, else the PATH's match (None: no match)


def program_file(words: list[str]) -> ProgramFile | None:
    """Where the program of a command's words is and which file the shell would run for it here,
    not followed through links; None when that cannot be told here: no program, or one found under
    a runner's or an ``env``'s other PATH (:func:`moves_the_path`).  A path is not checked: it
    may name no file."""
    at, _, cwd = after_env(words)
    if at >= len(words) or any(moves_the_path(words[:at], i) for i in range(at)):
        return None
    program = words[at]
    return ProgramFile(at, cwd, os.path.abspath(os.path.join(cwd, program)) if os.sep in program else shutil.which(program))


# A command with the shell's own syntax (a pipe, a list, a redirection, a subshell, a glob, a
# variable) or an assignment or builtin first is the shell's to run: cannot_start asks only
# whether the shell can read it.
SHELL_SYNTAX = re.compile(r"[;&|<>()`$*?\[\]{}\n]")
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
SHELL_BUILTINS = {".", ":", "!", "break", "cd", "command", "continue", "eval", "exec", "exit", "export",
                  "readonly", "return", "set", "shift", "source", "time", "trap", "ulimit", "umask", "unset",
                  "if", "for", "while", "until", "case"}


def shell_cannot_read(command: str) -> str | None:
    """The error ``/bin/sh`` (which starts every bot) finds reading ``command``, such as an
    unclosed quote, asked of the shell itself with ``-n``: it reads the command and runs none of
    it.  None when it can read it, or when that cannot be told."""
    try:
        done = subprocess.run(["/bin/sh", "-n", "-c", command], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=10)
    except ValueError:  # "embedded null byte": no program's arguments can hold one
        return "it holds a NUL character, which no command line can"
    except (OSError, subprocess.TimeoutExpired):
        return None
    said = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    if done.returncode == 0:
        return None
    return one_line(f"the shell cannot read it: {said[-1].strip() if said else f'exit code {done.returncode}'}"[:300])


def cannot_start(command: str) -> str | None:
    """Why ``command`` cannot start here: the shell cannot read it (:func:`shell_cannot_read`),
    its program is not on the PATH, or not an executable file at the path it gives, or a script
    whose ``#!`` line cannot start it (:func:`~gridfall.arena.shebang.shebang_fault`), or the
    file that python (or pypy) is told to run is not there, or that interpreter cannot compile it
    (:func:`~gridfall.arena.script_syntax.syntax_error`).  The shell and the interpreter are the
    only programs it runs, and neither runs the bot: the shell only reads the command, the
    interpreter only compiles the script.  None when it can start, and when that cannot be told
    without running the shell's own syntax (see :data:`SHELL_SYNTAX`) or a runner's environment
    (``uv run``, ``env -i``, ``env PATH=...``).

    Such a bot would lose every game as a crash ("exited with code 127", or a SyntaxError): a run
    of a thousand games of a typo, stored in its database under the settings it was started with."""
    if SHELL_SYNTAX.search(command):
        return shell_cannot_read(command)
    try:
        words = shell_words(command)
    except ValueError:  # an unclosed quote, if the shell agrees
        return shell_cannot_read(command)
    found = program_file(words)
    if found is None or ASSIGNMENT.match(words[0]) or words[found.at] in SHELL_BUILTINS:
        return None
    at, cwd, path = found
    program = words[at]
    if path is None:
        return f"{program}: no such command on the PATH"
    if not os.path.exists(path):
        return f"{program}: no such file"
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        return f"{program}: not an executable file"
    if not INTERPRETER.fullmatch(os.path.basename(program)):
        fault = shebang_fault(path)
        return None if fault is None else f"{program}: {fault}"
    flags, module, after = python_options(words[at + 1:])
    script = words[at + 1 + after] if module is None and "c" not in flags and at + 1 + after < len(words) else "-"
    if script in ("-", "--"):
        return None
    if not os.path.exists(os.path.join(cwd, script)):
        return f"{script}: no such file for {program} to run"
    error = syntax_error(path, script, cwd)
    return None if error is None else f"{error} ({program} cannot compile it)"
