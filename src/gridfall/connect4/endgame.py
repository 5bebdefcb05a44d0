"""Exact play once the solver can finish inside a turn.

Near the end of a game the exact solver (:mod:`.solver`) settles a position's result (win,
draw or loss for the side to move) in milliseconds, where the bot's depth-limited search may
still misjudge it.  :func:`exact_move` uses that result without giving up the search's
practical choices:

* **win**: a move that keeps the win (the search's own move first, if it does);
* **draw**: the search's move if it keeps the draw, else one that does;
* **loss**: the search's move (it makes the loss hardest to find).

Children are solved weakly (win, draw or loss) with the table kept from the root's solve,
which already holds most of their proof.  The bot keeps the table from turn to turn of a game
too: a turn the solver ran out of time on still leaves proven subtrees for the next one
(``benchmarks/connect4_endgame.py``, column "table kept": at 40 empty cells 51% of turns settled
within 47 ms, against 37% solved afresh).  If any solve runs out of time the answer is None and
the caller plays its search's move.  ``benchmarks/connect4_endgame.py`` measures from how many
empty cells the solver finishes inside a turn.
"""

from __future__ import annotations

import time

import numpy as np

from gridfall.connect4 import engine
from gridfall.connect4.solver import Solver


def exact_move(solver: Solver, cur: int, mask: int, seconds: float, preferred: int, keep_table: bool = False,
               nodes: int | None = None) -> int | None:
    """A column that keeps the exact result of (cur, mask), preferring ``preferred``; None when the
    solver cannot say within ``seconds`` (or, if given, within ``nodes`` in all, the clock then
    unread).  ``keep_table`` starts from what the solver's table holds (the earlier turns of the
    same game: every entry is a true bound of its position)."""
    deadline = time.perf_counter() + seconds
    spent = 0

    def solve(cur: int, mask: int, keep_table: bool):
        nonlocal spent
        if nodes is None:
            left = deadline - time.perf_counter()
            return solver.solve(cur, mask, weak=True, seconds=left, keep_table=keep_table) if left > 0 else None
        if spent >= nodes:
            return None
        result = solver.solve(cur, mask, weak=True, nodes=nodes - spent, keep_table=keep_table)
        spent += result.nodes
        return result

    g = solver.g
    root = solve(cur, mask, keep_table)
    if root is None or not root.exact:
        return None
    outcome = (root.score > 0) - (root.score < 0)
    if outcome < 0:
        return preferred
    columns = [preferred] + [x for x in range(solver.width) if x != preferred]
    for x in columns:
        move = int(engine.column_move(np.uint64(mask), x, g))
        if move == 0:
            continue
        if engine.has_four(np.uint64(cur | move), g):
            return x  # wins at once
        child = solve(cur ^ mask, mask | move, True)
        if child is None or not child.exact:
            return None
        if -((child.score > 0) - (child.score < 0)) == outcome:  # the child's value, seen from here
            return x
    return None


_warmed = False  # warm has run in this process


def warm(solver: Solver) -> None:
    """Load every kernel exact play calls from Python now (numba loads each on its first call,
    which inside a 100 ms turn would cost a tenth of it).  Once a process: a loaded kernel stays
    loaded, and the solve below costs 10 ms that every new agent (a seeded ``Connect4-v0``
    reset makes one) would pay again."""
    global _warmed
    if _warmed:
        return
    g = solver.g
    engine.has_four(np.uint64(0), g)
    engine.column_move(np.uint64(0), 0, g)
    solver.solve(0, 0, weak=True, seconds=0.01)  # the empty board: the search runs until the time is up
    _warmed = True
