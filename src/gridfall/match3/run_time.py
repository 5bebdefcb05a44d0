"""How a player behind a suggest function shares CodeAbbey's one second for the whole run.

The run is four boards (8, 11, 12, 13 cells a side) of up to 1000 moves, and one limit for all
of them: a run over it fails whole.  :class:`RunTime` gives each call's ``act`` its share:

- each board gets an even part of the run's time left when it begins (of 95% of the run:
  ``SAFETY``; the rest pays for the last calls' overrun), so a board that runs long takes
  nothing from the boards after it, the largest and richest last among them;
- within a board, each move gets an even part of the board's time left over the board's moves
  left (1000 at most), once every call left has been given what a call takes beyond its share
  (:class:`Overrun`);
- once a board's time is spent, the board is quit (``None``: the bridge answers ``Q``) without
  asking the player.

At a board's first move this is the even share of the run over its 4,000 moves at most.

The run's time is CodeAbbey's second, unless ``GRIDFALL_RUN_SECONDS`` says otherwise: gridfall's
referee sets it to the limit it judges by (``match3 referee --time``).
"""

from __future__ import annotations

import os

from gridfall.match3.rules import BOARD_SIZES, MOVES_PER_GAME

RUN_SECONDS = 1.0  # CodeAbbey's limit for the whole run
RUN_SECONDS_VARIABLE = "GRIDFALL_RUN_SECONDS"
SAFETY = 0.95  # of the run's time, shared out: the rest covers the last calls' overrun


def run_seconds_here() -> float:
    """The run's time: GRIDFALL_RUN_SECONDS where it is a positive number, else CodeAbbey's second."""
    try:
        seconds = float(os.environ.get(RUN_SECONDS_VARIABLE, ""))
    except ValueError:
        return RUN_SECONDS
    return seconds if 0 < seconds < float("inf") else RUN_SECONDS


class Overrun:
    """How much longer than its share a call takes, on average: from one call's ``elapsed`` to the
    next one's, less the share its ``act`` was given (never below 0).  It is the platform's
    calling and the state's making (a referee in another process counts its pipes too, a tenth
    of a millisecond a call), and what ``act`` spends past its share, however small the share
    (listing the legal swaps, say); 4,000 calls a run at most make it matter."""

    def __init__(self) -> None:
        self.per_call = 0.0
        self._calls = 0
        self._last: tuple[float, float] | None = None  # the last call's elapsed, and its share

    def called(self, elapsed: float) -> None:
        """A call begins, ``elapsed`` into the run: what the last one took is known now."""
        if self._last is not None:
            over = max(elapsed - self._last[0] - self._last[1], 0.0)
            self._calls += 1
            self.per_call += (over - self.per_call) / self._calls
        self._last = (elapsed, 0.0)

    def shared(self, seconds: float) -> None:
        """This call's act is given ``seconds``."""
        assert self._last is not None, "called() comes first"
        self._last = (self._last[0], seconds)


class RunTime:
    """The shares of one run of ``run_seconds``; :meth:`share` is asked once a call."""

    def __init__(self, run_seconds: float) -> None:
        self.run_seconds = run_seconds
        self.overrun = Overrun()
        self._board: int | None = None
        self.board_ends = 0.0  # the elapsed at which this board's time is spent

    def share(self, board_no: int, move: int, elapsed: float) -> float | None:
        """Seconds for this call's act, or None when the board's time is spent (quit it)."""
        self.overrun.called(elapsed)
        if board_no != self._board:
            boards_left = max(len(BOARD_SIZES) - board_no + 1, 1)
            self._board = board_no
            self.board_ends = elapsed + max(self.run_seconds * SAFETY - elapsed, 0.0) / boards_left
        if elapsed >= self.board_ends:
            self.overrun.shared(0.0)
            return None
        moves_left = max(MOVES_PER_GAME - move + 1, 1)
        seconds = max(self.board_ends - elapsed - self.overrun.per_call * moves_left, 0.0) / moves_left
        self.overrun.shared(seconds)
        return seconds
