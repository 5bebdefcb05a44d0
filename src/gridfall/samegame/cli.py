"""``gridfall samegame ...``: the SameGame commands."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import click

from gridfall import json_text
from gridfall.arena.signals import exit_code, stopping_on_signals
from gridfall.cli_options import (PLAYER_EXPORT_HELP, REFEREE_NOTES, SAMEGAME_PROTOCOL, WORKERS, FloatRange, console,
                                  limit_options, output_path_for, refuse_given, renamed, tell_written, with_help, write_file)
from gridfall.samegame import rules
from gridfall.samegame.boards import BoardError, expand_specs, load_board
from gridfall.samegame.line import Line
from gridfall.samegame.player_bot import MOVE_SHARE
from gridfall.samegame.protocol import ANSWER_MARGIN, FIRST_TURN_SECONDS, TURN_SECONDS, BotConfig
from gridfall.samegame.store_cli import open_store, store, store_errors, store_options
from gridfall.text_file import MOST_BYTES, NotText, read_text
from gridfall.viewer.options import replay_option, write_replay
from gridfall.words import counted


def _board(spec: str) -> rules.Board:
    try:
        return load_board(spec)
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARD") from None


@click.group()
def samegame() -> None:
    """SameGame: the CodinGame puzzle (15x15, 5 colours, (n-2)^2, +1000 for a clear).

    BOARD is one of: standard:1-20 (the academic benchmark), codingame:1-50
    (the puzzle's test cases), tuning:1-250 (random boards for tuning),
    random:SEED, balanced:SEED (45 cells of each colour, like standard 11-15),
    dominant:SEED (65 cells of one colour, 40 of the others, like standard
    16-20), rows:R/R/... (the board itself: 15 rows of 0-4 or . for empty, top
    first, as a game's string form writes a file's board), or a file of 15
    lines of 15 integers, top row first.
    Coordinates are the platform's: x y, with 0 0 bottom-left.
    """


@samegame.command()
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print the rows (top first), colour counts and moves as JSON.")
def show(board: str, as_json: bool) -> None:
    """Render BOARD in colour, with its axes and a summary."""
    from gridfall.samegame.display import board_text, summary_line

    b = _board(board)
    if as_json:
        click.echo(json_text.dumps({
            "board": board, "rows": b.rows(), "colour_counts": b.colour_counts(),
            "moves": [{"x": g.x, "y": g.y, "colour": g.colour, "size": g.size} for g in b.groups()],
        }))
        return
    out = console()
    out.print(board_text(b))
    out.print(summary_line(b))


@samegame.command()
@click.argument("board")
@click.argument("moves")
@click.option("--strict", is_flag=True, help="Judge under the turn rules: the first illegal click ends the game.")
@click.option("--groups", "show_groups", is_flag=True,
              help="Also list the groups the line removed, largest first, with the colour counts of the "
                   "start: where the points come from (in JSON, every move's group in order).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(board: str, moves: str, strict: bool, show_groups: bool, as_json: bool) -> None:
    """Replay MOVES ("x y;x y;...", or - to read them from stdin) on BOARD.

    By default the one-turn rules judge them: at most 150 actions, and a click
    on an empty cell or a single cell is a warning that changes nothing.  The
    exit code is 1 if the game ended in an error.
    """
    b = _board(board)
    # piped from a file a Windows editor saved: its byte-order mark is not a move (utf-8-sig, as files are read)
    line = sys.stdin.read(MOST_BYTES + 1).removeprefix("\ufeff") if moves == "-" else moves
    if len(line) > MOST_BYTES:  # `score B - < /dev/zero` would fill the memory
        raise click.BadParameter(f"more than {MOST_BYTES >> 20} MB on standard input: is it the moves you meant?",
                                 param_hint="MOVES")
    judged = rules.judge(b, rules.split_one_turn(line), strict=strict)
    result = {
        "board": board,
        "score": judged.score,
        "moves": len(judged.actions),
        "cleared": judged.cleared,
        "cells_left": judged.board.cell_count(),
        "warnings": judged.warnings,
        "error": judged.error,
        "detail": judged.detail,
        "applied": Line(judged.actions).text(),
    }
    groups = rules.removed_groups(b, judged.actions) if show_groups else []
    if show_groups:
        result["colour_counts"] = b.colour_counts()
        result["groups"] = [{"move": number, "x": g.x, "y": g.y, "colour": g.colour, "size": g.size,
                             "points": g.points} for number, g in enumerate(groups, start=1)]
    if as_json:
        click.echo(json_text.dumps(result))
    else:
        click.echo(f"score {judged.score}  moves {len(judged.actions)}  cleared {'yes' if judged.cleared else 'no'}"
                   f"  cells left {result['cells_left']}")
        for warning in judged.warnings:
            click.echo(f"warning: {warning}")
        if judged.error:
            click.echo(f"error: {judged.error} ({judged.detail})")
        click.echo(f"applied: {result['applied']}")
        if show_groups:
            _echo_groups(b, groups)
            if judged.cleared:
                click.echo(f"  clear bonus: {rules.CLEAR_BONUS} points")
    sys.exit(0 if judged.ok else 1)


def _echo_groups(b: rules.Board, groups: list[rules.Group], largest: int = 8) -> None:
    """The start's colour counts and the largest groups a line removed, each with its share of the
    groups' points (the clear bonus apart)."""
    click.echo("start colours: " + "  ".join(f"{c}: {n}" for c, n in enumerate(b.colour_counts())))
    total = sum(g.points for g in groups)
    ranked = sorted(enumerate(groups, start=1), key=lambda item: (-item[1].size, item[0]))
    for number, g in ranked[:largest]:
        share = f"{100 * g.points / total:.0f}%" if total else "-"
        click.echo(f"  move {number:3d}: colour {g.colour}, {g.size:3d} cells, {g.points:5d} points ({share})")
    rest = ranked[largest:]
    if rest:
        click.echo(f"  {len(rest)} more groups of at most {rest[0][1].size} cells: {sum(g.points for _, g in rest)} points")


@samegame.command()
@click.argument("board")
@click.option("--time", "seconds", type=FloatRange(min=0.01), default=10.0, show_default=True,
              help="Seconds to search (the search kernels load before the clock starts; "
                   "the first use compiles them).")
@click.option("--algo", type=click.Choice(["auto", "beam", "nmcs", "nrpa", "mcbs", "anneal"]), default="auto",
              show_default=True,
              help="auto: beam under 1 s, else nrpa with its last 30% of the time annealing its line; "
                   "anneal: improve the stored line (else the greedy line) by simulated annealing, "
                   "what pays once nrpa has converged.")
@click.option("--level", type=click.IntRange(1, 5), help="Nesting level for nmcs (default 2) or nrpa (default 3).")
@click.option("--workers", type=WORKERS, default=os.cpu_count() or 1, show_default="all cores",
              help="Independent searches in parallel (seeds SEED, SEED+1, ...); the best line wins.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed searches the same way (how far it gets in --time depends on "
                   "the machine and its load).")
@click.option("--param", "param_options", multiple=True, metavar="KEY=VALUE",
              help="A parameter of the search, again for more, as in a campaign round (nrpa: level, colour_rate, "
                   "spare, tabu_rank, ...).  A work budget (nrpa max_playouts, anneal max_edits, beam max_width, "
                   "nmcs and mcbs max_runs) "
                   "makes a run repeat move for move on any machine: the same seed, the same line, given "
                   "--no-store or --fresh and a --time long enough to spend it.")
@click.option("--fresh", is_flag=True,
              help="nrpa, anneal: search from scratch instead of continuing from the stored line.")
@store_options
@replay_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(board: str, seconds: float, algo: str, level: int | None, workers: int, seed: int,
          param_options: tuple[str, ...], fresh: bool, store_path: str | None, no_store: bool,
          replay_path: str | None, as_json: bool) -> None:
    """Search BOARD for --time seconds and print the best line found.

    The solution store is read first and improvements are written to it; the
    line printed is the better of the two.  With a stored line, nrpa continues
    from it (a level-4 search that starts there, keeping for last the colour
    that line kept) unless --fresh.  Every line is replayed on the rules of
    record before it is printed, so the score is exactly the referee's.
    anneal edits the stored line as a whole (moving, dropping and adding
    clicks) and keeps what scores more.
    """
    from gridfall.samegame.search import resolve_algo
    from gridfall.samegame.search import solve as run_solve

    from rich.text import Text

    from gridfall.samegame.store import StoreError

    from gridfall.samegame.campaign import parse_params
    from gridfall.samegame.search import check_request

    b = _board(board)
    try:
        params = parse_params(list(param_options), "--param")
        if level:
            searched = resolve_algo(algo, seconds)
            if searched not in ("nmcs", "nrpa"):
                raise click.BadParameter(f"{level}: only nmcs and nrpa have levels, and this run searches with "
                                         f"{searched}" + (" (auto: beam under 1 s)" if algo == "auto" else ""),
                                         param_hint="--level")
            if "level" in params:
                raise click.BadParameter("given twice, as --level and --param level=: give one",
                                         param_hint="--level")
            params["level"] = level
        check_request(algo, seconds, params)  # a parameter the search does not take, or out of its range
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("--param: "), param_hint="--param") from None
    store = None if no_store else open_store(store_path, or_else="searching without the store")
    try:
        stored = store.best(b) if store else None
    except StoreError as e:
        click.echo(f"gridfall: {e}; searching without the store", err=True)
        store = stored = None
    err = console(stderr=True)
    from gridfall.warmup import warm

    label = f"{board}: {resolve_algo(algo, seconds)} x{workers} for {seconds:g} s"
    if stored:
        label += f" (stored: {stored.score})"
    with stopping_on_signals():  # Ctrl-C, SIGTERM, SIGHUP: the best line so far is kept, stored, printed
        try:
            with err.status("loading the search kernels (compiled on first use, about a minute; then cached)"):
                warm("samegame")  # so that --time is spent searching, not compiling
        except KeyboardInterrupt:
            click.echo(f"{board}: stopped while loading the search kernels; nothing searched", err=True)
            sys.exit(exit_code(True))
        with err.status(Text(label)) as status:
            started, progress = time.monotonic(), []

            def improved_to(best: int) -> None:
                progress.append((time.monotonic() - started, best))
                status.update(Text(f"{label}: best so far {best}"))

            solution = run_solve(b, seconds, algo=algo, workers=workers, seed=seed,
                                 guide=stored.line() if stored and not fresh else None, on_improve=improved_to,
                                 **params)
    try:
        improved = store.offer(b, solution.moves, algo=f"{solution.algo} x{workers}", seconds=seconds,
                               seed=seed) if store else False
    except StoreError as e:  # a full disk, say: the line is still printed below, so nothing is lost
        click.echo(f"gridfall: {e}; the line below is not stored", err=True)
        improved = False
    score, moves, source = solution.score, solution.actions(), "search"
    if stored and stored.score >= solution.score:
        score, moves, source = stored.score, stored.moves, "store"
    n_moves = len(rules.split_one_turn(moves))
    if replay_path:
        from gridfall.samegame.replay import replay_game

        write_replay(replay_path, "samegame", f"gridfall samegame solve {board}",
                     [replay_game(b, list(Line.from_text(moves)), f"{board}: {score} ({source})", plot=progress)])
    if as_json:
        click.echo(json_text.dumps({
            "board": board, "score": score, "moves": moves, "n_moves": n_moves, "source": source,
            "search_score": solution.score, "stored_score": stored.score if stored else None, "improved_store": improved,
            "cleared": rules.judge(b, rules.split_one_turn(moves), strict=True).cleared,
            "algo": solution.algo, "workers": workers, "seconds": round(solution.seconds, 3), "seed": seed,
            "params": params, "continued": solution.notes.get("guided", False), "interrupted": solution.interrupted,
        }))
        sys.exit(exit_code(solution.interrupted))
    click.echo(f"{board}: score {score} in {counted(n_moves, 'move')} ({source}); search found {solution.score} "
               f"({solution.algo} x{workers}{', continuing the stored line' if solution.notes.get('guided') else ''}, "
               f"{solution.seconds:.1f} s, seed {seed}, "
               f"cleared {'yes' if solution.cleared else 'no'})"
               + (f"; stored line {stored.score}" if stored else "") + ("; store improved" if improved else "")
               + ("; interrupted: the best line so far" if solution.interrupted else ""))
    click.echo(moves)
    sys.exit(exit_code(solution.interrupted))


# how a --player shares the one-turn flavour's time, for `bot` and `export`
move_share_option = click.option(
    "--move-share", type=FloatRange(min=0, max=1, min_open=True), default=None,
    help=f"With --player and --one-turn: the share of the time left that each act is given [default: {MOVE_SHARE:g}: "
         "the first move gets 1/20 of the time, each later one 1/20 of what remains].  A player that plans its "
         "whole line on its first call wants 0.9.")


def move_share_of(move_share: float | None, target: str | None, one_turn: bool = False) -> float | None:
    """The share each act of a --player gets in the one-turn flavour (None: the turn flavour, or no
    --player); UsageError for --move-share without --player and --one-turn, which alone use it."""
    if move_share is not None and (target is None or not one_turn):
        raise click.UsageError("--move-share shares the one-turn flavour's time among your --player's moves: "
                               "give it with --player and --one-turn")
    if target is None or not one_turn:
        return None
    return MOVE_SHARE if move_share is None else move_share


@samegame.command()
@click.option("--one-turn", is_flag=True, help="Play the one-turn flavour (all actions on one line).")
@click.option("--first-turn-ms", type=FloatRange(min=100, max=19800),
              default=round(BotConfig.first_turn_budget * 1000), show_default=True,
              help="Milliseconds of the 20 s first turn to spend planning, counted from process start (the "
                   "answer comes within a few ms of it: the rest of the 20 s is the margin).")
@renamed("--think", "--first-turn-ms", "first_turn_ms", scale=1000)
@click.option("--algo", type=click.Choice(["auto", "beam", "nmcs", "nrpa", "mcbs"]), default="auto", show_default=True, help='The search when no stored line fits: auto is beam under 1 s, else NRPA with its line annealed at the end (see `gridfall samegame solve --help`).')
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Search threads (CodinGame gives one core).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the search: the same seed searches the same way (how far it gets in a turn "
                   "depends on the machine).")
@click.option("--player", "target", metavar="MODULE:NAME", default=None,
              help="Instead of gridfall's search, your own player written against gridfall's interface: "
                   "MODULE:NAME or FILE.py:NAME names a class or function that makes it (given game= and seed= "
                   "if it takes them).  Each turn its act(state, seconds) gets the board's state and the turn's "
                   "time (--first-turn-ms, then 40 ms) and returns an action id (x * 15 + y); its answers are "
                   "sent as they are, for the referee to judge.  With --one-turn it plays its whole line within "
                   "--first-turn-ms, each act given --move-share of the time left.")
@move_share_option
@store_options
@with_help(SAMEGAME_PROTOCOL)
def bot(one_turn: bool, first_turn_ms: float, algo: str, workers: int, seed: int, target: str | None,
        move_share: float | None, store_path: str | None, no_store: bool) -> None:
    """Play on stdin/stdout under the CodinGame protocol.

    Plays the stored line for the board if the solution store has one, else
    searches.  Turn flavour (default): plans during the 20 s first turn, then
    answers each 50 ms turn from the plan, planning again if the board is not
    the expected one; every move is checked legal before it is printed.  Run
    `gridfall warmup` once beforehand so the first turn is not spent compiling.
    The bot ends at the end of its input (exit code 0), or at input that is
    not a board, which it names on stderr (exit code 1).
    """
    from gridfall import STARTED

    if target is not None:
        refuse_given(("algo", "workers", "store_path"), "gridfall's own search only, not your --player")
        _player_bot(target, one_turn, move_share, first_turn_ms, seed, STARTED)
    move_share_of(move_share, None)  # refused without --player
    from gridfall.samegame.codingame import make_planner
    from gridfall.samegame.protocol import BotConfig, play_one_turn, play_turns

    config = BotConfig(first_turn_budget=first_turn_ms / 1000, seed=seed, workers=workers, algo=algo, store=store_path,
                       use_store=not no_store)
    ended_well = (play_one_turn if one_turn else play_turns)(sys.stdin, sys.stdout, config, make_planner(config),
                                                              started=STARTED)
    sys.exit(0 if ended_well else 1)


def _player_bot(target: str, one_turn: bool, move_share: float | None, first_turn_ms: float, seed: int,
                started: float) -> None:
    """``bot --player``: the user's interface player plays, then the process exits."""
    from gridfall.samegame import player_bot
    from gridfall.samegame.state import SameGameGame
    from gridfall.user_player import TargetError, make_player, protocol_stdout

    share = move_share_of(move_share, target, one_turn)
    out = protocol_stdout()
    try:
        player = make_player(target, SameGameGame(), seed)
    except TargetError as e:
        raise click.BadParameter(str(e), param_hint="--player") from None
    if share is not None:
        ended_well = player_bot.play_one_turn(player, sys.stdin, out, seconds=first_turn_ms / 1000, share=share,
                                              started=started)
    else:
        ended_well = player_bot.play(player, sys.stdin, out, first_turn=first_turn_ms / 1000, turn=TURN_SECONDS,
                                     started=started)
    sys.exit(0 if ended_well else 1)


@samegame.command()
@click.option("--bot", "command", required=True, help='The bot\'s command line, e.g. "python3 mybot.py".')
@click.argument("boards", nargs=-1, required=True)
@click.option("--one-turn", is_flag=True, help="Referee the one-turn flavour.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Boards refereed at once (each runs its own bot process).")
@limit_options(FIRST_TURN_SECONDS, TURN_SECONDS)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@replay_option
@with_help(SAMEGAME_PROTOCOL, REFEREE_NOTES)
def referee(command: str, boards: tuple[str, ...], one_turn: bool, workers: int, limits, as_json: bool,
            replay_path: str | None) -> None:
    """Referee the bot program --bot on BOARDS under the CodinGame rules and limits.

    BOARDS are board specs; a set name (standard, codingame, tuning) means
    every board of the set.  Prints per board the score, the actions, the
    outcome (ok, or the verdict: Timeout, Selected empty tile, Region of size
    1, a format error, Bot crashed, ...) and the total over the boards that
    ended ok (a failed board scores 0, as a failed validator).
    """
    from gridfall.arena.pool import exit_after, run_jobs
    from gridfall.samegame.codingame import referee_game
    from gridfall.samegame.display import reports_table

    try:
        specs = expand_specs(list(boards))
        loaded = [(spec, load_board(spec)) for spec in specs]
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARDS") from None
    err = console(stderr=True)
    from rich.progress import Progress

    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("refereeing", total=len(loaded))
        finished = run_jobs(
            loaded,
            lambda job: referee_game(command, job[1], job[0], one_turn=one_turn, limits=limits),
            workers=workers,
            on_done=lambda i, r: progress.advance(task),
        )
    reports, interrupted = finished.results, finished.interrupted
    done = [r for r in reports if r is not None]
    total = sum(r.score for r in done if r.ok)
    failed = sum(not r.ok for r in done)
    if replay_path:
        from gridfall.samegame.replay import replay_game

        write_replay(replay_path, "samegame", f"gridfall samegame referee: {command}",
                     [replay_game(dict(loaded)[r.board], r.moves, f"{r.board}: {r.score} ({r.outcome})", output=r.output)
                      for r in done])
    if as_json:
        click.echo(json_text.dumps({"flavour": "one-turn" if one_turn else "turn", "total": total, "failed": failed,
                               "interrupted": interrupted, "error": finished.fault and str(finished.fault),
                               "boards": [r.to_json() for r in done]}))
    else:
        flavour = "one-turn" if one_turn else "turn-by-turn"
        out = console()
        out.print(reports_table(done, f"SameGame referee, {flavour}: {command}", one_turn=one_turn))
        out.print(f"total {total} over {counted(len(done) - failed, 'ok board')}; {failed} failed"
                      + ("; interrupted" if interrupted else ""))
    exit_after(finished, "boards")


@samegame.command()
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="Board set to solve.")
@click.option("--time", "seconds", type=FloatRange(min=1.5), default=20.0, show_default=True,
              help="The first-turn limit per board (the bot plans until 0.5 s before it, counted from its own start).")
@click.option("--workers", type=WORKERS, default=os.cpu_count() or 1, show_default="all cores",
              help="Boards solved at once, one core each.")
@click.option("--bot", "command", help="Benchmark this bot command instead of gridfall's own one-turn bot.")
@click.option("--first", type=click.IntRange(min=1), help="Only the first N boards of the set.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of gridfall's bot (one run's total moves by several hundred from seed to seed).")
@store_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(set_name: str, seconds: float, workers: int, command: str | None, first: int | None, seed: int,
          store_path: str | None, no_store: bool, as_json: bool) -> None:
    """Solve every board of a set under the one-turn protocol and compare with published results.

    Each board runs gridfall's one-turn bot as a subprocess under the referee
    (one core, --time seconds), exactly the path a CodinGame submission takes.
    Use --no-store to measure the search alone.
    """
    if command is not None:
        refuse_given(("seed", "store_path"), "gridfall's own bot only, not your --bot")
    from rich.progress import Progress

    from gridfall.arena.pool import exit_after, run_jobs
    from gridfall.samegame.anchors import OFFLINE, ONLINE_20S
    from gridfall.samegame.boards import set_specs
    from gridfall.samegame.codingame import LIMITS, Limits, referee_game
    from gridfall.samegame.display import anchors_table, reports_table

    specs = set_specs(set_name)[:first]
    if command is None:
        command = (f"{sys.executable} -m gridfall samegame bot --one-turn --workers 1 --first-turn-ms {(seconds - ANSWER_MARGIN) * 1000:.0f}"
                   + (f" --seed {seed}" if seed else "")
                   + (" --no-store" if no_store else "") + (f" --store {store_path}" if store_path else ""))
        from gridfall.warmup import warm

        warm("samegame")  # so that the bot's 20 s are spent searching, not compiling
    limits = Limits(first_turn=seconds, turn=LIMITS.turn, memory_mb=LIMITS.memory_mb)
    with Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{set_name}: {counted(len(specs), 'board')} x {seconds:g} s", total=len(specs))
        finished = run_jobs(
            specs, lambda spec: referee_game(command, load_board(spec), spec, one_turn=True, limits=limits),
            workers=workers, on_done=lambda i, r: progress.advance(task),
        )
    reports, interrupted = finished.results, finished.interrupted
    done = [r for r in reports if r is not None]
    total = sum(r.score for r in done if r.ok)
    if as_json:
        click.echo(json_text.dumps({"set": set_name, "seconds": seconds, "command": command, "total": total,
                               "interrupted": interrupted, "error": finished.fault and str(finished.fault),
                               "boards": [r.to_json() for r in done]}))
        exit_after(finished, "boards")
    out = console()
    out.print(reports_table(done, f"{set_name} boards, one-turn protocol, {seconds:g} s each: {command}", one_turn=True))
    out.print(f"total {total} over {counted(len(done), 'board')}" + ("; interrupted" if interrupted else ""))
    if set_name == "standard" and len(done) == 20:
        out.print(anchors_table(total, seconds, ONLINE_20S, OFFLINE))
    exit_after(finished, "boards")


@samegame.command()
@click.argument("out", type=click.Path(dir_okay=False, allow_dash=True), callback=output_path_for("export"))
@click.option("--one-turn", is_flag=True, help="The one-turn flavour (all actions on one line).")
@click.option("--from", "results", type=click.Path(exists=True, dir_okay=False),
              help="Embed the lines of this results file (e.g. results/samegame-standard.txt) instead of "
                   "the solution store's.")
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The set that bare board numbers in --from refer to.")
@click.option("--first-turn-ms", type=FloatRange(min=100, max=19_500), default=18_500, show_default=True,
              help="How long the exported bot searches an unknown board, from its start (the platform allows 20 s).")
@click.option("--player", "target", metavar="MODULE:NAME", default=None,
              help=PLAYER_EXPORT_HELP + "  Turn flavour: its first move within --first-turn-ms, then 50 ms a move; "
                   "with --one-turn, its whole line within --first-turn-ms, each act given --move-share of the time "
                   "left.")
@move_share_option
@store_options
@store_errors
def export(out: str, one_turn: bool, results: str | None, set_name: str, first_turn_ms: float, target: str | None,
           move_share: float | None, store_path: str | None, no_store: bool) -> None:
    """Write gridfall's pure-Python SameGame bot as one file for CodinGame (Python 3.11, standard library).

    It embeds your own best lines (the solution store by default, or --from a
    results file) for the boards CodinGame plays, compressed and keyed by the
    board up to recolouring, and plays them at once; any other board gets a
    pure-Python beam search for --first-turn-ms.
    The file is bundled from the package's own modules (the rules of record, the
    protocol loop, the planner) and refused, with the reason, if it would be over
    100,000 characters or import anything outside the standard library.  OUT - writes it to
    standard output.
    """
    from gridfall.export import ExportError
    from gridfall.samegame.export import export_source, for_the_platform, known_from_results, known_from_store

    if target is not None:
        refuse_given(("set_name", "store_path"), "the lines of gridfall's own bot only, not your --player")
        _export_player(out, target, one_turn, move_share, results, first_turn_ms)
        return
    move_share_of(move_share, None)  # refused without --player
    refuse_given(("set_name",) if not results else ("store_path",),
                 "only with --from" if not results else "the store is not read with --from")
    if results:
        known = known_from_results(results, set_name)
    else:
        store = None if no_store else open_store(store_path, or_else="exporting without your stored lines")
        known = known_from_store(store) if store else {}
    known, left_out = for_the_platform(known)
    try:
        source = export_source(known, one_turn=one_turn, first_turn_ms=first_turn_ms)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    write_file(out, source, kind="export")
    tell_written(out, f": {len(source):,} characters (CodinGame allows 100,000), {counted(len(known), 'known board')}, "
                      f"{'one-turn' if one_turn else 'turn-by-turn'} flavour, standard library only")
    if left_out:
        click.echo(f"left out the lines of {counted(left_out, 'board')} that CodinGame never plays "
                   "(its boards are the standard set, recoloured, and its 50 test boards)", err=out == "-")


def _export_player(out: str, target: str, one_turn: bool, move_share: float | None, results: str | None,
                   first_turn_ms: float) -> None:
    """``export --player``: the user's interface player as the file (no stored lines)."""
    from gridfall.export import ExportError
    from gridfall.player_export import export_player

    share = move_share_of(move_share, target, one_turn)
    if results:
        raise click.UsageError("--from embeds lines for gridfall's own bot; your --player plays its own moves")
    try:
        source = export_player("samegame", target, first_turn=first_turn_ms / 1000, turn=TURN_SECONDS, share=share)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    write_file(out, source, kind="export")
    flavour = "turn-by-turn flavour" if share is None else f"one-turn flavour, each move given {share:g} of the time left"
    tell_written(out, f": {len(source):,} characters (CodinGame allows 100,000), your player {target} with "
                      f"gridfall's modules, {flavour}")


@samegame.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The set that the board numbers refer to.")
@click.option("--strict", is_flag=True, help="Judge under the turn rules instead of the one-turn rules.")
@click.option("--json", "as_json", is_flag=True, help='Print one JSON object instead of the table.')
def verify(path: str, set_name: str, strict: bool, as_json: bool) -> None:
    """Replay every line of a results file (BOARD<TAB>SCORE<TAB>...<TAB>MOVES) and total the scores.

    Lines starting with # are comments.  The score each line claims is checked
    against the replay; the exit code is 1 if any line differs or errs.
    """
    from rich.table import Table
    from rich.text import Text

    from gridfall.samegame.store import results_row

    try:
        text = read_text(path)
    except (OSError, NotText) as e:
        raise click.ClickException(f"{path}: cannot read it as a results file: {e}") from None
    rows: list[dict[str, Any]] = []
    problems = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            spec, claimed, moves = results_row(line, set_name)
            board = load_board(spec)
        except (ValueError, BoardError) as e:
            raise click.ClickException(f"{path}:{line_no}: {e}") from None
        judged = rules.judge(board, rules.split_one_turn(moves), strict=strict)
        ok = judged.ok and judged.score == claimed
        problems += not ok
        rows.append({"board": spec, "claimed": claimed, "replayed": judged.score, "moves": len(judged.actions),
                     "cleared": judged.cleared, "ok": ok, "error": judged.error})
    if not rows:  # the wrong file, most likely: a total of 0 would read as a verified file
        raise click.ClickException(f"{path} holds no results row (BOARD<TAB>SCORE<TAB>MOVES)")
    total = sum(r["replayed"] for r in rows)
    if as_json:
        click.echo(json_text.dumps({"file": path, "total": total, "boards": rows, "problems": problems}))
    else:
        table = Table(title=Text(path))
        for column in ("board", "claimed", "replayed", "moves", "cleared", "check"):
            table.add_column(column, justify="right")
        for r in rows:
            table.add_row(Text(r["board"]), str(r["claimed"]), str(r["replayed"]), str(r["moves"]),
                          "yes" if r["cleared"] else "", "ok" if r["ok"] else Text(r["error"] or "differs", "red"))
        out = console()
        out.print(table)
        out.print(f"total {total:,} over {counted(len(rows), 'board')}; {counted(problems, 'problem')}")
    sys.exit(1 if problems else 0)


def _add_commands() -> None:
    from gridfall.samegame.arena_cli import compare
    from gridfall.samegame.campaign_cli import campaign

    samegame.add_command(store)
    samegame.add_command(compare)
    samegame.add_command(campaign)


_add_commands()
