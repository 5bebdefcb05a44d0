"""A user's player, written against the one interface, as a SameGame bot (turn flavour):
``gridfall samegame bot --player FILE.py:NAME`` (:mod:`gridfall.user_player`).

Each turn the player's ``act(state, seconds)`` gets the interface's state of the board the
referee sent and the turn's time: the first turn's from the process start, then each later
turn's from the board's arrival.  Its answer, an action id (``x * 15 + y``), is printed as
``x y``; anything else is printed as it is, one line, for the referee to judge.  An exception
ends the bot, named on stderr.
"""

from __future__ import annotations

import sys
import time
from typing import IO

from gridfall.actions import whole_number
from gridfall.samegame.boards import BoardError
from gridfall.samegame.protocol import read_board
from gridfall.samegame.state import CELLS, SameGameGame, action_cell

TURN_MARGIN = 0.010  # of each later 50 ms turn, kept for reading the board and printing the answer


def answer_text(answer) -> str:
    """The line a player's answer is sent as: ``x y`` for an action id, else its text, first line only."""
    action = whole_number(answer)
    if action is not None and 0 <= action < CELLS:
        return "{} {}".format(*action_cell(action))
    return (str(answer).splitlines() or [""])[0]


def play(player, inp: IO[str], out: IO[str], *, first_turn: float, turn: float, started: float | None = None,
         log: IO[str] = sys.stderr) -> bool:
    """Play the turn flavour with ``player``; True at the end of input between boards, False (said on
    ``log``) at input that is not a board or at the player's exception."""
    started = time.monotonic() if started is None else started
    first = True
    while True:
        try:
            board = read_board(inp)
        except BoardError as e:
            print(f"gridfall bot: {e}", file=log)
            return False
        if board is None:
            return True
        budget = started + first_turn - time.monotonic() if first else turn - TURN_MARGIN
        first = False
        try:
            answer = player.act(SameGameGame(board).new_initial_state(), max(budget, 0.005))
        except Exception as e:
            print(f"gridfall bot: the player failed: {e!r}", file=log)
            return False
        out.write(answer_text(answer) + "\n")
        out.flush()
