"""The CodinGame Connect Four protocol: a bot loop for any agent, and a referee for any two programs.

Each turn the player to move receives (the first line only on its first turn):

    myId oppId
    turnIndex
    7 rows, top first, 9 characters each: '.', '0' or '1'
    numValidActions
    one valid action per line: the non-full columns ascending, then -2 at turn index 1
    oppPreviousAction          (-1 at the start, -2 after a STEAL)

and answers one line: an action before the first space (a column, -2 or
``STEAL`` in any case), the rest a message.  Limits: 1000 ms for a player's
first turn, 100 ms for the others, timed from the first byte sent to the end
of the answer.  Timeouts, unparsable answers, a column outside 0..8, a full
column, or -2 outside turn index 1 lose the game.  Win 10, draw 5, loss 0.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from typing import IO

from gridfall.arena.elo import MatchScore
from gridfall.arena.limits import Limits
from gridfall.arena.process import BotFailure, BotProcess
from gridfall.connect4.rules import STEAL, Game, IllegalAction, Outcome, action_text, parse_action

WIDTH, HEIGHT = 9, 7
FIRST_TURN_SECONDS = 1.0
TURN_SECONDS = 0.100


# --- the referee -------------------------------------------------------------------


LIMITS = Limits(FIRST_TURN_SECONDS, TURN_SECONDS)


@dataclass
class GameRecord:
    """One refereed game: who sat where, who won and why."""

    seats: tuple[str, str]  # the names of the programs playing player 0 and player 1
    winner: int | None = None  # 0, 1 or None for a draw
    reason: str = ""  # "four in a row", "draw", "timeout", "invalid action ...", "crashed ..."
    moves: list[int] = field(default_factory=list)
    slowest: tuple[float, float] = (0.0, 0.0)  # slowest later turn of each seat, seconds

    def points(self, seat: int) -> int:
        if self.winner is None:
            return Outcome.DRAW.points
        return (Outcome.WIN if self.winner == seat else Outcome.LOSS).points

    def to_json(self) -> dict:
        return asdict(self)


def tally(records: list[GameRecord], is_ours) -> tuple[MatchScore, int, int]:
    """Our wins, draws and losses over the records, and the points of both sides.

    ``is_ours(name)`` picks our seat in each record by the program's name.
    """
    score, ours, theirs = MatchScore(), 0, 0
    for r in records:
        seat = 0 if is_ours(r.seats[0]) else 1
        if r.winner is None:
            score.draws += 1
        elif r.winner == seat:
            score.wins += 1
        else:
            score.losses += 1
        ours += r.points(seat)
        theirs += r.points(1 - seat)
    return score, ours, theirs


def turn_input(game: Game, seat: int, first: bool, previous: int) -> str:
    lines = [f"{seat} {1 - seat}"] if first else []
    lines.append(str(game.turn))
    lines.extend(game.position.rows_text())
    actions = game.legal_actions()
    lines.append(str(len(actions)))
    lines.extend(str(a) for a in actions)
    lines.append(str(previous))
    return "\n".join(lines) + "\n"


def referee_game(commands: tuple[str, str], names: tuple[str, str], limits: Limits = LIMITS,
                 width: int = WIDTH, height: int = HEIGHT) -> GameRecord:
    """Play one game between two programs (commands[0] moves first)."""
    record = GameRecord(names)
    game = Game(width, height, steal=True)
    bots: list[BotProcess | None] = [None, None]
    slowest = [0.0, 0.0]
    try:
        for seat in (0, 1):
            try:
                bots[seat] = BotProcess(commands[seat])
            except BotFailure as e:
                record.winner, record.reason = 1 - seat, f"{names[seat]} could not start: {e.detail}"
                return record
        previous = -1
        first = [True, True]
        while not game.is_terminal():
            seat = game.current_player()
            limit = limits.first_turn if first[seat] else limits.turn
            try:
                line, took = bots[seat].ask(turn_input(game, seat, first[seat], previous), limit)
            except BotFailure as e:
                record.winner = 1 - seat
                record.reason = f"{names[seat]}: {e.reason.lower()}" + (f" ({e.detail})" if e.detail else "")
                return record
            if not first[seat]:
                slowest[seat] = max(slowest[seat], took)
            first[seat] = False
            try:
                action = parse_action(line)
                game.apply_action(action)
            except (ValueError, IllegalAction) as e:
                record.winner = 1 - seat
                record.reason = f"{names[seat]}: invalid action {line[:40]!r}: {e}"
                return record
            record.moves.append(action)
            previous = action
        record.winner = game.winner
        record.reason = "four in a row" if game.winner is not None else "draw (board full)"
        return record
    finally:
        for bot in bots:
            if bot is not None:
                bot.close()
        record.slowest = (slowest[0], slowest[1])


# --- any agent as a bot ------------------------------------------------------------


def _read(inp: IO[str]) -> str:
    line = inp.readline()
    if not line:
        raise EOFError
    return line.strip()


def play(agent, inp: IO[str], out: IO[str], *, started: float | None = None, first_turn: float = 0.80,
         turn: float = 0.085, width: int = WIDTH, height: int = HEIGHT, log: IO[str] = sys.stderr) -> None:
    """Play the protocol on inp/out with ``agent``: ``first_turn`` seconds from process start, ``turn`` per turn.

    The action printed is always one of the valid actions the referee listed.
    """
    started = time.monotonic() if started is None else started
    try:
        _read(inp)  # myId oppId: the turn index says whose turn it is
        first = True
        while True:
            turn_index = int(_read(inp))
            clock = time.monotonic()
            rows = [_read(inp) for _ in range(height)]
            valid = [int(_read(inp)) for _ in range(int(_read(inp)))]
            _read(inp)  # oppPreviousAction: the board says it all
            budget = (started + first_turn - time.monotonic()) if first else (clock + turn - time.monotonic())
            first = False
            game = Game.from_protocol(rows, turn_index, width, height, steal=STEAL in valid or turn_index != 1)
            try:
                action = agent.act(game, max(budget, 0.005))
            except Exception as e:  # a broken agent must still answer legally
                print(f"gridfall bot: agent failed: {e!r}", file=log)
                action = None
            if action not in valid:
                action = min((a for a in valid if a != STEAL), key=lambda x: abs(2 * x - (width - 1)))
            out.write(action_text(action) + "\n")
            out.flush()
    except EOFError:
        return
