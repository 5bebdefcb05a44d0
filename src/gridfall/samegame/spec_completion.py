"""Tab completion of a SameGame BOARD: its kind (``standard:``), then its number (``standard:7``).

What is typed that begins no kind's name (``./``, ``boards/x``) is a file's path, and the shell
completes it; a file whose name begins like a kind's is reached by typing ``./`` first.
"""

from __future__ import annotations

from typing import Any

from click.shell_completion import CompletionItem

from gridfall.samegame.boards import GENERATED, ROWS, SETS, set_specs


def complete_board(ctx: Any, param: Any, incomplete: str) -> list[CompletionItem]:
    """Click's ``shell_complete`` for an argument or option that takes board specs."""
    kind, colon, _ = incomplete.partition(":")
    if not colon:
        kinds = [name + ":" for name in (*SETS, *GENERATED, ROWS) if name.startswith(incomplete)]
        return [CompletionItem(k) for k in kinds] or [CompletionItem(incomplete, type="file")]
    if kind in SETS:
        return [CompletionItem(spec) for spec in set_specs(kind) if spec.startswith(incomplete)]
    if kind in GENERATED or kind == ROWS:  # a seed, or the rows themselves: anything goes
        return []
    return [CompletionItem(incomplete, type="file")]  # no kind: a path with a colon in it
