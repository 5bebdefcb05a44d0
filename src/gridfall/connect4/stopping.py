"""Stopping Connect Four games that this process plays on its threads, at once, wherever they are.

A stopped pie-rule run (:mod:`.pie`) abandons the games under way, on its own threads or on a
Dask worker's, and Python cannot end a thread: each game must be told.  A game runs as its job
(:mod:`gridfall.arena.job_name`) inside :func:`stoppable`, and a stop of that job reaches the
game's thread at two depths, since the searches time themselves and a turn may be as long as
the user likes:

* the loops in Python (between moves, alpha-beta depths, MCTS batches, solver slices) call
  :func:`check`, which raises :class:`Stopped` once the job is told to stop: an MCTS batch (64
  iterations) and a solver slice (a quarter second at most) are short;
* an alpha-beta depth is one kernel call that may run to the turn's deadline, so the stop also
  lowers the node budget of each :class:`~.search.Searcher` searching on the game's thread below its
  count (:func:`_halt`, the stop's hook): the kernel compares the two at every node and aborts
  at the next one.

The order makes it safe: ``job_name.stop`` marks the job *before* the hook lowers the budgets,
and a search sets a depth's budget *before* it calls :func:`check`.  Either the search sees the
mark, or the budget it set is lowered after it.  And the hook lowers them holding the lock that
a game takes to begin and to end, so a budget lowered late cannot cut short the thread's next
game (another job's), whose searches set their budgets afresh.

The portable agent (pure Python, the exported file's, which knows nothing of gridfall) reads the
mark where it reads its clock, every 256 nodes: :class:`.agents.StoppablePortableAgent`.  The
bots, and the searches of the CLI's own commands, stop as processes do.
"""

from __future__ import annotations

import threading
import weakref
from contextlib import contextmanager
from typing import Iterator

from gridfall.arena import job_name

_lock = threading.Lock()
_playing: dict[str, int] = {}  # the job of a game under way -> the thread playing it
_searchers: weakref.WeakSet = weakref.WeakSet()  # each with .thread and .halt(): its running kernel aborts


class Stopped(Exception):
    """The game this thread plays was told to stop: the move being found will not be played."""


@contextmanager
def stoppable() -> Iterator[None]:
    """Inside, a stop of this context's job reaches this thread's searches (outside any job,
    nothing names them: they run their time)."""
    name = job_name.current()
    if name is None:
        yield
        return
    with _lock:
        _playing[name] = threading.get_ident()
    try:
        yield
    finally:
        with _lock:
            _playing.pop(name, None)


def check() -> None:
    """Raise :class:`Stopped` if the job this thread plays for was told to stop."""
    if job_name.told_to_stop():
        raise Stopped("the game this thread plays was told to stop")


def watch(searcher) -> None:
    """Have a stop of its thread's game call ``searcher.halt()`` (kept weakly: a searcher dropped
    is forgotten)."""
    with _lock:
        _searchers.add(searcher)


def _halt(jobs: set[str]) -> None:
    """The stop's hook: the running kernels of the stopped games' threads abort at their next node."""
    with _lock:  # under the lock a game takes to begin and end: the thread cannot begin its next one meanwhile
        threads = {_playing[name] for name in jobs if name in _playing}
        for searcher in [s for s in _searchers if s.thread in threads]:
            searcher.halt()


job_name.when_stopped(_halt)
