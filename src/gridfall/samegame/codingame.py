"""The CodinGame SameGame protocol: gridfall's bot and a local referee for any bot.

Protocol (both flavours): each turn the referee sends the board as 15 lines,
top row first, 15 space-separated integers each (-1 empty).

* Turn flavour: the bot answers one line ``x y [message]`` per turn; 20 s
  for the first turn, 50 ms for each later one.  Any bad action loses.
* One-turn flavour: the bot answers once, within 20 s, with every action on
  one line separated by ``;``; see :func:`rules.judge` for how it is judged.

The referee times a turn from the first byte of the board sent to the end of
the answer line, as the platform does.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import IO, Callable

from gridfall.arena.limits import Limits
from gridfall.arena.process import BotFailure, BotProcess
from gridfall.samegame import rules
from gridfall.samegame.line import Line
from gridfall.samegame.boards import BoardError, parse_board

FIRST_TURN_SECONDS = 20.0
TURN_SECONDS = 0.050
EMPTY_ACTION = "Empty action provided"


# --- the referee ---------------------------------------------------------------


LIMITS = Limits(FIRST_TURN_SECONDS, TURN_SECONDS)


@dataclass
class GameRecord:
    """One board refereed: the score and how the game ended."""

    board: str
    score: int = 0
    actions: int = 0
    outcome: str = "ok"  # "ok" or the referee's verdict ("Timeout", "Region of size 1", ...)
    detail: str = ""
    warnings: list[str] = field(default_factory=list)
    cleared: bool = False
    first_turn_seconds: float = 0.0
    slowest_turn_seconds: float = 0.0  # over the turns after the first

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    def to_json(self) -> dict:
        return asdict(self)


def referee_game(command: str, board: rules.Board, name: str, *, one_turn: bool = False, limits: Limits = LIMITS) -> GameRecord:
    """Run one game of ``command`` on ``board`` under the platform's rules."""
    report = GameRecord(name)
    try:
        with BotProcess(command) as bot:
            if one_turn:
                _one_turn_game(bot, board, report, limits)
            else:
                _turn_game(bot, board, report, limits)
    except BotFailure as e:
        report.outcome, report.detail = e.reason, e.detail
    return report


def _turn_game(bot: BotProcess, board: rules.Board, report: GameRecord, limits: Limits) -> None:
    while not board.is_over():
        first = report.actions == 0
        line, took = bot.ask(board.text() + "\n", limits.first_turn if first else limits.turn)
        if first:
            report.first_turn_seconds = took
        else:
            report.slowest_turn_seconds = max(report.slowest_turn_seconds, took)
        action = line.strip()
        if not action:
            report.outcome, report.detail = EMPTY_ACTION, f"turn {report.actions + 1}"
            return
        judged = rules.judge(board, [action], strict=True)
        if not judged.ok:
            report.outcome = judged.error
            report.detail = f"turn {report.actions + 1}: {judged.detail.split(': ', 1)[1]}"
            return
        board = judged.board
        report.score += judged.score
        report.actions += 1
        report.cleared = board.is_cleared()


def _one_turn_game(bot: BotProcess, board: rules.Board, report: GameRecord, limits: Limits) -> None:
    line, report.first_turn_seconds = bot.ask(board.text() + "\n", limits.first_turn)
    if not line.strip():
        report.outcome = EMPTY_ACTION
        return
    judged = rules.judge(board, rules.split_one_turn(line), strict=False)
    report.score, report.actions, report.warnings = judged.score, len(judged.actions), judged.warnings
    report.cleared = judged.cleared
    if not judged.ok:
        report.outcome, report.detail = judged.error, judged.detail


# --- gridfall's own bot ---------------------------------------------------------


def _next_board(inp: IO[str], log: IO[str]) -> rules.Board | None:
    """The next board, or None at the end of input or on input that is not a board (said on log)."""
    try:
        return read_board(inp)
    except BoardError as e:
        print(f"gridfall bot: {e}", file=log)
        return None


def read_board(stream: IO[str]) -> rules.Board | None:
    """The next 15-line board from the referee, or None at end of input."""
    lines = []
    while len(lines) < rules.HEIGHT:
        line = stream.readline()
        if not line:
            return None
        if line.strip():
            lines.append(line)
    return parse_board("".join(lines), "<referee input>")


@dataclass
class BotConfig:
    """How gridfall's bot spends its time (seconds) and where it looks for known lines."""

    first_turn_budget: float = 17.0  # of the 20 s, counted from process start
    replan_budget: float = 0.020  # of the 50 ms, if the board is not the expected one
    seed: int = 0
    workers: int = 1  # CodinGame gives one core
    algo: str = "auto"
    store: str | None = None  # path of the solution store; None: the default store
    use_store: bool = True


Planner = Callable[[rules.Board, float, int], list[tuple[int, int]]]


# Seconds the pure-Python line may need, kept back from the planning time while the search
# kernels load: a whole greedy line takes about 15 ms on the rules of record.
FALLBACK_MARGIN = 0.3


def make_planner(config: BotConfig, log: IO[str] = sys.stderr) -> Planner:
    """A planner: the stored line for the board if there is one, else a search.

    The search kernels start loading at once, in a thread (from the cache: under a second; cold:
    compiled, which takes longer than a first turn).  If they are not ready when the planning time
    is nearly spent, the planner answers with the pure-Python greedy line (:mod:`.greedy`), and
    the kernels keep compiling into the cache for the next game: a bot never loses to its start-up.
    """
    from gridfall.samegame.store import SolutionStore, StoreError

    store = None
    if config.use_store:
        try:
            store = SolutionStore(config.store)
        except StoreError as e:
            print(f"gridfall bot: {e}; searching without it", file=log)
    kernels = _load_kernels_in_background(log)

    def plan(board: rules.Board, seconds: float, seed: int) -> list[tuple[int, int]]:
        deadline = time.monotonic() + seconds
        if store is not None:
            try:
                entry = store.best(board)
            except StoreError as e:
                print(f"gridfall bot: {e}; searching instead", file=log)
                entry = None
            if entry is not None:
                print(f"gridfall bot: stored line, score {entry.score}", file=log)
                return entry.line()
        if not kernels.wait(max(0.0, deadline - time.monotonic() - FALLBACK_MARGIN)):
            from gridfall.samegame.greedy import greedy_line

            print("gridfall bot: the search kernels are not ready (compiling into the cache for next time; "
                  "`gridfall warmup` does it at once): playing the pure-Python greedy line", file=log)
            return greedy_line(board, deadline)
        from gridfall.samegame.search import solve

        solution = solve(board, max(deadline - time.monotonic(), 0.005), algo=config.algo, workers=config.workers,
                         seed=seed)
        print(f"gridfall bot: {solution.algo} found {solution.score} in {solution.seconds:.2f} s", file=log)
        return solution.moves

    return plan


def _load_kernels_in_background(log: IO[str]) -> threading.Event:
    """An event set once every search kernel is loaded (or compiled) in a daemon thread."""
    ready = threading.Event()

    def load() -> None:
        try:
            from gridfall.warmup import warm

            warm("samegame")
            ready.set()
        except Exception as e:  # noqa: BLE001 - the greedy line still answers
            print(f"gridfall bot: the search kernels failed to load ({e!r})", file=log)

    threading.Thread(target=load, name="gridfall-kernels", daemon=True).start()
    return ready


def fallback_move(board: rules.Board) -> tuple[int, int]:
    """A legal move chosen in microseconds: the largest group (the game is not over)."""
    group = max(board.groups(), key=lambda g: (g.size, -g.x, -g.y))
    return group.x, group.y


def play_turns(
    inp: IO[str], out: IO[str], config: BotConfig = BotConfig(), planner: Planner | None = None,
    started: float | None = None, log: IO[str] = sys.stderr,
) -> None:
    """The turn flavour: plan on the first turn, then follow the plan.

    Before each answer the bot checks the board it received; if it is not the
    one the plan expects it plans again within ``replan_budget``.  Every move
    printed is checked legal on the received board first.
    """
    started = time.monotonic() if started is None else started
    planner = planner or make_planner(config, log)
    plan: list[tuple[int, int]] = []
    expected: rules.Board | None = None
    first = True
    while True:
        board = _next_board(inp, log)
        if board is None:
            return
        if board != expected:
            budget = started + config.first_turn_budget - time.monotonic() if first else config.replan_budget
            if not first:
                print("gridfall bot: board differs from the plan; planning again", file=log)
            plan = planner(board, max(budget, 0.005), config.seed)
        first = False
        move = plan.pop(0) if plan else None
        try:
            expected, _ = board.play(*move) if move else (None, 0)
        except rules.IllegalMove:
            move = None
        if move is None:
            move = fallback_move(board)
            expected, _ = board.play(*move)
            plan = []
        out.write(f"{move[0]} {move[1]}\n")
        out.flush()


def play_one_turn(
    inp: IO[str], out: IO[str], config: BotConfig = BotConfig(), planner: Planner | None = None,
    started: float | None = None, log: IO[str] = sys.stderr,
) -> None:
    """The one-turn flavour: plan, then print every action on one line."""
    started = time.monotonic() if started is None else started
    planner = planner or make_planner(config, log)
    board = _next_board(inp, log)
    if board is None:
        return
    moves = planner(board, max(started + config.first_turn_budget - time.monotonic(), 0.005), config.seed)
    if not moves:  # nothing to play: any click is only a warning in this flavour
        moves = [(0, 0)]
    out.write(Line(moves).text(limit=rules.ONE_TURN_ACTION_LIMIT) + "\n")
    out.flush()
