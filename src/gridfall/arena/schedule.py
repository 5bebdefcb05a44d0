"""Who plays whom in a league: the order of its pairings, fixed by its settings.

A league plays seat-swapped pairs of games.  Its schedule depends on the number of bots, the
number of pairs and the seed, never on results, so the same command always makes the same
schedule and a stopped league resumes by playing the pairs it has not stored.  Bots added to a
running league join at a pair number (``joins``): the schedule before it is the one the league
had, so its stored games stay where they are.

* ``round-robin``: every pairing in turn, again and again.
* ``fewest``: psyleague's rule, fewest games first: each pair goes to the bot that has played
  least so far, against the opponent it has met least (the one with fewest games on a tie, then
  a seeded draw), so a bot added to a league soon catches up.
"""

from __future__ import annotations

import itertools
import random
from typing import Iterator

MATCHMAKING = ("fewest", "round-robin")


def schedule(bots: int, pairs: int, matchmaking: str = "fewest", seed: int = 0,
             joins: list[tuple[int, int]] = ()) -> Iterator[tuple[int, int]]:
    """``pairs`` pairings (i, j) of bot numbers, i != j, in the order they are played, made one
    at a time as they are played: a league of a billion games starts at once.  ``bots`` play
    from the start; each join ``(pair, count)`` makes it ``count`` bots from that pair on (bots
    are numbered in the order they joined).  The settings are checked here, before the first
    pairing."""
    if bots < 2:
        raise ValueError("a league needs at least two bots")
    if matchmaking not in MATCHMAKING:
        raise ValueError(f"unknown matchmaking {matchmaking!r}; choose one of {', '.join(MATCHMAKING)}")
    steps = sorted(tuple(j) for j in joins)
    if any(count < bots for _, count in steps) or steps != sorted(steps, key=lambda j: j[1]):
        raise ValueError(f"joins {steps} would take bots away: a league only gains them")
    return (_round_robin if matchmaking == "round-robin" else _fewest)(bots, pairs, seed, steps)


def _bots_at(pair: int, bots: int, joins: list[tuple[int, int]]) -> int:
    """How many bots play from ``pair`` on."""
    for start, count in joins:
        if start <= pair:
            bots = count
    return bots


def _round_robin(bots: int, pairs: int, seed: int, joins: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    starts = [(0, bots)] + joins  # each segment goes round its own pairings from its first pair
    for k in range(pairs):
        start, count = max((s, c) for s, c in starts if s <= k)
        everyone = list(itertools.combinations(range(count), 2))
        yield everyone[(k - start) % len(everyone)]


def _fewest(bots: int, pairs: int, seed: int, joins: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    rng = random.Random(f"gridfall league {seed}")
    games = [0] * bots
    met = [[0] * bots for _ in range(bots)]
    for k in range(pairs):
        while len(games) < _bots_at(k, bots, joins):  # a bot joins with no games: it plays until it catches up
            games.append(0)
            for row in met:
                row.append(0)
            met.append([0] * len(games))
        bots = len(games)
        low = min(games)
        first = rng.choice([b for b in range(bots) if games[b] == low])
        others = [b for b in range(bots) if b != first]
        key = {b: (met[first][b], games[b]) for b in others}
        best = min(key.values())
        second = rng.choice([b for b in others if key[b] == best])
        yield first, second
        games[first] += 2
        games[second] += 2
        met[first][second] += 1
        met[second][first] += 1
