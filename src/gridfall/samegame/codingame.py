"""The CodinGame SameGame referee for any bot, and the planner of gridfall's own bot.

The protocol is :mod:`.protocol`.  The referee times a turn from the first byte of the board sent
to the end of the answer line, as the platform does.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import IO

from gridfall.arena.fallback import LOADING, TOO_SHORT, notice, said_so
from gridfall.arena.limits import CODINGAME_MEMORY_MB, Limits
from gridfall.arena.process import BotFailure, BotProcess
from gridfall.samegame import rules
from gridfall.samegame.boards import portable_spec, rows_spec
from gridfall.samegame.protocol import FIRST_TURN_SECONDS, TURN_SECONDS, BotConfig, Planner
from gridfall.warmup import in_background, is_warm

EMPTY_ACTION = "Empty action provided"


# --- the referee ---------------------------------------------------------------


LIMITS = Limits(FIRST_TURN_SECONDS, TURN_SECONDS, CODINGAME_MEMORY_MB)
MESSAGE_LIMIT = 200  # characters of a bot's debug message kept in the record


@dataclass
class GameRecord:
    """One board refereed: the score and how the game ended."""

    board: str
    score: int = 0
    actions: int = 0
    outcome: str = "ok"  # "ok" or the referee's verdict ("Timeout", "Region of size 1", ...)
    detail: str = ""
    seed: int | None = None  # the bot's GRIDFALL_SEED, if the referee gave one: the game can be played again
    warnings: list[str] = field(default_factory=list)
    cleared: bool = False
    first_turn_seconds: float = 0.0
    slowest_turn_seconds: float = 0.0  # over the turns after the first
    moves: list[tuple[int, int]] = field(default_factory=list)  # the clicks applied, in order
    times: list[float] = field(default_factory=list)  # seconds of each turn
    messages: list[str] = field(default_factory=list)  # each turn's text after the action (turn flavour)
    # each answered turn's stderr (BotProcess.take_output), and the unanswered turn's that lost the board
    output: list[str] = field(default_factory=list)
    other_flavour: bool = False  # the bot answered as the other flavour's bots do (flavour_hint)
    # the board's rows: spec where ``board`` names a file: the record then replays where the file is not
    cells: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    @property
    def fell_back(self) -> bool:
        """The bot said it played pure Python on this board, not its compiled search."""
        return any(said_so(text) for text in self.output)

    def to_json(self) -> dict:
        data = asdict(self)
        if not self.cells:
            del data["cells"]
        return data


def referee_game(command: str, board: rules.Board, name: str, *, one_turn: bool = False, limits: Limits = LIMITS,
                 seed: int | None = None) -> GameRecord:
    """Run one game of ``command`` on ``board`` under the platform's rules (``seed``: the bot's
    GRIDFALL_SEED, :class:`BotProcess`)."""
    report = GameRecord(name, seed=seed, cells="" if portable_spec(name, board) == name else rows_spec(board))
    bot = None
    try:
        with BotProcess(command, memory_mb=limits.memory_mb, one_cpu=limits.one_cpu, seed=seed) as bot:
            if one_turn:
                _one_turn_game(bot, board, report, limits)
            else:
                _turn_game(bot, board, report, limits)
    except BotFailure as e:
        report.outcome, report.detail = e.reason, e.detail
        if bot is not None:  # it started: what it wrote in the turn it did not answer (read to its end)
            report.output.append(bot.take_output())
    return report


def _turn_game(bot: BotProcess, board: rules.Board, report: GameRecord, limits: Limits) -> None:
    while not board.is_over():
        first = report.actions == 0
        line, took = bot.ask(board.text() + "\n", limits.first_turn if first else limits.turn)
        if first:
            report.first_turn_seconds = took
        else:
            report.slowest_turn_seconds = max(report.slowest_turn_seconds, took)
        report.times.append(round(took, 4))
        report.output.append(bot.take_output())
        action = line.strip()
        report.messages.append(" ".join(action.split()[2:])[:MESSAGE_LIMIT])
        if not action:
            report.outcome, report.detail = EMPTY_ACTION, f"turn {report.actions + 1}"
            return
        judged = rules.judge(board, [action], strict=True)
        if judged.error is not None:
            report.outcome = judged.error
            report.detail = f"turn {report.actions + 1}: {judged.detail.split(': ', 1)[1]}"
            report.other_flavour = first and len(rules.split_one_turn(action)) > 1  # `x y;x y;...`
            return
        board = judged.board
        report.score += judged.score
        report.actions += 1
        report.moves += judged.actions
        report.cleared = board.is_cleared()


def _one_turn_game(bot: BotProcess, board: rules.Board, report: GameRecord, limits: Limits) -> None:
    line, report.first_turn_seconds = bot.ask(board.text() + "\n", limits.first_turn)
    report.times.append(round(report.first_turn_seconds, 4))
    report.output.append(bot.take_output())
    if not line.strip():
        report.outcome = EMPTY_ACTION
        return
    answered = rules.split_one_turn(line)
    judged = rules.judge(board, answered, strict=False)
    report.score, report.actions, report.warnings = judged.score, len(judged.actions), judged.warnings
    report.moves = judged.actions
    report.cleared = judged.cleared
    report.other_flavour = len(answered) == 1 and judged.ok and not judged.board.is_over()  # one click, then stopped
    if judged.error is not None:
        report.outcome, report.detail = judged.error, judged.detail


def flavour_hint(boards: list[str], one_turn: bool, bot: str = "The bot") -> str:
    """A line for the ``boards`` on which ``bot`` answered as a bot of the other flavour does
    (GameRecord.other_flavour; '' if none): a turn-by-turn bot refereed in the one-turn flavour
    answers its first click alone, and its board ends there (an 'ok' board scoring a click); a
    one-turn bot refereed turn by turn answers every click on its first line, which that flavour
    cannot read."""
    if not boards:
        return ""
    named = ", ".join(boards[:5]) + (", ..." if len(boards) > 5 else "")
    if one_turn:
        return (f"{bot} answered a single click on a board it did not finish ({len(boards)}: {named}): the one-turn "
                "flavour reads every click from its one answer (x y;x y;...), so a bot of the turn-by-turn flavour "
                "stops after its first. Referee it without --one-turn, or export it with --one-turn.")
    return (f"{bot} answered several clicks on its first line ({len(boards)}: {named}), as one-turn bots do: the "
            "turn-by-turn flavour reads one click a turn. Referee it with --one-turn, or export it without.")


def compare_notes(names: list[str], rows: list[tuple[str, list]]) -> list[str]:
    """flavour_hint's line for each bot of a comparison (``rows``: each board with every bot's
    GameRow, or None where not played yet) that answered as a bot of the other flavour."""
    notes = []
    for i, name in enumerate(names):
        games = [game for _, row in rows if (game := row[i]) is not None and game.result.get("other_flavour")]
        if games:
            notes.append(flavour_hint([game.result["board"] for game in games], bool(games[0].result.get("one_turn")),
                                      bot=name))
    return notes


# Seconds the pure-Python line may need, kept back from the planning time while the search
# kernels load: a whole greedy line takes about 15 ms on the rules of record.
FALLBACK_MARGIN = 0.3
# A first turn planned in less than this does not load the search kernels at all: it plans with
# the exported bot's beam search.  They load in 0.4-1.1 s (AMD EPYC, 2026-11-30, idle to four
# processes on two cores); one that is not ready 0.3 s before the plan ends gets the greedy line,
# and a load that goes on past the plan holds the interpreter up to 34 ms at a time while the bot
# answers its 50 ms turns.  Two bots on standard boards 1-6 in `samegame compare`, the same
# boards each time:
#   plan 0.5 s: loading, 1 board of 8 lost on time and the greedy line on the others; beam 4,649
#               on boards 1-4 against 2,098;
#   plan 1.0 s: beam 8,466-8,620; loading 7,509-8,379, and with three bots at once 2,558 and
#               3 boards of 12 lost on time;
#   plan 1.25 s: loading 12,653, and 9,144 with three at once (4 greedy lines of 12);
#   plan 1.5 s: loading 12,946-13,034, and 10,114-10,133 with three at once (1 greedy line of 12);
#               beam 7,848-8,336.
LEAST_PLAN_TO_LOAD = 1.5


def make_planner(config: BotConfig, log: IO[str] = sys.stderr) -> Planner:
    """A planner: the stored line for the board if there is one, else a search.

    The search kernels start loading at once, in the background, from the cache: about a second.
    If they are not ready when the planning time is nearly spent, the planner answers with the
    pure-Python greedy line (:mod:`.greedy`).  From a cold cache, which a child process fills for
    the next game (:func:`gridfall.warmup.in_background`; a minute), and under a first-turn plan
    too short to load them (``LEAST_PLAN_TO_LOAD``), the planner spends its time on the exported
    bot's pure-Python beam search instead (:mod:`.portable`): a bot never loses to its start-up.
    Either way it says so on stderr, in the line that the referees count
    (:mod:`gridfall.arena.fallback`).
    """
    from gridfall.samegame.store import SolutionStore, StoreError

    too_short = config.first_turn_budget < LEAST_PLAN_TO_LOAD and is_warm("samegame")  # a cold cache: a child fills it
    kernels = None if too_short else in_background("samegame", log)

    def plan(board: rules.Board, seconds: float, seed: int) -> list[tuple[int, int]]:
        deadline = time.monotonic() + seconds
        if config.use_store:
            try:
                with SolutionStore(config.store) as store:  # for this look-up: a planner has no end to close it at
                    entry = store.best(board)
            except StoreError as e:
                print(f"gridfall bot: {e}; searching instead", file=log)
                entry = None
            if entry is not None:
                print(f"gridfall bot: stored line, score {entry.score}", file=log)
                return entry.line()
        if kernels is None:
            from gridfall.samegame.portable import beam_line

            why = (f"a first turn planned in {config.first_turn_budget:g} s is {TOO_SHORT} the search kernels "
                   f"(about a second; they load from {LEAST_PLAN_TO_LOAD:g} s)" if too_short else
                   "the numba cache holds no SameGame kernels of this version of gridfall yet, and a child process "
                   "compiles them; `gridfall warmup` compiles them ahead")
            print(notice("the exported bot's beam search", why), file=log)
            return beam_line(board, deadline)
        wait = max(0.0, deadline - time.monotonic() - FALLBACK_MARGIN)
        if not kernels.wait(min(wait, threading.TIMEOUT_MAX)):  # a longer wait overflows
            from gridfall.samegame.greedy import greedy_line

            print(notice("the greedy line", f"the search kernels {LOADING} (not ready in time)"), file=log)
            return greedy_line(board, deadline)
        from gridfall.samegame.search import solve

        solution = solve(board, max(deadline - time.monotonic(), 0.005), algo=config.algo, workers=config.workers,
                         seed=seed)
        print(f"gridfall bot: {solution.algo} found {solution.score} in {solution.seconds:.2f} s", file=log)
        return solution.moves

    return plan
