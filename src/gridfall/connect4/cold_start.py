"""What ``gridfall connect4 bot`` plays while the numba cache does not hold its kernels yet.

gridfall's bot loads its compiled search from the cache in about half a second of its 1000 ms
first turn.  Compiling it takes about 14 s (Intel Xeon, 2026-11-29): a bot that compiled on its
first turn lost that game on time, and so did every game that began before the cache was full.
From a cold cache (:func:`gridfall.warmup.is_warm`) the bot plays the exported file's
pure-Python search (:mod:`.portable`) instead, while a child process compiles the kernels into
the cache; a later start finds them.  It says so on stderr, in the line that the referees count
(:mod:`gridfall.arena.fallback`).

A reference opponent (``mcts``, ``alphabeta``, ``gridfall:NODES``...) is never replaced: another
player would change what it measures.  It compiles on its first turn, as before, and says so.

From a warm cache the bot's search loads in a thread while it reads its first turn
(:mod:`.loading`).
"""

from __future__ import annotations

from typing import IO

from gridfall.arena.fallback import notice
from gridfall.connect4.agents import COMPILED_AGENTS, make_agent
from gridfall.connect4.protocol import FIRST_TURN_MS

HINT = "`gridfall warmup` compiles them ahead"


def bot_agent(spec: str, seed: int, log: IO[str], first_turn: float = FIRST_TURN_MS / 1000, freeze: bool = False):
    """The agent the bot plays for ``--agent SPEC``: ``portable`` for ``gridfall`` while the
    cache is cold, each time with a line on ``log``; else the agent named.  ``first_turn``: the
    first turn's plan in seconds, which bounds how long past it a loading search is waited for.
    ``freeze``: this process is the bot's, and what its search loads is frozen out of the garbage
    collector's walks (:class:`.loading.LoadingAgent`)."""
    from gridfall.warmup import compile_in_a_child, is_warm

    if spec == "gridfall" and is_warm("connect4"):  # its search loads while it reads its first turn
        from gridfall.connect4.loading import LoadingAgent

        return LoadingAgent(spec, lambda: make_agent(spec, seed), log, seed, first_turn, freeze)
    if spec.partition(":")[0] not in COMPILED_AGENTS or is_warm("connect4"):
        return make_agent(spec, seed)
    cold = "the numba cache holds no Connect Four kernels of this version of gridfall yet"
    if spec != "gridfall":
        print(f"gridfall bot: {cold}: {spec} compiles them on its first turn (about 15 s; the platform allows 1 s); "
              f"{HINT}", file=log, flush=True)
        return make_agent(spec, seed)
    agent = make_agent("portable", seed)  # checked first: a child starts only for a bot that plays
    print(notice("portable", f"{cold}, and a child process compiles them; {HINT}"), file=log, flush=True)
    compile_in_a_child("connect4", log)
    return agent
