"""The memory a bot holds: its process and every process it started, as a memory cgroup sees it.

CodinGame gives every bot 768 MB, whatever its language (its FAQ, "What environment does my
program run in?").  A referee here sums the bot's process tree, found through
``/proc/PID/task/TID/children``, in two steps:

- the resident sets (``/proc/PID/statm``, second field): cheap, read every check, and an upper
  bound, since a page shared by several processes (a library, or all of a parent's memory after
  ``fork``) is counted once in each;
- only when that sum is over the limit, the proportional sets (``Pss`` of
  ``/proc/PID/smaps_rollup``), which share each page out among the processes that map it and so
  add up to what the tree really holds.  Reading them walks the page tables: too slow to do
  every 20 ms, and needed only near the limit.

Linux only: where there is no ``/proc`` nothing is measured, and no bot is held to a limit.
"""

from __future__ import annotations

import os

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
MB = 1 << 20


def held_bytes(root: int, limit: float) -> int | None:
    """What ``root`` and its descendants hold, exactly enough to compare with ``limit`` (bytes):
    the resident sum when it is within the limit, else the proportional sum.  None where /proc
    cannot tell (not Linux)."""
    if not os.path.isdir("/proc/self/task"):
        return None
    tree = _tree(root)
    resident = sum(_resident(pid) for pid in tree)
    if resident <= limit:
        return resident
    proportional = [size for size in map(_proportional, tree) if size is not None]
    return sum(proportional) if len(proportional) == len(tree) else resident  # no smaps_rollup (Linux < 4.14)


def _tree(root: int) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in found:
            continue
        found.append(pid)
        try:
            for thread in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{thread}/children", "rb") as f:
                    todo.extend(int(child) for child in f.read().split())
        except (OSError, ValueError):  # it ended while we looked
            continue
    return found


def _resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return 0


def _proportional(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024  # in kB
    except FileNotFoundError:
        return None if not os.path.exists(f"/proc/{pid}") else 0
    except (OSError, ValueError, IndexError):
        return 0
    return 0
