"""The CodinGame Connect Four protocol, both sides of it: what a bot reads, and a bot loop for any agent.

Each turn the player to move receives (the first line only on its first turn):

    myId oppId
    turnIndex
    7 rows, top first, 9 characters each: '.', '0' or '1'
    numValidActions
    one valid action per line: the non-full columns ascending, then -2 at turn index 1
    oppPreviousAction          (-1 at the start, -2 after a STEAL)

and answers one line: an action before the first space (a column, -2 or
``STEAL`` in any case), the rest a message.

Standard library only: the exported bot (``gridfall connect4 export``) carries this module.
"""

from __future__ import annotations

import sys
import time
from typing import IO

from gridfall.connect4.rules import STEAL, Game, action_text
from gridfall.player_fault import described

WIDTH, HEIGHT = 9, 7


def turn_input(game: Game, seat: int, first: bool, previous: int) -> str:
    lines = [f"{seat} {1 - seat}"] if first else []
    lines.append(str(game.turn))
    lines.extend(game.position.rows_text())
    actions = game.legal_actions()
    lines.append(str(len(actions)))
    lines.extend(str(a) for a in actions)
    lines.append(str(previous))
    return "\n".join(lines) + "\n"


class ProtocolError(ValueError):
    """Input that is not the protocol's: the message names the line and what it should hold."""


def _found(text: str, most: int = 40) -> str:
    """A line that is not the protocol's, quoted for a message, cut: it may be a binary file's."""
    return repr(text if len(text) <= most else text[:most] + "...")


class _Input:
    """The referee's lines, counted, so that a malformed one can be named."""

    def __init__(self, inp: IO[str]):
        self.inp, self.count = inp, 0

    def line(self) -> str:
        text = self.inp.readline()
        if not text:
            raise EOFError
        self.count += 1
        return text.strip()

    def number(self, what: str, least: int | None = None) -> int:
        text = self.line()
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or (least is not None and value < least):
            at_least = "" if least is None else f" of at least {least}"
            raise ProtocolError(f"<referee input>: line {self.count}: expected {what}, a whole number{at_least}, "
                                f"found {_found(text)}")
        return value


# CodinGame's limits: a player's first turn (its start-up included) and each later turn
FIRST_TURN_SECONDS = 1.0
TURN_SECONDS = 0.100

# The bot's own budgets, in ms, of CodinGame's 1000 (the first turn, counted from process start)
# and 100 (each later turn).  The first turn holds the bot's start-up too (0.5-0.65 s idle, more
# with other programs starting): with 800 ms, first turns reached 995 ms with two games at once on
# two cores, and 2 of 600 timed out (2026-11-26), so 700.  With 700, a later run lost 20 of 600
# games on the second player's first turn (the referee starts a bot at its first turn; the
# median first turn was 855 ms, the 90th percentile 959 ms), so 600.  Since the bot stopped
# numba importing scipy, start-up takes 0.1 s less (``python benchmarks/connect4_startup.py``),
# and the slowest first turn in 1,400 games at 600 was 685 ms, so 700 again.
FIRST_TURN_MS = 700
TURN_MS = 85
# the exported pure-Python file's turn: it keeps every turn under 80 ms (README, Submitting)
EXPORT_TURN_MS = 75
# A turn answered this long past its plan, by the bot's own clock, is said on stderr: beside the
# referee's time for the turn, it tells an overrun of the bot (its clock says late too) from time
# lost outside it (the machine, the pipe: the referee's clock says late, the bot's does not).
LATE_BY = 0.005


def _say_if_late(log: IO[str], turn_index: int, took: float, plan: float) -> None:
    if took > plan + LATE_BY:
        print(f"gridfall bot: turn {turn_index} answered {took * 1000:.0f} ms after its input came, by its own "
              f"clock (its plan: {plan * 1000:.0f} ms)", file=log, flush=True)


def play(agent, inp: IO[str], out: IO[str], *, started: float | None = None, first_turn: float = FIRST_TURN_MS / 1000,
         turn: float = TURN_MS / 1000, width: int = WIDTH, height: int = HEIGHT, log: IO[str] = sys.stderr,
         fallback: bool = True) -> bool:
    """Play the protocol on inp/out with ``agent``: ``first_turn`` seconds from process start, ``turn`` per turn.

    The action printed is always one of the valid actions the referee listed: one the agent did
    not give (it raised, or answered another) is replaced by a central column.  With ``fallback``
    False (a user's player) nothing is replaced: an action not listed is printed for the referee
    to judge, and an agent that raises ends the loop, named on ``log``, with False.  Input that is
    not the protocol's ends the loop with a line on ``log`` naming the line (ProtocolError's
    message), and so does input that ends inside a turn: then it returns False.  The end of input
    between turns ends it without a word, and True.
    """
    started = time.monotonic() if started is None else started
    lines = _Input(inp)
    begun = 0
    try:
        ids = lines.line().split()  # myId oppId: checked, not used (the turn index says whose turn it is)
        if len(ids) != 2 or not all(i.lstrip("-").isdigit() for i in ids):
            raise ProtocolError(f"<referee input>: line 1: expected myId oppId, two whole numbers, found {_found(' '.join(ids))}")
        first = True
        while True:
            begun = lines.count  # the input may end here, between turns, and nowhere else
            turn_index = lines.number("the turn index")
            clock = time.monotonic()
            rows = [lines.line() for _ in range(height)]
            valid = [lines.number("a valid action") for _ in range(lines.number("the number of valid actions", 1))]
            lines.line()  # oppPreviousAction: the board says it all
            budget = (started + first_turn - time.monotonic()) if first else (clock + turn - time.monotonic())
            first_of_game, first = first, False  # the first turn's time counts from the start
            try:
                game = Game.from_protocol(rows, turn_index, width, height, steal=STEAL in valid or turn_index != 1)
            except ValueError as e:
                raise ProtocolError(f"<referee input>: the board ending at line {lines.count - len(valid) - 2}: "
                                    f"{e}") from None
            try:
                action = agent.act(game, max(budget, 0.005))
            except Exception as e:  # a broken agent must still answer legally
                print(f"gridfall bot: agent failed: {described(e)}", file=log)
                if not fallback:
                    return False
                action = None
            if action not in valid and fallback:
                action = min((a for a in valid if a != STEAL), key=lambda x: abs(2 * x - (width - 1)))
            text = action_text(action) if isinstance(action, int) else (str(action).splitlines() or [""])[0]
            # read before the write: after it, the woken referee and an opponent may hold the cores
            took = time.monotonic() - clock
            out.write(text + "\n")  # one line, whatever an agent returned: the referee judges it
            out.flush()
            if not first_of_game:  # the first turn's plan may be passed on purpose (connect4/loading.py)
                _say_if_late(log, turn_index, took, turn)
    except EOFError:
        if lines.count != begun:
            print(f"gridfall bot: <referee input>: the input ended inside a turn, after line {lines.count}", file=log)
            return False
        return True
    except ProtocolError as e:
        print(f"gridfall bot: {e}", file=log)
        return False
