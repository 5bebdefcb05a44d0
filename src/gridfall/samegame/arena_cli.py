"""``gridfall samegame compare``: two SameGame bots on the same boards, stored and resumable, with a
paired bootstrap interval."""

from __future__ import annotations

import click

from gridfall.arena.runs import RUN_NOTES, grows_note, plays_here, run_options
from gridfall.cli_help import with_help
from gridfall.cli_options import limit_options, refuse_unplayable_command
from gridfall.samegame.board_args import expand_specs
from gridfall.samegame.boards import BoardError, load_board, portable_spec
from gridfall.samegame.protocol import FIRST_TURN_SECONDS, TURN_SECONDS
from gridfall.samegame.spec_completion import complete_board
from gridfall.viewer.options import replay_option


@click.command()
@click.option("--bot", "bots", multiple=True, required=True, metavar="NAME=COMMAND",
              help="A bot: its name and the command that runs it (gridfall alone: gridfall's bot without the "
                   "solution store, planning within a --first-turn-ms shorter than CodinGame's).  Twice or more: "
                   "more bots are ranked.")
@click.argument("boards", nargs=-1, required=True, shell_complete=complete_board)
@click.option("--one-turn", is_flag=True, help="Referee the one-turn flavour.")
@limit_options(FIRST_TURN_SECONDS, TURN_SECONDS)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the bots: gridfall's as --seed, a command's as GRIDFALL_SEED.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@replay_option
@run_options
@with_help(RUN_NOTES, grows_note("BOARDS", "games", items=True))
def compare(bots, boards, one_turn, limits, seed, as_json, replay_path, db, workers, cluster) -> None:
    """Compare two SameGame bots (or rank more) on the same BOARDS, under the referee.

    BOARDS are read as `samegame referee` reads them (standard, standard:1-5,8, a file, ...).
    Prints each board's scores (a failed board scores 0, as on the platform)
    and the difference, how many boards each bot won, and the paired
    bootstrap 95% interval of the mean difference: it says which bot is
    better, or that the data cannot tell yet.  With more than two bots: a
    ranking by mean score, each bot against the first, and every pairing.
    Every game is stored in the run's database; the same command again
    resumes.
    """
    from gridfall.samegame.referee_cli import one_turn_limits

    one_turn_limits(one_turn)
    from gridfall.arena.compare_cli import parse_bots, run_comparison
    from gridfall.samegame.codingame import compare_notes
    from gridfall.samegame.match import BUILT_IN, BoardJob, play_board

    bots = parse_bots(bots, BUILT_IN)
    for name, command in bots:
        if command not in BUILT_IN:
            refuse_unplayable_command(command, f"--bot {name}", here=plays_here(cluster), built_in=BUILT_IN)
    try:
        specs = expand_specs(list(boards))
        if len(set(specs)) < len(specs):  # one job a board and bot: a board given twice would count twice
            raise BoardError(f"{next(s for s in specs if specs.count(s) > 1)} is given twice")
        cells = {spec: portable_spec(spec, load_board(spec)) for spec in specs}  # a file is read here, once
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARDS") from None
    settings = {"bots": bots, "boards": specs, "one_turn": one_turn, "limits": limits.setting(),
                "seed": seed}

    def make_job(board, name, spec):
        return BoardJob(f"{board} {name}", board, cells[board], name, spec, one_turn, limits, seed)

    def changed(rows, todo) -> str | None:
        """A board file with games still to play whose cells are not those its stored games were played on."""
        playing = {job.board for job in todo}
        edited = sorted({row.result["board"] for row in rows if row.result["board"] in playing
                         and "cells" in row.result and row.result["cells"] != cells[row.result["board"]]})
        if edited:
            return (f"{', '.join(edited)}: the board file changed since the run played games on it, and its "
                    "other games would be played on another board; restore the file")
        return None

    def ready(executor, programs) -> None:
        """Name a command of gridfall's bot that would plan past the limits, and warm the kernels
        the bots that still play need where the games run."""
        from gridfall.arena.warm_bots import warm_where_they_play
        from gridfall.samegame.match import name_unfitted

        name_unfitted(programs, limits)
        warm_where_they_play(executor, "samegame", programs, BUILT_IN)

    run_comparison(kind="samegame compare", bots=bots, items=specs, make_job=make_job, work=play_board,
                   settings=settings, db=db, workers=workers, cluster=cluster, as_json=as_json, item_label="board",
                   ready=ready, replay_path=replay_path, grows=("boards",), changed=changed, notes=compare_notes)
