"""gridfall's own players on the states of the one interface: ``load_player(game, name)``.

    game = gridfall.load_game("connect4")
    bot = gridfall.load_player(game, "gridfall:400000", seed=1)   # 400,000 nodes a move
    state = game.new_initial_state()
    state.apply_action(bot.act(state))                             # an action id of the interface

The interface's states run on the rules of record; these players are the strong ones behind
gridfall's bots and referees, on the fast engines.  Each takes a state of its game and returns
one of the state's legal actions, and never changes the state.

* Connect Four: the names ``gridfall connect4 bot --agent`` takes (``gridfall[:NODES]``,
  ``mcts[:ITERATIONS]``, ``mcts-solver[:ITERATIONS]``, ``alphabeta[:DEPTH]``, ``greedy``,
  ``random``, ``portable``); ``seconds`` is a move's time (default: the bot's CodinGame turn).
* SameGame: a search algorithm of ``gridfall samegame solve --algo`` (``auto``, ``nrpa``,
  ``beam``, ...) with its parameters as keywords (``max_playouts=20000`` for a budget of work), or
  ``greedy``.  Its first move plans a whole line in ``seconds`` (default 1); the next moves follow
  that line while the state is the one it expects, and a state it does not expect is planned again.
* Match-3: ``strong`` (the numba expectimax, ``seconds`` a move, default 1), ``greedy`` or
  ``fast`` (pure Python, at once).

A player keeps what it learnt from move to move (Connect Four's tables, SameGame's line), so give
each game in progress a player of its own, or expect it to notice a new game and start afresh.
"""

from __future__ import annotations

import abc
import math
from typing import TypeVar

from gridfall.actions import whole_number
from gridfall.interface import GameBase, StateBase

DEFAULT_NAMES = {"connect4": "gridfall", "samegame": "auto", "match3": "strong"}
SAMEGAME_PLAN_SECONDS = 1.0  # a SameGame player's plan when act is given no time
MATCH3_MOVE_SECONDS = 1.0  # strong's budget a move when act is given no time (it stops at 16 samples a move)
MATCH3_NAMES = ("strong", "greedy", "fast")


class Player(abc.ABC):
    """What :func:`load_player` gives: a ``name``, and ``act``."""

    name: str

    @abc.abstractmethod
    def act(self, state: StateBase, seconds: float | None = None) -> int:
        """A legal action of ``state`` (not terminal, of the player's game), chosen within about
        ``seconds`` (None: the player's default); the state is left as it was."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def load_player(game: GameBase | str, name: str | None = None, *, seed: int = 0, **params) -> Player:
    """The player ``name`` for ``game`` (a game, or its name for the default game); ValueError
    naming what is wrong with the name or a parameter, TypeError for a game that is neither."""
    if isinstance(game, str):
        from gridfall.registry import load_game

        game = load_game(game)
    if not isinstance(game, GameBase):
        raise TypeError(f"game={game!r:.60}: give a game from gridfall.load_game, or a game's name")
    kind = game.short_name
    name = DEFAULT_NAMES[kind] if name is None else name
    if not isinstance(name, str):
        raise TypeError(f"name={name!r:.60}: give a player's name, such as {DEFAULT_NAMES[kind]!r}")
    if whole_number(seed) is None:
        raise TypeError(f"seed={seed!r:.60}: give a whole number")
    seed = int(seed)
    if kind == "connect4":
        return Connect4Player(name, seed, params)
    if kind == "samegame":
        return SameGamePlayer(name, seed, params)
    return Match3Player(name, seed, params)


def move_seconds(seconds: float | None, default: float, name: str = "seconds") -> float:
    """A move's time: ``default`` for None; ValueError naming ``name`` for a time that is not a
    finite number of 0 or more."""
    if seconds is None:
        return default
    if isinstance(seconds, bool) or not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"{name}={seconds!r}: a finite time of 0 or more (None: the player's default)")
    return float(seconds)


State = TypeVar("State", bound=StateBase)


def _checked(player: Player, state: StateBase, kind: type[State], game: str) -> State:
    """``state`` as the player's game's state class; ValueError for another game's, or a finished one."""
    if not isinstance(state, kind):
        raise ValueError(f"{player.name} plays {game}; it was given {type(state).__name__}")
    if state.is_terminal():
        raise ValueError(f"{player.name}: the game is over, there is no move to choose")
    return state


class Connect4Player(Player):
    """A Connect Four agent (:mod:`gridfall.connect4.agents`) on interface states."""

    def __init__(self, name: str, seed: int, params: dict):
        from gridfall.connect4.agents import make_agent

        if params:
            raise ValueError(f"{name}: Connect Four players take no keyword parameters (got {', '.join(params)}); "
                             "a player's budget is in its name (gridfall:NODES, mcts:ITERATIONS)")
        self.name = name
        self.agent = make_agent(name, seed)

    def act(self, state: StateBase, seconds: float | None = None) -> int:
        from gridfall.connect4.protocol import TURN_MS
        from gridfall.connect4.rules import STEAL
        from gridfall.connect4.state import Connect4State

        own = _checked(self, state, Connect4State, "connect4")
        action = self.agent.act(own.rules.clone(), move_seconds(seconds, TURN_MS / 1000))
        return own.game.width if action == STEAL else action


class SameGamePlayer(Player):
    """A SameGame search (:func:`gridfall.samegame.search.solve`) or the greedy line, planned once
    and followed."""

    def __init__(self, name: str, seed: int, params: dict):
        from gridfall.samegame.search import ALGORITHMS, check_request

        if name == "greedy":
            if params:
                raise ValueError(f"greedy takes no parameters (got {', '.join(params)})")
        elif name in ALGORITHMS:
            check_request(name, SAMEGAME_PLAN_SECONDS, params)  # a parameter the algorithm does not take
        else:
            algorithm, _, rest = name.partition(":")
            hint = (f" (its parameters go as keywords: load_player(game, {algorithm!r}, level=3), not in the name)"
                    if rest and algorithm in ALGORITHMS else "")
            raise ValueError(f"unknown SameGame player {name!r}; choose greedy or one of {', '.join(ALGORITHMS)}{hint}")
        self.name, self.seed, self.params = name, seed, params
        self.plan: list[tuple[int, int]] = []
        self.expected: object = None  # the board the plan's next move is for
        self.plans = 0  # lines planned: one for a game the player plays alone

    def act(self, state: StateBase, seconds: float | None = None) -> int:
        from gridfall.samegame.protocol import fallback_move
        from gridfall.samegame.state import SameGameState, cell_action

        board = _checked(self, state, SameGameState, "samegame").board
        if board != self.expected or not self.plan:
            self.plan = self._line(board, move_seconds(seconds, SAMEGAME_PLAN_SECONDS))
            self.plans += 1
        x, y = self.plan.pop(0) if self.plan else fallback_move(board)  # (a search always finds a line)
        self.expected, _ = board.play(x, y)
        return cell_action(*min(board.region(x, y)))  # the group's canonical cell, as legal_actions names it

    def _line(self, board, seconds: float) -> list[tuple[int, int]]:
        if self.name == "greedy":
            from gridfall.samegame.greedy import greedy_line

            return list(greedy_line(board))
        from gridfall.samegame.search import solve

        found = solve(board, seconds, algo=self.name, seed=self.seed + self.plans, **self.params)
        if found.interrupted:  # solve stops its threads on Ctrl-C and returns; the caller is to stop too
            raise KeyboardInterrupt
        return list(found.moves)


class Match3Player(Player):
    """A Match-3 player (:mod:`gridfall.match3.agents`) on interface states."""

    def __init__(self, name: str, seed: int, params: dict):
        if name not in MATCH3_NAMES:
            raise ValueError(f"unknown Match-3 player {name!r}; choose one of {', '.join(MATCH3_NAMES)} (plan shares "
                             "a run's second between four boards: it plays the challenge, `gridfall match3 referee`)")
        if params:
            raise ValueError(f"{name}: Match-3 players take no keyword parameters (got {', '.join(params)})")
        self.name = name
        self.agent = None
        if name == "strong":
            from gridfall.match3.agents import StrongAgent

            self.agent = StrongAgent(seed=seed)

    def act(self, state: StateBase, seconds: float | None = None) -> int:
        from gridfall.match3 import portable
        from gridfall.match3.state import Match3State

        own = _checked(self, state, Match3State, "match3")
        budget = move_seconds(seconds, MATCH3_MOVE_SECONDS)
        rows = list(own.board.rows)
        if self.agent is not None:
            self.agent.budget = budget
            col, row, direction = self.agent.suggest(rows)
        else:
            move = (portable.greedy_move if self.name == "greedy" else portable.fast_move)(rows)
            if move is None:  # (a state that is not over has a legal move)
                raise ValueError(f"{self.name}: no legal move on this board")
            col, row, direction = move
        return own.game.swap_action(col, row, direction)
