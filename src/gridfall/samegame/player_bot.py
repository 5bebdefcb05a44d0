"""A user's player, written against the one interface, as a SameGame bot:
``gridfall samegame bot --player FILE.py:NAME`` (:mod:`gridfall.user_player`), in either flavour.

The player's ``act(state, seconds)`` gets the interface's state of a board and a time, and
answers an action id (``x * 15 + y``), printed as ``x y``; anything else is printed as it is,
for the referee to judge.  An exception ends the bot, named on stderr.

* Turn flavour (:func:`play`): each turn's state is the board the referee sent; the first turn's
  time counts from the process start, each later turn's from the board's arrival.
* One-turn flavour (:func:`play_one_turn`): the player plays its whole line on its own copy of
  the board, a move a call, and the line is printed at once (see there for how the time is shared).
"""

from __future__ import annotations

import sys
import time
from typing import IO

from gridfall.actions import whole_number
from gridfall.player_fault import described
from gridfall.samegame.boards import BoardError
from gridfall.samegame.protocol import read_board
from gridfall.samegame.rules import Board
from gridfall.samegame.state import CELLS, SameGameGame, action_cell

TURN_MARGIN = 0.010  # of each later 50 ms turn, kept for reading the board and printing the answer
MOVE_SHARE = 0.05  # one-turn flavour: each act is given this share of the time left (play_one_turn)


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
        board = _board_or_verdict(inp, log)
        if isinstance(board, bool):
            return board
        budget = started + first_turn - time.monotonic() if first else turn - TURN_MARGIN
        first = False
        try:
            answer = player.act(SameGameGame(board).new_initial_state(), max(budget, 0.005))
        except Exception as e:
            print(f"gridfall bot: the player failed: {described(e)}", file=log)
            return False
        out.write(answer_text(answer) + "\n")
        out.flush()


def play_one_turn(player, inp: IO[str], out: IO[str], *, seconds: float, share: float = MOVE_SHARE,
                  started: float | None = None, log: IO[str] = sys.stderr) -> bool:
    """Play the one-turn flavour with ``player``: its line, a move a call, printed on one line
    within ``seconds`` of ``started`` (the process start).

    How the time is shared: the player does not say how many moves its line will take, so each
    ``act`` is given ``share`` of the time left.  With the default, 1/20, the first move gets 1/20
    of the time and each later one 1/20 of what remains; a line of 50 moves has used 92% of the
    time by its end, and the early moves, which shape the line most, get the most.  A player that
    plans its whole line on its first call wants a share near 1: the moves that follow its plan
    take no time.

    The line ends at a terminal state (within the platform's 150 actions: each move removes two
    cells or more), when the time is up (said on ``log``), or at an answer that is not a legal
    action, which is sent last as it is (the referee judges it).  True when the line was sent;
    False (said on ``log``) at input that is not a board, or at the player's exception, after
    sending the line played until then.
    """
    started = time.monotonic() if started is None else started
    board = _board_or_verdict(inp, log)
    if isinstance(board, bool):
        return board
    deadline = started + seconds
    state = SameGameGame(board).new_initial_state()
    answers: list[str] = []
    failed = False
    while not state.is_terminal():
        left = deadline - time.monotonic()
        if left <= 0:
            print(f"gridfall bot: the time ran out after {_moves(answers)}; sending the line", file=log)
            break
        try:
            answer = player.act(state.clone(), max(left * share, 0.005))  # a copy: the line stays ours
        except Exception as e:
            print(f"gridfall bot: the player failed after {_moves(answers)}: {described(e)}", file=log)
            failed = True
            break
        answers.append(answer_text(answer))
        action = whole_number(answer)
        if action is None or action not in state.legal_actions():
            break
        state.apply_action(action)
    if answers or not failed:
        out.write(";".join(answers or ["0 0"]) + "\n")  # no move at all: any click is only a warning here
        out.flush()
    return not failed


def _board_or_verdict(inp: IO[str], log: IO[str]) -> Board | bool:
    """The next board; else how the bot ends: True at the end of input, False (said on ``log``) at
    input that is not a board."""
    try:
        board = read_board(inp)
    except BoardError as e:
        print(f"gridfall bot: {e}", file=log)
        return False
    return True if board is None else board


def _moves(answers: list[str]) -> str:
    return f"{len(answers)} move" + ("" if len(answers) == 1 else "s")
