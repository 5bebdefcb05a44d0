"""What the game CLIs share: the spelling of time flags, and hidden aliases for renamed flags.

Time flags have two spellings in every command:

- ``--time SECONDS``: the time of a whole job (a search, a benchmark board, a Match-3 run);
- ``--first-turn-ms`` / ``--turn-ms``: the time of each turn of a protocol, in milliseconds
  (a referee's limits, a bot's own budgets), as the platforms state them.

``--time-scale`` multiplies a referee's limits.  A flag renamed to this scheme keeps its old
spelling for one release as a hidden alias (:func:`renamed`), with a note on stderr.

Every table goes through :func:`console`: no markup highlighting of numbers, and the full width
of a line (not 80 columns) when the output is a pipe or a file.
"""

from __future__ import annotations

import functools
import sys

import click

PIPED_WIDTH = 200  # columns of a table written to a pipe or a file: wide rows stay one line each


def console(stderr: bool = False):
    """A rich console for tables and lines; text from bots goes in as ``rich.text.Text``."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, highlight=False, width=None if stream.isatty() else PIPED_WIDTH)


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
