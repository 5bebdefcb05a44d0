"""Players: gridfall's own and the built-in reference opponents.

Every agent has ``act(game, seconds) -> action`` (a column, or -2 for STEAL), and the built-in
ones never return an illegal action (a user's player, :mod:`gridfall.connect4.interface_agent`,
answers what the player answers).  Build one from a name with :func:`make_agent`: ``random``,
``greedy``, ``alphabeta:DEPTH``, ``mcts[:ITERATIONS]``, ``mcts-solver[:ITERATIONS]``,
``gridfall[:NODES]``, ``portable``.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from gridfall.arena import job_name
from gridfall.connect4.opening_moves import OpeningMoves
from gridfall.connect4.portable import PortableAgent
from gridfall.connect4.portable import Searcher as PortableSearcher
from gridfall.connect4.rules import STEAL, Game
from gridfall.numerals import ascii_digits

if TYPE_CHECKING:  # the engine loads numba: the agents import it on first use
    from gridfall.connect4.search import Decision, Searcher


def _turn(seconds: float) -> float:
    """A turn's time, checked: with nan (or inf) a search's deadline never comes."""
    if not math.isfinite(seconds):
        raise ValueError(f"seconds={seconds!r}: give a finite time")
    return seconds


def _engine(game: Game) -> tuple[int, int]:
    """The engine's (cur, mask) of a game (the engine, and numba, load on first use)."""
    from gridfall.connect4.engine import from_game

    return from_game(game)


class RandomAgent:
    """Uniformly random among the legal actions (STEAL included when allowed)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rnd = random.Random(seed)

    def act(self, game: Game, seconds: float) -> int:
        return self.rnd.choice(game.legal_actions())


class GreedyAgent:
    """Win at once if possible, else block the opponent's immediate win, else the most central column."""

    name = "greedy"

    def act(self, game: Game, seconds: float) -> int:
        columns = game.position.playable_columns()
        me = game.current_player()
        for player in (me, 1 - me):  # first our win, then their threat
            for x in columns:
                if game.position.drop(player, x).has_four(player):
                    return x
        return min(columns, key=lambda x: (abs(2 * x - (game.width - 1)), x))


class AlphaBetaAgent:
    """Alpha-beta to a fixed depth with gridfall's evaluation; never steals."""

    def __init__(self, depth: int = 6):
        from gridfall.connect4.search import Searcher

        self.depth = depth
        self.name = f"alphabeta:{depth}"
        self._searcher = Searcher
        self.searcher: Searcher | None = None

    def act(self, game: Game, seconds: float) -> int:
        if self.searcher is None or self.searcher.width != game.width:
            self.searcher = self._searcher(game.width, game.height)
        return self.searcher.choose(*_engine(game), seconds=1e9, max_depth=self.depth).column


class MCTSAgent:
    """UCT with random playouts for the whole time budget; STEAL is one of its root actions.

    ``solver=True`` is MCTS-Solver: the tree proves wins and losses (:mod:`.mcts`).  With
    ``iterations`` it runs exactly that many a move, whatever the time: an opponent that plays
    the same on every machine (the referee's limits still apply).
    """

    def __init__(self, seed: int = 0, solver: bool = False, iterations: int | None = None):
        self.seed = seed
        self.solver = solver
        self.iterations = iterations
        self.name = ("mcts-solver" if solver else "mcts") + (f":{iterations}" if iterations else "")
        self._prepare(9, 7)

    def _prepare(self, width: int, height: int) -> None:
        """Build the tree and load the kernels now: at start-up, inside the long first turn."""
        from gridfall.connect4.mcts import MCTS

        self.mcts = MCTS(width, height, seed=self.seed, solver=self.solver)
        self.mcts.choose(0, 0, 0.0, batch=1)

    def act(self, game: Game, seconds: float) -> int:
        if self.mcts.width != game.width or self.mcts.height != game.height:
            self._prepare(game.width, game.height)
        action, _ = self.mcts.choose(*_engine(game), _turn(seconds), steal_allowed=STEAL in game.legal_actions(),
                                     iterations=self.iterations)
        return action


PONDER_AT_LEAST = 0.05  # seconds: below this a table move is answered at once
PONDER_MARGIN = 0.01  # seconds kept back from pondering for answering
EXACT_EMPTIES = 40  # from this many empty cells on, the exact solver checks the search's move
EXACT_SHARE = 0.55  # of the turn, for the solver then (benchmarks/connect4_endgame.py)
SEARCH_SHARE = 0.4  # of the turn, for the search then: the rest covers Python's overhead after deadlines
# the search's evaluation noise (Searcher's variety): up to about two centre chips' worth, in
# positions of fewer than 32 chips, so in the bot's first ten moves or so.  At depth 11, against
# the same search without it, 150 pairs: variety 7 scored 47.8% (-15 [-53, +23]), 5 44.8%, 3 48.0%,
# and 3 in all positions 46.5% (benchmarks/connect4_search_match.py --option variety=7 --option
# variety_chips=32, 2026-11-26).  7 varies more lines (README, Connect Four strength).
VARIETY, VARIETY_CHIPS = 7, 32


class GridfallAgent:
    """The opening table for the first move and the STEAL decision, then the opening book
    (:mod:`.book`, the same as the exported file's): as second player while it has the
    position; as first player for the reply to the opponent's STEAL only, and while it has the
    position when the opponent played on (:mod:`.opening_moves`).  Each such move's turn is spent
    pondering the position it leaves.  Then iterative deepening alpha-beta, checked by the exact
    solver once few cells are empty (:mod:`.endgame`).

    In the opening the search's evaluation carries a little seeded noise (``VARIETY``), reseeded
    every game from ``seed`` and the game's number, so the bot does not repeat a lost game move
    for move.

    With ``nodes`` the bot spends that many nodes a move instead of the turn's time, shared as the
    time would be (the search, and the exact solver once it checks the search), and pondering
    as many: it plays the same games for the same seed on any machine, never reading the clock."""

    def __init__(self, seed: int = 0, nodes: int | None = None):
        self.nodes = nodes
        self.name = "gridfall" + (f":{nodes}" if nodes else "")
        from gridfall.connect4.search import Searcher

        self.opening = OpeningMoves.load()
        self._searcher = Searcher
        self.last: Decision | None = None
        self.chips = 0  # chips on the board at the last move: fewer means a new game
        self.seed = seed
        self.games = 0  # games begun before the current one
        self._prepare(9, 7)

    def _prepare(self, width: int, height: int) -> None:
        """Build the searcher and load its kernels now: at start-up, inside the long first turn."""
        from gridfall.connect4.rules import Game as _Game
        from gridfall.connect4.solver import Solver

        self.searcher = self._searcher(width, height, variety=VARIETY, variety_chips=VARIETY_CHIPS,
                                       seed=self._game_seed())
        self.solver = Solver(width, height, table_bits=21)
        game = _Game(width, height, steal=False)
        game.apply_action(width // 2)
        self.searcher.choose(*_engine(game), seconds=0.002, max_depth=2)
        from gridfall.connect4.endgame import exact_move, warm

        # every kernel exact play calls from Python loads now, not in a 100 ms turn
        self.exact_move = exact_move
        warm(self.solver)
        # the tables start empty: what the timed warm-up left in them depends on the machine
        self.searcher.forget()
        self.solver.table.new_search()

    def _game_seed(self) -> int:
        return hash((self.seed, self.games))

    def act(self, game: Game, seconds: float) -> int:
        _turn(seconds)
        if self.searcher.width != game.width or self.searcher.height != game.height:
            self._prepare(game.width, game.height)
        cur, mask = _engine(game)
        chips = bin(mask).count("1")
        if chips < self.chips:  # a new game: a new seed, and the solver's table holds another game's positions
            self.games += 1
            self.searcher.reseed(self._game_seed())
            self.solver.table.new_search()
        self.chips = chips
        opening = self.opening.move(game)
        if opening is not None:
            self._ponder(game, opening, seconds)
            return opening
        exact = game.width * game.height - chips <= EXACT_EMPTIES
        self.last = self.searcher.choose(cur, mask, seconds=seconds * SEARCH_SHARE if exact else seconds,
                                         nodes=self._share(SEARCH_SHARE if exact else 1.0))
        if exact and not self.last.proven:
            column = self.exact_move(self.solver, cur, mask, seconds * EXACT_SHARE, self.last.column, keep_table=True,
                                     nodes=self._share(EXACT_SHARE))
            if column is not None:
                return column
        return self.last.column

    def _share(self, share: float) -> int | None:
        """A share of the move's nodes (None: the bot runs on time)."""
        return None if self.nodes is None else max(int(self.nodes * share), 1)

    def _ponder(self, game: Game, action: int, seconds: float) -> None:
        """Spend a table or book move's time searching the position it leaves: the table keeps
        what the search learns, so the next turn starts deeper.

        After the first move this also covers STEAL: the search sees a position from the side to
        move, and the bot facing its stolen chip sees exactly what the opponent faces after the
        chip (no chip of its own, the other's in the same cell, the same count of chips)."""
        if seconds < PONDER_AT_LEAST and self.nodes is None:
            return
        after = game.clone()
        after.apply_action(action)
        self.searcher.choose(*_engine(after), seconds=seconds - PONDER_MARGIN, nodes=self._share(1.0))


def _depth(text: str) -> int:
    if not text:
        return 6
    if not ascii_digits(text) or not 1 <= int(text) <= 40:
        raise ValueError(f"alphabeta:{text}: the depth is a whole number from 1 to 40")
    return int(text)


MOST_ITERATIONS = 10_000_000  # a move's iterations for mcts:N (about a minute a move)
MOST_NODES = 1_000_000_000  # a move's nodes for gridfall:N (a few minutes a move)


def _iterations(name: str, text: str) -> int | None:
    if not text:
        return None  # for the turn's time
    if not ascii_digits(text) or not 1 <= int(text) <= MOST_ITERATIONS:
        raise ValueError(f"{name}:{text}: the iterations a move are a whole number from 1 to {MOST_ITERATIONS:,}")
    return int(text)


def _nodes(text: str) -> int | None:
    if not text:
        return None  # for the turn's time
    if not ascii_digits(text) or not 1000 <= int(text) <= MOST_NODES:
        raise ValueError(f"gridfall:{text}: the nodes a move are a whole number from 1,000 to {MOST_NODES:,}")
    return int(text)


AGENTS = {
    "random": lambda arg, seed: RandomAgent(seed),
    "greedy": lambda arg, seed: GreedyAgent(),
    "alphabeta": lambda arg, seed: AlphaBetaAgent(_depth(arg)),
    "mcts": lambda arg, seed: MCTSAgent(seed, iterations=_iterations("mcts", arg)),
    "mcts-solver": lambda arg, seed: MCTSAgent(seed, solver=True, iterations=_iterations("mcts-solver", arg)),
    "gridfall": lambda arg, seed: GridfallAgent(seed, nodes=_nodes(arg)),
    "portable": lambda arg, seed: _portable(seed),
}
AGENT_NAMES = tuple(AGENTS)
COMPILED_AGENTS = ("alphabeta", "mcts", "mcts-solver", "gridfall")  # the ones whose kernels numba compiles
CLOCKED_AGENTS = ("mcts", "mcts-solver", "gridfall", "portable")  # they think until the turn's deadline


def thinks_to_the_clock(spec: str) -> bool:
    """Whether the agent ``spec`` thinks until its turn's deadline (``mcts``, ``gridfall``): not one
    given its work (``mcts:2000``, ``gridfall:100000``, ``alphabeta:4``) nor one that does not search."""
    name, _, arg = spec.partition(":")
    return name in CLOCKED_AGENTS and not arg


class StoppableSearcher(PortableSearcher):
    """The exported file's search, which knows nothing of gridfall, ended as well by a stop of the
    game its thread plays (:mod:`.stopping`): it reads the stop where it reads its clock."""

    def out_of_time(self) -> bool:
        return job_name.told_to_stop() or super().out_of_time()


class StoppablePortableAgent(PortableAgent):
    """The exported file's player, as gridfall runs it (``portable``): a stop of its game ends its move."""

    searcher_class = StoppableSearcher


def _portable(seed: int):
    return StoppablePortableAgent(seed=seed)


PARAMETERS = "alphabeta:DEPTH, mcts:ITERATIONS, mcts-solver:ITERATIONS, gridfall:NODES"  # the agents that take one


def check_spec(spec: str) -> None:
    """ValueError naming what is wrong with an agent's name, without building the agent: an unknown
    name, or a parameter it does not take (alphabeta takes its depth, the mcts agents their
    iterations a move, gridfall its nodes a move)."""
    name, colon, arg = spec.partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {spec!r}; choose one of {', '.join(AGENTS)} ({PARAMETERS} too)")
    if colon and not arg:
        raise ValueError(f"{spec!r}: nothing follows ':'; write {name} alone, or with its parameter ({PARAMETERS})")
    if name == "alphabeta":
        _depth(arg)
    elif name in ("mcts", "mcts-solver"):
        _iterations(name, arg)
    elif name == "gridfall":
        _nodes(arg)
    elif colon:
        raise ValueError(f"{spec}: {name} takes no parameter (only {PARAMETERS})")


def make_agent(spec: str, seed: int = 0):
    """An agent from its name: random, greedy, alphabeta[:DEPTH], mcts[:ITERATIONS],
    mcts-solver[:ITERATIONS], gridfall[:NODES], portable."""
    check_spec(spec)
    name, _, arg = spec.partition(":")
    return AGENTS[name](arg, seed)
