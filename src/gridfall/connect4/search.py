"""Time-limited Connect Four search for the bot: iterative deepening alpha-beta.

Built on the solver's machinery (:mod:`gridfall.connect4.engine`): the side to
move never considers a move that hands the opponent an immediate win, moves
are ordered by the threats they make, and a table remembers bounds and the
best move of every position searched.  Principal variation search: only a
node's first move gets the full window; the others get a null window that
just proves them no better, and are searched again only when one is (about
10% fewer nodes in the middle game: ``benchmarks/connect4_search.py``).
Where the depth runs out, an evaluation scores the position (:func:`evaluate`);
where the game ends inside the horizon, the score is exact (``WIN`` plus how
soon), so the search becomes an exact solver as the board fills.

Depth by depth, under a deadline: Python runs depth 1, 2, 3, ... until time is
up; the kernel reads the CPU's cycle counter every 1024 nodes
(:func:`gridfall.jit.cycle_counter`) and aborts a depth that would overrun, so
the clock is always kept.  An aborted depth still answers when it proved a move
better than the last depth's best (searched first); else the last depth does.
Given a number of nodes instead, the kernel counts them and never reads the
clock, so a search makes the same decision on every machine.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from gridfall.connect4 import engine, stopping
from gridfall.connect4.engine import COLUMN, ORDER, H, W
from gridfall.jit import cycle_counter, deadline_ticks, njit, popcount, uint64
from gridfall.main_thread import off_the_main_thread

WIN = 10_000  # a proven win scores WIN + (cells left when it happens)
# a depth that may run longer than this runs off the main thread, where a Ctrl-C halts it at once
# (:mod:`gridfall.main_thread`); a shorter one is called here, sparing a bot's turn a thread's start
LONG_DEPTH_SECONDS = 0.25
EXACT, LOWER, UPPER = 1, 2, 3
# fields of the stats array
NODES, GENERATION, BUDGET, ABORTED, DEADLINE, SEED, VARIETY, VARIETY_CHIPS = 0, 1, 2, 3, 4, 5, 6, 7


# the centre term weighs 1; LOWEST and EVEN_ROW from a logistic fit to game results
# (benchmarks/connect4_eval_fit.py), THREAT by matches between versions at depth 11
# (benchmarks/connect4_search_match.py: 2, 4 and 8 scored 53%, 58% and 56% against 0)
LOWEST_WEIGHT, EVEN_ROW_WEIGHT, THREAT_WEIGHT = 16, 15, 4  # portable.py repeats them (stdlib); a test holds both equal


@njit(nogil=True, cache=True)
def evaluation_terms(cur, mask, g):
    """The evaluation's four terms, each from the side to move's point of view.

    * lowest threats: of all the empty cells that would complete four for either player, only
      the lowest in its column is likely to be played out (the column is blocked there), so
      each column counts +1 or -1 for the owner of its lowest threat;
    * even rows: the player who moves when an even number of chips is down (the first player,
      unless a chip was stolen) wants those lowest threats on rows 0, 2, 4, 6, as the first
      player of classic Connect Four wants odd rows (counted from 1): +1 for each of the side
      to move's when it is that player, -1 for each of the opponent's when the opponent is;
    * centre: a chip nearer the middle column is in more lines, 0..3 a chip;
    * threats: all the cells that would complete four, the side to move's minus the opponent's.
    """
    opp = cur ^ mask
    mine = engine.winning_cells(cur, mask, g)
    theirs = engine.winning_cells(opp, mask, g)
    lowest = engine.lowest_in_columns(mine | theirs, g)
    my_lowest = lowest & mine & ~theirs
    their_lowest = lowest & theirs & ~mine
    lowest_term = np.int64(popcount(my_lowest)) - np.int64(popcount(their_lowest))
    if popcount(mask) % 2 == 0:
        even_term = np.int64(popcount(my_lowest & g[engine.EVEN_ROWS]))
    else:
        even_term = -np.int64(popcount(their_lowest & g[engine.EVEN_ROWS]))
    centre = np.int64(0)
    width = np.int64(g[W])
    for i in range(width):
        x = np.int64(g[ORDER + i])
        weight = 3 - min(np.int64(3), abs(2 * x - (width - 1)) // 2)
        if weight > 0:
            centre += weight * (np.int64(popcount(cur & g[COLUMN + x])) - np.int64(popcount(opp & g[COLUMN + x])))
    threat_term = np.int64(popcount(mine)) - np.int64(popcount(theirs))
    return lowest_term, even_term, centre, threat_term


@njit(nogil=True, cache=True)
def evaluate(cur, mask, g):
    """A heuristic score for the side to move (far below WIN in magnitude): the weighted sum of
    :func:`evaluation_terms`.  The lowest threats predict the game's result far better than the
    count of all threats that this evaluation was until 2026-11-26 (with stacked threats)."""
    lowest, even, centre, threats = evaluation_terms(cur, mask, g)
    return LOWEST_WEIGHT * lowest + EVEN_ROW_WEIGHT * even + centre + THREAT_WEIGHT * threats


@njit(inline="always")
def _noise(cur, mask, stats):
    """0..stats[VARIETY], a fixed pseudo-random function of the position for each stats[SEED]
    (a splitmix64 finaliser of the position's bits and the seed), in positions of fewer than
    stats[VARIETY_CHIPS] chips; 0 in the others.  Added to the evaluation, it makes a seeded
    search choose differently between near-equal moves, and being a function of the position
    alone it keeps the table's stored values true."""
    if popcount(mask) >= stats[VARIETY_CHIPS]:
        return np.int64(0)
    h = (cur * uint64(0x9E3779B97F4A7C15)) ^ (mask * uint64(0xC2B2AE3D27D4EB4F)) ^ uint64(stats[SEED])
    h = (h ^ (h >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> uint64(27))) * uint64(0x94D049BB133111EB)
    h = h ^ (h >> uint64(31))
    return np.int64(h % uint64(stats[VARIETY] + 1))


@njit(inline="always")
def _probe(cur, mask, keys, stats):
    key = (engine.position_key(cur, mask) ^ (uint64(stats[GENERATION]) * uint64(0x9E3779B97F4A7C15))) | uint64(1)
    return key, np.int64(key & uint64(len(keys) - 1))


@njit(nogil=True, cache=True)
def alphabeta(cur, mask, depth, alpha, beta, g, keys, data, stats):
    """Negamax score of (cur, mask) searched ``depth`` plies (fail-soft)."""
    stats[NODES] += 1
    if stats[NODES] > stats[BUDGET] or ((stats[NODES] & 1023) == 0 and np.int64(cycle_counter()) > stats[DEADLINE]):
        stats[ABORTED] = 1
        return 0
    cells = np.int64(g[W] * g[H])
    n = engine.moves_played(mask)
    if engine.can_win_next(cur, mask, g):
        return WIN + cells - n
    possible = engine.non_losing_moves(cur, mask, g)
    if possible == 0:  # lost, unless the board is full (the root played its last cell): a draw
        return 0 if n >= cells else -(WIN + cells - n - 1)
    if n >= cells - 2:
        return 0
    if depth <= 0:
        if stats[VARIETY] > 0:
            return evaluate(cur, mask, g) + _noise(cur, mask, stats)
        return evaluate(cur, mask, g)

    key, slot = _probe(cur, mask, keys, stats)
    best_move = uint64(0)
    if keys[slot] == key:
        stored_depth, flag, value, move = data[slot, 0], data[slot, 1], data[slot, 2], data[slot, 3]
        best_move = uint64(move) & possible
        if stored_depth >= depth:
            if flag == EXACT:
                return value
            if flag == LOWER and value >= beta:
                return value
            if flag == UPPER and value <= alpha:
                return value

    # the remembered best move first, then by threats made
    moves = np.zeros(16, dtype=np.uint64)
    count = engine.ordered_moves(cur, mask, possible, best_move, g, moves)

    original_alpha = alpha
    best = -(WIN + cells)
    best_move = moves[0]
    for i in range(count):
        # principal variation search: the first (best-ordered) move gets the full window; the
        # rest only have to be proved no better, with a null window, unless one turns out better
        if i == 0:
            v = -alphabeta(cur ^ mask, mask | moves[i], depth - 1, -beta, -alpha, g, keys, data, stats)
        else:
            v = -alphabeta(cur ^ mask, mask | moves[i], depth - 1, -alpha - 1, -alpha, g, keys, data, stats)
            if alpha < v < beta and not stats[ABORTED]:
                v = -alphabeta(cur ^ mask, mask | moves[i], depth - 1, -beta, -v, g, keys, data, stats)
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    flag = UPPER if best <= original_alpha else (LOWER if best >= beta else EXACT)
    keys[slot] = key
    data[slot, 0], data[slot, 1], data[slot, 2], data[slot, 3] = depth, flag, best, np.int64(best_move)
    return best


@njit(nogil=True, cache=True)
def search_root(cur, mask, depth, first, g, keys, data, stats):
    """Alpha-beta over the root moves (``first`` is tried first); returns (best column, score).

    Aborted by the deadline, it returns (-1, 0), or (x, 0) when a move x after the first had
    already been proved better than the first (its null-window search failed high)."""
    cells = np.int64(g[W] * g[H])
    n = engine.moves_played(mask)
    width = np.int64(g[W])
    possible = engine.playable(mask, g)
    order = np.zeros(16, dtype=np.int64)
    count = 0
    if first >= 0 and possible & g[COLUMN + first]:
        order[0] = first
        count = 1
    for i in range(width):
        x = np.int64(g[ORDER + i])
        if x != first and possible & g[COLUMN + x]:
            order[count] = x
            count += 1
    best_x = order[0]
    better = -1  # the last move proved better than the ones before it (the answer if aborted)
    alpha = -(WIN + cells + 1)
    beta = WIN + cells + 1
    for i in range(count):
        x = order[i]
        move = possible & g[COLUMN + x]
        if engine.has_four(cur | move, g):
            return x, WIN + cells - n
        if i == 0:
            v = -alphabeta(cur ^ mask, mask | move, depth - 1, -beta, -alpha, g, keys, data, stats)
        else:  # principal variation search, as in alphabeta
            v = -alphabeta(cur ^ mask, mask | move, depth - 1, -alpha - 1, -alpha, g, keys, data, stats)
            if v > alpha and not stats[ABORTED]:
                # proved better than every move before it at this depth, the previous depth's
                # best among them: worth playing even if the deadline stops the full search
                better = x
                v = -alphabeta(cur ^ mask, mask | move, depth - 1, -beta, -v, g, keys, data, stats)
        if stats[ABORTED]:
            return better, 0
        if v > alpha:
            alpha, best_x = v, x
    return best_x, alpha


@dataclass
class Decision:
    column: int
    score: int  # from the mover's point of view; |score| >= WIN means proven
    depth: int  # deepest completed search
    nodes: int
    seconds: float
    previous_score: int = 0  # the score one depth shallower (scores swing between odd and even depths)

    @property
    def proven(self) -> bool:
        return abs(self.score) >= WIN


class Searcher:
    """Iterative deepening under a deadline; keeps its table from move to move.

    ``variety`` > 0 adds 0..variety to every evaluated position of fewer than ``variety_chips``
    chips, a fixed function of the position and ``seed`` (:func:`_noise`): searches with
    different seeds then vary between moves whose values are within about that much, and a
    searched value moves by at most ``variety`` (a player that always answers the same way loses
    the same game every time to an opponent that has found a win against it).  0, the default,
    is the plain evaluation.
    """

    def __init__(self, width: int = 9, height: int = 7, table_bits: int = 20, nodes_per_second: float = 2e6,
                 variety: int = 0, seed: int = 0, variety_chips: int = 64):
        self.g = engine.geometry(width, height)
        self.width, self.height = width, height
        # np.full, not np.zeros: touch every page now, not during the first timed search (with
        # np.zeros the second player's first 100 ms turn reached 97 ms at the 90th percentile, and
        # 7 of 200 timed out, in a benchmark run of 2026-11-26; 87 ms and none with np.full)
        self.keys = np.full(1 << table_bits, 0, dtype=np.uint64)
        self.data = np.full((1 << table_bits, 4), 0, dtype=np.int64)
        self.stats = np.zeros(8, dtype=np.int64)
        if variety < 0 or variety_chips < 0:
            raise ValueError(f"variety and variety_chips must be 0 or more, not {variety} and {variety_chips}")
        self.stats[VARIETY], self.stats[VARIETY_CHIPS] = variety, variety_chips
        self.reseed(seed)
        self.rate = nodes_per_second  # refined by every search that takes long enough to time
        deadline_ticks(0.0)  # calibrate the cycle counter outside any timed search
        self.thread = threading.get_ident()  # the thread that searches (each choose sets it), whose game a stop names
        stopping.watch(self)

    def halt(self) -> None:
        """The depth under way aborts at its next node (:mod:`.stopping`: the kernel reads the budget there)."""
        self.stats[BUDGET] = -1

    def forget(self) -> None:
        """Empty the table (in O(1): a new generation of keys)."""
        self.stats[GENERATION] += 1

    def reseed(self, seed: int) -> None:
        """Another seed for the evaluation's variety; the table, which holds values of the old
        one, is emptied."""
        self.stats[SEED] = seed & 0x7FFF_FFFF_FFFF_FFFF
        self.forget()

    def choose(self, cur: int, mask: int, seconds: float, max_depth: int = 64, nodes: int | None = None) -> Decision:
        """The best column for the side to move within ``seconds``, or, given ``nodes``, within that
        many nodes in all (the clock then unread: the same decision on every machine)."""
        start = time.perf_counter()
        deadline = start + seconds
        # the thread a stop's hook looks for: this one, which may not be the one that made the
        # searcher (a stop there would wait for the depth under way to end, up to the turn's end)
        self.thread = threading.get_ident()
        empty = self.width * self.height - bin(mask).count("1")
        decision = None
        total_nodes = 0
        for depth in range(1, min(max_depth, empty) + 1):
            left = deadline - time.perf_counter() if nodes is None else nodes - total_nodes
            if decision is not None and left <= 0:
                break
            self.stats[NODES] = 0
            self.stats[ABORTED] = 0
            if decision is None:  # depth 1 always completes: there is always a move to play
                self.stats[BUDGET], self.stats[DEADLINE] = 1 << 62, 1 << 62
            elif nodes is not None:
                self.stats[BUDGET], self.stats[DEADLINE] = left, 1 << 62
            else:
                self.stats[DEADLINE] = min(deadline_ticks(left), 1 << 62)
                # without a cycle counter, a node budget from the measured rate stands in for the clock
                # (none past what a counter holds: a search of centuries)
                by_rate, counted = left * self.rate, self.stats[DEADLINE] < 1 << 62
                self.stats[BUDGET] = 1 << 62 if counted or not by_rate < 1 << 62 else max(int(by_rate), 1000)
            stopping.check()  # after the budget is set: a stop from now on lowers it (see stopping)
            t = time.perf_counter()
            first = decision.column if decision else -1
            args = (np.uint64(cur), np.uint64(mask), depth, first, self.g, self.keys, self.data, self.stats)
            may_take = left if nodes is None else left / self.rate  # seconds, at most (depth 1: none)
            if decision is not None and may_take > LONG_DEPTH_SECONDS:
                x, score = off_the_main_thread(lambda: search_root(*args), halt=self.halt)
            else:
                x, score = search_root(*args)
            took = time.perf_counter() - t
            total_nodes += int(self.stats[NODES])
            if took > 0.003:
                self.rate = 0.7 * self.rate + 0.3 * self.stats[NODES] / took
            if self.stats[ABORTED]:
                stopping.check()  # halted, not timed out: no move
                if x >= 0 and decision is not None:  # the unfinished depth proved a better move
                    decision.column = int(x)
                break
            previous = decision.score if decision else int(score)
            decision = Decision(int(x), int(score), depth, total_nodes, 0.0, previous)
            if decision.proven:
                break
        if decision is None:
            raise ValueError(f"no move to choose: max_depth={max_depth} with {empty} empty cells")
        decision.seconds = time.perf_counter() - start
        decision.nodes = total_nodes
        return decision
