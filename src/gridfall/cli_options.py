"""What the game CLIs share: the spelling of time flags, and hidden aliases for renamed flags.

Time flags have two spellings in every command:

- ``--time SECONDS``: the time of a whole job (a search, a benchmark board, a Match-3 run);
- ``--first-turn-ms`` / ``--turn-ms``: the time of each turn of a protocol, in milliseconds
  (a referee's limits, a bot's own budgets), as the platforms state them.

``--time-scale`` multiplies a referee's limits.  A flag renamed to this scheme keeps its old
spelling for one release as a hidden alias (:func:`renamed`), with a note on stderr.
"""

from __future__ import annotations

import functools

import click


def renamed(old: str, new: str, parameter: str, scale: float = 1.0):
    """A hidden ``old`` flag whose value, times ``scale``, is passed as ``parameter`` (``new``'s)."""

    def decorate(command):
        hidden_name = f"renamed_{parameter}"

        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            value = kwargs.pop(hidden_name)
            if value is not None:
                click.echo(f"gridfall: {old} is now {new}; the old spelling goes in the next release", err=True)
                kwargs[parameter] = value * scale
            return command(*args, **kwargs)

        return click.option(old, hidden_name, type=float, hidden=True, default=None)(wrapper)

    return decorate
