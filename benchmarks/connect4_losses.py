"""Where gridfall's Connect Four games were lost: the losing move of each lost game, found by the exact solver.

Reads the games ``benchmarks/connect4_strength.py --record FILE`` wrote.  For each game the
player lost, it walks back from the end over the player's own moves, solving (weakly: win, draw
or loss) the position before each.  The first position from the end that the player had not yet
lost holds the losing move; a position the solver cannot settle in ``--seconds`` means the game
was lost further from the end than the solver reaches.  Prints one row a lost game and a
summary by the number of empty cells at the losing move.  Games lost on time, by a crash or by an
illegal answer are counted apart and not examined.

    python benchmarks/connect4_losses.py games.jsonl [--seconds 20] [--player player]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from common import console, duration, first_paragraph, machine_line, read_games, run_script
from rich.table import Table

from gridfall.connect4 import engine
from gridfall.connect4.rules import STEAL, Game, action_text
from gridfall.connect4.solver import Solver


def value(solver: Solver, game: Game, seconds: float) -> int | None:
    """+1, 0 or -1 for the player to move in ``game``, or None if not settled in ``seconds``."""
    result = solver.solve(*engine.from_game(game), weak=True, seconds=seconds)
    return (result.score > 0) - (result.score < 0) if result.exact else None


def losing_move(moves: list[int], seat: int, solver: Solver, seconds: float) -> tuple[int, int, bool]:
    """(index of the move, empty cells before it, settled) for the game ``moves`` that seat lost.
    ``settled`` is False when the walk back met a position the solver could not settle: the
    index is then that position's move, and the loss lies at or before it."""
    games = [Game(steal=True)]
    for move in moves:
        games.append(games[-1].clone())
        games[-1].apply_action(move)
    cells = games[0].width * games[0].height
    candidate = None
    for i in range(len(moves) - 1, -1, -1):
        before = games[i]
        if before.current_player() != seat or moves[i] == STEAL:
            continue
        empty = cells - bin(before.position.occupied).count("1")
        v = value(solver, before, seconds) if before.position.occupied else None
        if v is None:
            return i, empty, False
        if v >= 0:
            return i, empty, True
        candidate = (i, empty)
    i, empty = candidate if candidate else (0, cells)
    return i, empty, True  # lost from the player's first move on (the opening)


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("games", type=Path, help="a file from connect4_strength.py --record")
    parser.add_argument("--seconds", type=duration, default=20.0, help="solver time per position")
    parser.add_argument("--player", default="player", help="the seat name whose losses to examine")
    args = parser.parse_args()
    games = read_games(args.games)
    lost = [g for g in games if g["winner"] is not None and g["seats"][g["winner"]] != args.player
            and args.player in g["seats"]]
    faults = [g for g in lost if g["reason"].startswith(f"{args.player}:")]  # on time, a crash, a bad answer
    lost = [g for g in lost if g not in faults]
    print(f"{len(games)} games, {len(lost) + len(faults)} lost by {args.player}, {len(faults)} of them by a fault "
          f"(not examined): {sorted({g['reason'] for g in faults})}", file=sys.stderr)
    solver = Solver()
    table = Table(title=f"Losing moves of {args.player} ({args.seconds:g} s a solve)")
    for column in ("opponent", "seat", "moves", "losing move", "empty cells", "settled", "reason"):
        table.add_column(column, justify="right")
    by_empty: Counter = Counter()
    for g in lost:
        seat = g["seats"].index(args.player)
        i, empty, settled = losing_move(g["moves"], seat, solver, args.seconds)
        by_empty[(empty // 4 * 4, settled)] += 1
        line = " ".join(action_text(m) for m in g["moves"])
        table.add_row(g.get("opponent", "?"), "first" if seat == 0 else "second", line,
                      f"{i + 1}: {action_text(g['moves'][i])}", str(empty), "yes" if settled else "at or before",
                      g["reason"])
    console().print(table)
    summary = Table(title="Losing moves by empty cells")
    for column in ("empty cells", "settled", "games"):
        summary.add_column(column, justify="right")
    for (empty, settled), n in sorted(by_empty.items()):
        summary.add_row(f"{empty}-{empty + 3}", "yes" if settled else "at or before", str(n))
    console().print(summary)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
