"""The ``compare`` commands of the single-player games, written once: play, store, judge, print."""

from __future__ import annotations

import json
import math
import sys
from typing import Callable

import click

from gridfall.arena.executor import JobFailed, drive
from gridfall.arena.runs import open_executor, open_run
from gridfall.arena.signals import exit_code
from gridfall.cli_options import console
from gridfall.viewer.options import write_run_replay


def parse_two_bots(values: tuple[str, ...], built_in: tuple[str, ...]) -> list[tuple[str, str]]:
    """Two ``NAME=COMMAND`` values (a built-in name may stand alone), with different names."""
    bots = []
    for value in values:
        name, sep, command = value.partition("=")
        if not sep:
            if value not in built_in:
                raise click.BadParameter(f"{value!r}: give NAME=COMMAND" + (f" (or {', '.join(built_in)})" if built_in else ""),
                                         param_hint="--bot")
            name, command = value, value
        if not name.strip() or not command.strip():
            raise click.BadParameter(f"{value!r}: both the name and the command must be given", param_hint="--bot")
        bots.append((name.strip(), command.strip()))
    if len(bots) != 2:
        raise click.BadParameter(f"give exactly two bots (got {len(bots)})", param_hint="--bot")
    if bots[0][0] == bots[1][0]:
        raise click.BadParameter(f"both bots are named {bots[0][0]!r}", param_hint="--bot")
    return bots


def run_comparison(*, kind: str, bots: list[tuple[str, str]], items: list[str], make_job: Callable, work: Callable,
                   settings: dict, db: str | None, workers: int | None, cluster: str | None, as_json: bool,
                   item_label: str, transform: Callable[[float], float] = float, transform_label: str = "",
                   prepare: Callable | None = None, replay_path: str | None = None,
                   grows: tuple[str, ...] = ()) -> None:
    """Play every item with both bots (``make_job(item, name, spec)`` -> a job, ``work(job)`` -> a
    GameRow with ``result["score"]``), store each game, then print the comparison of
    ``transform(score)`` and exit.  ``grows``: the setting that lists the items, which may grow."""
    from rich.progress import Progress
    from rich.table import Table
    from rich.text import Text

    from gridfall.arena.compare import compare

    run = open_run(db, kind, settings, grows=grows)
    stored = {row.job: row for row in run.rows()}
    jobs = [make_job(item, name, spec) for item in items for name, spec in bots]
    todo = [job for job in jobs if job.key not in stored]
    executor = open_executor(workers, cluster, run)
    err = console(stderr=True)
    err.print(f"{kind}: {len(items)} {item_label}s x 2 bots ({len(jobs) - len(todo)} stored in {run.path}), "
              f"{executor.describe()}")
    if prepare is not None and todo:
        executor.prepare(prepare)
    try:
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("playing", total=len(jobs), completed=len(jobs) - len(todo))

            def on_row(job, row):
                run.add(row)
                stored[row.job] = row
                progress.advance(task)

            interrupted = drive(executor, todo, work, on_row)
    except JobFailed as e:
        raise click.ClickException(f"a game could not be played: {e} (the games stored so far are kept in {run.path})")
    finally:
        executor.close()
    write_run_replay(replay_path, run.path, f"gridfall {kind}: {bots[0][0]} = {bots[0][1]}, {bots[1][0]} = {bots[1][1]}")
    names = (bots[0][0], bots[1][0])
    rows = []
    for item in items:
        pair = [stored.get(make_job(item, name, spec).key) for name, spec in bots]
        rows.append((item, pair))
    complete = [(item, pair) for item, pair in rows if pair[0] is not None and pair[1] is not None]
    scores = [[transform(pair[i].result["score"]) for _, pair in complete] for i in (0, 1)]
    result = compare(names, scores[0], scores[1])
    if as_json:
        click.echo(json.dumps({
            item_label + "s": [{item_label: item, **{names[i]: (pair[i].result if pair[i] else None) for i in (0, 1)}}
                               for item, pair in rows],
            "comparison": result.to_json(), "measure": transform_label or "score", "db": str(run.path),
            "interrupted": interrupted}))
        sys.exit(exit_code(interrupted))
    out = console()
    table = Table(title=Text(f"{names[0]} = {bots[0][1]}   {names[1]} = {bots[1][1]}"))
    for column in (item_label, names[0], names[1], f"{names[0]} - {names[1]}" + (f" ({transform_label})" if transform_label else "")):
        table.add_column(column, justify="left" if column == item_label else "right")
    for item, pair in rows:
        cells = [_cell(row) for row in pair]
        difference = (f"{transform(pair[0].result['score']) - transform(pair[1].result['score']):+,.2f}"
                      if pair[0] is not None and pair[1] is not None else "")
        table.add_row(Text(item), *cells, difference)
    out.print(table)
    measure = f" of {transform_label}" if transform_label else ""
    out.print(f"{len(complete)} {item_label}s with both: {names[0]} better on {result.wins}, ties {result.ties}, "
              f"worse on {result.losses}; mean difference{measure} {result.mean:+,.2f}, "
              f"95% bootstrap interval [{result.low:+,.2f}, {result.high:+,.2f}]")
    out.print(result.verdict())
    out.print(f"games stored in {run.path}" + ("; interrupted: run the same command to resume" if interrupted else ""))
    sys.exit(exit_code(interrupted))


def _cell(row) -> object:
    from rich.text import Text

    if row is None:
        return Text("not played")
    if not row.result.get("ok", True):
        return Text(f"0 ({row.reason[:60]})", "red")
    return f"{row.result['score']:,}"


def log2_score(score: float) -> float:
    """log2(1 + score): Match-3 totals span orders of magnitude, so they are compared as logs."""
    return math.log2(1 + score)
