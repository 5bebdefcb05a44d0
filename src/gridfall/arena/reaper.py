"""Kill everything a bot started, even a process that left its session.

A bot runs in a session of its own, so killing its process group ends the bot and the children
that stayed with it.  A child that calls ``setsid`` leaves both; once its parent dies it would be
adopted by init and outlive the game.  On Linux the referee makes itself a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``): such orphans are adopted by the referee instead, where
:func:`kill_tree` finds them (a child of ours in a session that is neither ours nor a live bot's)
and kills them.  Elsewhere only the process group and the session are killed; ``SUBREAPER``
says which.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


SUBREAPER = _become_subreaper()


def _processes(zombies: bool = False) -> dict[int, tuple[int, int, int]]:
    """pid -> (parent, process group, session) of every live process (or, with ``zombies``, of
    every process that has exited and waits to be reaped), Linux only."""
    table: dict[int, tuple[int, int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        # "pid (command) state ppid pgrp session ...": the command may hold spaces and parentheses
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) < 4 or (fields[0] in ("Z", "X")) != zombies:
            continue
        table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]))
    return table


def _targets(table: dict[int, tuple[int, int, int]], root: int, live_roots: set[int]) -> set[int]:
    """The bot's descendants, its group and session, and the orphans adopted from any bot's tree."""
    me = os.getpid()
    my_session = os.getsid(0)
    found = {pid for pid, (_, group, session) in table.items() if group == root or session == root}
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    todo = [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            if child not in found:
                found.add(child)
                todo.append(child)
    for pid, (parent, _, session) in table.items():
        if parent == me and pid != root and pid not in live_roots and session not in (my_session, *live_roots):
            found.add(pid)  # adopted: it left a bot's session and its parent died
    found.discard(me)
    return found


def kill_tree(root: int, live_roots=lambda: frozenset(), lock=None) -> None:
    """SIGKILL the bot ``root`` (a session leader) and everything it started; reap our children.

    ``live_roots()`` gives the other bots still playing, whose trees are left alone; it is asked
    afresh, under ``lock``, at every look: a bot that another thread starts meanwhile (under the
    same lock) is then either not started yet or known as live, never taken for a stray."""
    try:
        os.killpg(root, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if not sys.platform.startswith("linux"):
        return
    killed: set[int] = set()
    for _ in range(20):  # a killed parent's children are adopted a moment later: look again
        with lock if lock is not None else contextlib.nullcontext():
            targets = _targets(_processes(), root, set(live_roots())) - killed
            for pid in targets:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        if not targets:
            break
        killed |= targets
        time.sleep(0.005)
    _reap(killed | _orphaned_zombies())


def kill_strays(live_roots=lambda: frozenset(), lock=None) -> set[int]:
    """Kill and reap the bots whose referee died: our children in a session that is neither ours
    nor a live bot's (returns their pids).

    A referee in a child process of ours, such as a Dask worker (the child of its nanny), starts
    its bots as its own children.  Killed mid-game, it leaves them running, and the subreaper
    adopts them: a bot that never reads its closed input would run for as long as we do, and
    one that exits would stay a zombie.  Nothing else waits for them, so this does.  ``live_roots``
    and ``lock`` are :func:`kill_tree`'s: the bots this process runs are left alone."""
    if not sys.platform.startswith("linux"):
        return set()
    me, my_session = os.getpid(), os.getsid(0)
    with lock if lock is not None else contextlib.nullcontext():
        live = set(live_roots())
        table = {**_processes(), **_processes(zombies=True)}
        strays = {pid for pid, (parent, _, session) in table.items()
                  if parent == me and session != my_session and session not in live}
    for pid in strays:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        kill_tree(pid, live_roots, lock)  # its group, session and children too
    _reap(strays)
    return strays


def _orphaned_zombies() -> set[int]:
    """Our exited children from bots' sessions that nobody else will reap.

    A bot run through a shell (``sh -c "python3 bot.py"``) dies with its shell; if the bot is
    dead first, the subreaper adopts it dead, after the look that found the live processes, and
    it would stay a zombie for the rest of the run (a 600-game match left hundreds).  A session
    leader is left alone: that is a bot's root, which its own ``Popen.wait`` reaps with its exit code."""
    me, my_session = os.getpid(), os.getsid(0)
    return {pid for pid, (parent, _, session) in _processes(zombies=True).items()
            if parent == me and session not in (my_session, pid)}


def _reap(pids: set[int], wait: float = 0.5) -> None:
    """Collect the exit status of those of ``pids`` that are our children, so none stays a zombie."""
    pending = set(pids)
    deadline = time.monotonic() + wait
    while pending:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except (ChildProcessError, OSError):
                done = pid  # not our child: init or its own parent reaps it
            if done:
                pending.discard(pid)
        if not pending or time.monotonic() > deadline:
            return
        time.sleep(0.002)
