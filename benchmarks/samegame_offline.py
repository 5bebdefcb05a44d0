"""Offline SameGame campaign: long searches on every board of a set, best lines kept in a store.

For each board and each round ``ALGO:SECONDS`` it runs ``solve`` with all the
workers, offers the line to the solution store (which keeps the best per
board) and prints the board's best so far, with the four largest groups the round's
line removed (size/colour: did it gather a second colour?); while a round runs, it prints each
score that beats the stored best, with the time it took.  Run it again to continue: the
store remembers, and an ``nrpa`` round continues from the board's stored best
line (``solve(guide=...)``: a level-4 search that starts from it), keeping for
last the colour that line kept, unless the round names a ``tabu_rank``
(``--fresh``: search from scratch).  Then it writes the results file
(board, score, moves, with # lines on how and with what budget each line was
found) and prints the total replayed by the rules of record.  The campaign
lines of the results file it replaces are carried forward below its own, so
the file keeps the history of every campaign behind its lines (read when it
rewrites the file, under a lock, and the new file replaces the old one whole:
two campaigns run side by side into one file on one store both keep their
lines).  ``--passes N`` goes over the boards N times, each pass with new seeds
and continuing from what the passes before found.  The results file is
rewritten after each pass and after every board a round improved, its
campaign line saying how far the campaign had got; Ctrl-C or a TERM signal
writes it once more, says where the campaign stopped and exits with 130, so
a campaign stopped early loses at most the round under way.

    python benchmarks/samegame_offline.py --set standard --rounds nrpa:300,mcbs:300 \
        --store results/samegame-standard.sqlite --out results/samegame-standard.txt
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import time

try:
    import fcntl
except ImportError:  # Windows: no flock; campaigns side by side should write different files there
    fcntl = None

from common import console, machine_line, parse_options
from samegame_anatomy import largest_groups

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board, set_specs
from gridfall.samegame.search import solve
from gridfall.samegame.store import SolutionStore, campaign_history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="standard")
    parser.add_argument("--boards", default="", help="comma list of board numbers (default: all)")
    # nrpa alone shares its time between the two most common colours kept for last; a round
    # with the third (tabu_rank=2) found the best known line on 3 of the 20 standard boards.
    # spare=2 lets the kept colour give up pairs: +1.4% at 120 s a board; colour_rate=0.3 learns
    # colour-phase weights as well: +1.8% more (docs/samegame-experiments.md).
    parser.add_argument("--rounds", default="nrpa:300:spare=2:colour_rate=0.3,nrpa:300:tabu_rank=2:spare=2:colour_rate=0.3,mcbs:300",
                        help="ALGO:SECONDS[:KEY=VALUE...],... run per board in order (e.g. nrpa:300:tabu_rank=2)")
    parser.add_argument("--fresh", action="store_true",
                        help="nrpa rounds search from scratch instead of continuing from the stored best line")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=1,
                        help="go over the boards this many times (new seeds each pass; results file after each)")
    parser.add_argument("--store", required=True)
    parser.add_argument("--out", help="write the results file here (after each pass); the campaign lines of "
                        "the file it replaces are kept below the new one")
    parser.add_argument("--note", default="", help="words added to this campaign's line in the results file "
                        "(e.g. where its store came from)")
    args = parser.parse_args()
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    if args.out and os.path.exists(args.out):
        try:
            earlier_campaigns(args.out, "")
        except (OSError, UnicodeDecodeError) as e:
            parser.error(f"--out {args.out}: cannot read the results file it would replace: {e}")
    store = SolutionStore(args.store)
    out = console()
    specs = set_specs(args.set)
    numbers = [int(b) for b in args.boards.split(",")] if args.boards else range(1, len(specs) + 1)
    rounds = []
    for text in filter(None, args.rounds.split(",")):  # --rounds "": only write the results file
        algo, seconds, *options = text.split(":")
        params = parse_options(options, f"--rounds {text}")
        rounds.append((algo, float(seconds), params))
    campaign = campaign_line(args)  # fixed at the start: a campaign crossing midnight keeps one line
    signal.signal(signal.SIGTERM, stop_on_term)
    where = "before its first board"
    improved_any = False  # a campaign that found nothing leaves the results file as it was
    try:
        for done in range(args.passes):
            if args.passes > 1:
                out.print(f"pass {done + 1} of {args.passes}")
            seed_base = (args.seed + 1000 * done) * 1000
            for i, number in enumerate(numbers):
                improved = run_rounds(store, specs[number - 1], rounds, args, seed_base=seed_base, out=out)
                improved_any |= improved
                where = (f"in pass {done + 1} of {args.passes}, " if args.passes > 1 else "") + \
                    f"after {i + 1} of {len(numbers)} boards (board {number})"
                if improved and i + 1 < len(numbers):
                    write_results(store, args, campaign, f", last written {where}")
            print_total(store, specs, args, out)
            if improved_any or not rounds:
                write_results(store, args, campaign, "" if done + 1 == args.passes else f", last written {where}", out)
            else:
                out.print(f"no board improved; {args.out or 'no results file'} left as it was")
    except KeyboardInterrupt as stop:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the file short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        improved_any |= getattr(stop, "improved", False)
        out.print(f"stopped {where}; the round under way stored its best line so far")
        if improved_any:
            write_results(store, args, campaign, f", stopped {where}", out)
        else:
            out.print(f"no board improved; {args.out or 'no results file'} left as it was")
        raise SystemExit(130)


class Interrupted(KeyboardInterrupt):
    """A round was stopped with its best line stored; ``improved`` says whether the board's improved."""

    def __init__(self, improved: bool):
        super().__init__()
        self.improved = improved


def stop_on_term(signum, frame) -> None:
    """A TERM signal stops the campaign as Ctrl-C does: the results file is written first."""
    raise KeyboardInterrupt


def run_rounds(store: SolutionStore, spec: str, rounds, args, seed_base: int, out) -> bool:
    """Every round on one board, each offered to the store; prints one line a round. True when
    the board's stored line improved."""
    any_improved = False
    board = load_board(spec)
    for i, (algo, seconds, params) in enumerate(rounds):
        seed = seed_base + i
        start = time.monotonic()
        record = store.best(board)
        stored = None if args.fresh else record

        def report(score: int) -> None:  # a long round would otherwise be silent for its whole length
            if record is None or score > record.score:
                out.print(f"  {spec}: {score} after {time.monotonic() - start:.0f} s of {seconds:g} "
                          f"(stored best {record.score if record else 'none'})")

        solution = solve(board, seconds, algo=algo, workers=args.workers, seed=seed, on_improve=report,
                         guide=stored.line() if stored else None, **params)
        if solution.notes.get("tabu_rank") is not None:  # as the search chose it to continue its guide
            params = {**params, "tabu_rank": solution.notes["tabu_rank"]}
        if solution.notes.get("spare"):
            params = {**params, "spare": solution.notes["spare"]}
        if solution.notes.get("soft"):  # continuing a line no hard colour choice could play
            params = {**params, "soft": solution.notes["soft"]}
        how = (f"{solution.algo} x{args.workers}" + "".join(f" {k}={v}" for k, v in params.items())
               + (" guided" if solution.notes.get("guided") else ""))
        improved = store.offer(board, solution.moves, algo=how, seconds=seconds, seed=seed)
        if solution.interrupted:  # Ctrl-C or SIGTERM: the round's best line is stored; now stop
            out.print(f"{spec}: {how}, stopped after {time.monotonic() - start:.0f} s of {seconds:g} with "
                      f"{solution.score}" + (" (improved)" if improved else ""))
            any_improved |= improved
            raise Interrupted(any_improved)
        best = store.best(board)
        gathered = largest_groups(rules.removed_groups(board, solution.moves))  # did it gather a second colour?
        out.print(f"{spec}: {how}, {seconds:g} s (seed {seed}) found {solution.score} "
                  f"in {time.monotonic() - start:.0f} s (largest groups {gathered}); best {best.score}"
                  + (" (improved)" if improved else ""))
        any_improved |= improved
    return any_improved


def print_total(store: SolutionStore, specs: list[str], args, out) -> None:
    """Print the set's total as the rules replay it."""
    total = 0
    for spec in specs:
        entry = store.best(load_board(spec))
        if entry is not None:
            judged = rules.judge(load_board(spec), rules.split_one_turn(entry.moves), strict=True)
            total += judged.score
    out.print(f"total over the {args.set} boards in the store, replayed by the rules: {total}")


def campaign_line(args) -> str:
    """This campaign's line in the results file, without how far it has got."""
    named = (f" --passes {args.passes}" if args.passes > 1 else "") + (f" --boards {args.boards}" if args.boards else "")
    note = f", {args.note}" if args.note else ""
    return (f"# campaign: benchmarks/samegame_offline.py --rounds {args.rounds} --workers {args.workers} "
            f"--seed {args.seed}{named} ({machine_line()}){note}")


def write_results(store: SolutionStore, args, campaign: str, progress: str, out=None) -> None:
    """Rewrite the results file (--out) from the store, this campaign's line (with ``progress``,
    empty once it is done) above the campaign lines of the file it replaces."""
    if not args.out:
        return
    line = f"{campaign}{progress}; each board's line below names the round that found it"
    with locked(args.out):  # two campaigns side by side must not read or write half a file
        history = earlier_campaigns(args.out, campaign) if os.path.exists(args.out) else []
        partial = f"{args.out}.{os.getpid()}.tmp"
        with open(partial, "w") as results:
            for text in [line, *history]:
                results.write(text + "\n")
            store.export_results(results, args.set)
        os.replace(partial, args.out)  # readers see the old file or the new one, never a part
    if out is not None:
        out.print(f"wrote {args.out}")


@contextlib.contextmanager
def locked(path: str):
    """Hold an exclusive lock on ``path``.lock while rewriting ``path`` (where the OS has flock)."""
    with open(f"{path}.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def earlier_campaigns(path: str, campaign: str) -> list[str]:
    """The campaign lines of the results file at ``path``, as they follow a newer one; read when
    the file is rewritten, so a campaign run beside this one into the same file keeps its line,
    and without ``campaign`` itself (its line from an earlier write, whatever progress it gave)."""
    own = "# before it: " + campaign[2:]
    with open(path) as old:
        return [line for line in campaign_history(old.read())
                if not line.startswith((own + ",", own + ";"))]


if __name__ == "__main__":
    main()
