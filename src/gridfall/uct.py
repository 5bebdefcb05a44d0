"""A generic player: UCT with random rollouts, through the one game interface alone.

It knows nothing of any game: it sees ``legal_actions``, ``apply_action``, ``clone``,
``current_player``, ``is_terminal`` and ``returns``.  That it plays all three games is the proof
that the interface is enough; gridfall's own players, on the fast engines, are far stronger.

Returns are scaled to [0, 1] by the lowest and highest return seen in the search so far, so
one exploration constant serves Connect Four's -1/0/+1 and SameGame's thousands of points.  In
a one-player game every node is valued for player 0; in a two-player game, for the player who
made the move into it.
"""

from __future__ import annotations

import math
import random
import time

from gridfall.interface import StateBase


CLOCK_STEPS = 16  # a rollout reads the clock once in this many random actions


class _Node:
    __slots__ = ("player", "untried", "children", "visits", "total")

    def __init__(self, player: int, actions: list[int], rng: random.Random):
        self.player = player  # who moves from here (TERMINAL at the end)
        self.untried = list(actions)
        rng.shuffle(self.untried)  # expansion order: random, but fixed by the seed
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of the returns of the player who moved into this node


class UCTPlayer:
    """``act(state, seconds)``: UCT until the deadline or ``iterations`` (whichever comes first).

    With ``iterations`` and no ``seconds`` the choice depends on the seed alone.  ``rollout_depth``
    cuts each rollout after that many random actions (for long games such as Match-3's 1000 moves)
    and takes ``returns()`` where it stops.  So does the deadline: a rollout still running when
    the time is up stops within ``CLOCK_STEPS`` actions, so that one long rollout cannot carry the
    answer past it (a Match-3 rollout to its 1000th move took about 50 ms, 200 times the share
    of CodeAbbey's one second that each of 4,000 moves gets).
    """

    def __init__(self, seed: int = 0, exploration: float = 1.4, iterations: int | None = None,
                 rollout_depth: int | None = None):
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations={iterations!r}: at least 1")
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.last_iterations = 0

    def act(self, state: StateBase, seconds: float | None = None) -> int:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        if len(actions) == 1:
            return actions[0]
        if seconds is None and self.iterations is None:
            raise ValueError("give seconds, iterations or both")
        if seconds is not None and not seconds >= 0:  # nan too
            raise ValueError(f"seconds={seconds!r}: a time of 0 or more")
        if seconds == math.inf and self.iterations is None:
            raise ValueError("seconds=inf and no iterations: it would never answer")
        deadline = None if seconds is None else time.monotonic() + seconds
        root = _Node(state.current_player(), actions, self.rng)
        self._low, self._high = math.inf, -math.inf
        done = 0
        # One iteration at least, however short the time: an anytime player always has a move.
        while done == 0 or ((self.iterations is None or done < self.iterations)
                            and (deadline is None or time.monotonic() < deadline)):
            self._iterate(root, state.clone(), deadline)
            done += 1
        self.last_iterations = done
        return max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))[0]

    def _iterate(self, node: _Node, state: StateBase, deadline: float | None = None) -> None:
        path = [node]
        movers = []  # the player who made each move along the path
        # Selection: down through fully expanded nodes by UCB1.
        while not node.untried and node.children:
            action, child = self._select(node)
            movers.append(node.player)
            state.apply_action(action)
            node = child
            path.append(node)
        # Expansion: one new child.
        if node.untried:
            action = node.untried.pop()
            movers.append(node.player)
            state.apply_action(action)
            child = _Node(state.current_player(), state.legal_actions(), self.rng)
            node.children[action] = child
            node = child
            path.append(node)
        # Rollout: random actions to the end, to the depth limit, or to the deadline.
        steps = 0
        while not state.is_terminal() and (self.rollout_depth is None or steps < self.rollout_depth):
            state.apply_action(self.rng.choice(state.legal_actions()))
            steps += 1
            if deadline is not None and steps % CLOCK_STEPS == 0 and time.monotonic() >= deadline:
                break
        returns = state.returns()
        self._low = min(self._low, *returns)
        self._high = max(self._high, *returns)
        # Backpropagation: each node gets the return of the player who moved into it.
        path[0].visits += 1
        for child, mover in zip(path[1:], movers):
            child.visits += 1
            child.total += returns[mover]

    def _select(self, node: _Node):
        spread = self._high - self._low
        log_visits = math.log(node.visits)

        def ucb(item):
            child = item[1]
            mean = child.total / child.visits
            scaled = (mean - self._low) / spread if spread > 0 else 0.5
            return scaled + self.exploration * math.sqrt(log_visits / child.visits)

        return max(node.children.items(), key=ucb)
