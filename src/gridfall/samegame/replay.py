"""A SameGame line as replay frames, played through the rules of record.

Frame k shows the board after k clicks: its cells (rows top first, ``.`` empty), the group that
click k + 1 removes (outlined on the page), the score so far, what that click gains, and, for a
bot's game, the turn that chose it: its time, its message and what the bot wrote to stderr (the
one-turn flavour's single turn: frame 0).  A game the referee ended on a refused click or a
fault has one turn more than clicks: the last frame shows that turn and the verdict.
"""

from __future__ import annotations

from gridfall.samegame.rules import (
    CLEAR_BONUS,
    EMPTY,
    HEIGHT,
    WIDTH,
    Board,
    Cell,
    points,
    verdict_text,
)


def _cells(board: Board) -> str:
    return "".join("." if board.cells[x][y] == EMPTY else str(board.cells[x][y])
                   for y in reversed(range(HEIGHT)) for x in range(WIDTH))


def _index(x: int, y: int) -> int:
    return (HEIGHT - 1 - y) * WIDTH + x


def replay_game(board: Board, moves: list[Cell], title: str, plot: list[tuple[float, int]] | None = None,
                output: list[str] | None = None, times: list[float] | None = None,
                messages: list[str] | None = None, result: str | None = None) -> dict:
    """The frames of ``moves`` from ``board`` (IllegalMove if a click is not legal there), an
    optional plot of the best score over time (seconds, score) for a search, and for a bot's game
    each turn's ``output`` (stderr), time (seconds) and message, and the referee's verdict
    (``result``, None for a game that ended well)."""
    frames, score = [], 0
    output, times, messages = output or [], times or [], messages or []
    for k in range(len(moves) + 1):
        frame = {"cells": _cells(board), "move": k, "score": score, "cleared": board.is_cleared(),
                 "left": board.cell_count(), "output": output[k] if k < len(output) else "",
                 "time": round(times[k] * 1000) if k < len(times) else None,
                 "message": messages[k] if k < len(messages) else ""}
        if k < len(moves):
            x, y = moves[k]
            group = board.check(x, y)
            after, gained = board.play(x, y)
            frame.update(group=sorted(_index(gx, gy) for gx, gy in group), next=f"{x} {y}", size=len(group),
                         gain=points(len(group)) + (CLEAR_BONUS if after.is_cleared() else 0))
            board, score = after, score + gained
        frames.append(frame)
    frames[-1]["result"] = result
    return {"title": title, "moves": len(moves), "frames": frames, "score": score,
            "plot": [[round(t, 3), s] for t, s in plot] if plot else None}


def replay_record(record: dict) -> dict:
    """The frames of one board a referee judged, from its record as ``samegame referee --json``
    prints it (:meth:`~gridfall.samegame.codingame.GameRecord.to_json`; ``cells`` holds a file's
    board): the referee's own ``--replay`` and ``gridfall view`` of its JSON both make it here."""
    from gridfall.samegame.boards import load_board

    board = load_board(record.get("cells") or record["board"])
    return replay_game(board, [(x, y) for x, y in record["moves"]], f"{record['board']}: {record['score']} "
                       f"({record['outcome']})", output=record.get("output"), times=record.get("times"),
                       messages=record.get("messages"), result=verdict(record["outcome"], record.get("detail", "")))


def verdict(outcome: str, detail: str) -> str | None:
    """A bot's game's last frame's result: None for a game that ended well, else the referee's
    verdict and its detail, named once."""
    return None if outcome in ("ok", "") else verdict_text(outcome, detail)
