"""The name a job runs under, and the one way to stop jobs by name.

An executor runs each job :func:`running_as` a name of its own (:func:`new_name`: random, so no
other run's job has it), and a stop names the jobs to stop: :func:`stop`, run where they run
(here, or on every Dask worker, whose threads play other runs' jobs too).  A thread cannot be
ended from outside, so the work hears the stop where it can:

* a SameGame search's clock sees its deadline passed (``samegame/search/clock.py``);
* a bot is not started for a stopped job, and a hook kills the ones it runs (``process.py``);
* a Connect Four search raises Stopped, and a hook lowers its kernel's node budget
  (``connect4/stopping.py``).

The name is a context variable: a job's own worker threads get it with :func:`carried`.  A name
is forgotten when its job ends, so a stop that comes late finds nothing to stop.
"""

from __future__ import annotations

import contextvars
import secrets
import threading
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("gridfall_job", default=None)
_lock = threading.Lock()
_under_way: set[str] = set()  # the names of the jobs running in this process
_stopped: set[str] = set()  # those of them told to stop
_hooks: list[Callable[[set[str]], None]] = []


def new_name() -> str:
    return secrets.token_hex(8)


@contextmanager
def running_as(name: str) -> Iterator[None]:
    """Inside, this context's work is the job ``name``'s."""
    with _lock:
        _under_way.add(name)
    token = _current.set(name)
    try:
        yield
    finally:
        _current.reset(token)
        with _lock:
            _under_way.discard(name)
            _stopped.discard(name)


def run_as(name: str, work: Callable[[T], object], job: T):
    """``work(job)`` as the job ``name`` (what an executor runs)."""
    with running_as(name):
        return work(job)


def current() -> str | None:
    """The name of the job this context works for (None outside any executor's job)."""
    return _current.get()


def told_to_stop() -> bool:
    """Whether the job this context works for was named by :func:`stop`."""
    name = _current.get()
    return name is not None and name in _stopped


def under_way() -> list[str]:
    """The names of the jobs running in this process."""
    with _lock:
        return sorted(_under_way)


def when_stopped(hook: Callable[[set[str]], None]) -> None:
    """Have :func:`stop` call ``hook(names)`` with the names it stops (a module registers its hook
    once, at import)."""
    _hooks.append(hook)


def stop(names: Iterable[str]) -> None:
    """The jobs of ``names`` that run in this process stop; the others are elsewhere, or over.
    They are marked first, then the hooks run: whatever a hook misses starting afterwards sees
    the mark."""
    with _lock:
        found = {name for name in names if name in _under_way}
        _stopped.update(found)
    if found:
        for hook in _hooks:
            hook(found)


def carried(function: Callable[..., T], *args) -> Callable[[], T]:
    """``function(*args)`` to run on another thread as this context's job (a thread starts in an
    empty context: a job's worker thread would not hear its stop)."""
    context = contextvars.copy_context()
    return lambda: context.run(function, *args)
