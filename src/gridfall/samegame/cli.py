"""``gridfall samegame ...``: the SameGame commands."""

from __future__ import annotations

import json
import sys

import click

from gridfall.samegame import rules
from gridfall.samegame.boards import BoardError, expand_specs, load_board

BOARD_HELP = "standard:1-20, codingame:1-50, tuning:1-250, random:SEED or a file of 15 lines"


def _board(spec: str) -> rules.Board:
    try:
        return load_board(spec)
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARD") from None


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


@click.group()
def samegame() -> None:
    """SameGame: the CodinGame puzzle (15x15, 5 colours, (n-2)^2, +1000 for a clear).

    BOARD is one of: standard:1-20 (the academic benchmark), codingame:1-50
    (the puzzle's test cases), tuning:1-250 (random boards for tuning),
    random:SEED, or a file of 15 lines of 15 integers, top row first.
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
        click.echo(json.dumps({
            "board": board, "rows": b.rows(), "colour_counts": b.colour_counts(),
            "moves": [{"x": g.x, "y": g.y, "colour": g.colour, "size": g.size} for g in b.groups()],
        }))
        return
    console = _console()
    console.print(board_text(b))
    console.print(summary_line(b))


@samegame.command()
@click.argument("board")
@click.argument("moves")
@click.option("--strict", is_flag=True, help="Judge under the turn rules: the first illegal click ends the game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(board: str, moves: str, strict: bool, as_json: bool) -> None:
    """Replay MOVES ("x y;x y;...", or - to read them from stdin) on BOARD.

    By default the one-turn rules judge them: at most 150 actions, and a click
    on an empty cell or a single cell is a warning that changes nothing.  The
    exit code is 1 if the game ended in an error.
    """
    b = _board(board)
    line = sys.stdin.read() if moves == "-" else moves
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
        "applied": ";".join(f"{x} {y}" for x, y in judged.actions),
    }
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(f"score {judged.score}  moves {len(judged.actions)}  cleared {'yes' if judged.cleared else 'no'}"
                   f"  cells left {result['cells_left']}")
        for warning in judged.warnings:
            click.echo(f"warning: {warning}")
        if judged.error:
            click.echo(f"error: {judged.error} ({judged.detail})")
        click.echo(f"applied: {result['applied']}")
    sys.exit(0 if judged.ok else 1)


@samegame.command()
@click.argument("board")
@click.option("--time", "seconds", type=click.FloatRange(min=0.01), default=10.0, show_default=True,
              help="Seconds to search.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same search).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(board: str, seconds: float, seed: int, as_json: bool) -> None:
    """Search BOARD for --time seconds and print the best line found.

    The line is replayed on the rules of record before it is printed, so the
    score is exactly what the CodinGame referee gives for it.
    """
    from gridfall.samegame.search import solve as run_solve

    b = _board(board)
    err = _console(stderr=True)
    with err.status(f"searching {board} for {seconds:g} s") as status:
        def improved(best: int) -> None:
            status.update(f"searching {board} for {seconds:g} s: best so far {best}")

        solution = run_solve(b, seconds, seed=seed, on_improve=improved)
    if as_json:
        click.echo(json.dumps({
            "board": board, "score": solution.score, "moves": solution.actions(), "n_moves": len(solution.moves),
            "cleared": solution.cleared, "algo": solution.algo, "seconds": round(solution.seconds, 3), "seed": seed,
        }))
    else:
        click.echo(f"{board}: score {solution.score} in {len(solution.moves)} moves, "
                   f"cleared {'yes' if solution.cleared else 'no'} ({solution.algo}, {solution.seconds:.1f} s, seed {seed})")
        click.echo(solution.actions())


@samegame.command()
@click.option("--one-turn", is_flag=True, help="Play the one-turn flavour (all actions on one line).")
@click.option("--think", type=click.FloatRange(min=0.1, max=19.5), default=17.0, show_default=True,
              help="Seconds of the 20 s first turn to spend planning, counted from process start.")
@click.option("--seed", type=int, default=0, show_default=True)
def bot(one_turn: bool, think: float, seed: int) -> None:
    """Play on stdin/stdout under the CodinGame protocol.

    Turn flavour (default): plans during the 20 s first turn, then answers each
    50 ms turn from the plan, planning again if the board is not the expected
    one; every move is checked legal before it is printed.  Run `gridfall
    warmup` once beforehand so the first turn is not spent compiling.
    """
    from gridfall.cli import STARTED
    from gridfall.samegame.codingame import BotConfig, play_one_turn, play_turns

    config = BotConfig(first_turn_budget=think, seed=seed)
    (play_one_turn if one_turn else play_turns)(sys.stdin, sys.stdout, config, started=STARTED)


@samegame.command()
@click.option("--bot", "command", required=True, help='The bot\'s command line, e.g. "python3 mybot.py".')
@click.argument("boards", nargs=-1, required=True)
@click.option("--one-turn", is_flag=True, help="Referee the one-turn flavour.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Boards refereed at once (each runs its own bot process).")
@click.option("--first-turn-ms", type=click.FloatRange(min=1), default=20000, show_default=True)
@click.option("--turn-ms", type=click.FloatRange(min=1), default=50, show_default=True)
@click.option("--time-scale", type=click.FloatRange(min=0.01), default=1.0, show_default=True,
              help="Multiply every limit, to relax them on a slow machine.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def referee(command: str, boards: tuple[str, ...], one_turn: bool, workers: int, first_turn_ms: float,
            turn_ms: float, time_scale: float, as_json: bool) -> None:
    """Referee the bot program --bot on BOARDS under the CodinGame rules and limits.

    BOARDS are board specs; a set name (standard, codingame, tuning) means
    every board of the set.  Prints per board the score, the actions, the
    outcome (ok, or the verdict: Timeout, Selected empty tile, Region of size
    1, a format error, Bot crashed, ...) and the total over the boards that
    ended ok (a failed board scores 0, as a failed validator).
    """
    from gridfall.arena.pool import run_jobs
    from gridfall.samegame.codingame import Limits, referee_game
    from gridfall.samegame.display import reports_table

    try:
        specs = expand_specs(list(boards))
        loaded = [(spec, load_board(spec)) for spec in specs]
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARDS") from None
    limits = Limits(first_turn_ms / 1000, turn_ms / 1000).scaled(time_scale)
    err = _console(stderr=True)
    from rich.progress import Progress

    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("refereeing", total=len(loaded))
        reports, interrupted = run_jobs(
            loaded,
            lambda job: referee_game(command, job[1], job[0], one_turn=one_turn, limits=limits),
            workers=workers,
            on_done=lambda i, r: progress.advance(task),
        )
    done = [r for r in reports if r is not None]
    total = sum(r.score for r in done if r.ok)
    failed = sum(not r.ok for r in done)
    if as_json:
        click.echo(json.dumps({"flavour": "one-turn" if one_turn else "turn", "total": total, "failed": failed,
                               "interrupted": interrupted, "boards": [r.to_json() for r in done]}))
    else:
        flavour = "one-turn" if one_turn else "turn-by-turn"
        console = _console()
        console.print(reports_table(done, f"SameGame referee, {flavour}: {command}"))
        console.print(f"total {total} over {len(done) - failed} ok boards; {failed} failed"
                      + ("; interrupted" if interrupted else ""))
    sys.exit(130 if interrupted else 0)
