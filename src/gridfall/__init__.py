"""gridfall: exact rules, fast engines, strong players and faithful referees
for three gravity grid games (SameGame, Match-3 Jewels, Connect Four 7x9 with STEAL).

``gridfall.load_game(name, **parameters)`` gives any of the three games through one interface
(:mod:`gridfall.interface`)."""

import time as _time

STARTED = _time.monotonic()  # the first import of gridfall, as close to process start as Python
# allows: a bot's first turn is timed from the process start, so its budget counts from here

__version__ = "0.1.0"


def load_game(name: str, **parameters):
    """The game ``name`` ("samegame", "connect4", "match3"); see :mod:`gridfall.registry`."""
    from gridfall.registry import load_game as _load_game

    return _load_game(name, **parameters)
