"""Shared by the benchmark scripts: a console that never cuts tables, the machine's name, each
script's entry (``run_script``), rows and end (``each_until_stopped``, ``finish``) and --help description,
argparse types, the games of a pie-rule run and of a ``connect4_strength.py --record`` file, and
positions from them (the Connect Four benchmarks' source of real positions)."""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from gridfall.arena.database import read_only
from gridfall.cli_output import console  # noqa: F401 - the commands' console: no markup, wide in a pipe
from gridfall.machine import cpu_name, machine_line, usable_cores  # noqa: F401 - the benchmarks' one import of them
from gridfall.samegame.campaign import parse_params
from gridfall.text_file import NotText, read_text


def run_script(main) -> None:
    """Every script's entry: ``main()``, whose return is the exit status.  Ctrl-C, SIGTERM and
    SIGHUP end it with one line (the tables printed before stand; a script that keeps partial
    results prints them itself) and 128 + the signal, as a shell counts it; a worker process
    killed from outside is one line too, never a traceback."""
    import signal

    from gridfall.arena.signals import exit_code, stopping_from_the_start
    from gridfall.worker_processes import WorkerDied

    stopping_from_the_start()  # SIGTERM and SIGHUP raise as Ctrl-C does, instead of killing outright
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C, or Stopped: raised here or passed on (a referee's report)
        code = exit_code(True)  # from the signal received last
        how = "Ctrl-C" if code - 128 == signal.SIGINT else signal.Signals(code - 128).name
        print(f"stopped ({how}): only what was printed before counts", file=sys.stderr)
        sys.exit(code)
    except WorkerDied as e:  # killed by a user or out of memory: what was printed before stands
        sys.exit(f"Error: {e}")


def each_until_stopped(items, measure, what: str, said) -> tuple[dict, str]:
    """``{item: measure(item)}`` for the items in order until a stop (Ctrl-C, SIGTERM), and a line saying where it
    stopped ('' if it did not); ``said(item, result)`` is printed on stderr as each is kept.  A
    table compares the items on the same boards, so an item cut short stands for nothing:
    ``measure`` returns None for one (a run_jobs run interrupted), and a stop between two items
    is caught here."""
    results: dict = {}
    try:
        for item in items:
            result = measure(item)
            if result is None:
                raise KeyboardInterrupt
            results[item] = result  # kept before it is told: a stop during the telling loses nothing
            console(stderr=True).print(said(item, result))
    except KeyboardInterrupt:
        left = [str(item) for item in items if item not in results]
        return results, (f"stopped: the tables hold the {what} measured on every board"
                         + (f"; not {', '.join(left)}" if left else ""))
    return results, ""


def finish(stopped: str, *shown) -> int:
    """A script's last lines and exit status: ``shown`` (tables, notes) and the machine line on
    stdout; then, if the run was stopped, ``stopped`` (where it stopped) on stderr and 128 + the
    signal, else 0."""
    from gridfall.arena.signals import exit_code

    out = console()
    for thing in shown:
        out.print(thing)
    out.print(machine_line())
    if stopped:
        console(stderr=True).print(stopped)
        return exit_code(True)
    return 0


def first_paragraph(doc: str) -> str:
    """A script's --help description: its docstring's first paragraph, one sentence that may
    run over several lines (the first line alone can stop mid-sentence)."""
    return " ".join(doc.split("\n\n")[0].split())


def duration(text: str) -> float:
    """An argparse type for times: a finite number, 0 or more (nan or inf would never end a timed run)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of 0 or more")
    return value


def positive(text: str) -> float:
    """An argparse type for a time that must pass: a finite number above 0 (a rate measured over
    0 s divides by zero, a search or a turn of 0 s measures nothing)."""
    value = duration(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not above 0")
    return value


def whole(low: int = 1, high: int | None = None):
    """An argparse type for a whole number from ``low`` (1: a count) to ``high`` (None: no top)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"of {low} or more"
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {bounds}")
        return value

    return parse


count = whole(1)  # games, boards, seeds, workers, pairs, runs


def numbers(text: str, where: str) -> list[int]:
    """``31-34,40`` -> [31, 32, 33, 34, 40]; exits naming ``where`` if a part is not N or LOW-HIGH."""
    from gridfall.cli_options import number_list

    try:
        return number_list(text)
    except ValueError as e:
        raise SystemExit(f"{where}: {e}") from None


def empty_counts(text: str) -> list[int]:
    """``--empties`` of the Connect Four scripts: ``40,44`` or ``40-48``, each 1..60 (a 9x7 board's
    positions before its last few cells, where the side to move can have a choice), ascending;
    exits naming the option and the value otherwise."""
    counts = sorted(set(numbers(text, f"--empties {text!r}")))
    outside = [count for count in counts if not 1 <= count <= 60]
    if outside:
        raise SystemExit(f"--empties {text!r}: {outside[0]} empty cells is outside 1..60")
    return counts


def check_search(algo: str, seconds: float, params: dict, where: str) -> None:
    """Exit naming ``where`` unless ``samegame.search.solve`` takes this algorithm and these
    parameters for ``seconds`` (before any board is searched, not after the first)."""
    from gridfall.samegame.search import check_request

    try:
        check_request(algo, seconds, params)
    except ValueError as e:
        raise SystemExit(f"{where}: {e}") from None


def parse_options(options: list[str], where: str) -> dict:
    """``["level=2", "bias=0.3"]`` -> ``{"level": 2, "bias": 0.3}`` (a dot makes a float), or exit naming the bad one."""
    try:
        return parse_params(options, where)
    except ValueError as e:
        raise SystemExit(str(e)) from None


@dataclass
class PieRunGame:
    """One game of a pie-rule run (``gridfall connect4 openings --rebuild --db FILE``)."""

    column: int  # the first chip's column
    pair: int  # the pair's number within that column; its two games share their opening
    seats: list[str]  # the engines, first player first
    moves: list[int]  # every column played, the first chip included
    winner: int | None  # the winning seat (the exact solver's verdict where it finished the game)


def pie_run_games(path: Path) -> list[PieRunGame]:
    """The games of a pie-rule run database, in the order they were stored; exits naming the problem."""
    if not path.is_file():
        raise SystemExit(f"{path}: no such file (make one with gridfall connect4 openings --rebuild --db {path})")
    try:
        with read_only(path) as connection:  # leaves no -wal or -shm file beside it, as mode=ro would
            rows = connection.execute("SELECT job, seats, moves, result FROM games ORDER BY id").fetchall()
    except ValueError as error:  # names the file: damaged, not SQLite, or without a games table
        raise SystemExit(str(error)) from None
    games = []
    for job, seats, moves, result in rows:
        found = re.fullmatch(r"column (\d+) pair (\d+) game [01]", job)
        try:
            games.append(PieRunGame(int(found[1]), int(found[2]), json.loads(seats), [int(m) for m in json.loads(moves)],
                                    json.loads(result)["winner"]))
        except (TypeError, ValueError, KeyError):
            raise SystemExit(f"{path}: game {job!r} is not a pie-rule game") from None
    if not games:
        raise SystemExit(f"{path}: holds no games")
    return games


def text_of(path, where: str) -> str:
    """The text of the file at ``path`` (:func:`gridfall.text_file.read_text`); exits naming
    ``where`` (the option and the path) and why it cannot be read."""
    try:
        return read_text(path)
    except OSError as error:
        raise SystemExit(f"{where}: {error.strerror or error}") from None
    except NotText as error:
        raise SystemExit(f"{where}: {error}") from None


def read_games(path: Path, option: str = "") -> list[dict]:
    """The game records of a ``connect4_strength.py --record`` file; exits naming the file (after
    ``option``, the option that gave it) and the line that is not one."""
    where = f"{option} {path}".strip()
    games = []
    for number, line in enumerate(text_of(path, where).splitlines(), 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            game["moves"] = [int(m) for m in game["moves"]]
            game["seats"], game["winner"] = list(game["seats"]), game["winner"]
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{where}:{number}: not a game record ({error})") from None
        games.append(game)
    return games


def sample_positions(games: list[list[int]], empties: list[int]) -> dict:
    """{empty cells: [rules Game]}: from each game's moves (STEAL as -2 allowed), one position at
    each count, the side to move unable to win at once."""
    import numpy as np  # here: the SameGame and Match-3 scripts need no Connect Four engine

    from gridfall.connect4.engine import can_win_next, from_game, geometry
    from gridfall.connect4.rules import Game

    g = geometry(9, 7)
    found: dict[int, list[Game]] = {e: [] for e in empties}
    for moves in games:
        game = Game(steal=True)
        for move in moves:
            cur, mask = from_game(game)
            empty = game.width * game.height - bin(mask).count("1")
            if empty in found and not can_win_next(np.uint64(cur), np.uint64(mask), g):
                found[empty].append(game.clone())
            game.apply_action(move)
    return found


def under_each_python(pythons: str, program: str, argv: list[str], what: str) -> list[dict]:
    """The JSON that ``program`` (Python source, run with ``-c`` and ``argv``) prints under each
    interpreter of the comma list ``pythons`` (current: this one).  One not found, or that fails,
    is named on stderr and skipped; if none is left the script ends, saying what none did."""
    err = console(stderr=True)
    reports = []
    for python in pythons.split(","):
        found = sys.executable if python == "current" else shutil.which(python)
        if found is None:
            err.print(f"--pythons: {python}: not found, skipped")
            continue
        done = subprocess.run([found, "-c", program, *argv], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            err.print(f"--pythons: {python}: failed ({last}), skipped")
            continue
        reports.append(json.loads(done.stdout))
    if not reports:
        sys.exit(f"--pythons {pythons}: no interpreter {what}")
    return reports
