"""Terminal rendering of SameGame boards and result tables (rich)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from gridfall.printable import printable
from gridfall.samegame import rules

PALETTE = ("white on red", "black on green", "white on blue", "black on yellow", "white on magenta")


def board_text(board: rules.Board, highlight: frozenset[tuple[int, int]] = frozenset()) -> Text:
    """The board in colour, y axis on the left, x axis below; highlighted cells marked."""
    text = Text()
    for y in reversed(range(rules.HEIGHT)):
        text.append(f"{y:>2} ", style="dim")
        for x in range(rules.WIDTH):
            colour = board[x, y]
            if colour == rules.EMPTY:
                text.append(" · ", style="dim")
            else:
                mark = "*" if (x, y) in highlight else str(colour)
                text.append(f" {mark} ", style=PALETTE[colour] + (" bold" if (x, y) in highlight else ""))
        text.append("\n")
    text.append("   " + "".join(f"{x:>2} " for x in range(rules.WIDTH)), style="dim")
    return text


def summary_line(board: rules.Board) -> str:
    counts = board.colour_counts()
    groups = board.groups()
    colours = ", ".join(f"{c}:{n}" for c, n in enumerate(counts) if n)
    return (
        f"{board.cell_count()} cells ({colours}); {len(groups)} legal moves; "
        f"largest group {max((g.size for g in groups), default=0)}"
    )


def reports_table(reports, title: str, one_turn: bool = False) -> Table:
    """Per-board referee results.  A one-turn game has no later turns: its slowest turn is blank.
    So is the first turn of a bot that never answered it (a timeout, a crash): it has no time."""
    table = Table(title=Text(printable(title)))  # the bot's command: text, never markup or a terminal command
    table.add_column("board")
    table.add_column("score", justify="right")
    table.add_column("actions", justify="right")
    table.add_column("cleared")
    table.add_column("first turn", justify="right")
    table.add_column("slowest turn", justify="right")
    table.add_column("outcome")
    for r in reports:
        # the verdict's detail quotes the bot: a Text, so that "[/x]" is shown, not parsed
        outcome = Text("ok") if r.ok else Text(rules.verdict_text(r.outcome, r.detail), "red")  # as the viewer says it
        if r.warnings:
            outcome.append(f" ({len(r.warnings)} warnings)")
        first = f"{r.first_turn_seconds:.2f} s" if r.times else ""
        slowest = f"{r.slowest_turn_seconds * 1000:.1f} ms" if r.actions > 1 and not one_turn else ""
        table.add_row(Text(r.board), str(r.score), str(r.actions), "yes" if r.cleared else "", first, slowest, outcome)
    return table


def anchors_table(total: int, seconds: float, online, offline) -> Table:
    """gridfall's total beside published totals on the 20 standard boards."""
    table = Table(title="beside published totals on the 20 standard boards (CodinGame scoring)")
    table.add_column("program")
    table.add_column("total", justify="right")
    table.add_column("gridfall - it", justify="right")
    table.add_row(Text(f"gridfall, {seconds:g} s a board, one core", style="bold"), Text(f"{total:,}", style="bold"), "")
    for name, value in online:
        table.add_row(f"{name} (20 s, one core)", f"{value:,}", f"{total - value:+,}")
    for name, value in offline:
        table.add_row(f"{name} (offline)", f"{value:,}", f"{total - value:+,}")
    return table
