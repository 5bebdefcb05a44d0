"""Building the exported file's opening book (:mod:`.book`) with the numba search.

The tree is the file's own: from the empty board with the file as either player, the file's
first move and STEAL decisions are its opening table's (:meth:`PortableAgent.table_move`),
the opponent tries every legal action, and every other position where the file is to move,
up to ``turns`` actions into the game, is searched to ``depth`` plies from an empty table
(so each answer is the same whatever order the positions are searched in, and a rebuild gives
the same moves; only the date in its method changes).  The file then plays that answer, and the tree goes on from it.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from typing import Callable

from gridfall.connect4.book import Book, position_key
from gridfall.connect4.rules import Game

DEPTH = 14  # about a quarter of a second a position in the opening (benchmarks/connect4_search.py)
TURNS = 6  # the file's positions up to this many actions into a game: its first three or four moves

_searcher = None  # one a worker process


def _search(position: tuple[int, int, int, int, int]) -> int:
    """The numba search's column at a fixed depth, from an empty table."""
    global _searcher
    from gridfall.connect4.search import Searcher

    current, mask, width, height, depth = position
    if _searcher is None or (_searcher.width, _searcher.height) != (width, height):
        _searcher = Searcher(width, height)
    _searcher.forget()
    return _searcher.choose(current, mask, seconds=1e9, max_depth=depth).column


def build(width: int = 9, height: int = 7, depth: int = DEPTH, turns: int = TURNS, workers: int = 1,
          progress: Callable[[str], None] = lambda line: None) -> Book:
    """The book for the file's tree up to ``turns`` actions, searched to ``depth`` plies."""
    from gridfall.connect4.engine import from_game
    from gridfall.connect4.portable import Board, PortableAgent

    agent = PortableAgent(book=Book(width, height, {}, "none"), seed=0)  # its table moves only
    board = Board(width, height)  # the file's layout gives the keys; the numba engine has its own

    def key(game: Game) -> str:
        return position_key(*board.position_of(game), width, height)

    moves: dict[str, int] = {}
    started = time.monotonic()
    # (game, the file's seat): the file moves first, or second
    frontier = [(Game(width, height, steal=True), seat) for seat in (0, 1)]
    with ProcessPoolExecutor(workers) as pool:
        for turn in range(turns + 1):
            to_search: dict[str, tuple[int, int, int, int, int]] = {}
            for game, seat in frontier:
                if game.current_player() == seat and agent.table_move(game) is None:
                    to_search[key(game)] = (*from_game(game), width, height, depth)
            keys = sorted(to_search)
            moves.update(zip(keys, pool.map(_search, [to_search[k] for k in keys])))
            progress(f"turn {turn}: {len(keys)} positions searched to depth {depth}, {len(moves)} in the book "
                     f"({time.monotonic() - started:.0f} s)")
            if turn == turns:
                break
            following = []
            for game, seat in frontier:
                if game.current_player() == seat:
                    action = agent.table_move(game)
                    actions = [moves[key(game)] if action is None else action]
                else:
                    actions = game.legal_actions()
                for action in actions:
                    child = game.clone()
                    child.apply_action(action)
                    if not child.is_terminal():
                        following.append((child, seat))
            frontier = following
    method = (f"The numba search (gridfall.connect4.search, no variety) to depth {depth} from an empty table, "
              f"in each of the {len(moves):,} positions the exported file can reach with up to {turns} actions "
              f"played (its first move and STEAL decisions from the opening table, every legal answer of the "
              f"opponent); {date.today().isoformat()}.  Rebuild: gridfall connect4 book --rebuild --depth {depth} "
              f"--turns {turns}")
    return Book(width, height, moves, method, depth, turns)
