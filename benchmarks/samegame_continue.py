"""How much each way of continuing from a good SameGame line adds, at equal time.

Offline, gridfall spends most of its time improving lines it has already
found.  This script makes a base line for each board (``--base``, such as 60 s
of NRPA; kept in ``--lines`` so that later runs reuse the same lines), then
gives every ``--continue`` entry the same start and its seconds, one core a
board, and prints what each reached: total, gain over the base, boards higher
and lower than the base.

    python benchmarks/samegame_continue.py --boards 31-46 --base nrpa:60:spare=2 \\
        --continue nrpa:60:spare=2,anneal:60,anneal:60:temp_from=100.0 --lines /tmp/base-lines.jsonl

An entry is ``ALGO:SECONDS[:KEY=VALUE...]``, or several joined by ``+``, each continuing
from the line of the one before (``nrpa:60+anneal:60``); every entry starts from the base
line (``solve(guide=...)``), which can be such a chain too.  Tune on the tuning boards (the
default set), not the standard ones.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from contextlib import nullcontext

from common import (
    check_search, console, count, duration, each_until_stopped, finish, first_paragraph, numbers,
    parse_options, run_script, text_of, usable_cores,
)
from rich.table import Table

from gridfall.arena.pool import run_jobs
from gridfall.arena.signals import exit_code
from gridfall.samegame import rules
from gridfall.samegame.boards import BoardError, load_board
from gridfall.samegame.search import solve


def parse_entry(text: str, where: str) -> list[tuple[str, float, dict]]:
    """``nrpa:60:spare=2+anneal:60`` -> [("nrpa", 60.0, {"spare": 2}), ("anneal", 60.0, {})]."""
    steps = []
    for step in text.split("+"):
        algo, _, rest = step.partition(":")
        seconds, *options = rest.split(":")
        try:
            steps.append((algo, duration(seconds), parse_options(options, where)))
        except (ValueError, argparse.ArgumentTypeError):
            raise SystemExit(f"{where}: {step!r} is not ALGO:SECONDS[:KEY=VALUE...]") from None
        check_search(algo, steps[-1][1], steps[-1][2], f"{where}: {step!r}")
    return steps


def run_chain(board, steps, seed: int, guide=None):
    """Each step continues from the line of the one before; the last step's solution."""
    solution = None
    for algo, seconds, params in steps:
        solution = solve(board, seconds, algo=algo, seed=seed, guide=guide, **params)
        guide = solution.moves
    return solution


def read_lines(path: str, made: str) -> dict[str, list[tuple[int, int]]]:
    """The base lines that ``path`` keeps for boards made as ``made`` (none if it does not exist);
    exits naming the file and line if it cannot be read or a line is not one this script wrote."""
    if not os.path.exists(path):
        return {}
    known = {}
    for number, line in enumerate(text_of(path, f"--lines {path}").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if row["made"] == made:
                known[row["board"]] = [(int(x), int(y)) for x, y in row["moves"]]
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"--lines {path}:{number}: not a base line of this script ({e!r:.80})") from None
    return known


def base_lines(specs, base, seed, path, workers, err) -> dict[str, list[tuple[int, int]]] | None:
    """The base line of every board: read from ``path`` when it holds one made the same way,
    else searched and appended there, each as soon as it is found; None if Ctrl-C stopped the
    searches (the lines found before it are kept)."""
    made = "+".join(":".join([algo, f"{seconds:g}", *(f"{k}={v}" for k, v in sorted(params.items()))])
                    for algo, seconds, params in base) + f":seed={seed}"
    known = read_lines(path, made) if path else {}
    missing = [spec for spec in specs if spec not in known]
    if not missing:
        return {spec: known[spec] for spec in specs}
    try:  # opened before the searches, so that a path that cannot be written costs no search
        keep = open(path, "a", encoding="utf-8") if path else None
    except OSError as e:
        raise SystemExit(f"--lines {path}: cannot write it: {e.strerror}") from None
    err.print(f"making base lines for {len(missing)} boards ({made})")

    def found(i: int, solution) -> None:
        known[missing[i]] = solution.moves
        if keep:
            keep.write(json.dumps({"board": missing[i], "made": made, "score": solution.score,
                                   "moves": solution.moves}) + "\n")
            keep.flush()

    with keep or nullcontext():
        finished = run_jobs(missing, lambda spec: run_chain(load_board(spec), base, seed), workers, on_done=found)
    if finished.interrupted:
        kept = f", kept in {path}" if path else " (--lines keeps them for the next run)"
        err.print(f"stopped while making the base lines: {len(known)} of {len(specs)} made{kept}")
        return None
    return {spec: known[spec] for spec in specs}


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--set", default="tuning", help="board set (tuning, balanced, dominant, ...)")
    parser.add_argument("--boards", default="31-46", help="board numbers, e.g. 31-46 or 1,5,9")
    parser.add_argument("--base", default="nrpa:60:spare=2", help="how each base line is made: ALGO:SECONDS[:KEY=VALUE...]")
    parser.add_argument("--continue", dest="continuations", default="nrpa:60:spare=2,anneal:60",
                        help="ALGO:SECONDS[:KEY=VALUE...],... each continued from the base line")
    parser.add_argument("--lines", help="a JSON-lines file that keeps the base lines between runs")
    parser.add_argument("--workers", type=count, default=usable_cores(),
                        help="boards at once, one core each (default: the cores it may use)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the base lines' seed; the continuations run with the next one (default 1)")
    args = parser.parse_args()
    specs = [f"{args.set}:{n}" for n in numbers(args.boards, "--boards")]
    base = parse_entry(args.base, "--base")
    entries = [(text, parse_entry(text, "--continue")) for text in args.continuations.split(",")]
    err = console(stderr=True)
    try:
        boards = {spec: load_board(spec) for spec in specs}
    except BoardError as e:
        parser.error(f"--set {args.set} --boards {args.boards}: {e}")
    for _, steps in entries:  # load kernels outside the clock
        for algo, _, params in steps:
            solve(boards[specs[0]], 0.05, algo=algo, **params)
    lines = base_lines(specs, base, args.seed, args.lines, args.workers, err)
    if lines is None:
        return exit_code(True)
    base_scores = {spec: rules.play_sequence(boards[spec], lines[spec])[1] for spec in specs}
    steps_of = dict(entries)

    def measure(text: str) -> tuple[dict[str, int], float] | None:
        """Each board's score continued by the entry ``text`` from its base line, and the seconds."""
        steps = steps_of[text]
        started = time.monotonic()
        finished = run_jobs(specs, lambda spec: run_chain(boards[spec], steps, args.seed + 1, lines[spec]).score,
                            args.workers)
        if finished.interrupted:
            return None
        return dict(zip(specs, finished.results)), time.monotonic() - started

    measured, stopped = each_until_stopped([text for text, _ in entries], measure, "continuations",
                                           said=lambda text, got: f"{text}: total {sum(got[0].values())} ({got[1]:.0f} s)")
    scores = {text: got[0] for text, got in measured.items()}
    entries = [(text, steps) for text, steps in entries if text in scores]

    base_total = sum(base_scores.values())
    summary = Table(title=f"continuing from {args.base} lines (seed {args.seed}), {args.set} boards {args.boards}, one core a board")
    for column in ("continuation", "total", "gain", "higher", "lower"):
        summary.add_column(column, justify="right")
    summary.add_row("(base)", f"{base_total:,}", "", "", "")
    for text, *_ in entries:
        got = scores[text]
        summary.add_row(text, f"{sum(got.values()):,}", f"{sum(got.values()) - base_total:+,}",
                        str(sum(got[s] > base_scores[s] for s in specs)), str(sum(got[s] < base_scores[s] for s in specs)))
    per_board = Table(title="per board")
    per_board.add_column("board")
    per_board.add_column("base", justify="right")
    for text, *_ in entries:
        per_board.add_column(text, justify="right")
    for spec in specs:
        per_board.add_row(spec, str(base_scores[spec]), *[str(scores[text][spec]) for text, *_ in entries])
    return finish(stopped, summary, per_board)


if __name__ == "__main__":
    run_script(main)
