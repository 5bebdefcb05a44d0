"""Where gridfall's Connect Four games went: the player's score by opening line, seat by seat.

Reads the games ``benchmarks/connect4_strength.py --record FILE`` wrote and groups each
opponent's games, for each of the player's seats, by their first ``--actions`` actions (both
sides', STEAL included).  Prints one row a line played at least ``--min-games`` times: the line,
its games, the player's wins, draws and losses, and its score.  A line that loses often is where
to look next (``benchmarks/connect4_losses.py`` then finds the losing move); a run's games share
their first dozen plies in a few dozen ways, so one line can weigh on a whole run.

    python benchmarks/connect4_lines.py games.jsonl [--actions 6] [--min-games 5] [--player player]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from common import console, count, first_paragraph, machine_line, read_games, run_script
from rich.table import Table

from gridfall.connect4.rules import action_text


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("games", type=Path, help="a file from connect4_strength.py --record")
    parser.add_argument("--actions", type=count, default=6, help="the actions that make a line (default 6)")
    parser.add_argument("--min-games", type=count, default=5, help="the fewest games a line shown has (default 5)")
    parser.add_argument("--player", default="player", help="the seat name whose games to group")
    args = parser.parse_args()
    if args.actions < 1 or args.min_games < 1:
        raise SystemExit("--actions and --min-games must be at least 1")
    games = [g for g in read_games(args.games) if args.player in g["seats"]]
    if not games:
        raise SystemExit(f"{args.games}: no game has a seat named {args.player!r} (--player)")
    # (opponent, seat, line) -> [wins, draws, losses]
    lines: dict[tuple[str, int, tuple[int, ...]], list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in games:
        seat = g["seats"].index(args.player)
        outcome = 1 if g["winner"] is None else (0 if g["winner"] == seat else 2)
        lines[(g.get("opponent", "?"), seat, tuple(g["moves"][:args.actions]))][outcome] += 1
    table = Table(title=f"{args.player}'s games by their first {args.actions} actions ({args.games.name})")
    for column in ("opponent", "seat", "line", "games", "W / D / L", "score"):
        table.add_column(column, justify="right")
    shown = 0
    for (opponent, seat, line), (w, d, lost) in sorted(lines.items(), key=lambda item: (item[0][:2], -sum(item[1]))):
        n = w + d + lost
        if n < args.min_games:
            continue
        shown += n
        table.add_row(opponent, "first" if seat == 0 else "second", " ".join(action_text(m) for m in line), str(n),
                      f"{w} / {d} / {lost}", f"{(w + d / 2) / n:.1%}")
    out = console()
    out.print(table)
    out.print(f"{shown} of {len(games)} games lie on a line shown (--min-games {args.min_games})")
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
