"""Monte-Carlo Tree Search (UCT with uniformly random playouts), plain or with a solver.

A reference opponent, deliberately without game knowledge: select children by
UCB1 (``wins / visits + c * sqrt(ln parent / visits)``), add one node per
iteration, finish the game with uniformly random moves, back the result up.
The move played is the most visited child.  STEAL is an ordinary action at
the root when it is allowed.

With ``solver=True`` it is MCTS-Solver (Winands, Bjoernsson and Saito,
"Monte-Carlo Tree Search Solver", CG 2008): a node's status also records
values the tree has *proven*.  A node is a loss for the player who moved into
it as soon as one child is a win for the player who moved into that child; it
is a win once every child is a loss (a draw once every child is proven and
the best is a draw).  A proven node is not searched again: its value is backed
up in place of a playout's, the root plays a proven win at once, and never a
proven loss while anything else is left.

The tree lives in flat arrays; each node keeps its position, so a child is
reached without replaying moves.  Child slot x is column x; slot 15 is STEAL.
"""

from __future__ import annotations

import math
import time

import numpy as np

from gridfall.connect4 import engine, stopping
from gridfall.connect4.engine import COLUMN, W
from gridfall.jit import below, new_rng, njit, popcount, uint64

STEAL_SLOT = 15
SLOTS = 16
UNEXPANDED = -1
# node fields
CUR, MASK = 0, 1  # uint64 arrays
VISITS, WINS = 0, 1  # float arrays
# status of a node, for the player who moved into it: terminal, or (solver) proven
RESULT_NONE, RESULT_WIN, RESULT_DRAW, RESULT_LOSS = 0, 1, 2, 3


class Tree:
    def __init__(self, capacity: int = 1 << 18):
        # np.full, not np.zeros: touch every page now, not during the first timed search
        self.pos = np.full((capacity, 2), 0, dtype=np.uint64)
        self.stats = np.full((capacity, 2), 0.0, dtype=np.float64)
        self.children = np.full((capacity, SLOTS), UNEXPANDED, dtype=np.int64)
        self.terminal = np.zeros(capacity, dtype=np.int64)
        self.size = np.zeros(1, dtype=np.int64)


@njit(nogil=True, cache=True)
def _actions(cur, mask, steal_here, g, out):
    """The child slots available from a position; returns how many."""
    n = 0
    possible = engine.playable(mask, g)
    for x in range(np.int64(g[W])):
        if possible & g[COLUMN + x]:
            out[n] = x
            n += 1
    if steal_here:
        out[n] = STEAL_SLOT
        n += 1
    return n


@njit(nogil=True, cache=True)
def _child(cur, mask, slot, g):
    """(cur, mask, status) after taking slot; status is for the player who moved."""
    if slot == STEAL_SLOT:
        # the opponent's only chip becomes ours; the opponent moves, with no chip
        return uint64(0), mask, RESULT_NONE
    move = engine.playable(mask, g) & g[COLUMN + slot]
    mine = cur | move
    new_mask = mask | move
    if engine.has_four(mine, g):
        return cur ^ mask, new_mask, RESULT_WIN
    if new_mask == g[engine.BOARD]:
        return cur ^ mask, new_mask, RESULT_DRAW
    return cur ^ mask, new_mask, RESULT_NONE


@njit(nogil=True, cache=True)
def _playout(cur, mask, g, rng):
    """Random moves to the end: +1 if the side to move at the start wins, -1 if it loses, 0 draw."""
    sign = 1
    while True:
        possible = engine.playable(mask, g)
        count = np.int64(popcount(possible))
        if count == 0:
            return 0
        k = below(rng, count)
        move = possible
        for _ in range(k):
            move &= move - uint64(1)
        move &= ~move + uint64(1)
        if engine.has_four(cur | move, g):
            return sign
        cur, mask = cur ^ mask, mask | move
        if mask == g[engine.BOARD]:
            return 0
        sign = -sign


@njit(nogil=True, cache=True)
def _value(status):
    """The result a status backs up, for the player who moved into the node."""
    if status == RESULT_WIN:
        return 1.0
    if status == RESULT_DRAW:
        return 0.5
    return 0.0


@njit(nogil=True, cache=True)
def _prove(node, pos, children, terminal, steal_here, g, slots):
    """The status a node's children prove for the player who moved into it (RESULT_NONE if none yet)."""
    n = _actions(pos[node, CUR], pos[node, MASK], steal_here, g, slots)
    all_proven, any_draw = True, False
    for i in range(n):
        child = children[node, slots[i]]
        if child == UNEXPANDED:
            all_proven = False
            continue
        status = terminal[child]
        if status == RESULT_WIN:  # the player to move here wins by moving there
            return RESULT_LOSS
        if status == RESULT_NONE:
            all_proven = False
        elif status == RESULT_DRAW:
            any_draw = True
    if not all_proven:
        return RESULT_NONE
    return RESULT_DRAW if any_draw else RESULT_WIN


@njit(nogil=True, cache=True)
def iterate(pos, stats, children, terminal, size, steal_at_root, c, iterations, g, rng, solver):
    """Run ``iterations`` UCT iterations from node 0 (MCTS-Solver if ``solver``)."""
    path = np.zeros(128, dtype=np.int64)
    slots = np.zeros(SLOTS, dtype=np.int64)
    for _ in range(iterations):
        if solver and terminal[0] != RESULT_NONE:
            return
        node = 0
        depth = 0
        path[0] = 0
        result = 0.0  # for the player who moved into the last node of the path
        while True:
            if terminal[node] != RESULT_NONE:  # the game's end, or a proven value
                result = _value(terminal[node])
                break
            n = _actions(pos[node, CUR], pos[node, MASK], steal_at_root and node == 0, g, slots)
            if n == 0:
                result = 0.5
                break
            # expand the first untried action, if any
            untried = -1
            for i in range(n):
                if children[node, slots[i]] == UNEXPANDED:
                    untried = slots[i]
                    break
            if untried >= 0 and size[0] < len(terminal):
                new = size[0]
                size[0] += 1
                cur, mask, status = _child(pos[node, CUR], pos[node, MASK], untried, g)
                pos[new, CUR], pos[new, MASK] = cur, mask
                terminal[new] = status
                stats[new, VISITS] = 0.0
                stats[new, WINS] = 0.0
                for s in range(SLOTS):
                    children[new, s] = UNEXPANDED
                children[node, untried] = new
                depth += 1
                path[depth] = new
                if status != RESULT_NONE:
                    result = _value(status)
                else:
                    r = _playout(cur, mask, g, rng)  # for the side to move at `new`: the opponent of its mover
                    result = 0.5 - 0.5 * r
                break
            if untried >= 0:  # tree full: just play out from here
                r = _playout(pos[node, CUR], pos[node, MASK], g, rng)
                result = 0.5 - 0.5 * r
                break
            # select by UCB1 (the solver never walks into a proven loss of the chooser)
            log_parent = math.log(stats[node, VISITS] + 1.0)
            best, best_value = -1, -1.0
            for i in range(n):
                child = children[node, slots[i]]
                if solver and terminal[child] == RESULT_LOSS:
                    continue
                value = stats[child, WINS] / stats[child, VISITS] + c * math.sqrt(log_parent / stats[child, VISITS])
                if value > best_value:
                    best, best_value = child, value
            node = best
            depth += 1
            path[depth] = node
        # back up: the result is for the mover into path[depth]; alternate upwards.  The solver
        # first asks whether a newly proven child proves its parent, and backs up proven values.
        for d in range(depth, -1, -1):
            here = path[d]
            if solver and d < depth and terminal[path[d + 1]] != RESULT_NONE and terminal[here] == RESULT_NONE:
                proved = _prove(here, pos, children, terminal, steal_at_root and here == 0, g, slots)
                if proved != RESULT_NONE:
                    terminal[here] = proved
                    result = _value(proved)
            stats[here, VISITS] += 1.0
            stats[here, WINS] += result
            result = 1.0 - result


class MCTS:
    """UCT for one board size; MCTS-Solver with ``solver=True``."""

    def __init__(self, width: int = 9, height: int = 7, c: float = math.sqrt(2), seed: int = 0, capacity: int = 1 << 18,
                 solver: bool = False):
        self.g = engine.geometry(width, height)
        self.width, self.height = width, height
        self.c = c
        self.solver = solver
        self.rng = new_rng(seed)
        self.tree = Tree(capacity)

    def choose(self, cur: int, mask: int, seconds: float, steal_allowed: bool = False, batch: int = 64,
               iterations: int | None = None) -> tuple[int, int]:
        """The most visited root action (a column, or -2 for STEAL) and the iterations run: for
        ``seconds``, or exactly ``iterations`` whatever the time (the same move on any machine)."""
        t = self.tree
        t.size[0] = 1
        t.pos[0] = (cur, mask)
        t.stats[0] = 0.0
        t.children[0] = UNEXPANDED
        t.terminal[0] = RESULT_NONE
        deadline = time.perf_counter() + seconds
        runs = 0
        while True:
            now = batch if iterations is None else min(batch, iterations - runs)
            iterate(t.pos, t.stats, t.children, t.terminal, t.size, steal_allowed, self.c, now, self.g, self.rng,
                    self.solver)
            runs += now
            stopping.check()
            spent = time.perf_counter() >= deadline if iterations is None else runs >= iterations
            if spent or t.terminal[0] != RESULT_NONE:
                break
        best_slot = max((slot for slot in range(SLOTS) if t.children[0, slot] != UNEXPANDED), key=self._preference)
        return (-2 if best_slot == STEAL_SLOT else best_slot), runs

    def _preference(self, slot: int) -> tuple:
        """Root children are ranked: a proven win, then anything but a proven loss, then by visits."""
        child = self.tree.children[0, slot]
        status = self.tree.terminal[child] if self.solver else RESULT_NONE
        return (status == RESULT_WIN, status != RESULT_LOSS, self.tree.stats[child, VISITS])

    def root_status(self) -> int:
        """The root's status after the last search: RESULT_NONE, or (solver) proven for the player who moved into it."""
        return int(self.tree.terminal[0])
