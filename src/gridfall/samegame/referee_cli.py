"""``gridfall samegame referee`` and ``bench``: any bot under the CodinGame protocol, board by board."""

from __future__ import annotations

import sys
from collections import Counter

import click

from gridfall import json_text
from gridfall.arena.fallback import said_loading, summary
from gridfall.cli_help import REFEREE_NOTES, SAMEGAME_PROTOCOL, with_help
from gridfall.cli_options import (
    ALL_CORES, WORKERS, FloatRange, all_cores, beyond_cores, bot_command, limit_options, refuse_given,
)
from gridfall.cli_output import console
from gridfall.samegame.board_args import expand_specs
from gridfall.samegame.boards import BoardError, load_board
from gridfall.samegame.protocol import FIRST_TURN_SECONDS, TURN_SECONDS
from gridfall.samegame.spec_completion import complete_board
from gridfall.samegame.store_cli import store_options
from gridfall.viewer.options import json_option, replay_option, write_replay
from gridfall.words import counted


def _built_in() -> tuple[str, ...]:
    """SameGame's built-in bot names, loaded only when a --bot is given."""
    from gridfall.samegame.match import BUILT_IN

    return BUILT_IN


def one_turn_limits(one_turn: bool) -> None:
    """The one-turn flavour has one turn: a later turn's limit would go unused, so it is refused."""
    if one_turn:
        refuse_given(("turn_ms",), "the one-turn flavour has a first turn only (--first-turn-ms)")


@click.command()
@click.option("--bot", "command", required=True, callback=bot_command(_built_in),
              help='The bot\'s command line, e.g. "python3 mybot.py" (gridfall alone: gridfall\'s bot without the '
                   "solution store, as `samegame compare` plays it).")
@click.argument("boards", nargs=-1, required=True, shell_complete=complete_board)
@click.option("--one-turn", is_flag=True, help="Referee the one-turn flavour.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Boards refereed at once (each runs its own bot process).")
@limit_options(FIRST_TURN_SECONDS, TURN_SECONDS)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Given to the bot as GRIDFALL_SEED on every board (a bot that reads it repeats its choices).")
@json_option
@replay_option
@with_help(SAMEGAME_PROTOCOL, REFEREE_NOTES)
def referee(command: str, boards: tuple[str, ...], one_turn: bool, workers: int, limits, seed: int, as_json: bool,
            replay_path: str | None) -> None:
    """Referee the bot program --bot on BOARDS under the CodinGame rules and limits.

    BOARDS are board specs; a set name (standard, codingame, tuning) means
    every board of the set, and standard:1-5,8 those boards of it.  Prints per board the score, the actions, the
    outcome (ok, or the verdict: Timeout, Selected empty tile, Region of size
    1, a format error, Bot crashed, ...) and the total over the boards that
    ended ok (a failed board scores 0, as a failed validator).
    """
    one_turn_limits(one_turn)
    from gridfall.arena.pool import exit_after, run_jobs
    from gridfall.samegame.codingame import referee_game
    from gridfall.samegame.display import reports_table

    try:
        specs = expand_specs(list(boards))
        loaded = [(spec, load_board(spec)) for spec in specs]
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARDS") from None
    from gridfall.arena.warm_bots import warm_bots
    from gridfall.samegame.match import BUILT_IN, bot_command as program_of, name_unfitted

    program = program_of(command, one_turn, seed, limits)  # "gridfall" alone is gridfall's bot
    name_unfitted([program], limits)
    beyond_cores(workers, "board", len(loaded))
    warm_bots("samegame", [command], BUILT_IN)  # a copy of gridfall's bot compiles before the clock, not on it
    err = console(stderr=True)
    from rich.progress import Progress

    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("refereeing", total=len(loaded))
        finished = run_jobs(
            loaded,
            lambda job: referee_game(program, job[1], job[0], one_turn=one_turn, limits=limits, seed=seed),
            workers=workers,
            on_done=lambda i, r: progress.advance(task),
        )
    reports, interrupted = finished.results, finished.interrupted
    done = [r for r in reports if r is not None]
    total = sum(r.score for r in done if r.ok)
    failed = sum(not r.ok for r in done)
    if replay_path:
        from gridfall.samegame.replay import replay_record

        write_replay(replay_path, "samegame", f"gridfall samegame referee: {command}",
                     [replay_record(r.to_json()) for r in done])
    if as_json:
        from gridfall.arena.limits import judged_by

        click.echo(json_text.dumps({"flavour": "one-turn" if one_turn else "turn", **judged_by(), "limits": limits.to_json(),
                                    "total": total, "failed": failed, "fallback_boards": sum(r.fell_back for r in done),
                                    "interrupted": interrupted, "error": finished.fault and str(finished.fault),
                                    "boards": [r.to_json() for r in done]}))
    else:
        flavour = "one-turn" if one_turn else "turn-by-turn"
        out = console()
        out.print(reports_table(done, f"SameGame referee, {flavour}: {command}", one_turn=one_turn))
        out.print(f"total {total} over {counted(len(done) - failed, 'ok board')}; {failed} failed"
                      + ("; interrupted" if interrupted else ""))
        print_notes(out, done, one_turn)
    exit_after(finished, "boards")


def print_notes(out, reports, one_turn: bool) -> None:
    """Say on how many boards the bot played pure Python (:mod:`gridfall.arena.fallback`), and on
    which it answered as a bot of the other flavour (:func:`~gridfall.samegame.codingame.flavour_hint`), if any."""
    from rich.text import Text

    from gridfall.samegame.codingame import flavour_hint

    on_fallback = sum(r.fell_back for r in reports)
    for line in (summary(Counter({"the bot": on_fallback}), Counter({"the bot": len(reports)}), unit="board",
                         loading=said_loading(text for r in reports for text in r.output)),
                 flavour_hint([r.board for r in reports if r.other_flavour], one_turn)):
        if line:
            out.print(Text(line))  # board names come from the user's files: text, never markup


@click.command()
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="Board set to solve.")
@click.option("--time", "seconds", type=FloatRange(min=1.5, max=FIRST_TURN_SECONDS), default=FIRST_TURN_SECONDS,
              show_default=True,
              help="The first-turn limit per board, at most CodinGame's (the bot plans until 0.5 s before it, "
                   "counted from its own start).  For longer searches: `gridfall samegame solve --time`.")
@click.option("--workers", type=WORKERS, default=all_cores, show_default=ALL_CORES,
              help="Boards solved at once, one core each.")
@click.option("--bot", "command", callback=bot_command(_built_in),
              help="Benchmark this bot command instead of gridfall's own one-turn bot (gridfall alone: that bot).")
@click.option("--first", type=click.IntRange(min=1), help="Only the first N boards of the set.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of gridfall's bot (one run's total moves by several hundred from seed to seed); "
                   "--bot's GRIDFALL_SEED.")
@store_options
@json_option
def bench(set_name: str, seconds: float, workers: int, command: str | None, first: int | None, seed: int,
          store_path: str | None, no_store: bool, as_json: bool) -> None:
    """Solve every board of a set under the one-turn protocol and compare with published results.

    Each board runs gridfall's one-turn bot as a subprocess under the referee
    (one core, --time seconds), exactly the path a CodinGame submission takes.
    Use --no-store to measure the search alone.
    """
    from gridfall.samegame.match import BUILT_IN

    if command in BUILT_IN:  # the built-in name, as the referee and compare take it: the bot below
        command = None
    if command is not None:
        refuse_given(("store_path",), "gridfall's own bot only, not your --bot")
    from rich.progress import Progress

    from gridfall.arena.own_time import as_options
    from gridfall.arena.pool import exit_after, run_jobs
    from gridfall.samegame.anchors import OFFLINE, ONLINE_20S
    from gridfall.samegame.boards import set_specs
    from gridfall.samegame.codingame import LIMITS, Limits, referee_game
    from gridfall.samegame.display import anchors_table, reports_table
    from gridfall.samegame.match import fitted_times, name_unfitted

    specs = set_specs(set_name)[:first]
    limits = Limits(first_turn=seconds, turn=LIMITS.turn, memory_mb=LIMITS.memory_mb)
    beyond_cores(workers, "board", len(specs))
    if command is None:
        command = (f"{sys.executable} -m gridfall samegame bot --one-turn --workers 1"
                   + as_options(fitted_times(limits))
                   + (f" --seed {seed}" if seed else "")
                   + (" --no-store" if no_store else "") + (f" --store {store_path}" if store_path else ""))
        from gridfall.warmup import warm_saying

        warm_saying("samegame")  # so that the bot's 20 s are spent searching, not compiling
    else:
        from gridfall.arena.warm_bots import warm_copies

        name_unfitted([command], limits)
        warm_copies("samegame", [command])  # a copy of gridfall's bot compiles before the clock, not on it
    with Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{set_name}: {counted(len(specs), 'board')} x {seconds:g} s", total=len(specs))
        finished = run_jobs(
            specs, lambda spec: referee_game(command, load_board(spec), spec, one_turn=True, limits=limits, seed=seed),
            workers=workers, on_done=lambda i, r: progress.advance(task),
        )
    reports, interrupted = finished.results, finished.interrupted
    done = [r for r in reports if r is not None]
    total = sum(r.score for r in done if r.ok)
    if as_json:
        from gridfall.arena.limits import judged_by

        click.echo(json_text.dumps({"set": set_name, "seconds": seconds, "command": command, **judged_by(), "limits": limits.to_json(),
                                    "total": total, "fallback_boards": sum(r.fell_back for r in done),
                                    "interrupted": interrupted, "error": finished.fault and str(finished.fault),
                                    "boards": [r.to_json() for r in done]}))
        exit_after(finished, "boards")
    out = console()
    out.print(reports_table(done, f"{set_name} boards, one-turn protocol, {seconds:g} s each: {command}", one_turn=True))
    out.print(f"total {total} over {counted(len(done), 'board')}" + ("; interrupted" if interrupted else ""))
    print_notes(out, done, one_turn=True)
    if set_name == "standard" and len(done) == 20:
        out.print(anchors_table(total, seconds, ONLINE_20S, OFFLINE))
    exit_after(finished, "boards")
