"""Who plays whom in a league: the order of its pairings, fixed by its settings.

A league plays seat-swapped pairs of games.  Its schedule depends on the number of bots, the
number of pairs and the seed, never on results, so the same command always makes the same
schedule and a stopped league resumes by playing the pairs it has not stored.  The bots that
play can change at a pair number (``changes``: a bot joins a running league, or retires from
it): the schedule before that pair is the one the league had, so its stored games stay where
they are.

* ``round-robin``: every pairing of the bots that play, in turn, again and again.
* ``fewest``: psyleague's rule, fewest games first: each pair goes to the bot that has played
  least so far, against the opponent it has met least (the one with fewest games on a tie, then
  a seeded draw), so a bot added to a league soon catches up.
"""

from __future__ import annotations

import itertools
import random
from typing import Iterator, Sequence

MATCHMAKING = ("fewest", "round-robin")


def schedule(bots: int, pairs: int, matchmaking: str = "fewest", seed: int = 0,
             changes: Sequence[tuple[int, tuple[int, ...]]] = ()) -> Iterator[tuple[int, int]]:
    """``pairs`` pairings (i, j) of bot numbers, i != j, in the order they are played, made one
    at a time as they are played: a league of a billion games starts at once.  All ``bots`` play
    until the first change ``(pair, bots that play)``; each makes those the bots that play from
    its pair on.  The settings are checked here, before the first pairing."""
    if bots < 2:
        raise ValueError("a league needs at least two bots")
    if matchmaking not in MATCHMAKING:
        raise ValueError(f"unknown matchmaking {matchmaking!r}; choose one of {', '.join(MATCHMAKING)}")
    segments = [(0, tuple(range(bots)))]
    for pair, playing in sorted(((int(p), tuple(sorted(set(b)))) for p, b in changes), key=lambda c: c[0]):
        if len(playing) < 2 or not all(0 <= b < bots for b in playing):
            raise ValueError(f"from pair {pair}: bots {list(playing)} cannot play a league of {bots} bots "
                             "(two or more of them)")
        segments.append((pair, playing))
    return (_round_robin if matchmaking == "round-robin" else _fewest)(bots, pairs, seed, segments)


def _playing(pair: int, segments: list[tuple[int, tuple[int, ...]]]) -> tuple[int, tuple[int, ...]]:
    """(the pair its segment starts at, the bots that play) for ``pair``: the last change made
    at or before it (of two at one pair, the later)."""
    found = segments[0]
    for segment in segments:
        if segment[0] <= pair:
            found = segment
    return found


def _round_robin(bots: int, pairs: int, seed: int, segments) -> Iterator[tuple[int, int]]:
    for k in range(pairs):
        start, playing = _playing(k, segments)  # each segment goes round its own pairings from its start
        everyone = list(itertools.combinations(playing, 2))
        yield everyone[(k - start) % len(everyone)]


def _fewest(bots: int, pairs: int, seed: int, segments) -> Iterator[tuple[int, int]]:
    rng = random.Random(f"gridfall league {seed}")
    games = [0] * bots
    met = [[0] * bots for _ in range(bots)]
    for k in range(pairs):
        playing = _playing(k, segments)[1]  # a bot that joins has no games: it plays until it catches up
        low = min(games[b] for b in playing)
        first = rng.choice([b for b in playing if games[b] == low])
        others = [b for b in playing if b != first]
        key = {b: (met[first][b], games[b]) for b in others}
        best = min(key.values())
        second = rng.choice([b for b in others if key[b] == best])
        yield first, second
        games[first] += 2
        games[second] += 2
        met[first][second] += 1
        met[second][first] += 1
