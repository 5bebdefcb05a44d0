"""Games in which a bot of gridfall's played pure Python, not its compiled search: the bot says
so on stderr, and the referees count them in their summaries.

A bot plays a pure-Python fallback while the numba cache does not hold its kernels yet (a child
process compiles them, :mod:`gridfall.warmup`), or when they were still loading from a warm
cache when a turn came (``LOADING``: no warm-up helps that).  Such a game
measures the fallback, not the bot, and a league, an SPRT or a comparison would rate the wrong
player with it.  The referees warm the bots they know for gridfall's first
(:mod:`.warm_bots`), so a count here is a bot they could not warm: one behind a wrapper (a shell
script, a runner given options: ``uv run --with x``) or a copy whose warm-up failed.  The
referees store each turn's stderr (``output``); :func:`said_so` finds the bot's line in a turn's.
"""

from __future__ import annotations

from collections import Counter

NOTICE = "gridfall bot: playing pure Python, not the compiled search"
ADVICE = "run `gridfall warmup` with each such bot's gridfall before timing it"
# In the notice of a bot whose kernels were in the cache, but not loaded yet when a turn came, or
# whose first turn was too short to load them at all: a warm-up would not have helped.
LOADING = "were still loading"
TOO_SHORT = "too short to load"


def notice(player: str, why: str) -> str:
    """The line a bot writes to stderr when it plays ``player`` (pure Python) because of ``why``."""
    return f"{NOTICE} ({player}): {why}"


def said_so(text: str) -> bool:
    """Whether a turn's stderr holds the notice."""
    return NOTICE in text


def said_loading(texts) -> bool:
    """Whether every notice among ``texts`` (turns' stderr) says the kernels were still loading, or
    that the turn was too short to load them."""
    notices = [line for text in texts for line in text.splitlines() if NOTICE in line]
    return bool(notices) and all(LOADING in line or TOO_SHORT in line for line in notices)


def counts_json(counts: Counter) -> dict[str, int]:
    return {name: n for name, n in sorted(counts.items()) if n}


def summary(counts: Counter, totals: Counter, unit: str = "game", loading: bool = False) -> str | None:
    """A line naming each bot that played pure Python, and in how many of its games (or boards);
    None when none did.  ``loading``: every such notice said the kernels were still loading
    (:func:`said_loading`), so the advice is not a warm-up."""
    where = "on" if unit == "board" else "in"
    named = [f"{name} {where} {n} of {totals[name]} {unit}s" for name, n in counts_json(counts).items()]
    if not named:
        return None
    if loading:
        return (f"Played pure Python, not the compiled search, for a turn that came while its numba kernels {LOADING} "
                f"from the cache, or was {TOO_SHORT} them: {'; '.join(named)}. Those {unit}s measure the fallback in "
                "part: the machine was busy, or the turns were shorter than the platform's.")
    return f"Played pure Python, not the compiled search, as its numba kernels were not ready: {'; '.join(named)}. " \
           f"Those {unit}s measure the fallback: {ADVICE}."
