"""``load_game``: the three games by name, in the spirit of ``pyspiel.load_game``.

    load_game("samegame", board="standard:3")
    load_game("connect4", width=9, height=7, steal=True)
    load_game("match3", size=8, seed=1)
    load_game("connect4(width=7,height=6,steal=False)")   # OpenSpiel's string form
    load_game("connect4", {"width": 7, "height": 6})        # OpenSpiel's (name, dict) form

Each game module is imported on first use, so loading one game never loads the others.
"""

from __future__ import annotations

import importlib
import inspect

from gridfall.interface import GameBase, whole_number

GAMES = {
    "samegame": "gridfall.samegame.state:SameGameGame",
    "connect4": "gridfall.connect4.state:Connect4Game",
    "match3": "gridfall.match3.state:Match3Game",
}


def registered_names() -> list[str]:
    return list(GAMES)


def _parse_value(text: str):
    """A parameter's value in the string form: an int, a bool, or else the text itself."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _parse_game_string(text: str) -> tuple[str, dict]:
    name, paren, rest = text.partition("(")
    if not paren:
        return text.strip(), {}
    if not rest.endswith(")"):
        raise ValueError(f"{text!r}: a game string is name(key=value,...)")
    parameters = {}
    for item in filter(None, rest[:-1].split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"{text!r}: {item!r} is not key=value")
        parameters[key.strip()] = _parse_value(value.strip())
    return name.strip(), parameters


def load_game(name: str, params: dict | None = None, /, **parameters) -> GameBase:
    """The game called ``name`` with its parameters, given as keywords or as one dict (``params``,
    as ``pyspiel.load_game(name, params)``); ValueError naming a wrong name or parameter,
    TypeError for a name that is not a text or parameters that are not a dict."""
    if not isinstance(name, str):
        raise TypeError(f"load_game({name!r:.60}): give a game's name, one of {', '.join(GAMES)}")
    if params is not None:
        if not isinstance(params, dict):
            raise TypeError(f"load_game({name!r}, {params!r:.60}): parameters are a dict, such as {{'width': 7}}")
        twice = sorted(set(params) & set(parameters))
        if twice:
            raise TypeError(f"load_game({name!r}): {twice[0]!r} is given both in the dict and as a keyword")
        parameters = {**params, **parameters}
    if "(" in name:
        name, from_string = _parse_game_string(name)
        parameters = {**from_string, **parameters}
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(GAMES)}")
    module, _, cls = GAMES[name].partition(":")
    game_class = getattr(importlib.import_module(module), cls)
    signature = inspect.signature(game_class).parameters
    known = list(signature)
    unknown = [p for p in parameters if p not in known]
    if unknown:
        raise ValueError(f"{name} has no parameter {unknown[0]!r}; its parameters are {', '.join(known)}")
    for key, value in parameters.items():  # a whole-number parameter gets one: size="x" is named here
        if signature[key].annotation in (int, "int") and whole_number(value) is None:
            raise ValueError(f"{name}: {key} must be a whole number, not {value!r}")
        # bool("false") is True: a yes-or-no parameter takes True or False (or 1 or 0), never text
        if signature[key].annotation in (bool, "bool") and not (isinstance(value, bool) or whole_number(value) in (0, 1)):
            raise ValueError(f"{name}: {key} must be True or False, not {value!r}")
    return game_class(**parameters)
