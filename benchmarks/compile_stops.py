"""How often a Ctrl-C during a first compile in a program's main thread is lost, with and without
gridfall's hold (``gridfall/compile_stops.py``).

Each trial starts a fresh Python that compiles six small kernels in its main thread (numba, not
cached, so each run compiles) and sends itself SIGINT at a moment drawn within the compile.  The
program that imports numba alone runs as numba does; the one that imports gridfall first has the
hold.  A stop is lost when the program compiles to its end anyway: the KeyboardInterrupt was
raised inside one of LLVM's callbacks into Python, or a finalizer, and printed and dropped there.
Prints, for each, the stops that ended the compile, the ones lost, and how long after the signal
the stop landed.

    python benchmarks/compile_stops.py [--trials 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys

from common import console, count, first_paragraph, machine_line, run_script
from rich.progress import Progress
from rich.table import Table

PROGRAM = r'''
import json, os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C's, even under a shell that ignores it
if sys.argv[2] == "gridfall":
    import gridfall.jit  # noqa: F401  (the hold)
import numba
import numpy as np

SOURCE = """
def f{k}(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(b.shape[0]):
            s += np.sin(a[i]) * np.cos(b[j]) + {k}
    return s
"""
functions = []
for k in range(6):
    names = {"np": np}
    exec(SOURCE.format(k=k), names)
    functions.append(numba.njit(cache=False)(names[f"f{k}"]))
delay = float(sys.argv[1])
start = time.monotonic()
if delay > 0:
    threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    for f in functions:
        f(np.ones(3), np.ones(3))
    ended = "compiled"
except KeyboardInterrupt:
    ended = "stopped"
print(json.dumps({"ended": ended, "seconds": time.monotonic() - start}), flush=True)
time.sleep(0.5)  # a signal still to come lands here, not in the next trial
'''
MODES = {"numba alone": "numba", "gridfall's hold": "gridfall"}


def run(mode: str, delay: float) -> dict:
    """One trial: what the program printed, and whether its stderr holds a dropped exception."""
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(delay), mode], capture_output=True, text=True,
                          timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"the trial printed nothing (exit {done.returncode}): {done.stderr[-500:]}")
    outcome = json.loads(lines[-1])
    outcome["dropped"] = "Exception ignored" in done.stderr
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--trials", type=count, default=50, help="signals sent in each program (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moments drawn (default 1)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # the compile's length in each program, unstopped: the signal is drawn within the shorter
    length = min(run(mode, 0)["seconds"] for mode in MODES.values())
    moments = [rng.uniform(0.02, 0.95 * length) for _ in range(args.trials)]
    results: dict[str, list[dict]] = {name: [] for name in MODES}
    with Progress(console=console(stderr=True), transient=True) as progress:
        task = progress.add_task("trials", total=args.trials)
        for moment in moments:  # the two programs in turn, each moment in both: the same noise
            for name, mode in MODES.items():
                outcome = run(mode, moment)
                outcome["late"] = outcome["seconds"] - moment
                results[name].append(outcome)
            progress.advance(task)
    table = Table(title=f"SIGINT during a first compile in the main thread ({length:.2f} s unstopped)")
    for column in ("program", "trials", "stopped", "lost (compiled on)", "exceptions dropped",
                   "landed after the signal: median", "slowest"):
        table.add_column(column, justify="left" if column == "program" else "right")
    for name, outcomes in results.items():
        stopped = [o for o in outcomes if o["ended"] == "stopped"]
        late = [o["late"] for o in stopped]
        table.add_row(name, str(len(outcomes)), str(len(stopped)), str(len(outcomes) - len(stopped)),
                      str(sum(o["dropped"] for o in outcomes)),
                      f"{statistics.median(late):.2f} s" if late else "-", f"{max(late):.2f} s" if late else "-")
    console().print(table)
    console().print(machine_line())


if __name__ == "__main__":
    run_script(main)
