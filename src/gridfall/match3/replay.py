"""A Match-3 run as replay frames, played through the rules of record and CodeAbbey's generator.

The run is the seed and each board's moves (as the referee recorded them): the boards and every
refill come from the generator, in the referee's order.  Each move gives frames for the swap,
each cascade step (the lines that explode, then the jewels that fall) and the refill, with the
move's points and the run's total; the swap's frame shows the call that chose it (its time and
what the player printed), and each board's last frame how its game ended (1000 moves, quit, no
legal move, or the error).
"""

from __future__ import annotations

from gridfall.match3.rules import (
    BOARD_SIZES,
    Board,
    Generator,
    cascade,
    fill,
    new_board,
    points,
)
from gridfall.words import counted


def _cells(grid) -> str:
    return "".join("".join(row) for row in grid)


def replay_run(seed: int, actions: list[list], title: str, sizes=BOARD_SIZES,
               output: list[list[str]] | None = None, times: list[list[float]] | None = None,
               ends: list[str] | None = None, failed: str | None = None) -> list[dict]:
    """One game (page entry) per board of the run; ``actions[b]`` is board b's moves as
    (col, row, dir), ``output[b]`` what the player printed in each call (one more than the moves:
    the call that ended the game, shown on its last frame), ``times[b]`` each move's call in
    seconds, ``ends[b]`` how the game ended.  ``failed``: why the whole run failed (a file that
    cannot load, the run's time or memory over), said on the last frame of the board it stopped on,
    the first if it stopped before any; the boards after it are left out.  IllegalMove if a
    recorded move is not legal where it was played."""
    gen = Generator(seed)
    output, times, ends = output or [], times or [], ends or []
    if failed:
        sizes = sizes[:max(len(actions), 1)]
    games: list[dict] = []
    total = 0
    for number, size in enumerate(sizes, start=1):
        board = new_board(size, gen)
        moves = actions[number - 1] if number - 1 < len(actions) else []
        frames = [{"cells": board.text().replace("\n", ""), "n": size, "board": number, "move": 0, "moves": len(moves),
                   "phase": "start", "points": 0, "total": total, "marked": [], "swap": None}]
        printed = output[number - 1] if number - 1 < len(output) else []
        took = times[number - 1] if number - 1 < len(times) else []
        for k, (col, row, direction) in enumerate(moves, start=1):
            board.play(col, row, direction)  # the rules' own check: IllegalMove names the move
            grid = board.swapped(col, row, direction)
            col2, row2 = board.target(col, row, direction)
            swap = f"({col}, {row}) {direction} with ({col2}, {row2})"
            base = {"n": size, "board": number, "move": k, "moves": len(moves), "swap": swap}
            frames.append({**base, "cells": _cells(grid), "phase": "swap", "points": 0, "total": total,
                           "marked": [(row - 1) * size + col - 1, (row2 - 1) * size + col2 - 1],
                           "output": printed[k - 1] if k <= len(printed) else "",
                           "time": round(took[k - 1] * 1000) if k <= len(took) else None})
            removed = 0
            for step, cells in cascade(grid):
                if step == "explode":
                    removed += len(cells)
                marked = sorted(r * size + c for r, c in cells) if step == "explode" else []
                frames.append({**base, "cells": _cells(grid), "phase": step, "points": points(removed),
                               "total": total + points(removed), "marked": marked})
            total += points(removed)
            fill(grid, gen)
            board = Board(tuple("".join(r) for r in grid))
            frames.append({**base, "cells": _cells(grid), "phase": "refill", "points": points(removed), "total": total,
                           "marked": []})
        if len(printed) > len(moves) and printed[len(moves)]:
            frames[-1]["last_output"] = printed[len(moves)]
        frames[-1]["result"] = ends[number - 1] if number - 1 < len(ends) else None
        games.append({"title": f"{title}, board {number} ({size}x{size}, {counted(len(moves), 'move')})", "frames": frames})
    if failed:
        last = games[-1]["frames"][-1]
        last["result"] = "; ".join(filter(None, (last["result"], f"the run failed: {failed}")))
    return games


def replay_report(report: dict, title: str = "") -> list[dict]:
    """One game per board of a refereed run, from its report as ``match3 referee --json`` prints
    it (:meth:`~gridfall.match3.codeabbey.RunReport.to_json` and the ``player``, which titles
    it, else ``title``): the referee's own ``--replay`` and ``gridfall view`` of its JSON both
    make it here."""
    games, failed = report["games"], report.get("failed")
    sizes = [game["size"] for game in games] if games or not failed else BOARD_SIZES  # a run that failed to load
    return replay_run(report["seed"], [[tuple(move) for move in game["actions"]] for game in games],
                      str(report.get("player") or title),
                      sizes=sizes, output=[game["output"] for game in games],
                      times=[game.get("times") or [] for game in games], ends=[game.get("end", "") for game in games],
                      failed=failed)
