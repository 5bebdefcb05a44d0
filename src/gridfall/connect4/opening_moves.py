"""The moves gridfall's bot plays without searching: the opening table's first move and STEAL
decision (:mod:`.openings`), then the opening book's move (:mod:`.book`) for as many turns as
``BOOK_LAST_TURN`` says.

Neither needs numba, so the bot plays them while its compiled search is still loading
(:mod:`.loading`) exactly as it plays them once the search is there (:mod:`.agents`).
"""

from __future__ import annotations

from gridfall.connect4.book import Book
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.rules import Game

# The last turn (actions already played) at which the bot plays the opening book's move (the
# exported file's, searched to depth 14; it goes to turn 8), as first player and as second.
# Against mcts, mcts-solver and mcts-solver*2, 200 games each, both seats
# (benchmarks/connect4_strength.py, 2026-11-26/27, AMD EPYC):
# - as second player the whole book lost 2 games in 1,200, the search alone 11 in 400;
# - as first player the whole book scored 88.0% against mcts and 84.0% against the mcts-solvers
#   (200 games each), the search alone 90.8% and 82.8% (400 each).  The search varies its reply
#   to 1, STEAL (3, 4, 2 or 5); after its own 3 it scored 100% against mcts (90 games) and 88.8%
#   against mcts-solver (76).  The book's reply is 3: with the book for that reply only, then
#   the search, the bot scored 95.5% and 98.0% against mcts (two runs), 87.5% against
#   mcts-solver and 82.0% against mcts-solver*2 as first player; 97.8%, 99.0%, 93.8% and 91.0%
#   over both seats.
# - with the book 12 actions deep after 1, STEAL (2026-11-29), the whole of that line as first
#   player scored 82.3% against mcts-solver, the reply only 90.8%, in the same hour (200 games each
#   as first player; docs/connect4-experiments.md).
# - except as first player when the opponent played on after the bot's first chip (a bot that
#   reads the pie table as gridfall does plays on after the 1 it opens with): there the bot plays
#   the whole book, which goes 10 actions deep (``Book.first_turns``).  Against itself as it was,
#   through the referee, 400 games (2026-11-29, Intel Xeon): as first player 64.2%, where the
#   bot as it was scored 23.8% against the same opponent in the same run.  The built-in
#   opponents steal the 1, so their runs stand.
BOOK_LAST_TURN = (2, 8)


class OpeningMoves:
    """The table's move, else the book's while the turn is within ``BOOK_LAST_TURN``, else None."""

    def __init__(self, table: OpeningTable, book: Book):
        self.table = table
        self.book = book

    @classmethod
    def load(cls) -> OpeningMoves:
        """The shipped table and book, the walked book kept in numba's cache folder (:mod:`.book_cache`)."""
        from gridfall.connect4 import book_cache
        from gridfall.numba_cache import CACHE_DIR  # the folder only: numba is not loaded

        return cls(OpeningTable.load(), book_cache.load(CACHE_DIR))

    def move(self, game: Game) -> int | None:
        action = self.table.decide(game)
        if action is None and game.turn <= self.last_book_turn(game):
            action = self.book.lookup(game)
        return action

    def last_book_turn(self, game: Game) -> int:
        """The last turn the bot plays the book's move (``BOOK_LAST_TURN``): all of the book as
        first player when the opponent played on (a chip for every action, so no STEAL)."""
        seat = game.current_player()
        if seat == 0 and game.position.occupied.bit_count() == game.turn:
            assert self.book.first_turns is not None  # Book.__post_init__ sets it
            return self.book.first_turns
        return BOOK_LAST_TURN[seat]
