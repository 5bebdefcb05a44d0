"""``gridfall samegame bot`` and ``export``: what a CodinGame submission runs, here and as one file."""

from __future__ import annotations

import sys

import click

from gridfall.cli_help import PLAYER_EXPORT_HELP, SAMEGAME_PROTOCOL, with_help
from gridfall.cli_options import WORKERS, FloatRange, refuse_given, renamed
from gridfall.cli_output import output_path_for, tell_written, write_file
from gridfall.samegame.codingame import LEAST_PLAN_TO_LOAD
from gridfall.samegame.player_bot import MOVE_SHARE
from gridfall.samegame.protocol import TURN_SECONDS, BotConfig
from gridfall.run_seed import SEED_VARIABLE
from gridfall.samegame.store_cli import open_store, store_errors, store_options
from gridfall.words import counted


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


@click.command()
@click.option("--one-turn", is_flag=True, help="Play the one-turn flavour (all actions on one line).")
@click.option("--first-turn-ms", type=FloatRange(min=100, max=19800),
              default=round(BotConfig.first_turn_budget * 1000), show_default=True,
              help="Milliseconds of the 20 s first turn to spend planning, counted from process start (the "
                   f"answer comes within a few ms of it: the rest of the 20 s is the margin).  Under "
                   f"{LEAST_PLAN_TO_LOAD * 1000:g} the search kernels are not loaded (about a second): the exported "
                   "file's pure-Python beam search plans instead.")
@renamed("--think", "--first-turn-ms", "first_turn_ms", scale=1000)
@click.option("--algo", type=click.Choice(["auto", "beam", "nmcs", "nrpa", "mcbs"]), default="auto", show_default=True, help='The search when no stored line fits: auto is beam under 1 s, else NRPA with its line annealed at the end (see `gridfall samegame solve --help`).')
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Search threads (CodinGame gives one core).")
@click.option("--seed", type=int, default=0, show_default=True, envvar=SEED_VARIABLE, show_envvar=True,
              help="Seed of the search: the same seed searches the same way (how far it gets in a turn "
                   "depends on the machine); else GRIDFALL_SEED, which the referees set for each game.")
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
    from gridfall.arena.signals import as_a_bot

    as_a_bot()
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


@click.command()
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
