"""Rebuild the opening table by self-play of gridfall's search (``gridfall connect4 openings --rebuild``)."""

from __future__ import annotations

import json
import random
import time
from importlib import resources
from pathlib import Path

from gridfall.connect4.openings import TABLE_FILE, OpeningTable
from gridfall.connect4.rules import Game


def _selfplay(args) -> float:
    """One game from an opening: the first player's result (1, 0.5, 0)."""
    from gridfall.connect4.engine import from_game
    from gridfall.connect4.search import Searcher

    width, height, column, seed, turn_seconds = args
    rnd = random.Random(seed)
    game = Game(width, height, steal=False)
    game.apply_action(column)
    for _ in range(2):  # variety: two random central plies before the search takes over
        game.apply_action(rnd.choice([x for x in game.legal_actions() if abs(2 * x - (width - 1)) <= 4]))
    searchers = (Searcher(width, height, table_bits=18), Searcher(width, height, table_bits=18))
    while not game.is_terminal():
        decision = searchers[game.current_player()].choose(*from_game(game), seconds=turn_seconds)
        game.apply_action(decision.column)
    return 0.5 if game.winner is None else float(game.winner == 0)


def build(width: int = 9, height: int = 7, games: int = 160, turn_seconds: float = 0.05, workers: int = 2,
          out: Path | None = None, log=print) -> OpeningTable:
    """Self-play ``games`` games from every first move and write the table.

    Score for the second player = 100 * (1/2 - the first player's score share),
    so stealing pays where it is negative.
    """
    from concurrent.futures import ThreadPoolExecutor

    scores = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for x in range((width + 1) // 2):  # a column and its mirror image are the same opening
            jobs = [(width, height, x, 1000 * x + k, turn_seconds) for k in range(games)]
            share = sum(pool.map(_selfplay, jobs)) / games
            scores[x] = scores[width - 1 - x] = round(100 * (0.5 - share))
            log(f"columns {x} and {width - 1 - x}: first player scores {100 * share:.0f}% in {games} self-play "
                f"games; score {scores[x]:+d} for the second player")
    method = (f"self-play of gridfall's search ({turn_seconds * 1000:g} ms a move, both sides), {games} games "
              f"from each first chip (a column and its mirror share them), two random central plies after it for "
              f"variety; score = 100 x (1/2 - the first player's share); {time.strftime('%Y-%m-%d')}")
    table = OpeningTable(width, height, scores, method)
    path = out or Path(str(resources.files("gridfall").joinpath("data", "connect4", TABLE_FILE)))
    path.write_text(json.dumps({"width": width, "height": height, "method": method,
                                "scores": {str(k): v for k, v in scores.items()}}, indent=1) + "\n")
    return table
