"""``gridfall samegame campaign``: the coordinator of an offline campaign (see :mod:`.campaign`)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

import click

from gridfall.arena.executor import WAIT, JobFailed, drive
from gridfall.arena.runs import RUN_NOTES, grows_note, open_executor, open_run, run_options_with
from gridfall.arena.signals import exit_code
from gridfall.cli_help import with_help
from gridfall.cli_options import ALL_CORES, WORKERS, number_list, refuse_given
from gridfall.cli_output import console, output_path
from gridfall.words import counted

# nrpa alone shares its time between the two most common colours kept for last; a round with the
# third (tabu_rank=2) found the best known line on 3 of the 20 standard boards.  spare=2 lets the
# kept colour give up pairs: +1.4% at 120 s a board; colour_rate=0.3 learns colour-phase weights as
# well: +1.8% more (docs/samegame-experiments.md).
DEFAULT_ROUNDS = "nrpa:300:spare=2:colour_rate=0.3,nrpa:300:tabu_rank=2:spare=2:colour_rate=0.3,mcbs:300"


@dataclass
class _Progress:
    """A campaign's progress while its board passes run."""

    finished: int  # board passes done, stored ones included
    improved: bool = False  # some pass stored a better line
    busy: set[str] = field(default_factory=set)  # boards whose pass is under way


@click.command()
@click.option("--set", "set_name", type=click.Choice(["standard", "codingame", "tuning"]), default="standard",
              show_default=True, help="The board set.")
@click.option("--boards", default="", help="Board numbers of the set, such as 1-5,8 (default: all).")
@click.option("--rounds", default=DEFAULT_ROUNDS, show_default=True,
              help="ALGO:SECONDS[:KEY=VALUE...],... run on each board in order (e.g. nrpa:300:tabu_rank=2); "
                   'an empty --rounds "" only writes the results file.')
@click.option("--fresh", is_flag=True, help="Search from scratch instead of continuing from the stored best line.")
@click.option("--threads", type=WORKERS, default=1, show_default=True,
              help="Search threads for each board (boards run side by side, --workers at once).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first pass's searches (each pass and round gets its own from it).")
@click.option("--passes", type=click.IntRange(min=1), default=1, show_default=True,
              help="Go over the boards this many times, new seeds each pass, each continuing from the last.")
@click.option("--store", "store_path", required=True, type=click.Path(dir_okay=False),
              help="The solution store that keeps each board's best line.")
@click.option("--out", type=click.Path(dir_okay=False), callback=output_path,
              help="Write the results file here; the campaign lines of the file it replaces are kept below the new one.")
@click.option("--note", default="", help="Words added to this campaign's line in the results file.")
@run_options_with(f"{ALL_CORES} over --threads")  # a board's threads take them
@with_help(RUN_NOTES, grows_note("--passes", "board passes"))
def campaign(set_name, boards, rounds, fresh, threads, seed, passes, store_path, out, note, db, workers, cluster):
    """An offline campaign: long searches on the boards of a set, best lines kept in a store.

    Each board pass runs the rounds on one board in order, each continuing
    from the best line so far (the store's), boards side by side.  Prints
    each round (the score, the four largest groups its line removed: did it
    gather a second colour?, the board's best) and, on a local run, each score
    that beats the stored best while a round runs.  Writes the results file
    after every board pass that improved a line and at the end, then prints
    the set's total as the rules replay it.  Ctrl-C or SIGTERM stops every
    search within a second: the lines found so far are stored and written,
    and the same command again resumes with the board passes not yet done.
    """
    from gridfall.samegame.boards import load_board, set_specs
    from gridfall.samegame.campaign import (
        BoardPass,
        parse_rounds,
        play_board_pass,
        round_line,
    )
    from gridfall.samegame.results_file import check_replaceable
    from gridfall.samegame.store import SolutionStore, StoreError

    if not out:
        refuse_given(("note",), "only with --out (the note goes on the campaign's line in the results file)")
    if len(note.splitlines()) > 1:  # a second line would be read as a row of the results file
        raise click.BadParameter(f"{note!r}: one line of words, no line break", param_hint="--note")
    try:
        planned = parse_rounds(rounds)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--rounds") from None
    specs = set_specs(set_name)
    numbers = _board_numbers(boards, set_name, len(specs))
    if out and os.path.isfile(out):  # a device or a pipe is only written (reading /dev/stdout waited for ever)
        try:
            check_replaceable(out, set_name)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    try:
        store = SolutionStore(store_path)
    except StoreError as e:
        raise click.BadParameter(str(e), param_hint="--store") from None
    click.get_current_context().call_on_close(store.close)  # however the campaign ends
    say = console()
    results = _ResultsFile(out, store, set_name, campaign_line(rounds, threads, seed, passes, boards, note), say)

    if not planned:  # only the results file
        print_total(store, specs, set_name, say)
        results.write("")
        sys.exit(1 if results.unwritten else 0)
    settings = {"set": set_name, "boards": numbers, "rounds": [r.text() for r in planned], "fresh": fresh,
                "threads": threads, "seed": seed, "passes": passes}
    run = open_run(db, "samegame campaign", settings, grows=("passes",))
    done = run.done()
    state = _Progress(finished=len(done))
    total_jobs = passes * len(numbers)
    executor = open_executor(workers, cluster, run, "board", len(numbers), threads)  # its passes one by one
    local = executor.local

    def board_passes():
        for p in range(passes):
            for number in numbers:
                spec = specs[number - 1]
                key = f"pass {p + 1} {spec}"
                if key in done:
                    continue
                while spec in state.busy:  # its last pass is under way: this one continues from it
                    yield WAIT
                entry = store.best(load_board(spec))
                state.busy.add(spec)
                yield BoardPass(key, spec, tuple(planned), (seed + 1000 * p) * 1000, threads,
                                entry.moves if entry and not fresh else None, entry.score if entry else None,
                                fresh, local)

    def finished(job, result):
        state.busy.discard(job.spec)
        board = load_board(job.spec)
        improved = False
        for r in result.rounds:
            if store.offer(board, list(_cells(r.moves)), algo=r.how, seconds=r.seconds, seed=r.seed):
                improved = True
        best = store.best(board)
        lines = [round_line(job.spec, r, best.score if best else r.score, False) for r in result.rounds]
        if not local:
            for text in lines:
                say.print(text)
        state.improved |= improved
        if result.stopped:
            say.print(f"{job.spec}: stopped; the round under way stored its best line so far")
            return
        from gridfall.arena.database import GameRow

        run.add(GameRow(job=job.key, game="samegame", commands=[r.how for r in result.rounds], seats=[job.spec],
                        moves=best.moves if best else "", result={"scores": [r.score for r in result.rounds],
                                                                  "best": best.score if best else None},
                        reason="ok", times=[round(r.took, 2) for r in result.rounds],
                        messages=lines))
        state.finished += 1
        if improved and state.finished < total_jobs:
            results.write(f", last written after {state.finished} of {total_jobs} board passes ({job.key})",
                          final=False)

    try:  # from here on a stop, even one while the workers warm, closes the cluster before the exit
        say.print(f"campaign: {counted(len(numbers), 'board')} x {counted(passes, 'pass', 'passes')}, "
                  f"{counted(len(planned), 'round')} each ({counted(len(done), 'board pass', 'board passes')} "
                  f"stored in {run.path}), {executor.describe()}")
        if len(done) < total_jobs:  # each worker's rounds search from their first second, not compile
            from gridfall.warmup import warm_saying

            executor.prepare(lambda: warm_saying("samegame"))
        interrupted = drive(executor, board_passes(), play_board_pass, finished, drain=True)
    except JobFailed as e:
        raise click.ClickException(f"a board pass failed: {e} (the lines found so far are in the store)")
    except StoreError as e:  # a full disk, say
        raise click.ClickException(f"{e}; the lines stored before are kept: make room and run the same command "
                                   "again to resume") from None
    finally:
        executor.close()
    print_total(store, specs, set_name, say)
    if interrupted:
        for spec in sorted(state.busy):  # its worker did not answer the stop in time (DRAIN_SECONDS)
            say.print(f"{spec}: no answer from its worker, so the round under way is lost; it runs again on a resume")
        where = f", stopped after {state.finished} of {total_jobs} board passes"
        if state.improved:
            results.write(where)
        else:
            say.print(f"no board improved; {out or 'no results file'} left as it was")
        kept = "the lines that came back are stored" if state.busy else \
            "the lines found so far are stored"
        say.print(f"{where[2:]}; {kept}; run the same command to resume")
        sys.exit(exit_code(True))
    if state.improved:
        results.write("")
    else:
        say.print(f"no board improved; {out or 'no results file'} left as it was")
    if results.unwritten:
        sys.exit(1)


def _board_numbers(boards: str, set_name: str, size: int) -> list[int]:
    """The board numbers --boards names (``1-5,8``; empty: the whole set), checked against the set."""
    try:
        numbers = number_list(boards) if boards else list(range(1, size + 1))
    except ValueError as e:
        raise click.BadParameter(f"{e}; give board numbers like 1-5,8", param_hint="--boards") from None
    bad = [n for n in numbers if not 1 <= n <= size]
    if bad:
        raise click.BadParameter(f"{bad[0]}: the {set_name} set has boards 1 to {size}", param_hint="--boards")
    return numbers


class _ResultsFile:
    """The campaign's results file (--out), written after every board pass that improved a line (so
    that a stopped campaign leaves one) and at the end, which alone is announced.  A write that
    fails is said and leaves ``unwritten`` set: the lines are in the store, the campaign goes on,
    and it ends with exit code 1."""

    def __init__(self, path: str | None, store, set_name: str, line: str, say):
        self.path, self.store, self.set_name, self.line, self.say = path, store, set_name, line, say
        self.unwritten = False

    def write(self, progress: str, final: bool = True) -> None:
        from gridfall.samegame.results_file import write_results

        if not self.path:
            return
        try:
            write_results(self.store, self.path, self.set_name, self.line, progress)
        except OSError as e:
            self.unwritten = True
            self.say.print(f"cannot write {self.path}: {e.strerror or e}; it is left as it was, and the lines are in "
                           f"the store (`gridfall samegame store export --format results` writes them)")
            return
        self.unwritten = False
        if final:
            self.say.print(f"wrote {self.path}")


def _cells(text: str):
    from gridfall.samegame.line import Line

    return Line.from_text(text) if text else []


def campaign_line(rounds: str, threads: int, seed: int, passes: int, boards: str, note: str) -> str:
    """This campaign's line in the results file, without how far it has got."""
    from gridfall.machine import machine_line

    named = (f" --passes {passes}" if passes > 1 else "") + (f" --boards {boards}" if boards else "")
    return (f"# campaign: gridfall samegame campaign --rounds {rounds} --threads {threads} --seed {seed}{named} "
            f"({machine_line()})" + (f", {note}" if note else ""))


def print_campaign_standing(stored, as_json: bool) -> None:
    """``gridfall standings`` of a campaign's run database (a
    :class:`~gridfall.arena.database.StoredRun`): each board's passes done, its best score after
    the last of them and that pass's rounds, read from the run alone (its store may be elsewhere)."""
    from rich.table import Table

    from gridfall import json_text

    settings = stored.settings
    latest: dict[str, dict] = {}
    for row in sorted(stored.rows, key=lambda row: int(row.job.split()[1])):  # "pass P SPEC": the last pass wins
        board = latest.setdefault(row.seats[0], {"board": row.seats[0], "passes": 0})
        board.update(passes=board["passes"] + 1, best=row.result.get("best"), rounds=row.result.get("scores", []))
    boards = sorted(latest.values(), key=lambda board: int(board["board"].rpartition(":")[2]))
    planned = settings["passes"] * len(settings["boards"])
    total = sum(board["best"] or 0 for board in boards)
    if as_json:
        click.echo(json_text.dumps({"set": settings["set"], "rounds": settings["rounds"], "board_passes": len(stored.rows),
                                    "planned": planned, "boards": boards, "total": total}))
        return
    out = console()
    out.print(f"campaign on {counted(len(settings['boards']), settings['set'] + ' board')}, rounds "
              f"{', '.join(settings['rounds'])}: {len(stored.rows)} of {counted(planned, 'board pass', 'board passes')} "
              "done")
    table = Table()
    for column in ("board", "passes", "best", "last pass's rounds"):
        table.add_column(column, justify="left" if column == "board" else "right")
    for board in boards:
        table.add_row(board["board"], str(board["passes"]), str(board["best"]),
                      " ".join(map(str, board["rounds"])))
    out.print(table)
    out.print(f"total of the boards' best after their last pass: {total}")


def print_total(store, specs: list[str], set_name: str, say) -> None:
    """Print the set's total as the rules of record replay the stored lines."""
    from gridfall.samegame import rules
    from gridfall.samegame.boards import load_board

    total = 0
    for spec in specs:
        entry = store.best(load_board(spec))
        if entry is not None:
            total += rules.judge(load_board(spec), rules.split_one_turn(entry.moves), strict=True).score
    say.print(f"total over the {set_name} boards in the store, replayed by the rules: {total}")
