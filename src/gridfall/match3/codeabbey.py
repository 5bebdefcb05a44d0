"""The CodeAbbey 370 challenge: four games (boards 8, 11, 12, 13) for a suggest function.

Each game starts from a new board drawn from CodeAbbey's generator (one
generator, seeded, for the whole run) and lasts until 1000 moves, until the
player returns ``Q`` as the direction, or until no legal move is left.  A move
that is malformed, illegal (scores nothing), or raises ends that game with an
error and keeps the points scored so far; the next board follows.

Time: by default the player has 1 second in all for the whole run, counted
inside its suggest calls and passed to it as ``elapsed``; going over marks the
run failed, with the points scored before it.  ``per_call`` limits each call
instead (or as well).
"""

from __future__ import annotations

import ast
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from gridfall import json_text
from gridfall.arena.process import BotFailure, BotProcess
from gridfall.match3.rules import (
    BOARD_SIZES, DEFAULT_SEED, MOVES_PER_GAME, Generator, IllegalMove, new_board, points, refilled,
)
from gridfall.match3.run_time import RUN_SECONDS_VARIABLE
from gridfall.printable import printable
from gridfall.text_file import NotText, read_text
from gridfall.words import counted


@dataclass
class GameRecord:
    """One game of the challenge: its moves, points and how it ended."""

    board_no: int
    size: int
    score: int = 0
    moves: int = 0
    end: str = ""  # "1000 moves", "quit", "no legal move", or the error
    error: bool = False
    cascades: list[list[int]] = field(default_factory=list)
    actions: list[tuple[int, int, str]] = field(default_factory=list)  # (col, row, dir) of each move played
    times: list[float] = field(default_factory=list)  # seconds of each call that played a move
    # what the player printed in each call: the moves' in order, then the call's that ended the game, if one did
    output: list[str] = field(default_factory=list)

    @property
    def best_move(self) -> int:
        return max((points(sum(c)) for c in self.cascades), default=0)


@dataclass
class RunReport:
    seed: int = DEFAULT_SEED  # the generator's: with the moves, it makes every board and refill again (a replay)
    games: list[GameRecord] = field(default_factory=list)
    failed: str = ""  # why the run failed (time limit, the file cannot load), "" if it did not
    seconds: float = 0.0  # time spent in suggest, as the referee measured it
    interrupted: bool = False  # stopped by Ctrl-C, SIGTERM or SIGHUP: the games so far are kept

    @property
    def total(self) -> int:
        return sum(g.score for g in self.games)

    def to_json(self) -> dict:
        return {"seed": self.seed, "total": self.total, "failed": self.failed, "seconds": self.seconds,
                "interrupted": self.interrupted, "games": [{**asdict(g), "best_move": g.best_move} for g in self.games]}


class TimeExceeded(Exception):
    """The player ran out of time (its process is then killed) after ``waited`` seconds of the call."""

    def __init__(self, message: str, waited: float):
        super().__init__(message)
        self.waited = waited


class PlayerRaised(Exception):
    """suggest raised: that game ends with an error, the run goes on."""


class PlayerDied(Exception):
    """The player's process died or broke the harness protocol: the run fails."""


def parse_return(value, size: int) -> tuple[int, int, str]:
    """(col, row, dir) from what suggest returned; ValueError naming what was wrong."""
    if isinstance(value, str):
        raise ValueError(f"returned {value!r}; expected col, row, dir")
    try:
        col, row, direction = value
    except (TypeError, ValueError):
        raise ValueError(f"returned {value!r}; expected three values col, row, dir") from None
    if not isinstance(direction, str) or direction.upper() not in ("R", "L", "D", "U", "Q"):
        raise ValueError(f"returned {value!r}: dir must be R, L, D, U or Q")
    if direction.upper() == "Q":
        return 0, 0, "Q"
    if isinstance(col, bool) or isinstance(row, bool) or not isinstance(col, int) or not isinstance(row, int):
        raise ValueError(f"returned {value!r}: col and row must be integers")
    return col, row, direction.upper()


Ask = Callable[[list[str], int, int, float], tuple[object, float]]  # -> (returned value, seconds taken)


def play_challenge(ask: Ask, *, seed: int = DEFAULT_SEED, time_limit: float | None = 1.0,
                   per_call: float | None = None, sizes=BOARD_SIZES, moves: int = MOVES_PER_GAME,
                   on_move: Callable[[int, int], None] | None = None,
                   printed: Callable[[], str] | None = None) -> RunReport:
    """Play the four games, asking ``ask`` for each move; never raises for the player's faults.
    ``printed``, called after each call, gives what the player printed during it (kept in each
    game's ``output``, the call that ended a game included).

    Ctrl-C (or SIGTERM, SIGHUP under :func:`~gridfall.arena.signals.stopping_on_signals`) ends the
    run with ``interrupted`` set and the games so far kept."""
    report = RunReport(seed)
    try:
        _play(ask, report, seed, time_limit, per_call, sizes, moves, on_move, printed)
    except KeyboardInterrupt:
        report.interrupted = True
        if report.games and not report.games[-1].end:
            report.games[-1].end = "interrupted"
    return report


def _play(ask: Ask, report: RunReport, seed, time_limit, per_call, sizes, moves, on_move,
          printed: Callable[[], str] | None) -> None:
    gen = Generator(seed)
    for board_no, size in enumerate(sizes, start=1):
        board = new_board(size, gen)
        record = GameRecord(board_no, size)
        report.games.append(record)
        while True:
            if record.moves >= moves:
                record.end = counted(moves, "move")
                break
            if not board.legal_moves():
                record.end = "no legal move"
                break
            move_no = record.moves + 1
            try:
                try:
                    value, took = ask(list(board.rows), board_no, move_no, report.seconds)
                finally:  # every call's prints, the call's that ends the game (time, raise, death) included
                    if printed is not None:
                        record.output.append(printed())
            except TimeExceeded as e:
                report.seconds += e.waited  # the call that hung was time in suggest too
                report.failed = f"board {board_no}, move {move_no}: time limit exceeded ({e})"
                record.end, record.error = "time limit exceeded", True
                return
            except PlayerRaised as e:
                record.end, record.error = f"error at move {move_no}: {e}", True
                break
            except PlayerDied as e:
                record.end, record.error = f"error at move {move_no}: {e}", True
                report.failed = f"board {board_no}, move {move_no}: {e}"
                return
            report.seconds += took
            if time_limit is not None and report.seconds > time_limit:
                report.failed = (f"board {board_no}, move {move_no}: over the time limit "
                                 f"({report.seconds:.3f} s > {time_limit:g} s)")
                record.end, record.error = "time limit exceeded", True
                return
            if per_call is not None and took > per_call:
                record.end, record.error = f"error at move {move_no}: the call took {took:.3f} s > {per_call:g} s", True
                break
            try:
                col, row, direction = parse_return(value, size)
                if direction == "Q":
                    record.end = "quit"
                    break
                result = board.play(col, row, direction)
            except (ValueError, IllegalMove) as e:
                record.end, record.error = f"error at move {move_no}: {e}", True
                break
            record.moves += 1
            record.score += result.points
            record.cascades.append(result.removed)
            record.actions.append((col, row, direction))
            record.times.append(round(took, 6))
            board = refilled(result.board_after, gen)
            if on_move is not None:
                on_move(board_no, record.moves)


START_ALLOWANCE = 1.0  # seconds for the interpreter to start, on top of the time limit, while the file loads
NO_LIMIT_LOAD = 30.0  # seconds a file may take to load when the run has no time limit


class Unreadable:
    """A value suggest returned that is not a short list (its repr, cut): shown in the verdict."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


class SuggestFile:
    """A player's suggest file running in the harness subprocess (see :mod:`.harness`).

    The harness talks over two pipes of its own, so the player's prints cannot reach the
    protocol, and every call is timed here, in the referee's process, from the request sent to
    the answer read: the player cannot touch that clock.  Loading the file may take the run's
    time limit (plus START_ALLOWANCE for the interpreter); a file still loading then fails the run.
    With ``seed``, the harness seeds the player's random numbers with it (Python's ``random``,
    Lua's ``math.random``, and the hash seed, which orders a set of strings), so a player that
    draws plays the same run again.
    """

    def __init__(self, path: str, time_limit: float | None, per_call: float | None, grace: float = 0.5,
                 python: str | None = None, memory_mb: float | None = None, seed: int | None = None):
        self.time_limit, self.per_call, self.grace = time_limit, per_call, grace
        harness = str(Path(__file__).with_name("harness.py"))
        try:
            # the hash seed too: the order of a set of strings is then the same from run to run
            # and the run's time, for a suggest_for that shares it (gridfall.match3.run_time)
            env = {**os.environ, **({} if seed is None else {"PYTHONHASHSEED": str(seed % 2**32)}),
                   **({RUN_SECONDS_VARIABLE: repr(time_limit)} if time_limit else {})}
            self.bot = BotProcess([python or sys.executable, harness, path], private_channel=True, memory_mb=memory_mb,
                                  env=env, seed=seed)
        except BotFailure as e:
            raise RuntimeError(f"cannot start the player's interpreter: {e.detail}") from None
        load_limit = (time_limit if time_limit else NO_LIMIT_LOAD) + START_ALLOWANCE
        try:
            hello = _plain(json_text.loads(self.bot.read_line(time.monotonic() + load_limit)))
        except BotFailure as e:
            self.close()
            if e.reason == "Timeout":
                raise RuntimeError(f"{path} did not load within {load_limit:g} s") from None
            raise RuntimeError(f"{path} did not load: {e}") from None
        except ValueError:
            self.close()
            raise RuntimeError(f"{path}: the harness did not answer its protocol") from None
        if not isinstance(hello, dict) or not ("fatal" in hello or hello.get("ready") is True):
            self.close()
            raise RuntimeError(f"{path}: the harness did not answer its protocol")
        if "fatal" in hello:
            self.close()
            raise RuntimeError(str(hello["fatal"]))

    def ask(self, board: list[str], board_no: int, move: int, elapsed: float) -> tuple[object, float]:
        limits = [60.0]
        if self.time_limit is not None:
            limits.append(self.time_limit - elapsed)
        if self.per_call is not None:
            limits.append(self.per_call)
        wait = max(min(limits), 0.0) + self.grace
        request = json.dumps({"board": board, "boardNo": board_no, "move": move, "elapsed": elapsed}) + "\n"
        try:
            line, took = self.bot.ask(request, wait, how_late=False)  # its verdict is the limit's
        except BotFailure as e:
            if e.reason == "Timeout":
                raise TimeExceeded(f"no answer within {wait - self.grace:.3f} s", wait - self.grace) from None
            raise PlayerDied(f"the player's process failed: {e}") from None
        try:
            answer = _plain(json_text.loads(line))
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or len(answer) != 1 or not ({"result", "result_repr", "error"} & set(answer)):
            raise PlayerDied(f"the harness sent {line[:60]!r}, which is not its protocol")
        if "error" in answer:
            raise PlayerRaised(f"suggest raised {answer['error']}")
        if "result_repr" in answer:
            return Unreadable(str(answer["result_repr"])), took
        return answer["result"], took

    def close(self) -> None:
        self.bot.close()


def _plain(value):
    """JSON from the player's process with every string made printable UTF-8 (a lone surrogate
    from ``"\\udcff"`` would stop the referee's own output) without control characters (an
    error's text with ESC in it would command the user's terminal)."""
    if isinstance(value, str):
        return printable(value.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))  # a lone surrogate: U+FFFD
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def check_syntax(path: str) -> str:
    """"" if the file parses as Python 3.6 (CodeAbbey's), else what and where it does not."""
    try:
        source = read_text(path, utf16=False)  # the harness's Python reads it as UTF-8
    except (OSError, NotText) as e:
        return f"{path}: cannot read it: {e}"
    try:
        ast.parse(source, filename=path)
    except SyntaxError as e:
        return f"cannot load {path}: SyntaxError at line {e.lineno}: {e.msg}"
    except ValueError as e:  # a NUL byte
        return f"cannot load {path}: not Python source: {e}"
    try:
        ast.parse(source, filename=path, feature_version=(3, 6))
    except SyntaxError as e:
        return f"{path}, line {e.lineno}: not Python 3.6 syntax (CodeAbbey runs 3.6): {e.msg}"
    return ""


def referee_file(path: str, *, seed: int = DEFAULT_SEED, time_limit: float | None = 1.0,
                 per_call: float | None = None, on_move=None, python: str | None = None,
                 memory_mb: float | None = None) -> RunReport:
    """Run the challenge for the suggest file at ``path``.

    The file must parse as Python 3.6 unless ``python`` names the interpreter to run it with
    (``python3.6``, ``pypy3``), which then judges its syntax itself.  With ``memory_mb``, a player
    whose process (the interpreter included) holds more while it thinks fails the run there.
    The player's random numbers are seeded with ``seed`` too (:class:`SuggestFile`)."""
    if python is None and not path.endswith(".lua"):
        problem = check_syntax(path)
        if problem:
            return RunReport(seed, failed=problem)
    try:
        player = SuggestFile(path, time_limit, per_call, python=python, memory_mb=memory_mb, seed=seed)
    except RuntimeError as e:
        return RunReport(seed, failed=str(e))
    except KeyboardInterrupt:
        return RunReport(seed, interrupted=True)
    try:
        return play_challenge(player.ask, seed=seed, time_limit=time_limit, per_call=per_call, on_move=on_move,
                              printed=player.bot.take_output)
    finally:
        player.close()
