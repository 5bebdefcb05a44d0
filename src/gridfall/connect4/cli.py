"""``gridfall connect4 ...``: the Connect Four commands."""

from __future__ import annotations

import sys
import time
from collections import Counter

import click

from gridfall import json_text
from gridfall.arena.signals import exit_code, stopping_on_signals
from gridfall.cli_help import CONNECT4_PROTOCOL, PLAYER_EXPORT_HELP, REFEREE_NOTES, with_help
from gridfall.cli_options import WORKERS, FloatRange, beyond_cores, limit_options
from gridfall.cli_output import console, output_path_for, tell_written, write_file
from gridfall.connect4.agents import AGENT_NAMES
from gridfall.connect4.protocol import EXPORT_TURN_MS, FIRST_TURN_MS, FIRST_TURN_SECONDS, TURN_MS, TURN_SECONDS
from gridfall.lazy_group import LazyGroup
from gridfall.run_seed import SEED_VARIABLE
from gridfall.viewer.options import json_option, replay_option, write_replay
from gridfall.words import counted


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected WIDTHxHEIGHT, e.g. 7x6", param_hint="--size") from None
    return width, height


@click.group(cls=LazyGroup, lazy={"league": "gridfall.connect4.arena_cli:league",
                                  "sprt": "gridfall.connect4.arena_cli:sprt",
                                  "standings": "gridfall.connect4.arena_cli:standings",
                                  "play": "gridfall.connect4.play_cli:play",
                                  "openings": "gridfall.connect4.pie_cli:openings",
                                  "book": "gridfall.connect4.book_cli:book"})
def connect4() -> None:
    """Connect Four: exact solver, strong bot, referee (CodinGame 7 rows x 9 columns with STEAL).

    Positions are written as the data files do: the 0-based columns played
    from the empty board, one digit each ("4453" = 4, 4, 5, 3).
    """


DEEP = 36  # empty cells from which an exact solve may take hours: warn, and suggest --time


@connect4.command()
@click.argument("moves", default="")
@click.option("--size", default="9x7", show_default=True,
              help="Board WIDTHxHEIGHT: 9x7 is CodinGame's board (the library's default too); 7x6 the classic.")
@click.option("--time", "seconds", type=FloatRange(min=0.01),
              help="Stop after this many seconds with the range of scores proven so far, marked not exact  "
                   "[default: until solved]")
@click.option("--weak", is_flag=True, help="Only win / draw / loss (faster).")
@click.option("--analyze", is_flag=True, help="The score of every column instead of the position's.")
@click.option("--table-bits", type=click.IntRange(16, 28), default=24, show_default=True,
              help="Transposition table of 2**BITS entries (9 bytes each).")
@click.option("--json", "as_json", is_flag=True, help='Print one JSON object instead of the text.')
def solve(moves: str, size: str, seconds: float | None, weak: bool, analyze: bool, table_bits: int,
          as_json: bool) -> None:
    """Solve the position after MOVES exactly: its score for the side to move.

    MOVES are the 0-based columns played from the empty board, one digit each
    ("4453"; nothing for the empty board).  A STEAL is not written: it swaps
    the two sides but not the board, and the score is the side to move's, so
    "4 STEAL 5" is solved as 45.

    A win with the n-th chip of the game scores 1 + (cells - n) // 2 for the
    winner (faster wins score more), a draw 0, a loss the negative of the
    opponent's win.  An exact solve from early in a 9x7 game can take hours:
    --time gives the proven range within that time, progress shows on a
    terminal, and Ctrl-C stops within a second with the range so far (exit 130).
    """
    from rich.text import Text

    from gridfall.connect4.solver import Solver

    width, height = _size(size)
    try:
        solver = Solver(width, height, table_bits)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--size") from None
    try:
        solver.position(moves)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="MOVES") from None
    empty = width * height - len(moves.strip())
    if seconds is None and empty >= DEEP and not as_json:
        click.echo(f"gridfall: {empty} empty cells on {size}: an exact answer may take hours; "
                   f"--time SECONDS gives the proven range within that time", err=True)
    err = console(stderr=True)
    with stopping_on_signals(), err.status(Text(f"solving {moves or 'the empty board'} on {size}")) as status:
        def progress(low: int, high: int, nodes: int, elapsed: float) -> None:
            status.update(Text(f"solving {moves or 'the empty board'} on {size}: score in [{low}, {high}], "
                               f"{nodes:,} nodes, {nodes / max(elapsed, 1e-9) / 1e6:.2f} M nodes/s, {elapsed:.0f} s"))

        started = time.perf_counter()
        try:
            if analyze:
                scores = solver.analyze(moves, weak=weak, seconds=seconds, on_progress=progress)
            else:
                result = solver.solve_moves(moves, weak=weak, seconds=seconds, on_progress=progress)
        except KeyboardInterrupt:
            last = getattr(solver, "last", None)
            bounds = f"; the score lies in [{last.low}, {last.high}] (not exact)" if last and not analyze else ""
            click.echo(f"stopped after {time.perf_counter() - started:.1f} s{bounds}", err=True)
            sys.exit(exit_code(True))
    if analyze:
        elapsed = time.perf_counter() - started

        def text(v):
            return "  -" if v is None else f"{v:3d}" if isinstance(v, int) else f"{v[0]}..{v[1]}"

        if as_json:
            click.echo(json_text.dumps({"moves": moves, "size": size, "weak": weak, "seconds": elapsed,
                                   "scores": {x: v if not isinstance(v, tuple) else {"low": v[0], "high": v[1]}
                                              for x, v in scores.items()}}))
        else:
            click.echo(" ".join(text(v) for v in scores.values()))
            inexact = any(isinstance(v, tuple) for v in scores.values())
            click.echo(f"columns 0..{width - 1}; {elapsed:.3f} s" + ("; low..high: not exact (time ran out)" if inexact else ""))
        return
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    if as_json:
        click.echo(json_text.dumps({"moves": moves, "size": size, "weak": weak, "score": result.score,
                               "exact": result.exact, "low": result.low, "high": result.high,
                               "nodes": result.nodes, "seconds": result.seconds}))
    elif result.exact:
        click.echo(f"score {result.score}  nodes {result.nodes:,}  time {result.seconds:.3f} s  ({rate / 1e6:.2f} M nodes/s)")
    else:
        click.echo(f"score in [{result.low}, {result.high}] (not exact: --time ran out)  nodes {result.nodes:,}  "
                   f"time {result.seconds:.3f} s  ({rate / 1e6:.2f} M nodes/s)")


@connect4.command()
@click.argument("out", type=click.Path(dir_okay=False, allow_dash=True), callback=output_path_for("export"))
@click.option("--first-turn-ms", type=FloatRange(min=50, max=1000), default=FIRST_TURN_MS, show_default=True,
              help="The bot's first answer comes this long after its start (CodinGame allows 1000 ms).")
@click.option("--turn-ms", type=FloatRange(min=10, max=100), default=EXPORT_TURN_MS, show_default=True,
              help="Each later answer within this (CodinGame allows 100 ms: the rest is a margin).")
@click.option("--player", "target", metavar="MODULE:NAME", default=None, help=PLAYER_EXPORT_HELP)
def export(out: str, first_turn_ms: float, turn_ms: float, target: str | None) -> None:
    """Write gridfall's pure-Python bot as one file for CodinGame (Python 3.11, standard library).

    The file is bundled from the package's own modules: the rules of record, the
    opening table and book, the protocol loop and the pure-Python search (``portable``,
    also a built-in agent: `--p1 portable`).  It is refused, with the reason, if it would be
    over 100,000 characters or import anything outside the standard library.  OUT - writes it
    to standard output (to pipe it to the clipboard, say).

    With --player, the file plays your own player instead, as `bot --player` does.
    """
    from gridfall.connect4.export import export_source
    from gridfall.export import ExportError

    try:
        if target is None:
            source = export_source(first_turn_ms=first_turn_ms, turn_ms=turn_ms)
        else:
            from gridfall.player_export import export_player

            source = export_player("connect4", target, first_turn=first_turn_ms / 1000, turn=turn_ms / 1000)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    write_file(out, source, kind="export")
    tell_written(out, f": {len(source):,} characters (CodinGame allows 100,000), " +
                 ("standard library only" if target is None else f"your player {target} with gridfall's modules"))


@connect4.command()
@click.option("--agent", default=None,
              help="gridfall (the default), or a built-in opponent: random, greedy, alphabeta[:DEPTH], mcts, "
                   "mcts-solver (MCTS whose tree proves wins and losses), portable (gridfall's pure-Python bot, as "
                   "exported).  mcts:ITERATIONS and gridfall:NODES spend that much work a move instead of the "
                   "turn's time, so that they play the same games on any machine.")
@click.option("--player", "target", metavar="MODULE:NAME", default=None,
              help="Instead of --agent, your own player written against gridfall's interface: MODULE:NAME or "
                   "FILE.py:NAME names a class or function that makes it (given game= and seed= if it takes "
                   "them); its act(state, seconds) returns an action id (9 for STEAL).  Its answers are sent "
                   "as they are, for the referee to judge, and an exception ends the bot.")
@click.option("--seed", type=int, default=0, show_default=True, envvar=SEED_VARIABLE, show_envvar=True,
              help="Seed of random, mcts, mcts-solver, gridfall (the noise that varies its search between games), "
                   "portable (its pick between tied moves) and a --player that takes seed=; else GRIDFALL_SEED, "
                   "which the referees set for each game.")
@click.option("--turn-ms", type=FloatRange(min=1), default=TURN_MS, show_default=True,
              help="Thinking time per turn (the platform allows 100 ms).")
@click.option("--first-turn-ms", type=FloatRange(min=1), default=FIRST_TURN_MS, show_default=True,
              help="Thinking time of the first turn, from process start (the platform allows 1000 ms).  gridfall's "
                   "search, while it loads, is waited for up to 150 ms (and half this) past it.")
@with_help(CONNECT4_PROTOCOL)
def bot(agent: str | None, target: str | None, seed: int, turn_ms: float, first_turn_ms: float) -> None:
    """Play on stdin/stdout under the CodinGame protocol.

    The bot ends at the end of its input (exit code 0), or at a line that is
    not the protocol's, which it names on stderr ("line 2: expected the turn
    index"; exit code 1).

    gridfall's bot loads its compiled search from the numba cache.  Before
    `gridfall warmup` has filled it, the bot plays the exported file's
    pure-Python search instead, while a child process compiles the kernels
    (about 15 s, at idle priority, finishing after the bot), and says so on
    stderr.  From a filled cache the search loads in a thread (0.5-1 s)
    while the bot plays its opening table's and book's moves, the ones the
    search plays too; a later turn that comes before it gets the pure-Python
    search, with the same line on stderr.
    """
    from gridfall import STARTED
    from gridfall.arena.signals import as_a_bot

    as_a_bot()
    # numba's first kernel load looks for BLAS by importing scipy.linalg, where scipy is installed:
    # 0.17 s of a first turn that also holds the start-up.  No bot kernel does linear algebra.
    sys.modules.setdefault("scipy", None)  # type: ignore[arg-type]  # None: "import scipy" fails at once
    from gridfall.connect4.cold_start import bot_agent
    from gridfall.connect4.interface_agent import InterfaceAgent
    from gridfall.connect4.protocol import play

    if target is not None and agent is not None:
        raise click.UsageError("give --agent or --player, not both")
    out = sys.stdout
    if target is not None:
        from gridfall.connect4.state import Connect4Game
        from gridfall.user_player import TargetError, make_player, protocol_stdout

        out = protocol_stdout()
        try:
            player = InterfaceAgent(make_player(target, Connect4Game(), seed), target)
        except TargetError as e:
            raise click.BadParameter(str(e), param_hint="--player") from None
    else:
        try:
            player = bot_agent(agent or "gridfall", seed, sys.stderr, first_turn_ms / 1000, freeze=True)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--agent") from None
    ended_well = play(player, sys.stdin, out, started=STARTED, first_turn=first_turn_ms / 1000,
                      turn=turn_ms / 1000, fallback=target is None)
    sys.exit(0 if ended_well else 1)


@connect4.command()
@click.option("--p1", required=True, help="Program A: a command line, or a built-in name (gridfall, greedy, mcts, ...).")
@click.option("--p2", required=True, help="Program B: the same.")
@click.option("--games", type=click.IntRange(1, 100_000), default=2, show_default=True,
              help="Games; each pair swaps who moves first.  (A longer match is an SPRT or a league, "
                   "which store each game as it ends.)")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Games at once.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game N's bots get SEED + N: built-in bots as --seed, commands as GRIDFALL_SEED.")
@limit_options(FIRST_TURN_SECONDS, TURN_SECONDS)
@json_option
@replay_option
@with_help(CONNECT4_PROTOCOL, REFEREE_NOTES)
def referee(p1: str, p2: str, games: int, workers: int, seed: int, limits, as_json: bool,
            replay_path: str | None) -> None:
    """Play a match between two programs under the CodinGame rules and limits.

    Prints each game's result and reason, then A's wins, draws and losses,
    points (win 10, draw 5) and the Elo difference with its 95% interval.
    """
    from rich.progress import Progress
    from rich.table import Table
    from rich.text import Text

    from gridfall.arena.fallback import counts_json, said_loading, summary
    from gridfall.arena.pool import exit_after, run_jobs
    from gridfall.connect4.arena_cli import check_program
    from gridfall.connect4.arena_report import fallback_seats
    from gridfall.connect4.codingame import referee_game, tally
    from gridfall.connect4.match import bot_command

    for hint, spec in (("--p1", p1), ("--p2", p2)):
        check_program(spec, hint)
    from gridfall.arena.warm_bots import warm_bots
    from gridfall.connect4.match import name_unfitted

    name_unfitted((p1, p2), limits)
    beyond_cores(workers, "game", games)
    warm_bots("connect4", (p1, p2), AGENT_NAMES)  # so that no bot of gridfall's compiles on its first turn

    def play_one(i: int):
        a, b = bot_command(p1, seed + i, limits), bot_command(p2, seed + i, limits)
        a_name, b_name = f"A:{p1}", f"B:{p2}"
        if i % 2 == 0:
            return referee_game((a, b), (a_name, b_name), limits, seed=seed + i)
        return referee_game((b, a), (b_name, a_name), limits, seed=seed + i)

    with Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(counted(games, "game"), total=games)
        finished = run_jobs(list(range(games)), play_one, workers=workers, on_done=lambda i, r: progress.advance(task))
    records, interrupted = finished.results, finished.interrupted
    done = [r for r in records if r is not None]
    if replay_path:
        from gridfall.connect4.replay import replay_record

        write_replay(replay_path, "connect4", f"gridfall connect4 referee: A = {p1}, B = {p2}",
                     [replay_record(i, r.to_json()) for i, r in enumerate(done, start=1)])
    score, a_points, b_points = tally(done, lambda name: name.startswith("A:"))
    points = [a_points, b_points]
    elo, low, high = score.elo()
    # "A" or "B" for each game in which that program said it played pure Python (gridfall.arena.fallback)
    fallback = Counter(r.seats[seat][:1] for r in done for seat in fallback_seats(r.output, r.opening))
    if as_json:
        from gridfall.arena.limits import judged_by

        click.echo(json_text.dumps({"p1": p1, "p2": p2, **judged_by(), "limits": limits.to_json(), "games": [r.to_json() for r in done],
                                    "wins": score.wins, "draws": score.draws, "losses": score.losses, "points": points,
                                    "score": score.share, "elo": elo, "elo_low": low, "elo_high": high,
                                    "fallback_games": counts_json(fallback),
                                    "interrupted": interrupted, "error": finished.fault and str(finished.fault)}))
        exit_after(finished)
    out = console()
    table = Table(title=Text(f"A = {p1}   B = {p2}"))  # commands and bots' words are text, never markup
    for column in ("game", "first", "second", "result", "reason", "moves", "slowest turn"):
        table.add_column(column)
    for i, r in enumerate(done, start=1):
        result = "draw" if r.winner is None else f"{r.seats[r.winner][:1]} wins"
        # a game lost at a first turn had no later one: blank, not "0 ms" (an answer takes some time)
        slowest = f"{max(r.slowest) * 1000:.0f} ms" if any(r.slowest) else ""
        table.add_row(str(i), Text(r.seats[0]), Text(r.seats[1]), Text(result), Text(r.reason), str(len(r.moves)),
                      slowest)
    out.print(table)
    out.print(f"A: {score.describe()}")
    out.print(f"points A {points[0]}, B {points[1]}" + ("; interrupted" if interrupted else ""))
    line = summary(fallback, Counter({"A": len(done), "B": len(done)}),
                   loading=said_loading(text for r in done for text in r.output))
    if line:
        out.print(Text(line))
    exit_after(finished)
