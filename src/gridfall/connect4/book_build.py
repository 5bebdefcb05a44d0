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
from datetime import date
from typing import Callable

from gridfall.connect4.book import Book
from gridfall.connect4.rules import STEAL, Game
from gridfall.worker_processes import worker_map

DEPTH = 14  # 0.3 s a position on one core 3 actions in, 0.1 s 8 actions in (the build's own log)
TURNS = 8  # the file's positions up to this many actions into a game: its first four or five moves
STOLEN_TURNS = 12  # and after the opponent steals its first chip, where it was weakest: two moves more
FIRST_TURNS = 10  # and when the opponent plays on after it, as a bot reading the pie table does after a 1

_searcher = None  # a worker process's (this process's with one worker, dropped after the build)


def _search(position: tuple[int, int, int, int, int]) -> int:
    """The numba search's column at a fixed depth, from an empty table."""
    global _searcher
    from gridfall.connect4.search import Searcher

    current, mask, width, height, depth = position
    current, mask = engine_layout(current, width, height), engine_layout(mask, width, height)
    if _searcher is None or (_searcher.width, _searcher.height) != (width, height):
        _searcher = Searcher(width, height)
    _searcher.forget()
    return _searcher.choose(current, mask, seconds=1e9, max_depth=depth).column


def engine_layout(chips: int, width: int, height: int) -> int:
    """Chips in the file's layout (a spare bit atop each column) in the numba engine's (none)."""
    column = (1 << height) - 1
    return sum(((chips >> (x * (height + 1))) & column) << (x * height) for x in range(width))


def build(width: int = 9, height: int = 7, depth: int = DEPTH, turns: int = TURNS, workers: int = 1,
          progress: Callable[[str], None] = lambda line: None, stolen_turns: int | None = None,
          known: Book | None = None, first_turns: int | None = None, stoppable: bool = False) -> Book:
    """The book for the file's tree up to ``turns`` actions (``stolen_turns``, default ``turns``,
    after the opponent steals the file's first chip; ``first_turns``, default ``turns``, when the
    opponent plays on after it), searched to ``depth`` plies.  The positions of ``known``, a book
    searched to the same depth, are not searched again: each is searched from an empty table, so
    a position gets the same answer whatever tree it was found in.  ``stoppable`` searches in a
    worker process even with one worker, so that Ctrl-C ends a deep search at once (the CLI's)."""
    from gridfall.connect4.portable import PortableAgent

    stolen_turns = turns if stolen_turns is None else stolen_turns
    first_turns = turns if first_turns is None else first_turns
    agent = PortableAgent(book=Book(width, height, {}, "none"), seed=0)  # its table moves only
    first = Game(width, height, steal=True)
    stolen = []
    for column in range(width):
        game = first.clone()
        game.apply_action(column)
        if agent.table_move(game) == STEAL:
            stolen.append(column)
    first_move = agent.table_move(first)
    assert first_move is not None, "the opening table has no first move"
    book = Book(width, height, {}, "", depth, turns, first_move, tuple(stolen), stolen_turns, first_turns)
    reusable = known is not None and (known.width, known.height, known.depth) == (width, height, depth)
    known_moves = known.moves if known is not None and reusable else {}
    if known is not None and not reusable:
        progress(f"the book to extend was searched to depth {known.depth} on {known.width}x{known.height} "
                 f"(this build: {depth} on {width}x{height}): none of its moves are taken")
    started = time.monotonic()
    global _searcher
    try:
        with worker_map(workers, stoppable) as search_all:
            # a level at a time: walk the tree as far as the book reaches, search the positions the
            # walk stops at, then walk one action deeper
            for level in range(max(turns, stolen_turns, first_turns) + 1):
                to_search: dict[int, tuple[int, int, int, int, int]] = {}

                def choose(current: int, mask: int) -> int | None:
                    key = book.key(current, mask)
                    if key not in book.moves and key in known_moves:
                        book.moves[key] = known_moves[key]
                    if key not in book.moves:
                        to_search[key] = (current, mask, width, height, depth)
                    return book.moves.get(key)

                book.walk(choose, turns=level)
                keys = sorted(to_search)
                book.moves.update(zip(keys, search_all(_search, [to_search[k] for k in keys])))
                progress(f"actions {level}: {len(keys)} positions searched to depth {depth}, {len(book.moves)} in the "
                         f"book ({time.monotonic() - started:.0f} s)")
    finally:
        _searcher = None  # its 40 MB table
    book.method = (f"The numba search (gridfall.connect4.search, no variety) to depth {depth} from an empty table, "
                   f"in each of the {len(book.moves):,} positions the exported file can reach with up to {turns} "
                   f"actions played, {stolen_turns} after the opponent steals its first chip and {first_turns} "
                   f"when the opponent plays on after it (its first move and "
                   f"STEAL decisions from the opening table, every legal answer of the opponent); "
                   f"{date.today().isoformat()}.  Rebuild: gridfall connect4 book --rebuild --depth {depth} "
                   f"--turns {turns} --stolen-turns {stolen_turns} --first-turns {first_turns}")
    return book
