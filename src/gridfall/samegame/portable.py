"""gridfall's SameGame planner in plain Python, for the platform (CodinGame runs no numba).

Standard library only: ``gridfall samegame export`` carries this module, the rules of record and
the protocol loop into one file, with the user's own best lines.

* A known board (up to recolouring: the key of :func:`~gridfall.samegame.boards.board_key`) is
  answered with its line, replayed on the rules first.
* Any other board gets an anytime beam search on the rules of record: widths 1, 2, 4, ... until
  the time is spent, each level keeping the ``width`` children that score most plus a share of
  the points their colours could still make, the most common colour kept for last (its groups
  are played only when no other group is left).  A width cut short by the clock finishes its best
  state with the greedy line.
"""

from __future__ import annotations

import time

from gridfall.samegame.boards import board_key
from gridfall.samegame.greedy import greedy_line
from gridfall.samegame.line import Line
from gridfall.samegame.rules import COLOURS, Board, Cell, IllegalMove, play_sequence

POTENTIAL = 4.0  # weight of (cells of a colour - 2)^2, what a colour could still make in one group: tuned
# on tuning boards 1-8 at 2 s a board (docs/samegame-experiments.md)


def _value(board: Board, score: int) -> float:
    return score + POTENTIAL * sum(max(n - 2, 0) ** 2 for n in board.colour_counts())


def beam_line(board: Board, deadline: float, max_width: int = 1 << 12) -> list[Cell]:
    """The best line of an anytime beam search, found before ``deadline`` (time.monotonic())."""
    counts = board.colour_counts()
    kept = max(range(COLOURS), key=lambda c: (counts[c], -c))
    best_line = greedy_line(board, deadline)
    best_score = play_sequence(board, best_line)[1]
    width = 1
    while width <= max_width and time.monotonic() < deadline:
        beam = [(board, 0, [])]
        while beam:
            if time.monotonic() >= deadline:  # finish the best state greedily
                state, score, line = max(beam, key=lambda s: _value(s[0], s[1]))
                rest = greedy_line(state)
                total = score + play_sequence(state, rest)[1]
                if total > best_score:
                    best_score, best_line = total, line + rest
                return best_line
            children: dict[tuple, tuple[float, Board, int, list[Cell]]] = {}
            for state, score, line in beam:
                if time.monotonic() >= deadline:
                    break  # a wide level takes seconds: the loop above finishes the best state
                groups = state.groups()
                if not groups:
                    if score > best_score:
                        best_score, best_line = score, line
                    continue
                others = [g for g in groups if g.colour != kept] or groups
                for g in others:
                    child, gained = state.play(g.x, g.y)
                    value = _value(child, score + gained)
                    if child.cells not in children or children[child.cells][0] < value:
                        children[child.cells] = (value, child, score + gained, line + [(g.x, g.y)])
            if time.monotonic() >= deadline:
                continue  # the level was cut short: finish the best state of the last whole level
            ranked = sorted(children.values(), key=lambda c: -c[0])[:width]
            beam = [(child, score, line) for _, child, score, line in ranked]
        width *= 2
    return best_line


class PortablePlanner:
    """``plan(board, seconds, seed)``: the known line of the board if there is one, else a beam search."""

    def __init__(self, known: dict[str, str] | None = None):
        self.known = known or {}  # board key -> line text

    def __call__(self, board: Board, seconds: float, seed: int = 0) -> list[Cell]:
        deadline = time.monotonic() + seconds
        text = self.known.get(board_key(board))
        if text is not None:
            try:
                line = Line.from_text(text)
                line.play(board)  # a line that does not replay is not played
                return list(line)
            except (ValueError, IllegalMove):
                pass
        return beam_line(board, deadline)
