"""``gridfall samegame ...``: the group, and the commands on one board or one file (show, score, solve, verify);
the bot and its export, the referee and the bench, the store, compare and campaign have modules of their own."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from gridfall import json_text
from gridfall.arena.signals import exit_code, stopping_on_signals
from gridfall.cli_options import ALL_CORES, WORKERS, FloatRange, all_cores, beyond_cores
from gridfall.cli_output import console, warm_kernels
from gridfall.lazy_group import LazyGroup
from gridfall.samegame import rules
from gridfall.samegame.boards import BoardError, load_board
from gridfall.samegame.line import Line
from gridfall.samegame.spec_completion import complete_board
from gridfall.samegame.store_cli import open_store, store, store_options
from gridfall.text_file import MOST_BYTES, NotText, read_text
from gridfall.viewer.options import replay_option, write_replay
from gridfall.words import counted


def _board(spec: str) -> rules.Board:
    try:
        return load_board(spec)
    except BoardError as e:
        raise click.BadParameter(str(e), param_hint="BOARD") from None


@click.group(cls=LazyGroup, lazy={"bot": "gridfall.samegame.platform_cli:bot",
                                  "export": "gridfall.samegame.platform_cli:export",
                                  "referee": "gridfall.samegame.referee_cli:referee",
                                  "bench": "gridfall.samegame.referee_cli:bench",
                                  "compare": "gridfall.samegame.arena_cli:compare",
                                  "campaign": "gridfall.samegame.campaign_cli:campaign"})
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
@click.argument("board", shell_complete=complete_board)
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
@click.argument("board", shell_complete=complete_board)
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
    lines = [text for text in line.splitlines() if text.strip()]
    if len(lines) > 1:  # the referee reads one line: the rest would be the first action's message, unplayed
        raise click.BadParameter(f"{len(lines)} lines; give the actions on one line, separated by ';' "
                                 "(\"x y;x y;...\"), as the one-turn flavour answers", param_hint="MOVES")
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
            click.echo(f"error: {judged.error_text}")
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
@click.argument("board", shell_complete=complete_board)
@click.option("--time", "seconds", type=FloatRange(min=0.01), default=10.0, show_default=True,
              help="Seconds to search (the search kernels load before the clock starts; "
                   "the first use compiles them).")
@click.option("--algo", type=click.Choice(["auto", "beam", "nmcs", "nrpa", "mcbs", "anneal"]), default="auto",
              show_default=True,
              help="auto: beam under 1 s, else nrpa with its last 30% of the time annealing its line; "
                   "anneal: improve the stored line (else the greedy line) by simulated annealing, "
                   "what pays once nrpa has converged.")
@click.option("--level", type=click.IntRange(1, 5), help="Nesting level for nmcs (default 2) or nrpa (default 3).")
@click.option("--workers", type=WORKERS, default=all_cores, show_default=ALL_CORES,
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
    beyond_cores(workers, "search", plural="searches")
    label = f"{board}: {resolve_algo(algo, seconds)} x{workers} for {seconds:g} s"
    if stored:
        label += f" (stored: {stored.score})"
    with stopping_on_signals():  # Ctrl-C, SIGTERM, SIGHUP: the best line so far is kept, stored, printed
        try:
            if not b.is_over():  # a board with no move is not searched
                warm_kernels("samegame", err)  # so that --time is spent searching, not compiling
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
    how = (f"({solution.algo} x{workers}{', continuing the stored line' if solution.notes.get('guided') else ''}, "
           f"{solution.seconds:.1f} s, seed {seed}, cleared {'yes' if solution.cleared else 'no'})")
    if solution.notes.get("over"):
        how = "(the board has no move: nothing to search)"
    click.echo(f"{board}: score {score} in {counted(n_moves, 'move')} ({source}); search found {solution.score} {how}"
               + (f"; stored line {stored.score}" if stored else "") + ("; store improved" if improved else "")
               + ("; interrupted: the best line so far" if solution.interrupted else ""))
    click.echo(moves)
    sys.exit(exit_code(solution.interrupted))


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
    first_line: dict[str, int] = {}  # a board's first row: a second one would count the board twice
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            spec, claimed, moves = results_row(line, set_name)
            board = load_board(spec)
        except (ValueError, BoardError) as e:
            raise click.ClickException(f"{path}:{line_no}: {e}") from None
        judged = rules.judge(board, rules.split_one_turn(moves), strict=strict)
        repeated = first_line.setdefault(spec, line_no) != line_no
        ok = judged.ok and judged.score == claimed and not repeated
        problems += not ok
        rows.append({"board": spec, "claimed": claimed, "replayed": judged.score, "moves": len(judged.actions),
                     "cleared": judged.cleared, "ok": ok, "counted": not repeated,
                     "error": f"again (line {first_line[spec]} has it), not counted" if repeated else judged.error})
    if not rows:  # the wrong file, most likely: a total of 0 would read as a verified file
        raise click.ClickException(f"{path} holds no results row (BOARD<TAB>SCORE<TAB>MOVES)")
    total = sum(r["replayed"] for r in rows if r["counted"])
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
        out.print(f"total {total:,} over {counted(len(first_line), 'board')}; {counted(problems, 'problem')}")
    sys.exit(1 if problems else 0)


samegame.add_command(store)
