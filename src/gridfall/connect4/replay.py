"""A Connect Four game record as replay frames, played through the rules of record.

Frame 0 is the empty board; frame k the board after move k, with who moved, the action (a column
or STEAL), the turn's time, the bot's debug message and what it wrote to stderr (for moves the
bots made, not the opening's), and on the last frame the result with the winning four outlined.
"""

from __future__ import annotations

from typing import Any

from gridfall.connect4.rules import STEAL, Game, action_text


def _four(rows: list[str], chip: str) -> list[int]:
    """The cells (index into the rows, top first) of a line of four ``chip``, or []."""
    height, width = len(rows), len(rows[0])
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= rr < height and 0 <= cc < width and rows[rr][cc] == chip for rr, cc in cells):
                    return [rr * width + cc for rr, cc in cells]
    return []


def replay_game(moves: list[int], names: list[str], title: str, *, opening: int = 0, times: list[float] | None = None,
                messages: list[str] | None = None, output: list[str] | None = None, reason: str = "", width: int = 9,
                height: int = 7) -> dict:
    """The frames of a game: ``moves`` (the opening's first), ``names`` of seats 0 and 1, each bot
    turn's ``times`` (seconds), ``messages`` and ``output`` (stderr), and the referee's ``reason``."""
    game = Game(width, height, steal=True)
    times, messages, output = times or [], messages or [], output or []
    frames: list[dict[str, Any]] = [{"cells": "".join(game.position.rows_text()), "turn": 0, "action": None, "player": None,
               "time": None, "message": "", "output": "", "last": None, "win": [], "opening": False, "result": None}]
    for k, action in enumerate(moves):
        player = game.current_player()
        game.apply_action(action)
        rows = game.position.rows_text()
        bot_turn = k - opening
        frames.append({"cells": "".join(rows), "turn": k + 1, "action": action_text(action), "player": player,
                       "time": round(1000 * times[bot_turn]) if 0 <= bot_turn < len(times) else None,
                       "message": messages[bot_turn] if 0 <= bot_turn < len(messages) else "",
                       "output": output[bot_turn] if 0 <= bot_turn < len(output) else "",
                       "last": _last_cell(rows, frames[-1]["cells"], action), "win": [],
                       "opening": k < opening, "result": None})
    last = frames[-1]
    lost = len(moves) - opening  # an output past the bot moves made: the turn that lost the game
    if 0 <= lost < len(output) and output[lost]:
        last["lost_output"] = output[lost]
    winner = game.winner
    if winner is not None:
        last["win"] = _four(game.position.rows_text(), str(winner))
        last["result"] = f"{names[winner]} wins" + (f" ({reason})" if reason else "")
    else:
        last["result"] = reason or ("draw" if game.is_terminal() else "unfinished")
    return {"title": title, "names": list(names), "width": width, "height": height, "turns": len(moves),
            "frames": frames, "winner": winner}


def replay_record(number: int, record: dict) -> dict:
    """The frames of game ``number`` of a referee's match, from its record as ``connect4 referee
    --json`` prints it (:meth:`~gridfall.connect4.codingame.GameRecord.to_json`): the referee's
    own ``--replay`` and ``gridfall view`` of its JSON both make it here, so they show the same."""
    seats = list(record["seats"])
    return replay_game(record["moves"], seats, f"game {number}: {seats[0]} vs {seats[1]}",
                       opening=record.get("opening", 0), times=record.get("times"), messages=record.get("messages"),
                       output=record.get("output"), reason=record.get("reason", ""))


def _last_cell(rows: list[str], before: str, action: int) -> int | None:
    if action == STEAL:
        return None
    after = "".join(rows)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    return changed[0] if changed else None
