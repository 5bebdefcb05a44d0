"""The ``compare`` commands of the single-player games, written once: play, store, judge, rank, print."""

from __future__ import annotations

import math
import sys
from collections import Counter
from typing import TYPE_CHECKING, Callable

import click

from gridfall import json_text
from gridfall.arena.executor import JobFailed, drive
from gridfall.arena.fallback import counts_json, said_loading, said_so, summary
from gridfall.arena.faults import faults_json, faults_table
from gridfall.arena.runs import open_executor, open_run
from gridfall.arena.signals import exit_code
from gridfall.cli_output import console
from gridfall.printable import line_breaker
from gridfall.viewer.options import write_run_replay
from gridfall.words import counted, said_once

if TYPE_CHECKING:
    from rich.text import Text


def parse_bots(values: tuple[str, ...], built_in: tuple[str, ...]) -> list[tuple[str, str]]:
    """Two or more ``NAME=COMMAND`` values (a built-in name may stand alone), each name once."""
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
        check_name(name.strip(), value)
        bots.append((name.strip(), command.strip()))
    if len(bots) < 2:
        raise click.BadParameter(f"give at least two bots (got {len(bots)})", param_hint="--bot")
    names = [name for name, _ in bots]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise click.BadParameter(f"the name {twice!r} is given twice", param_hint="--bot")
    return bots


def check_name(name: str, value: str) -> None:
    """A bot's name is one line of text: the tables, pages and standings show it."""
    bad = line_breaker(name)
    if bad is not None:
        raise click.BadParameter(f"{value!r}: the name holds {bad!r}; a name is one line of printable text",
                                 param_hint="--bot")


def run_comparison(*, kind: str, bots: list[tuple[str, str]], items: list[str], make_job: Callable, work: Callable,
                   settings: dict, db: str | None, workers: int | None, cluster: str | None, as_json: bool,
                   item_label: str, transform: Callable[[float], float] = float, transform_label: str = "",
                   ready: Callable | None = None, replay_path: str | None = None,
                   grows: tuple[str, ...] = (), changed: Callable | None = None,
                   bot_files: dict[str, list[str]] | None = None,
                   notes: Callable[[list[str], list[tuple[str, list]]], list[str]] | None = None) -> None:
    """Play every item with every bot (``make_job(item, name, spec)`` -> a job, ``work(job)`` -> a
    GameRow with ``result["score"]``), store each game, then print the comparison of
    ``transform(score)`` and exit: for two bots their paired difference and its verdict, for more a
    ranking by mean, each bot against the first, and every pairing.  ``grows``: the setting that
    lists the items, which may grow.  ``changed(rows, todo)``: a message if games still to play would
    be played on something other than the stored games of their item were (a board file edited
    since), which refuses the resume: a paired difference between two versions of an item means
    nothing.  ``bot_files`` ({name: files}, by default the files each bot's command names): a
    bot's file edited since its games were stored is refused too.  ``notes(names, rows)``: the
    game's own lines under the table (print_comparison).  ``ready(executor, commands)``: before
    the first game, given the commands of the bots with games still to play (none to play: not
    called), names what the user should know of them and readies them where the games run."""
    from rich.progress import Progress

    from gridfall.arena.bot_files import files_named

    if bot_files is None:
        bot_files = {name: files_named(command) for name, command in bots}
    run = open_run(db, kind, settings, grows=grows, bot_files=bot_files)
    run.keep_extra("measure", transform_label or "score")  # for `gridfall standings`, which has no --raw
    stored = {row.job: row for row in run.rows()}
    made = [(make_job(item, name, spec), spec) for item in items for name, spec in bots]
    jobs = [job for job, _ in made]
    todo = [job for job in jobs if job.key not in stored]
    if changed is not None and todo and (complaint := changed(stored.values(), todo)):
        raise click.UsageError(f"{complaint} ({run.path} holds them; another --db starts a clean run)")
    executor = open_executor(workers, cluster, run, "game", len(todo))
    err = console(stderr=True)
    try:  # from here on a stop, even one while the bots warm, closes the cluster before the exit
        err.print(f"{kind}: {counted(len(items), item_label)} x {len(bots)} bots "
                  f"({len(jobs) - len(todo)} stored in {run.path}), {executor.describe()}")
        if ready is not None and todo:
            ready(executor, list(dict.fromkeys(spec for job, spec in made if job.key not in stored)))
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
    write_run_replay(replay_path, run.path,
                     f"gridfall {kind}: " + ", ".join(f"{name} = {command}" for name, command in bots))
    rows = [(item, [stored.get(make_job(item, name, spec).key) for name, spec in bots]) for item in items]
    print_comparison(bots, rows, item_label=item_label, transform=transform, transform_label=transform_label,
                     db=str(run.path), interrupted=interrupted, as_json=as_json, notes=notes)
    sys.exit(exit_code(interrupted))


def print_comparison(bots: list[tuple[str, str]], rows: list[tuple[str, list]], *, item_label: str,
                     transform: Callable[[float], float], transform_label: str, db: str, interrupted: bool,
                     as_json: bool, playing: bool = False,
                     notes: Callable[[list[str], list[tuple[str, list]]], list[str]] | None = None) -> None:
    """The comparison of ``rows`` (each item with every bot's GameRow, or None where not played yet):
    its JSON, or its tables (``playing``: read from a run that may still be playing) with the
    lines ``notes(names, rows)`` gives under them (such as SameGame's codingame.compare_notes)."""
    from rich.table import Table
    from rich.text import Text

    from gridfall.arena.compare import compare, rank

    names = [name for name, _ in bots]
    complete = [(item, row) for item, row in rows if all(game is not None for game in row)]
    scores = {name: [transform(row[i].result["score"]) for _, row in complete] for i, name in enumerate(names)}
    ranking = rank(scores, unit=item_label)
    pairs = [compare((a, b), scores[a], scores[b], unit=item_label) for k, a in enumerate(names) for b in names[k + 1:]]
    faults = _faults(rows)
    played = Counter(names[i] for _, row in rows for i, game in enumerate(row) if game is not None)
    on_fallback = Counter(names[i] for _, row in rows for i, game in enumerate(row)  # gridfall.arena.fallback
                          if game is not None and any(map(said_so, game.result.get("output", []))))
    if as_json:
        report = {
            item_label + "s": [{item_label: item, **{names[i]: (game.result if game else None) for i, game in enumerate(row)}}
                               for item, row in rows],
            "ranking": [place.to_json() for place in ranking], "comparisons": [pair.to_json() for pair in pairs],
            "measure": transform_label or "score", "faults": faults_json(faults),
            "fallback_" + item_label + "s": counts_json(on_fallback), "db": db, "interrupted": interrupted}
        if len(bots) == 2:
            report["comparison"] = pairs[0].to_json()
        click.echo(json_text.dumps(report))
        return
    out = console()
    table = Table(title=Text("   ".join(f"{name} = {command}" for name, command in bots)))
    table.add_column(item_label)
    for name in names:
        table.add_column(name, justify="right")
    if len(bots) == 2:
        table.add_column(f"{names[0]} - {names[1]}" + (f" ({transform_label})" if transform_label else ""), justify="right")
    for item, row in rows:
        cells = [_cell(game) for game in row]
        if len(bots) == 2:
            cells.append(f"{transform(row[0].result['score']) - transform(row[1].result['score']):+,.2f}"
                         if row[0] is not None and row[1] is not None else "")
        table.add_row(Text(item), *cells)
    out.print(table)
    if faults:  # above, a broken bot's games look like a weak one's: this says what went wrong
        out.print(faults_table(faults, f"{item_label}s where a bot failed, and why"))
    fallback_line = summary(on_fallback, played, unit=item_label,
                            loading=said_loading(text for _, row in rows for game in row if game is not None
                                                 for text in game.result.get("output", [])))
    for line in [fallback_line, *(notes(names, rows) if notes else [])]:
        if line:
            out.print(Text(line))  # bot names and board files are the user's: text, never markup
    measure = f" of {transform_label}" if transform_label else ""
    if len(bots) == 2:
        result = pairs[0]
        out.print(f"{counted(len(complete), item_label)} with both: {names[0]} better on {result.wins}, ties {result.ties}, "
                  f"worse on {result.losses}; mean difference{measure} {result.mean:+,.2f}, "
                  f"95% bootstrap interval [{result.low:+,.2f}, {result.high:+,.2f}]")
        out.print(result.verdict() + (" (so far: the run may still be playing)" if playing else ""))
    else:
        out.print(_ranking_table(ranking, f"ranking over the {counted(len(complete), item_label)} every bot played"
                                          f" (mean{measure})", item_label))
        out.print(_pairings_table(pairs))
        out.print("Each interval is the paired bootstrap's on its own, with no correction for the number of pairs."
                  + (" So far: the run may still be playing." if playing else ""))
    if not playing:
        out.print(f"games stored in {db}" + ("; interrupted: run the same command to resume" if interrupted else ""))


def _ranking_table(ranking: list, title: str, item_label: str):
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title)
    for column in ("#", "bot", "mean", f"best on ({item_label}s)", "the first minus it [95%]", "verdict"):
        table.add_column(column, justify="left" if column in ("bot", "verdict") else "right")
    for number, place in enumerate(ranking, start=1):
        against = place.against_first
        table.add_row(str(number), Text(place.name), f"{place.mean:,.2f}", str(place.best_on),
                      "" if against is None else f"{against.mean:+,.2f} [{against.low:+,.2f}, {against.high:+,.2f}]",
                      Text(place.verdict()))
    return table


def _pairings_table(pairs: list):
    from rich.table import Table
    from rich.text import Text

    table = Table(title="every pairing: the first bot's mean difference [95%]")
    for column in ("bot", "against", "better on", "ties", "worse on", "difference [95%]"):
        table.add_column(column, justify="left" if column in ("bot", "against") else "right")
    for pair in pairs:
        table.add_row(Text(pair.names[0]), Text(pair.names[1]), str(pair.wins), str(pair.ties), str(pair.losses),
                      f"{pair.mean:+,.2f} [{pair.low:+,.2f}, {pair.high:+,.2f}]")
    return table


def _cell(row) -> Text | str:
    from rich.text import Text

    if row is None:
        return Text("not played")
    if not row.result.get("ok", True):
        return Text(f"0 ({shortened(said_once(row.reason), 60)})", "red")
    if errors := row.result.get("errors"):  # games that ended on an error, their points kept
        return Text(f"{row.result['score']:,} ({counted(len(errors), 'error')})", "yellow")
    return f"{row.result['score']:,}"


def _faults(rows: list[tuple[str, list]]) -> dict[str, Counter]:
    """{bot: Counter of what went wrong} over the games that failed (a crash, a timeout, an illegal
    answer, a file that would not load), or that went on past an error (a Match-3 game that ended on
    a raise keeps its points, and the run plays the next board: ``result["errors"]``)."""
    faults: dict[str, Counter] = {}
    for _, games in rows:
        for game in games:
            if game is None:
                continue
            errors = game.result.get("errors", [])
            if not game.result.get("ok", True):
                reason = said_once(game.reason)
            elif errors:
                reason = errors[0] + (f" (and {counted(len(errors) - 1, 'board')} more)" if len(errors) > 1 else "")
            else:
                continue
            faults.setdefault(game.seats[0], Counter())[reason] += 1
    return faults


def shortened(text: str, width: int) -> str:
    """``text``, cut to ``width`` characters with an ellipsis that says it was cut."""
    return text if len(text) <= width else text[:width - 1] + "…"


def log2_score(score: float) -> float:
    """log2(1 + score): Match-3 totals span orders of magnitude, so they are compared as logs."""
    return math.log2(1 + score)
