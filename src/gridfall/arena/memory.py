"""The memory a bot holds: the resident pages of its process and of every process it started.

CodinGame gives every bot 768 MB, whatever its language (its FAQ, "What environment does my
program run in?").  A referee here measures a bot the way a memory cgroup would see it: the
resident set of the bot's process (``/proc/PID/statm``, second field) plus those of its
descendants, found through ``/proc/PID/task/TID/children``.  Pages shared between the processes
(an interpreter's libraries) are counted once in each, so the sum errs a few MB on the high side.

Linux only: where there is no ``/proc`` nothing is measured, and no bot is held to a limit.
"""

from __future__ import annotations

import os

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
MB = 1 << 20


def resident_bytes(root: int) -> int | None:
    """Bytes resident in ``root`` and its descendants; None where /proc cannot tell (not Linux)."""
    if not os.path.isdir("/proc/self/task"):
        return None
    total, todo, seen = 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * PAGE_BYTES
            for thread in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{thread}/children", "rb") as f:
                    todo.extend(int(child) for child in f.read().split())
        except (OSError, ValueError, IndexError):  # it ended while we looked
            continue
    return total
