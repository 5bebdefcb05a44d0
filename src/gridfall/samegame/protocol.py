"""The CodinGame SameGame protocol, the bot's side: read boards, answer clicks, for any planner.

Protocol (both flavours): each turn the referee sends the board as 15 lines,
top row first, 15 space-separated integers each (-1 empty).

* Turn flavour: the bot answers one line ``x y [message]`` per turn; 20 s
  for the first turn, 50 ms for each later one.  Any bad action loses.
* One-turn flavour: the bot answers once, within 20 s, with every action on
  one line separated by ``;``; see :func:`rules.judge` for how it is judged.

A planner is ``plan(board, seconds, seed) -> moves``: gridfall's numba search with the solution
store (:func:`gridfall.samegame.codingame.make_planner`), or the exported file's pure-Python one
(:mod:`gridfall.samegame.portable`).  Standard library only: the export carries this module.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import IO, Callable

from gridfall.samegame import rules
from gridfall.samegame.boards import BoardError, parse_row, settled_board
from gridfall.samegame.line import Line

FIRST_TURN_SECONDS = 20.0
TURN_SECONDS = 0.050
# The bot counts its first turn from its own process start, before the referee's clock starts,
# and answers within a few ms of its budget (measured under the referee: 2-5 ms late on an idle
# machine); the margin is for a busy one.
ANSWER_MARGIN = 0.5
REFEREE_INPUT = "<referee input>"  # what a fault in the referee's text is named by


def read_board(stream: IO[str]) -> rules.Board | None:
    """The next 15-line board from the referee, or None at end of input between boards
    (BoardError if it ends inside one).  Each row is checked as it comes, so that a line
    that is no row is named as such, not as a board cut short."""
    rows: list[list[int]] = []
    while len(rows) < rules.HEIGHT:
        line = stream.readline()
        if not line:
            if rows:
                raise BoardError(f"{REFEREE_INPUT}: the input ended inside a board, after {len(rows)} of its "
                                 f"{rules.HEIGHT} rows")
            return None
        if line.strip():
            rows.append(parse_row(line, len(rows) + 1, REFEREE_INPUT))
    return settled_board(rows, REFEREE_INPUT)


@dataclass
class BotConfig:
    """How gridfall's bot spends its time (seconds) and where it looks for known lines."""

    first_turn_budget: float = FIRST_TURN_SECONDS - ANSWER_MARGIN  # counted from process start
    replan_budget: float = 0.020  # of the 50 ms, if the board is not the expected one
    seed: int = 0
    workers: int = 1  # CodinGame gives one core
    algo: str = "auto"
    store: str | None = None  # path of the solution store; None: the default store
    use_store: bool = True


Planner = Callable[[rules.Board, float, int], list[tuple[int, int]]]


def fallback_move(board: rules.Board) -> tuple[int, int]:
    """A legal move chosen in microseconds: the largest group (the game is not over)."""
    group = max(board.groups(), key=lambda g: (g.size, -g.x, -g.y))
    return group.x, group.y


def _said(fault: BoardError, log: IO[str]) -> bool:
    """Input that is not the protocol's ends the bot: named on ``log``, and False for its exit code."""
    print(f"gridfall bot: {fault}", file=log)
    return False


def play_turns(
    inp: IO[str], out: IO[str], config: BotConfig, planner: Planner,
    started: float | None = None, log: IO[str] = sys.stderr,
) -> bool:
    """The turn flavour: plan on the first turn, then follow the plan.

    Before each answer the bot checks the board it received; if it is not the
    one the plan expects it plans again within ``replan_budget``.  Every move
    printed is checked legal on the received board first.  Returns True at the
    end of input between boards, False (said on ``log``) at input that is not a board.
    """
    started = time.monotonic() if started is None else started
    plan: list[tuple[int, int]] = []
    expected: rules.Board | None = None
    first = True
    while True:
        try:
            board = read_board(inp)
        except BoardError as e:
            return _said(e, log)
        if board is None:
            return True
        if board != expected:
            budget = started + config.first_turn_budget - time.monotonic() if first else config.replan_budget
            if not first:
                print("gridfall bot: board differs from the plan; planning again", file=log)
            plan = planner(board, max(budget, 0.005), config.seed)
        first = False
        move = plan.pop(0) if plan else None
        try:
            expected, _ = board.play(*move) if move else (None, 0)
        except rules.IllegalMove:
            move = None
        if move is None:
            move = fallback_move(board)
            expected, _ = board.play(*move)
            plan = []
        out.write(f"{move[0]} {move[1]}\n")
        out.flush()


def play_one_turn(
    inp: IO[str], out: IO[str], config: BotConfig, planner: Planner,
    started: float | None = None, log: IO[str] = sys.stderr,
) -> bool:
    """The one-turn flavour: plan, then print every action on one line.  Returns as play_turns does."""
    started = time.monotonic() if started is None else started
    try:
        board = read_board(inp)
    except BoardError as e:
        return _said(e, log)
    if board is None:
        return True
    moves = planner(board, max(started + config.first_turn_budget - time.monotonic(), 0.005), config.seed)
    if not moves:  # nothing to play: any click is only a warning in this flavour
        moves = [(0, 0)]
    out.write(Line(moves).text(limit=rules.ONE_TURN_ACTION_LIMIT) + "\n")
    out.flush()
    return True
