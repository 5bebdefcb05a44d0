"""gridfall: exact rules, fast engines, strong players and faithful referees
for three gravity grid games (SameGame, Match-3 Jewels, Connect Four 7x9 with STEAL).

``gridfall.load_game(name, **parameters)`` gives any of the three games through one interface
(:mod:`gridfall.interface`), and ``gridfall.load_player(game, name)`` gridfall's players on its
states (:mod:`gridfall.players`)."""

import time as _time

TYPE_CHECKING = False  # type checkers take it as True; at run time typing's 7 ms are not paid
if TYPE_CHECKING:  # nor are the games loaded before they are asked for: a bot imports gridfall first
    from gridfall.interface import GameBase
    from gridfall.players import Player


def _process_start() -> float:
    """``time.monotonic()`` when this process started (Linux: its start in /proc, to 10 ms), else
    now.  A referee times a bot's first turn from the moment it starts the process, so the time
    the interpreter takes to start and import counts against the bot, and can be long on a
    machine busy with other bots."""
    try:
        import os

        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
        return _time.monotonic() - min(max(age, 0.0), 60.0)
    except (OSError, ValueError, IndexError, AttributeError):
        return _time.monotonic()


STARTED = _process_start()  # a bot's first-turn budget counts from here

__version__ = "0.1.0"


def load_game(name: str, params: "dict | None" = None, /, **parameters) -> "GameBase":
    """The game ``name`` ("samegame", "connect4", "match3"), its parameters as keywords or one
    dict (OpenSpiel's form); see :mod:`gridfall.registry`."""
    from gridfall.registry import load_game as _load_game

    return _load_game(name, params, **parameters)


def load_player(game: "GameBase | str", name: "str | None" = None, *, seed: int = 0, **params) -> "Player":
    """gridfall's player ``name`` for ``game`` (a game from load_game, or a game's name); see
    :mod:`gridfall.players`."""
    from gridfall.players import load_player as _load_player

    return _load_player(game, name, seed=seed, **params)
