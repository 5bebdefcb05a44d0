"""gridfall's Connect Four bot while its compiled search loads from a warm cache.

Loading takes numba's import and the kernels: 0.5-1.0 s on an Intel Xeon (2026-11-30), the
whole of a 1000 ms first turn where a machine is slow or busy.  The bot loaded them before it
read its first turn, and answered when they were ready: in 200 games against ``mcts`` on that
machine it lost 37 and 82 of them on time, its slowest first turns 1000 and 993 ms.

So the search loads in a thread while the bot reads its input.  A turn waits for it as long as
the turn's plan allows, the time that the search would have had (the first turn a little
longer, ``FIRST_TURN_GRACE``).  If it is not ready by then, the bot answers without it: the
opening table's or the book's move where there is one (:mod:`.opening_moves`: the first move, a
STEAL, and the book's first turns), the move the loaded bot plays there too; else the protocol's
central column, and then it says so on stderr, in the line that the referees count
(:mod:`gridfall.arena.fallback`).  A late search costs the bot an early move at most, where it
cost games.

Only the wait runs on the main thread, which holds no lock meanwhile: the loading thread has the
interpreter to itself.
"""

from __future__ import annotations

import threading
import time
from typing import IO, Any, Callable

from gridfall.arena.fallback import notice
from gridfall.connect4.opening_moves import OpeningMoves
from gridfall.connect4.rules import Game


# The first turn may wait past its plan (700 ms of the 1000) for half the 300 ms left: a search
# that comes then still answers at once, inside the limit.  Later turns keep their 15 ms margin.
FIRST_TURN_GRACE = 0.15
# A search that comes later than this before the turn's plan ends is left for the next turn: its
# first move, with less, ran past a 100 ms limit twice in 200 games (Intel Xeon, 2026-11-30).
LEAST_FIRST_SEARCH = 0.03


class LoadingAgent:
    """Plays as the agent that ``load`` makes, in a thread, once it is there; see the module."""

    def __init__(self, name: str, load: Callable[[], Any], log: IO[str]):
        self.name = name
        self.log = log
        self._grace = FIRST_TURN_GRACE  # for the first call only: the first turn
        self.opening = OpeningMoves.load()  # no numba; the book first, so the loading thread finds it read
        self._agent: Any = None  # the loaded agent: anything with act(game, seconds)
        self._ready = threading.Event()
        threading.Thread(target=self._load, args=(load,), name="gridfall-connect4-search", daemon=True).start()

    def _load(self, load: Callable[[], Any]) -> None:
        try:
            self._agent = load()
        except Exception as e:  # noqa: BLE001 - the bot goes on with the table, the book and the central column
            print(f"gridfall bot: the search failed to load ({e!r})", file=self.log, flush=True)
        finally:
            self._ready.set()

    def act(self, game: Game, seconds: float):
        start, grace, self._grace = time.monotonic(), self._grace, 0.0
        if self._ready.wait(max(seconds - LEAST_FIRST_SEARCH, 0.0) + grace) and self._agent is not None:
            return self._agent.act(game, max(seconds - (time.monotonic() - start), 0.005))
        action = self.opening.move(game)
        if action is None:
            print(notice("the central column", "the compiled search was not ready in time"), file=self.log, flush=True)
        return action  # None: the protocol plays the central column
