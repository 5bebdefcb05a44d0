"""Your player as one file for its platform: ``gridfall connect4 export --player FILE.py:NAME``
and ``gridfall samegame export --player FILE.py:NAME`` (either flavour: ``--one-turn`` too) for
CodinGame, ``gridfall match3 export --player FILE.py:NAME`` for CodeAbbey.

The player is the one ``bot --player`` plays (:mod:`gridfall.user_player`): written against the
one interface, tried in the arena, then submitted as it is.  The file bundles
(:mod:`gridfall.export`):

- your module, and the modules of yours beside it that it imports (``FOLDER/helpers.py`` for
  ``import helpers``), each under its own name;
- the package's modules they import, at any depth (``from gridfall.uct import UCTPlayer``);
- the game's interface state, and the protocol loop (CodinGame) or the suggest function
  (CodeAbbey) that asks the player.

CodinGame runs Python 3.11 with the standard library and NumPy, CodeAbbey Python 3.6 (or PyPy)
with the standard library; neither has numba: a module that needs it (gridfall's engines and its
built-in agents) is refused, with the chain of imports that leads to it.  So is a use of the
package's own functions (``gridfall.load_game``): the file carries modules, and the factory is
given the game.  For CodeAbbey every module's annotations are made strings
(:mod:`gridfall.python36`).  On CodinGame your prints go to stderr, as on the command line;
``GRIDFALL_SEED=N`` gives ``seed=N`` to a factory that takes it (else each run draws one).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from gridfall.export import (ExportError, bundle, folder_modules, is_package, module_source,
                             package_closure, package_imports)
from gridfall.python36 import for_python_36, newer_calls

RESERVED = {"gridfall", "numpy", "__future__"}


@dataclass(frozen=True)
class Platform:
    """Where the file runs: its Python, what it has beside the standard library, and the sentence
    that says so when a module is refused."""

    python: tuple[int, int]
    extras: tuple[str, ...]
    has: str
    lazy_absent: tuple[str, ...] = ()  # see gridfall.export.bundle


CODINGAME = Platform((3, 11), ("numpy",), "CodinGame runs Python 3.11 with the standard library and NumPy: no numba")
CODEABBEY = Platform((3, 6), (), "CodeAbbey runs Python 3.6 (or PyPy) with the standard library: no numba, no NumPy",
                     lazy_absent=("numpy",))


@dataclass(frozen=True)
class GameFile:
    """What a game's file runs beside your modules: gridfall's modules, and the lines that make the
    game the factory is given (``_GAME``) and then play the protocol, or define ``suggest``."""

    modules: tuple[str, ...]
    title: str
    game: str
    play: str
    platform: Platform = CODINGAME
    prelude: str = ""


# The CodinGame bots read their clock first, and keep stdout for the answers alone
CLOCK_AND_ANSWERS = """
import sys as _sys
import time as _time

_STARTED = _time.monotonic()  # the first turn counts from here
_ANSWERS = _sys.stdout  # the referee reads the answers alone: from here on, prints go to stderr
_sys.stdout = _sys.stderr
"""

# A CodinGame bot's last line: 1 when the player raised, or the input was not the protocol's
EXIT_AS_PLAYED = "_sys.exit(0 if _ENDED_WELL else 1)\n"

GAMES = {
    "connect4": GameFile(
        modules=("gridfall.connect4.state", "gridfall.connect4.interface_agent", "gridfall.connect4.protocol"),
        title="A Connect Four player for CodinGame (7x9 with STEAL), written against gridfall's interface.",
        game="from gridfall.connect4.state import Connect4Game\n\n_GAME = Connect4Game()",
        play=("from gridfall.connect4.interface_agent import InterfaceAgent\n"
              "from gridfall.connect4.protocol import play\n\n"
              "_ENDED_WELL = play(InterfaceAgent(_PLAYER, {label!r}), _sys.stdin, _ANSWERS, started=_STARTED,\n"
              "                   first_turn={first_turn!r}, turn={turn!r}, fallback=False)\n" + EXIT_AS_PLAYED),
        prelude=CLOCK_AND_ANSWERS),
    "samegame": GameFile(
        modules=("gridfall.samegame.state", "gridfall.samegame.player_bot"),
        title="A SameGame player for CodinGame (turn by turn), written against gridfall's interface.",
        # a board that needs no data file (the file carries none); each turn's state is the board read
        game="from gridfall.samegame.state import SameGameGame\n\n_GAME = SameGameGame('random:0')",
        play=("from gridfall.samegame.player_bot import play\n\n"
              "_ENDED_WELL = play(_PLAYER, _sys.stdin, _ANSWERS, first_turn={first_turn!r}, turn={turn!r},\n"
              "                   started=_STARTED)\n" + EXIT_AS_PLAYED),
        prelude=CLOCK_AND_ANSWERS),
    "match3": GameFile(  # CodeAbbey calls suggest: each call's state is the board it is given
        modules=("gridfall.match3.state", "gridfall.match3.player_suggest"),
        title="A Match-3 player for CodeAbbey (problem 370), written against gridfall's interface.",
        game="from gridfall.match3.state import Match3Game\n\n_GAME = Match3Game()",
        play=("from gridfall.match3.player_suggest import suggest_for\n\n"
              "suggest = suggest_for(_PLAYER, seed=_SEED, run_seconds={run_seconds!r})\n"),
        platform=CODEABBEY),
}
SAMEGAME_ONE_TURN = GameFile(  # the whole line at once: see player_bot.play_one_turn for how the time is shared
    modules=GAMES["samegame"].modules,
    title="A SameGame player for CodinGame (one turn: the whole line at once), written against gridfall's interface.",
    game=GAMES["samegame"].game,
    play=("from gridfall.samegame.player_bot import play_one_turn\n\n"
          "_ENDED_WELL = play_one_turn(_PLAYER, _sys.stdin, _ANSWERS, seconds={first_turn!r}, share={share!r},\n"
          "                            started=_STARTED)\n" + EXIT_AS_PLAYED),
    prelude=CLOCK_AND_ANSWERS)

MAIN = """
import random as _random
import sys as _sys

from gridfall.run_seed import seed_from_environment
from gridfall.user_player import TargetError, made_by
import {module} as _mine
{game}

_SEED = seed_from_environment()
if _SEED is None:
    _SEED = _random.SystemRandom().randrange(2**31)
_FACTORY = _mine
for _part in {name!r}.split("."):
    _FACTORY = getattr(_FACTORY, _part)
try:
    _PLAYER = made_by(_FACTORY, {label!r}, _GAME, _SEED)
except TargetError as _e:
    print("gridfall bot: " + str(_e), file=_sys.stderr)
    _sys.exit(1)
{play}"""


def export_player(game: str, target: str, *, first_turn: float | None = None, turn: float | None = None,
                  share: float | None = None, run_seconds: float | None = None) -> str:
    """The file that plays ``game`` on its platform with the player TARGET makes.  CodinGame's
    protocol answers within ``first_turn`` seconds of its start and then ``turn`` a turn; with a
    ``share``, SameGame's one-turn flavour instead, each move given that share of the time left
    of ``first_turn`` (:func:`gridfall.samegame.player_bot.play_one_turn`).  CodeAbbey's
    suggest function (Match-3) shares ``run_seconds`` for the whole run over the moves
    (:func:`gridfall.match3.player_suggest.suggest_for`).  The player is made here first, so that
    a target that cannot make one is named now; ExportError says what the platform would not take."""
    from gridfall.registry import load_game
    from gridfall.user_player import TargetError, make_player

    try:
        with contextlib.redirect_stdout(sys.stderr):  # its prints: not into a file written to stdout
            make_player(target, load_game(game), 0)
    except TargetError as e:
        raise ExportError(str(e)) from None
    where, _, name = target.rpartition(":")
    mine: dict[str, str] = {}  # the user's modules: none for a player of the package's own (gridfall.uct:UCTPlayer)
    if where.split(".")[0] == "gridfall":
        module = where
    else:
        module, mine = _user_modules(_source_path(where))
    if share is not None and game != "samegame":
        raise ValueError(f"share={share!r}: only SameGame has a one-turn flavour")
    file = GAMES[game] if share is None else SAMEGAME_ONE_TURN
    main = MAIN.format(game=file.game, module=module, name=name, label=target,
                       play=file.play.format(label=target, first_turn=first_turn, turn=turn, share=share,
                                             run_seconds=run_seconds))
    roots = list(mine) or [module]
    package = package_closure(list(mine.values()), start=(*file.modules, "gridfall.run_seed", "gridfall.user_player",
                                                          *([] if mine else [module])))
    _refuse_package_functions(mine, set(package))
    try:
        text = bundle(package + list(mine), main, title=file.title, prelude=file.prelude, python=file.platform.python,
                      extras=file.platform.extras, given=mine, lazy_absent=file.platform.lazy_absent)
    except ExportError as e:
        if e.module is None or e.module in mine:
            raise
        raise ExportError(f"{e}; your player needs it through {_chain(e.module, roots, mine)} "
                          f"({file.platform.has})") from None
    if file.platform.python < (3, 7):  # the package's own modules are read by a test
        found = newer_calls({name: for_python_36(source) for name, source in mine.items()}) or []
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            version = ".".join(map(str, file.platform.python))
            raise ExportError(f"{found[0]}{more}, read by vermin; the file must run on Python {version}")
    return text


def _source_path(where: str) -> Path:
    """The file of the target's FILE.py or MODULE."""
    if where.endswith(".py"):
        return Path(where)
    spec = importlib.util.find_spec(where)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ExportError(f"{where} is not a module written in Python: the export carries sources")
    return Path(spec.origin)


def _user_modules(path: Path) -> tuple[str, dict[str, str]]:
    """The target's module name, and module name -> source of it and of the modules of its folder
    it imports, at any depth, each after those it imports (the target last)."""
    found: dict[str, str] = {}
    seen: set[str] = set()

    def visit(name: str, file: Path) -> None:
        if name in seen:
            return
        seen.add(name)
        if name in RESERVED or name in sys.stdlib_module_names:
            raise ExportError(f"{file}: a module of yours named {name!r} would stand in for {name} in the exported "
                              f"file; rename it")
        try:
            source = importlib.util.decode_source(file.read_bytes())  # as Python reads it: its coding line, else UTF-8
            tree = ast.parse(source)
        except (OSError, UnicodeDecodeError, SyntaxError) as e:
            raise ExportError(f"{file}: cannot read it as Python: {e}") from None
        relative = next((node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level), None)
        if relative is not None:
            raise ExportError(f"{file}, line {relative.lineno}: a relative import; in the exported file your modules "
                              f"are not in a package: import them by name (import helpers)")
        for beside in folder_modules(tree, file.parent, RESERVED):
            visit(beside.stem, beside)
        found[name] = source

    visit(path.stem, path)
    return path.stem, found


def _chain(module: str, roots: list[str], mine: dict[str, str]) -> str:
    """How the player's modules (``roots``; ``mine`` holds the user's sources) reach ``module`` of
    the package: ``mine -> gridfall.a -> gridfall.b``."""
    parents: dict[str, str] = {}
    queue = list(roots)
    while queue:
        name = queue.pop(0)
        for imported in package_imports(ast.parse(mine[name] if name in mine else module_source(name))):
            if imported not in parents and imported not in roots:  # a tree: no loop in the chain
                parents[imported] = name
                queue.append(imported)
    chain = [module]
    while chain[-1] in parents:
        chain.append(parents[chain[-1]])
    return " -> ".join(reversed(chain))


def _refuse_package_functions(mine: dict[str, str], bundled: set[str]) -> None:
    """ExportError for a use of the package's own functions (``gridfall.load_game``): the file
    carries the package's modules, not its ``__init__``."""
    for module, source in mine.items():
        tree = ast.parse(source)
        bound = set()  # the names the package is bound to: import gridfall, import gridfall.uct, import gridfall as g
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "gridfall" or (alias.asname is None and alias.name.startswith("gridfall.")):
                        bound.add(alias.asname or "gridfall")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
                used = [node.attr]
            elif isinstance(node, ast.ImportFrom) and node.module == "gridfall":
                used = [alias.name for alias in node.names]
            else:
                continue
            for attr in used:
                if f"gridfall.{attr}" not in bundled and not is_package(f"gridfall.{attr}"):
                    raise ExportError(f"{module}, line {node.lineno}: uses gridfall.{attr}, which the exported file "
                                      f"does not carry (it holds gridfall's modules, not the package's own "
                                      f"functions): use the game your factory is given (game=)")
