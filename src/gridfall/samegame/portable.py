"""gridfall's SameGame planner in plain Python, for the platform (CodinGame runs no numba).

Standard library only: ``gridfall samegame export`` carries this module, the rules of record and
the protocol loop into one file, with the user's own best lines.

* A known board (up to recolouring: the key of :func:`~gridfall.samegame.boards.board_key`) is
  answered with its line, replayed on the rules first.
* Any other board gets an anytime beam search on :mod:`~gridfall.samegame.columns` (the rules,
  stored to be fast, with the group list updated move by move).  Each level keeps the ``width``
  children that score most plus the points their groups would give if each were taken now (the
  numba beam's potential).  Passes of widths 1, 2, 4, ... run while they are cheap (the next
  would take under an eighth of the time left); then one pass as wide as the time left allows,
  at the time a unit of width took in the last pass.  A pass cut short by the clock finishes its
  most promising state greedily.
"""

from __future__ import annotations

import gc
import heapq
import time

from gridfall.samegame import columns
from gridfall.samegame.boards import board_key
from gridfall.samegame.columns import Columns
from gridfall.samegame.greedy import greedy_finish, kept_colour
from gridfall.samegame.line import Line
from gridfall.samegame.rules import Board, Cell, IllegalMove

LAST_PASS_SHARE = 0.85  # of the time left that the widest pass is sized to take: a pass's time per
# unit of width varies a little, and a pass cut short ends greedily


def _unwind(links) -> list[Cell]:
    """A line kept as nested pairs (earlier moves, last move), oldest first."""
    line = []
    while links:
        links, move = links
        line.append(move)
    return line[::-1]


def beam_pass(root: Columns, width: int, deadline: float, kept: int) -> tuple[int, list[Cell]]:
    """One beam search of ``width``: its best score and line (a greedy finish if the clock stops it)."""
    best_score, best_links = -1, ()  # type: int, tuple
    # a state: (value, position, its groups, score, line as nested pairs)
    beam = [(0, root, columns.groups(root), 0, ())]  # type: list[tuple[int, Columns, list, int, tuple]]
    while beam:
        children = {}
        for _, position, found, score, links in beam:
            if time.monotonic() >= deadline:  # finish the most promising state greedily
                _, position, _, score, links = max(beam, key=lambda s: s[0])
                rest, gained = greedy_finish(position, kept)
                if score + gained > best_score:
                    return score + gained, _unwind(links) + rest
                return best_score, _unwind(best_links)
            if not found:
                if score > best_score:
                    best_score, best_links = score, links
                continue
            for group in found:
                members = group[1]
                child = columns.remove(position, members)
                if child in children:  # the same position by another order of moves
                    continue
                child_groups = columns.regroup(found, group, child, len(position))
                total = score + columns.move_points(len(members), not child)
                value = total + sum((len(g[1]) - 2) ** 2 for g in child_groups)
                children[child] = (value, child, child_groups, total, (links, columns.cell(members)))
        # the best ``width`` of tens of thousands of children: a partial sort, so that a wide level
        # ends within milliseconds of its deadline check
        beam = heapq.nlargest(width, children.values(), key=lambda c: c[0])
    return best_score, _unwind(best_links)


def beam_line(board: Board, deadline: float, max_width: int = 1 << 14, first_width: int = 1) -> list[Cell]:
    """The best line of the anytime beam searches, found before ``deadline`` (time.monotonic()).

    The garbage collector is paused meanwhile: a wide beam holds hundreds of thousands of small
    objects, none in a cycle, and a full collection among them took a tenth of a second at a
    random moment, past the deadline."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _beam_line(board, deadline, max_width, first_width)
    finally:
        if collecting:
            gc.enable()


def _beam_line(board: Board, deadline: float, max_width: int, first_width: int) -> list[Cell]:
    root = columns.from_board(board)
    kept = kept_colour(root)  # the greedy finish plays it last
    best_line, best_score = greedy_finish(root, kept)
    width = first_width
    while width <= max_width:
        started = time.monotonic()
        if started >= deadline:
            break
        score, line = beam_pass(root, width, deadline, kept)
        if score > best_score:
            best_score, best_line = score, line
        seconds_per_width = (time.monotonic() - started) / width
        fits = int(LAST_PASS_SHARE * (deadline - time.monotonic()) / max(seconds_per_width, 1e-9))
        if fits <= width:
            break  # no wider pass fits in the time left
        width = 2 * width if fits > 8 * width else fits  # double while passes are cheap, then the widest
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
