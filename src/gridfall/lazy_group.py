"""A click group whose sub-commands are imported only when one of them is asked for.

A bot is started inside its first turn, and the referee's clock runs from the process start:
``gridfall connect4 bot`` must not import the arena, the viewer and the other games' commands
before it reads its first line (0.2 s on an Intel Xeon of 2026-11-29, a fifth of Connect Four's
first turn).  So each group names its heavy sub-commands as ``"module:attribute"`` and imports a
module when the command is run, or when ``--help`` lists it.
"""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """``lazy`` maps a sub-command's name to ``"module:attribute"``, the click command it names."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)
