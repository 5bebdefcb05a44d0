"""Stopping Connect Four games that this process plays on its threads, at once, wherever they are.

A stopped pie-rule run (:mod:`.pie`) abandons the games under way, on its own threads or on a
Dask worker's, and Python cannot end a thread: each game must be asked.  A game runs inside
:func:`stoppable` under its job's key, and :func:`stop` names the keys to stop.  The searches time
themselves, and a turn may be as long as the user likes, so the stop reaches a game's thread at
two depths:

* the loops in Python (between moves, alpha-beta depths, MCTS batches, solver slices) call
  :func:`check`, which raises :class:`Stopped` on a stopped thread: an MCTS batch (64
  iterations) and a solver slice (a quarter second at most) are short;
* an alpha-beta depth is one kernel call that may run to the turn's deadline, so :func:`stop`
  also lowers the node budget of each :class:`~.search.Searcher` made on that thread below its
  count: the kernel compares the two at every node and aborts at the next one.

The order makes it safe: :func:`stop` marks the thread *before* lowering the budgets, and a
search sets a depth's budget *before* it calls :func:`check`.  Either the search sees the mark, or
the budget it set is lowered after it.  And :func:`stop` lowers them holding the lock that a game
takes to begin, so a budget lowered late cannot cut short the thread's next game, whose searches
set their budgets afresh.

Keys, not threads, are named, and each job's key is its own (a random ``stop_key``, not the key
its row is stored under): a stop that comes after its game ended (the thread already plays another
run's game, on a shared Dask worker) finds no key and stops nothing, and one that names a game of
one run never reaches another run's game of the same column and pair.  The bots, and the
searches of the CLI's own commands, stop as processes do.  The portable agent (pure Python, the
exported file's) is not reached inside a move.
"""

from __future__ import annotations

import threading
import weakref
from contextlib import contextmanager
from typing import Iterable, Iterator

_lock = threading.Lock()
_playing: dict[str, int] = {}  # a stoppable job's key -> the thread playing it
_stopped: set[int] = set()  # threads whose searches must stop
_searchers: weakref.WeakSet = weakref.WeakSet()  # each with .thread and .halt(): its running kernel aborts


class Stopped(Exception):
    """The game this thread plays was told to stop: the move being found will not be played."""


@contextmanager
def stoppable(key: str) -> Iterator[None]:
    """Inside, :func:`stop` naming ``key`` stops this thread's searches."""
    me = threading.get_ident()
    with _lock:
        _playing[key] = me
        _stopped.discard(me)
    try:
        yield
    finally:
        with _lock:
            _playing.pop(key, None)
            _stopped.discard(me)


def playing() -> list[str]:
    """The keys of the stoppable games under way in this process."""
    with _lock:
        return sorted(_playing)


def check() -> None:
    """Raise :class:`Stopped` if this thread's game was told to stop."""
    if threading.get_ident() in _stopped:
        raise Stopped("the game this thread plays was told to stop")


def watch(searcher) -> None:
    """Have :func:`stop` call ``searcher.halt()`` when it stops ``searcher.thread`` (kept weakly:
    a searcher dropped is forgotten)."""
    with _lock:
        _searchers.add(searcher)


def stop(keys: Iterable[str]) -> None:
    """The games of ``keys`` that are under way in this process raise :class:`Stopped` at their next
    node, batch, slice or move; the others are not here, or over."""
    with _lock:  # halting under the lock: the thread cannot begin its next game meanwhile
        threads = {_playing[key] for key in keys if key in _playing}
        _stopped.update(threads)
        for searcher in [s for s in _searchers if s.thread in threads]:
            searcher.halt()
