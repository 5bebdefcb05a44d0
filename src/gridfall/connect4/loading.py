"""gridfall's Connect Four bot while its compiled search loads from a warm cache.

Loading takes numba's import and the kernels: 0.5-1.0 s on an Intel Xeon (2026-11-30), the
whole of a 1000 ms first turn where a machine is slow or busy.  The bot loaded them before it
read its first turn, and answered when they were ready: in 200 games against ``mcts`` on that
machine it lost 37 and 82 of them on time, its slowest first turns 1000 and 993 ms.

So the search loads in a thread while the bot reads its input.  A turn that the opening table
or the book answers (:mod:`.opening_moves`: the first move, a STEAL, the book's first turns)
waits for the search as long as the turn's plan allows (the first turn a little longer,
``FIRST_TURN_GRACE``), for the loaded bot to spend the turn pondering; without it, the bot plays
that same move.  A later turn they do not answer waits half its plan, then plays the exported
file's pure-Python search (:mod:`.portable`) with the rest, and says so on stderr, in the line
that the referees count (:mod:`gridfall.arena.fallback`).  That turn comes past the book, 1-2 s
into a game, and the search was not there in 1 game of 600 against ``mcts`` (Intel Xeon, four
bots starting on two cores), and in 3 of 6 against ``greedy``, which answers at once, with two
busy processes beside.  A bot whose search failed to load plays every such turn so.

The first turn waits for the search as long as a known one, whatever it is: a league or an SPRT
starts its games from openings of their own, past the book, so there the first turn is the
search's.  The compiled search with the last 30 ms of the turn plays better than the pure-Python
one with most of it, and a main thread that waits leaves the interpreter to the loading thread,
where a pure-Python search would share it.  When it waited half, gridfall played pure Python in
11 and 10 of 20 league games against ``mcts`` (two games at once, AMD EPYC, 2026-11-30): its
search, loaded 0.38-0.47 s after the bot started in the other games, came at 0.64-0.79 s there,
during the pure-Python search.

Only the wait runs on the main thread, which holds no lock meanwhile: the loading thread has the
interpreter to itself.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import IO, Any, Callable

from gridfall.arena.fallback import LOADING, notice
from gridfall.connect4.opening_moves import OpeningMoves
from gridfall.connect4.protocol import FIRST_TURN_MS
from gridfall.connect4.rules import Game


# The first turn may wait past its plan (700 ms of the 1000) for half the 300 ms left: a search
# that comes then still answers at once, inside the limit.  Later turns keep their 15 ms margin.
# Under a referee's tighter limit a plan of half the limit leaves the other half (arena.limits):
# the grace is at most half the plan, so still half of what is left.
FIRST_TURN_GRACE = 0.15
# A search that comes later than this before the turn's plan ends is left for the next turn: its
# first move, with less, ran past a 100 ms limit twice in 200 games (Intel Xeon, 2026-11-30).
LEAST_FIRST_SEARCH = 0.03  # and a first turn past the book keeps as much for its answer, inside its grace
# Of a later turn that neither the table nor the book answers, the share the bot waits for the search
# before it plays the pure-Python search with the rest.
WAIT_SHARE = 0.5


class LoadingAgent:
    """Plays as the agent that ``load`` makes, in a thread, once it is there; see the module."""

    def __init__(self, name: str, load: Callable[[], Any], log: IO[str], seed: int = 0,
                 first_turn: float = FIRST_TURN_MS / 1000, freeze: bool = False):
        self.name = name
        self._freeze = freeze  # the bot's own process: see _load
        self.log = log
        self.seed = seed
        self._portable: Any = None  # the pure-Python search, made on first need
        self._grace = min(FIRST_TURN_GRACE, first_turn / 2)  # for the first call only: the first turn
        self.opening = OpeningMoves.load()  # no numba; the book first, so the loading thread finds it read
        self._agent: Any = None  # the loaded agent: anything with act(game, seconds)
        self._ready = threading.Event()
        threading.Thread(target=self._load, args=(load,), name="gridfall-connect4-search", daemon=True).start()

    def _load(self, load: Callable[[], Any]) -> None:
        try:
            self._agent = load()
            if self._freeze:
                # What loading made (111,000 objects: numba's, the book's) lives as long as the bot.
                # Frozen, a full collection no longer walks it: one took 21-26 ms, at whatever later
                # turn it fell in, of the 15 ms a turn keeps back; now 0.0 ms (Intel Xeon, 2026-12-01).
                gc.freeze()
        except Exception as e:  # noqa: BLE001 - the bot goes on in pure Python
            print(f"gridfall bot: the search failed to load ({e!r})", file=self.log, flush=True)
        finally:
            self._ready.set()

    def act(self, game: Game, seconds: float):
        if self._agent is not None:  # loaded: the bot is the search, and plays the opening moves itself
            return self._agent.act(game, seconds)
        start, grace, self._grace = time.monotonic(), self._grace, 0.0
        known = self.opening.move(game)
        first = grace > 0  # the first turn waits as long for any move (see the module)
        wait = max(seconds - LEAST_FIRST_SEARCH, 0.0) + grace if known is not None or first else seconds * WAIT_SHARE
        # past the plan, into the grace, a first turn without a known move still searches a little
        least = LEAST_FIRST_SEARCH if first and known is None else 0.005
        if self._ready.wait(min(wait, threading.TIMEOUT_MAX)) and self._agent is not None:  # a longer wait overflows
            return self._agent.act(game, max(seconds - (time.monotonic() - start), least))
        if known is not None:
            return known
        why = ("the compiled search failed to load" if self._ready.is_set()
               else f"the compiled search's kernels {LOADING} (not ready in time)")
        print(notice("portable", why), file=self.log, flush=True)
        return self._pure_python().act(game, max(seconds - (time.monotonic() - start), least))

    def _pure_python(self):
        if self._portable is None:
            from gridfall.connect4.portable import PortableAgent

            self._portable = PortableAgent(self.opening.table, book=self.opening.book, seed=self.seed)
        return self._portable
