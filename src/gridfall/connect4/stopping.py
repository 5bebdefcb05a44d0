"""Stopping this process's Connect Four searches at once, wherever they are.

A stopped pie-rule run (:mod:`.pie`) abandons the games it plays on its own threads, and Python
cannot end a thread: each must be asked.  The searches time themselves, and a turn may be as long
as the user likes, so :func:`stop` reaches them at two depths:

* the loops in Python (between moves, alpha-beta depths, MCTS batches, solver slices) ask
  :func:`requested` and raise :class:`Stopped`: an MCTS batch (64 iterations) and a solver slice
  (a quarter second at most) are short;
* an alpha-beta depth is one kernel call that may run to the turn's deadline, so :func:`stop`
  also lowers the node budget of every live :class:`~.search.Searcher` below its count: the
  kernel compares the two at every node and aborts at the next one.

The order makes it safe: :func:`stop` raises the flag *before* lowering the budgets, and a search
sets a depth's budget *before* it asks the flag.  Either the search sees the flag, or the budget
it set is lowered after it.

Nothing else calls :func:`stop`: the bots and the CLI's searches stop as processes do.  The
portable agent (pure Python, the exported file's) is not reached inside a move.
"""

from __future__ import annotations

import threading
import weakref

_requested = threading.Event()
_searchers: weakref.WeakSet = weakref.WeakSet()  # each with a halt(): its running kernel aborts
_lock = threading.Lock()  # a searcher made on one thread while another stops


class Stopped(Exception):
    """This process's searches were told to stop: the move being found will not be played."""


def requested() -> bool:
    return _requested.is_set()


def check() -> None:
    """Raise :class:`Stopped` once a stop is requested."""
    if _requested.is_set():
        raise Stopped("the searches of this process were told to stop")


def watch(searcher) -> None:
    """Have :func:`stop` call ``searcher.halt()`` (kept weakly: a searcher dropped is forgotten)."""
    with _lock:
        _searchers.add(searcher)


def stop() -> None:
    """Every search of this process raises :class:`Stopped` at its next node, batch or slice."""
    _requested.set()
    with _lock:
        searchers = list(_searchers)
    for searcher in searchers:
        searcher.halt()


def clear() -> None:
    """Searches run again (call it once the stopped ones have ended)."""
    _requested.clear()
