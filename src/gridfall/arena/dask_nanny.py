"""A Dask nanny plugin that kills the bots of a worker that died mid-game.

On a Dask cluster each worker process is a referee: the bots of its games are its children, each
in a session of its own.  A worker that dies (killed, out of memory) cannot kill them, and a bot
that does not stop at the end of its input would then run for good on that machine.  The worker's
parent is its nanny, which restarts it.  :class:`BotSweeper` makes the nanny's process a child
subreaper (importing :mod:`.reaper` does), so that it adopts those bots, and it kills them every
few seconds, when the nanny closes, and when its process exits (:func:`.process.kill_strays`): a
nanny closes before it kills its worker, so a worker stopped mid-game leaves its bots to the
process's exit.  The nanny's own workers share its session, so they are never taken for bots.

``DaskExecutor`` registers it on every cluster it connects to; nannies that join later get it
from the scheduler.  A worker started without a nanny (``dask worker --no-nanny``) has no such
parent, and its orphaned bots are left to the machine.
"""

from __future__ import annotations

import atexit

from distributed.diagnostics.plugin import NannyPlugin

SWEEP_SECONDS = 5.0


class BotSweeper(NannyPlugin):
    name = "gridfall-bot-sweeper"
    idempotent = True  # registered again by every run on the cluster: the first one stays

    def setup(self, nanny) -> None:
        from tornado.ioloop import PeriodicCallback

        from gridfall.arena.process import kill_strays  # the import makes this process a subreaper

        def sweep() -> None:  # a periodic callback returns nothing
            kill_strays()

        self._sweep = PeriodicCallback(sweep, SWEEP_SECONDS * 1000)
        self._sweep.start()
        atexit.unregister(kill_strays)  # once a process, however many nannies it holds
        atexit.register(kill_strays)

    def teardown(self, nanny) -> None:
        from gridfall.arena.process import kill_strays

        self._sweep.stop()
        kill_strays()
