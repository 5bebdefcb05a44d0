"""``gridfall match3 ...``: the Match-3 Jewels commands (CodeAbbey problem 370)."""

from __future__ import annotations

import copy
import math
import sys
import time
from pathlib import Path

import click

from gridfall import json_text
from gridfall.arena.runs import RUN_NOTES, grows_note, run_options
from gridfall.arena.signals import exit_code, stopping_on_signals
from gridfall.cli_help import with_help
from gridfall.cli_options import FloatRange, number_list, refuse_given, renamed
from gridfall.cli_output import console, output_path_for, tell_written, warm_kernels, write_file
from gridfall.viewer.options import json_option, replay_option, write_replay

from gridfall.match3 import AGENTS, PORTABLE_AGENTS
from gridfall.match3.rules import DEFAULT_SEED
from gridfall.printable import printable
from gridfall.text_file import NotText, read_text


@click.group()
def match3() -> None:
    """Match-3 "Jewels" (CodeAbbey 370): swaps, cascades, 2^(removed-3) points a move.

    Cells are (col, row), 1-based, row 1 at the top; directions R, L, D, U.
    The challenge is four games on boards 8, 11, 12 and 13, up to 1000 moves
    each, for a suggest(board) or suggest(board, boardNo, move, elapsed) function.
    """


def _report_json(report, player: str, limits: dict | None = None) -> dict:
    """The run as --json prints it: the report, who played (the file's name, or the agent), the
    gridfall that played or judged it and, for a referee's run, its limits."""
    from gridfall.arena.limits import judged_by

    return {**report.to_json(), "player": player, **judged_by(), **({"limits": limits} if limits is not None else {})}


def _print_report(report, title: str, as_json: bool, player: str, limits: dict | None = None) -> None:
    if as_json:
        click.echo(json_text.dumps(_report_json(report, player, limits)))
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(printable(title)))  # a file name is text, never markup or a terminal command
    for column in ("board", "size", "score", "moves", "best move", "end"):
        table.add_column(column, justify="right" if column in ("score", "moves", "best move") else "left")
    for g in report.games:
        end = Text(g.end, "red" if g.error else "")
        table.add_row(str(g.board_no), f"{g.size}x{g.size}", f"{g.score:,}", str(g.moves), f"{g.best_move:,}", end)
    out = console()
    if report.games:  # a file that does not load has none
        out.print(table)
    total = report.total
    out.print((f"total {total:,} (log2 {math.log2(total):.1f})" if total else "total 0")
              + f"; {report.seconds:.3f} s in suggest" + ("; interrupted" if report.interrupted else ""))
    if report.failed:
        before = "; the points above were scored before it" if report.games else ""
        out.print(Text.assemble(("run failed", "red"), f": {report.failed}{before}"))


@match3.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Seed of the board generator.")
@click.option("--time", "time_limit", type=FloatRange(min=0), default=1.0, show_default=True,
              help="Seconds for the whole run, counted by the referee around each call (0: no limit); "
                   "loading the file may take as long again, plus 1 s for the interpreter.")
@renamed("--time-limit", "--time", "time_limit")
@click.option("--turn-ms", type=FloatRange(min=0),
              help="Milliseconds allowed for each call of suggest  [default: no limit per call]")
@renamed("--per-call", "--turn-ms", "turn_ms", scale=1000)
@click.option("--python", "python", metavar="PATH",
              help="Run the file with this interpreter (python3.6, pypy3, ...), which then judges its syntax; "
                   "by default gridfall's own Python runs it after checking that it parses as Python 3.6.")
@click.option("--memory-mb", type=FloatRange(min=1), default=None,
              help="Fail the run if the player's process holds more memory than this while it thinks (the "
                   "interpreter counts: Python about 10 MB, PyPy about 60)  [default: no limit; CodeAbbey "
                   "publishes none]")
@json_option
@replay_option
def referee(file: str, seed: int, time_limit: float, turn_ms: float | None, python: str | None,
            memory_mb: float | None, as_json: bool, replay_path: str | None) -> None:
    """Play the challenge with the suggest function of FILE: a CodeAbbey-style .py file, or a .lua
    file (Lua 5.4 through lupa, `pip install gridfall[lua]`) with the same contract, its
    col, row, dir returned as Lua's multiple values.

    \b
    The contract (CodeAbbey 370): FILE defines suggest(board) or
    suggest(board, boardNo, move, elapsed); board is a list of N strings of N
    letters A-G, the top row first; it returns (col, row, dir): 1-based, row 1
    at the top, dir R, L, D or U, or dir Q to end this board's game.  Four
    games (boards 8, 11, 12, 13), up to 1000 moves each; elapsed is the run's
    time so far in seconds.

    The file runs in its own process and talks to the referee over pipes its
    prints cannot reach; the referee times every call itself.  Per board:
    score, moves, best move and how the game ended; then the total.  A bad
    return value ends that game with a message naming the board, the move and
    what was returned; going over --time fails the run with the points scored
    before it.  Exit code: 0 when the run was judged, whatever the verdict;
    1 if the referee itself failed; 2 for bad usage; 128 + the signal if stopped.
    """
    from gridfall.match3.codeabbey import referee_file
    from gridfall.match3.interpreter import interpreter_fault

    if python is not None and (fault := interpreter_fault(python)):
        raise click.BadParameter(f"{python!r}: {fault}", param_hint="--python")
    if file.lower().endswith(".lua"):
        refuse_given(("python",), "a .lua file runs in Lua 5.4 (lupa), not in a Python interpreter")
    with stopping_on_signals():
        report = referee_file(file, seed=seed, time_limit=time_limit or None,
                              per_call=turn_ms / 1000 if turn_ms is not None else None, python=python,
                              memory_mb=memory_mb)
    if replay_path:  # a run that failed before its first move shows its first board and why
        from gridfall.match3.replay import replay_report

        write_replay(replay_path, "match3", f"gridfall match3 referee: {file}, seed {seed}",
                     replay_report(_report_json(report, Path(file).name)))
    limits = {"time": time_limit or None, "turn_ms": turn_ms, "memory_mb": memory_mb,
              "python": python}  # python None: gridfall's own, after a check for Python 3.6 syntax
    _print_report(report, f"{file}, seed {seed}", as_json, Path(file).name, limits)
    sys.exit(exit_code(report.interrupted))


@match3.command()
@click.argument("board_file", type=click.Path(exists=True, dir_okay=False))
@click.argument("col", type=int)
@click.argument("row", type=int)
@click.argument("direction", type=click.Choice(["R", "L", "D", "U"], case_sensitive=False))
@click.option("--json", "as_json", is_flag=True, help='Print one JSON object instead of the text.')
def move(board_file: str, col: int, row: int, direction: str, as_json: bool) -> None:
    """Apply one move to the board in BOARD_FILE (N lines of N letters, * for a hole).

    COL and ROW count from 1, row 1 at the top, as CodeAbbey's moves do.

    Prints the jewels removed by each cascade, the points, and the board after
    the move with its holes (before any refill).
    """
    from gridfall.match3.rules import Board, IllegalMove, lines

    try:
        text = read_text(board_file)
    except NotText as e:
        raise click.ClickException(f"{board_file}: {e}") from None
    except OSError as e:
        raise click.ClickException(f"{board_file}: cannot read it ({e.strerror})") from None
    try:
        board = Board.parse(text, board_file)
        formed = sorted(lines(board.grid()))
        if formed:  # a real position never has one: it would have exploded already
            r, c = formed[0]
            raise ValueError(f"{board_file}: the board already has a line of 3 or more through "
                             f"({c + 1}, {r + 1}); a position has none before a move")
        result = board.play(col, row, direction.upper())
    except (ValueError, IllegalMove) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json_text.dumps({"removed": result.removed, "total": result.total, "points": result.points,
                               "board": list(result.board_after.rows)}))
        return
    click.echo(f"removed {' + '.join(map(str, result.removed))} = {result.total} jewels: {result.points:,} points")
    click.echo(result.board_after.text())


@match3.command()
@click.option("--agent", type=click.Choice(AGENTS), default="strong", show_default=True, help='strong: two-ply expectimax on the numba engine, --turn-ms a move; plan: two plies on the known board, growing one large cascade, within --time for the run; fast: the largest first explosion, lowest on the board; greedy: the move removing the most jewels.')
@click.option("--player", "target", metavar="MODULE:NAME", default=None,
              help="Play your own player instead, written against gridfall's interface: MODULE:NAME or "
                   "FILE.py:NAME names a class or function that makes it (given game= and seed= if it takes them). "
                   "Each call's state is the board; act(state, seconds) gets an even share of what is left of "
                   "--time over the moves the run may still have, and returns an action id.  Its prints go to "
                   "stderr; an exception ends that board, as in a suggest file.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Seed of the board generator, and of a --player that takes seed=.")
@click.option("--time", "run_seconds", type=FloatRange(min=0.001), default=1.0, show_default=True,
              help="Seconds plan, greedy, fast and a --player may use for the whole run.")
@click.option("--turn-ms", type=FloatRange(min=1), default=1000, show_default=True,
              help="Milliseconds strong may think per move.")
@click.option("--budget", type=FloatRange(min=0.001), hidden=True,
              help="The old spelling of both: seconds per move for strong, per run for greedy and fast.")
@json_option
def play(agent: str, target: str | None, seed: int, run_seconds: float, turn_ms: float, budget: float | None,
         as_json: bool) -> None:
    """Play the challenge with a built-in agent, or with your own player (--player), in this
    process (no time limit is enforced)."""
    from rich.progress import Progress

    from gridfall.match3.agents import make_agent
    from gridfall.match3.codeabbey import play_challenge

    if target is not None:
        refuse_given(("agent",), "give --agent or --player, not both")
        refuse_given(("turn_ms", "budget"), "not with --player: a player gets a share of --time each move")
        _play_player(target, seed, run_seconds, as_json)
        return
    refuse_given(("run_seconds",) if agent == "strong" else ("turn_ms",),
                 f"not a setting of the {agent} agent (strong thinks --turn-ms a move; the others, --time a run)")
    if budget is not None:
        refuse_given(("run_seconds", "turn_ms"), "--budget is its old spelling; give one of them")
        click.echo("gridfall: --budget is now --turn-ms for strong and --time for greedy and fast; "
                   "the old spelling goes in the next release", err=True)
        run_seconds, turn_ms = budget, budget * 1000
    player = make_agent(agent, budget=turn_ms / 1000, seed=seed, time_budget=run_seconds)
    err = console(stderr=True)
    if agent == "strong":  # numba's: its first move thinks for its time, not compiles
        warm_kernels("match3", err)

    def ask(board, board_no, move_no, elapsed):
        start = time.perf_counter()
        value = player.suggest(board, board_no, move_no, elapsed)
        return value, time.perf_counter() - start

    # Ctrl-C, SIGTERM, SIGHUP: the games so far are printed, and the exit code says it stopped
    with stopping_on_signals(), Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{agent}: 4 boards x up to 1000 moves", total=4000)
        report = play_challenge(ask, seed=seed, time_limit=None,
                                on_move=lambda b, m: progress.update(task, completed=(b - 1) * 1000 + m))
    budget_text = f"{turn_ms:g} ms a move" if agent == "strong" else f"{run_seconds:g} s a run"
    _print_report(report, f"{agent} agent, seed {seed}, {budget_text}", as_json, f"{agent} agent")
    sys.exit(exit_code(report.interrupted))


def _play_player(target: str, seed: int, run_seconds: float, as_json: bool) -> None:
    """``play --player``: the challenge with the player TARGET makes, asked through
    :func:`gridfall.match3.player_suggest.suggest_for`; its prints go to stderr, and an exception
    ends the board it was raised on."""
    import contextlib

    from rich.progress import Progress

    from gridfall.match3.codeabbey import PlayerRaised, play_challenge
    from gridfall.match3.player_suggest import NotAnAction, suggest_for
    from gridfall.player_fault import described
    from gridfall.user_player import TargetError

    try:
        with contextlib.redirect_stdout(sys.stderr):
            suggest = suggest_for(target, seed=seed, run_seconds=run_seconds)
    except TargetError as e:
        raise click.BadParameter(str(e), param_hint="--player") from None

    def ask(board, board_no, move_no, elapsed):
        start = time.perf_counter()
        try:
            with contextlib.redirect_stdout(sys.stderr):  # only the report goes to stdout
                value = suggest(board, board_no, move_no, elapsed)
        except NotAnAction as e:  # its answer, refused: no fault in its code to place
            raise PlayerRaised(str(e)) from None
        except Exception as e:  # worded as the referee words a suggest file's
            raise PlayerRaised(f"act raised {described(e)}") from None
        return value, time.perf_counter() - start

    with stopping_on_signals(), Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{target}: 4 boards x up to 1000 moves", total=4000)
        report = play_challenge(ask, seed=seed, time_limit=None,
                                on_move=lambda b, m: progress.update(task, completed=(b - 1) * 1000 + m))
    _print_report(report, f"{target}, seed {seed}, {run_seconds:g} s a run", as_json, target)
    sys.exit(exit_code(report.interrupted))


@match3.command("export")
@click.argument("out", type=click.Path(dir_okay=False, allow_dash=True), callback=output_path_for("export"))
@click.option("--agent", type=click.Choice(PORTABLE_AGENTS), default=None, help='plan (the default): two plies on the known board, growing one large cascade on each board and cashing it when its share of the second is spent (most of it on the 13x13 board); fast: the largest first explosion, lowest on the board (plays a whole run in a second); greedy: the move removing the most jewels, cascades included.')
@click.option("--player", "target", metavar="MODULE:NAME", default=None,
              help="Write a file that plays your own player instead, as `play --player` does: MODULE:NAME or "
                   "FILE.py:NAME, written against gridfall's interface.  The file carries your module, the modules "
                   "of yours beside it that it imports, and gridfall's modules they need, made for Python 3.6.  One "
                   "that needs numba, NumPy or syntax newer than 3.6 is refused: CodeAbbey has none of them.")
@click.option("--time", "time_budget", type=FloatRange(min=0.01), default=1.0, show_default=True,
              help="Seconds the exported player plans to use for the whole run (a --player's moves share it: each "
                   "board an even part of what is left, a board whose time is spent quit).")
@renamed("--time-budget", "--time", "time_budget")
def export_suggest(out: str, agent: str | None, target: str | None, time_budget: float) -> None:
    """Write a single self-contained suggest file (standard library, Python 3.6) to OUT (- for
    standard output): a built-in agent (--agent), or your own player (--player)."""
    from gridfall.export import ExportError

    if agent is not None and target is not None:
        raise click.UsageError("give --agent or --player, not both")
    try:
        if target is None:
            from gridfall.match3.export import export_source

            agent = agent or "plan"
            source = export_source(agent, time_budget)
        else:
            from gridfall.player_export import export_player

            source = export_player("match3", target, run_seconds=time_budget)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    write_file(out, source, kind="export")
    mine = f"your player {target} with gridfall's modules" if target else f"the {agent} agent"
    tell_written(out, f": {mine}, planning for {time_budget:g} s a run ({len(source):,} characters)")
    from gridfall.python36 import can_find_calls

    if target is not None and not can_find_calls():
        click.echo("note: calls of what Python 3.6 lacks (math.prod, str.removeprefix) were not looked for: "
                   "pip install vermin, or run the file with `match3 referee --python python3.6`", err=True)


def _alias(command: click.Command, name: str) -> click.Command:
    """The same command under an older name, left out of --help."""
    alias = copy.copy(command)
    alias.name, alias.hidden = name, True
    return alias


match3.add_command(_alias(export_suggest, "export-suggest"))  # the name of earlier releases


def _seeds(text: str) -> list[int]:
    """``1-20`` or ``1,5,9`` (or both, comma separated)."""
    try:
        return number_list(text)
    except ValueError as e:
        raise click.BadParameter(f"{e}; give seeds like 1-20 or 1,5,9", param_hint="--seeds") from None


@match3.command()
@click.option("--bot", "bots", multiple=True, required=True, metavar="NAME=FILE",
              help="A suggest file (.py or .lua) and the name to show it under, or NAME=\"INTERPRETER FILE\" to "
                   "run that file with an interpreter of its own (--bot \"pypy=pypy3 plan.py\" --bot "
                   "\"cpython=python3.6 plan.py\": which one should run it on CodeAbbey).  Twice or more: more "
                   "files are ranked.")
@click.option("--seeds", default="1-20", show_default=True, help="The generator seeds to play: 1-20, or 1,5,9.")
@click.option("--time", "time_limit", type=FloatRange(min=0), default=1.0, show_default=True,
              help="Seconds for each whole run (four boards), as on CodeAbbey (0: no limit).")
@click.option("--python", "python", metavar="PATH",
              help="Run the files with this interpreter (python3.6, pypy3, ...), but for a bot given its own.")
@click.option("--raw", is_flag=True, help="Compare the totals themselves instead of log2(1 + total).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@replay_option
@run_options
@with_help(RUN_NOTES, grows_note("--seeds", "runs", items=True))
def compare(bots, seeds, time_limit, python, raw, as_json, replay_path, db, workers, cluster) -> None:
    """Compare two suggest files (or rank more) on the same seeds, under the referee.

    Prints each seed's totals (a failed run scores 0, as on CodeAbbey) and the
    difference, how many seeds each file won, and the paired bootstrap 95%
    interval of the mean difference: it says which file is better, or that the
    data cannot tell yet; more files are ranked by their mean, each against the
    first, with every pairing.  Totals are compared as log2(1 + total) unless --raw:
    a move scores 2^(removed-3), so one run's total can be a thousand times
    another's and would drown the others.  Every run is stored in the run's
    database; the same command again resumes.
    """
    import shlex

    from gridfall.arena.compare_cli import log2_score, parse_bots, run_comparison
    from gridfall.match3.interpreter import interpreter_fault
    from gridfall.match3.match import SeedJob, play_seed
    from gridfall.match3.suggest_files import cannot_load, files_of

    if python is not None and (fault := interpreter_fault(python)):
        raise click.BadParameter(f"{python!r}: {fault}", param_hint="--python")
    files = {name: _suggest_bot(name, value) for name, value in parse_bots(bots, ())}
    for name, (path, own) in files.items():  # before the run's database: it would store a failure a seed
        problem = cannot_load(path, own or python)
        if problem:
            raise click.BadParameter(f"bot {name}: {problem}", param_hint="--bot")
    # a bot of its own interpreter is stored as its command (python3.6 /abs/plan.py), any other as its file
    bots = [(name, path if own is None else shlex.join([own, path])) for name, (path, own) in files.items()]
    numbers = _seeds(seeds)
    settings = {"bots": bots, "seeds": numbers, "time": time_limit, "python": python}

    def make_job(seed, name, spec):
        path, own = files[name]
        return SeedJob(f"seed {seed} {name}", int(seed), name, path, time_limit or None, own or python)

    run_comparison(kind="match3 compare", bots=bots, items=[str(s) for s in numbers], make_job=make_job,
                   work=play_seed, settings=settings, db=db, workers=workers, cluster=cluster, as_json=as_json,
                   item_label="seed", transform=float if raw else log2_score,
                   transform_label="" if raw else "log2(1 + total)", replay_path=replay_path, grows=("seeds",),
                   bot_files={name: files_of(path) for name, (path, _) in files.items()})  # and a player it names


def _suggest_bot(name: str, value: str) -> tuple[str, str | None]:
    """A compare's ``--bot`` value: (the file, absolute; its own interpreter or None), from FILE or
    ``INTERPRETER FILE``; refused, naming the bot, if neither."""
    import os
    import shlex
    from pathlib import Path

    from gridfall.match3.interpreter import interpreter_fault

    if os.path.isfile(value):  # False, not an OSError, for a name too long; a name with spaces is a file first
        return str(Path(value).resolve()), None
    try:
        words = shlex.split(value)
    except ValueError as e:
        raise click.BadParameter(f"{value!r} (bot {name}): {e}", param_hint="--bot") from None
    if len(words) != 2 or not os.path.isfile(words[1]):
        raise click.BadParameter(f"{value!r} (bot {name}) is not a file, nor an interpreter and a file",
                                 param_hint="--bot")
    own, path = words
    if path.endswith(".lua"):
        raise click.BadParameter(f"{value!r} (bot {name}): a Lua file runs through lupa, not an interpreter",
                                 param_hint="--bot")
    if fault := interpreter_fault(own):
        raise click.BadParameter(f"{own!r} (bot {name}): {fault}", param_hint="--bot")
    return str(Path(path).resolve()), own
