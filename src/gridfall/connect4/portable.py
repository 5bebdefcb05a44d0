"""gridfall's Connect Four bot in plain Python, for the platform (CodinGame runs no numba).

Standard library only: ``gridfall connect4 export`` carries this module, the rules of record,
the opening table and the protocol loop into one file.

The position is Pascal Pons' pair of bitboards on Python ints: ``current`` holds the chips of
the side to move, ``mask`` every chip; cell (x, y) is bit ``x * (height + 1) + y``, one spare bit
on top of each column so that shifted lines never run into the next column.

* ``mask + bottom`` carries a 1 up each column to its lowest empty cell: the playable cells are
  ``(mask + bottom) & board``.
* :func:`winning_cells` finds every empty cell that would complete four of a side's chips, with
  shifts in the four directions; a move is never played under the opponent's winning cell, and a
  double threat of the opponent is a loss seen at once.
* The search is negamax with alpha-beta and a transposition dict, deepened one ply at a time
  until the turn's time is spent (the clock is read every 256 nodes); moves are tried best-first:
  the last best move, then the ones that make the most winning cells, centre first.  A depth the
  clock cuts off still answers with a move it proved better than the last depth's best.  In the
  opening a seed picks between the first two moves tied for best, so the file does not repeat a
  lost game move for move.  A depth that reaches the end of the game is exact.  At the leaves,
  the numba bot's evaluation: each column's lowest winning cell for its owner, more on the rows
  its owner wants, the chips' nearness to the centre, and all winning cells.
* Speed is depth here, and finding winning cells is most of the time.  A node uses both sides'
  cells for the win check, the safe moves and, at a leaf, the evaluation; it gets them from its
  parent where it can (the parent's opponent's cells, and the ones its move ordering found), so
  a leaf finds one side's only.  Nodes whose children are leaves do not sort by threats.
"""

from __future__ import annotations

import random
import time

from gridfall.connect4.book import Book, position_of
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.rules import Game

WIN = 1_000_000  # a won position scores WIN minus the plies it takes: sooner is better
# the evaluation's weights: search.py's, which cannot be imported here (numba); a test holds the
# two evaluations equal
LOWEST_WEIGHT, EVEN_ROW_WEIGHT, THREAT_WEIGHT = 16, 15, 4


class OutOfTime(Exception):
    """The turn's time ran out inside a search: the last finished depth answers (or a move the
    unfinished one proved better)."""


class Board:
    """The geometry of one board size: the masks every search on it uses."""

    def __init__(self, width: int = 9, height: int = 7):
        self.width, self.height = width, height
        self.bottom = sum(1 << (x * (height + 1)) for x in range(width))
        self.full = self.bottom * ((1 << height) - 1)
        self.columns = [((1 << height) - 1) << (x * (height + 1)) for x in range(width)]
        self.order = sorted(range(width), key=lambda x: abs(2 * x - (width - 1)))  # centre first
        self.cells = width * height
        # rows 0, 2, 4, ... from the bottom: where the player who moves at even counts wants threats
        even = sum(1 << y for y in range(0, height, 2))
        self.even_rows = sum(even << (x * (height + 1)) for x in range(width))
        self.ordered_columns = [self.columns[x] for x in self.order]
        # the cells that a shift up by 2 or 3 rows keeps in their column
        self.lift_2, self.lift_3 = (sum(((1 << (height - k)) - 1) << (x * (height + 1)) for x in range(width))
                                    for k in (2, 3))
        # the centre term's columns, worth 3, 2 and 1 a chip: the middle, then one and two out
        self.centre = [sum(self.columns[x] for x in range(width) if abs(2 * x - (width - 1)) // 2 == k)
                       for k in range(3)]
        # a line's step between neighbours (horizontal, both diagonals), twice and three times
        self.steps = [(d, 2 * d, 3 * d) for d in (height + 1, height, height + 2)]

    def winning_cells(self, position: int, mask: int) -> int:
        """Empty cells that would complete a line of four of ``position``'s chips.

        Along a direction of step d, cell c completes a line when three chips of the line are
        there: c-d, c-2d and c-3d (``position`` shifted up by d, 2d, 3d), or c-d, c-2d and c+d,
        and the mirror images.  Each shifted copy is made once; this is most of the search's time."""
        p = position
        (a, a2, a3), (b, b2, b3), (c, c2, c3) = self.steps
        r = (p << 1) & (p << 2) & (p << 3)  # vertical: three below
        up, down = p << a, p >> a
        r |= up & (p << a2) & ((p << a3) | down) | down & (p >> a2) & (up | (p >> a3))
        up, down = p << b, p >> b
        r |= up & (p << b2) & ((p << b3) | down) | down & (p >> b2) & (up | (p >> b3))
        up, down = p << c, p >> c
        r |= up & (p << c2) & ((p << c3) | down) | down & (p >> c2) & (up | (p >> c3))
        return r & (self.full ^ mask)


class Searcher:
    """With a ``seed``, in positions of fewer than ``tie_chips`` chips, the root tells exact ties
    from worse moves, and the seed and the position pick the answer among the moves tied for
    best (:meth:`pick`): the same seed plays the same game, another seed varies it, and no move
    is chosen that the search found worse.  Without a seed the first of the tied moves is played."""

    def __init__(self, board: Board, seed: int | None = None, tie_chips: int = 16):
        self.b = board
        self.table: dict[int, tuple[int, int, int, int]] = {}  # key -> (depth, flag, value, move)
        self.nodes = 0
        self.deadline = 0.0
        self.proved: int | None = None
        self.seed, self.tie_chips = seed, tie_chips
        self.ties = False  # whether this search's root tells ties apart
        self.tied: list[int] = []  # the moves tied for best at the last finished depth

    def choose(self, current: int, mask: int, seconds: float, max_depth: int | None = None) -> tuple[int, int, int]:
        """(column, score, depth reached) within ``seconds``, and ``max_depth`` plies at most;
        iterative deepening."""
        b = self.b
        self.deadline = time.monotonic() + seconds
        # a win at once first: it ends the game, whatever the opponent threatens (before it, a
        # double threat of the opponent's made every move look lost, and a won game was lost)
        wins = (mask + b.bottom) & b.full & b.winning_cells(current, mask)
        for x in b.order:
            if wins & b.columns[x]:
                return x, WIN, 1
        moves = self._moves(current, mask)
        if not moves:  # every move loses: play anything legal
            possible = (mask + b.bottom) & b.full
            return next(x for x in b.order if possible & b.columns[x]), -WIN, 0
        best, score = self._column(moves[0]), 0
        empty = b.cells - mask.bit_count()
        self.ties = self.seed is not None and b.cells - empty < self.tie_chips
        tied, reached = [moves[0]], 0
        if len(self.table) > 2_000_000:
            self.table.clear()
        for depth in range(1, min(empty, max_depth or empty) + 1):
            try:
                score, move = self._root(current, mask, depth, moves)
            except OutOfTime:  # the unfinished depth's answer, if it proved a move better than the first
                if self.proved is not None:
                    return self._column(self.proved), score, reached
                break
            best, tied, reached = self._column(move), self.tied, depth
            moves.sort(key=lambda m: m != move)  # the best move first at the next depth
            if abs(score) >= WIN - b.cells:  # a proven win or loss: deeper changes nothing
                break
        if len(tied) > 1:
            best = self._column(self.pick(tied, current, mask))
        return best, score, reached

    def pick(self, tied: list[int], current: int, mask: int) -> int:
        """One of the first two moves tied for best (in the search's order: the ones that make the
        most winning cells, centre first), by the seed and the position.  The evaluation leaves
        ties in the opening (threats only, it tied among nearly all columns): a pick among all of
        them spread the reply to 1, STEAL over 8 columns, edges included, where these two were 4
        and 3."""
        return tied[hash((self.seed, current, mask)) % 2]

    def _column(self, move: int) -> int:
        return next(x for x in range(self.b.width) if move & self.b.columns[x])

    def _moves(self, current: int, mask: int) -> list[int]:
        """The moves that do not lose at once, best-first (one bit each); [] if all lose."""
        b = self.b
        safe = self._safe((mask + b.bottom) & b.full, b.winning_cells(current ^ mask, mask))
        return list(self._made(current, mask, safe))

    @staticmethod
    def _safe(possible: int, opponent_wins: int) -> int:
        """The playable cells that do not lose at once (0 if all lose): the one that blocks the
        opponent's winning cell if there is one, never a cell under such a cell."""
        forced = possible & opponent_wins
        if forced:
            if forced & (forced - 1):
                return 0  # two threats: one of them wins
            possible = forced
        return possible & ~(opponent_wins >> 1)

    def _made(self, current: int, mask: int, safe: int) -> dict[int, int]:
        """Each move of ``safe`` and the winning cells it leaves its player, those that make the
        most first, centre first among equals.  The sort is most of an inner node's cost; a leaf
        never needs it, and the child is handed its opponent's winning cells from here."""
        wins = self.b.winning_cells
        made = [(move, wins(current | move, mask | move)) for move in self._centre_first(safe)]
        made.sort(key=lambda pair: -pair[1].bit_count())
        return dict(made)

    def _centre_first(self, safe: int) -> list[int]:
        return [safe & column for column in self.b.ordered_columns if safe & column]

    def _root(self, current: int, mask: int, depth: int, moves: list[int]) -> tuple[int, int]:
        alpha, best = -WIN - 1, moves[0]
        self.proved = None  # a move that scored above the first (the last depth's best), if any
        self.tied = [moves[0]]
        # telling ties apart: the window's edge one above alpha makes a move worth exactly
        # alpha come back exact, where at alpha it could come back as any bound below it
        edge = 1 if self.ties else 0
        for move in moves:
            v = -self._negamax(current ^ mask, mask | move, depth - 1, -WIN - 1, -alpha + edge, 1)
            if v > alpha:
                alpha, best, self.tied = v, move, [move]
                if move != moves[0]:
                    self.proved = move
            elif v == alpha and self.ties and move != best:
                self.tied.append(move)
        return alpha, best

    def out_of_time(self) -> bool:
        """Whether the search must end now (read every 256 nodes): its time is up."""
        return time.monotonic() > self.deadline

    def _negamax(self, current: int, mask: int, depth: int, alpha: int, beta: int, ply: int,
                 mine: int | None = None, theirs: int | None = None) -> int:
        """The value of the position for the side to move, ``depth`` plies deep (fail-soft).
        ``mine`` and ``theirs``, the winning cells of the side to move and of the opponent, are
        the parent's when it knows them: its opponent's cells less the move's, and those its
        move ordering found.  Threats are most of the search's time, so no node finds them twice."""
        b = self.b
        self.nodes += 1
        if self.nodes & 255 == 0 and self.out_of_time():
            raise OutOfTime
        possible = (mask + b.bottom) & b.full
        if mine is None:
            mine = b.winning_cells(current, mask)
        if possible & mine:
            return WIN - ply  # win with the next chip
        if possible == 0:  # a full column carries past its top: none playable means a full board
            return 0
        if theirs is None:
            theirs = b.winning_cells(current ^ mask, mask)
        safe = self._safe(possible, theirs)
        if not safe:
            return -(WIN - ply - 1)  # the opponent wins next
        if depth <= 0:
            return self._evaluate(current, mask, mine, theirs)
        key = current + mask
        entry = self.table.get(key)
        first: int | None = None
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if flag == 0:
                    return value
                if flag > 0 and value >= beta:
                    return value
                if flag < 0 and value <= alpha:
                    return value
        # after the table (a cut-off needs no order); a node whose children are leaves sorts
        # them by centre only: sorting by threats costs more than it saves there (same answers)
        made = self._made(current, mask, safe) if depth > 1 else dict.fromkeys(self._centre_first(safe))
        moves = list(made)
        if first is not None and first in made:
            moves.remove(first)
            moves.insert(0, first)
        original_alpha, best_move, best = alpha, moves[0], -WIN - 1
        for move in moves:
            v = -self._negamax(current ^ mask, mask | move, depth - 1, -beta, -alpha, ply + 1, theirs & ~move, made[move])
            if v > best:
                best, best_move = v, move
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        flag = 1 if best >= beta else (-1 if best <= original_alpha else 0)
        self.table[key] = (depth, flag, best, best_move)
        return best

    def _evaluate(self, current: int, mask: int, mine: int, theirs: int) -> int:
        """The numba bot's evaluation (``search.evaluation_terms``; the tests check that the two
        agree), for the side to move:

        * lowest threats (16 each): only the lowest winning cell of a column is likely to be played
          out, so each column counts for the owner of its lowest one (none if both own it);
        * even rows (15 each): the player who moves when an even number of chips is down wants
          those lowest threats on rows 0, 2, 4, 6 (from 0 at the bottom);
        * the centre: 3 a chip in the middle column, 2 and 1 in the next ones out;
        * all threats (4 each).

        With the threats only (doubled on the owner's parity), most opening moves tied; the centre
        alone won 61% of the points against that in an SPRT between exported files, and these
        terms 58% against the centre alone."""
        b = self.b
        opponent = mask ^ current
        c3, c2, c1 = b.centre
        centre = (3 * ((current & c3).bit_count() - (opponent & c3).bit_count())
                  + 2 * ((current & c2).bit_count() - (opponent & c2).bit_count())
                  + (current & c1).bit_count() - (opponent & c1).bit_count())
        # every cell at or above a threat, then the threats with none below them in their column;
        # a shift by k rows only moves the cells that stay in their column (no spill past the top)
        threats = mine | theirs
        above = threats | ((threats << 1) & b.full)
        above |= (above & b.lift_2) << 2
        above |= (above & b.lift_3) << 3
        lowest = threats & ~((above << 1) & b.full)
        my_lowest, their_lowest = lowest & mine & ~theirs, lowest & theirs & ~mine
        if mask.bit_count() % 2 == 0:  # the side to move moves at even counts
            even = (my_lowest & b.even_rows).bit_count()
        else:
            even = -(their_lowest & b.even_rows).bit_count()
        return (LOWEST_WEIGHT * (my_lowest.bit_count() - their_lowest.bit_count()) + EVEN_ROW_WEIGHT * even
                + centre + THREAT_WEIGHT * (mine.bit_count() - theirs.bit_count()))


MARGIN = 0.015  # seconds kept back from each turn for reading and answering


class PortableAgent:
    """The opening table's first move and STEAL decisions, then the opening book's move
    (:mod:`.book`) while it has the position, then the search: ``act(game, seconds)``.
    ``table`` and ``book`` default to the package's.

    ``seed`` picks among moves tied for best in the opening (:class:`Searcher`), again at every
    new game; None draws one from the system, so that every run of the file plays its own
    games (deterministic, the file lost every game as first player to ``mcts`` in one line)."""

    name = "portable"
    searcher_class = Searcher  # the search past the book (a subclass's may end sooner than its clock)

    def __init__(self, table=None, margin: float = MARGIN, seed: int | None = None, book=None):
        self.table = table if table is not None else OpeningTable.load()
        self.book = book if book is not None else Book.load()
        self.margin = margin
        self.seed = random.SystemRandom().getrandbits(62) if seed is None else seed
        self.games = 0  # games begun before the current one
        self.chips = 0  # chips on the board at the last move: fewer means a new game
        self.searcher: Searcher | None = None
        self.last: tuple[int, int, int] | None = None

    def table_move(self, game: Game) -> int | None:
        """The first move or the STEAL decision, or None when the book or the search decides."""
        return self.table.decide(game)

    def act(self, game: Game, seconds: float) -> int:
        chips = game.position.occupied.bit_count()
        if chips < self.chips:
            self.games += 1
        self.chips = chips
        opening = self.table_move(game)
        if opening is not None:
            return opening
        column = self.book.lookup(game)
        if column is not None and game.position.can_play(column):
            self.last = None  # no search
            return column
        if self.searcher is None or self.searcher.b.width != game.width or self.searcher.b.height != game.height:
            self.searcher = self.searcher_class(Board(game.width, game.height))
        current, mask = position_of(game)
        self.searcher.seed = hash((self.seed, self.games))
        self.last = self.searcher.choose(current, mask, max(seconds - self.margin, 0.002))
        return self.last[0]
