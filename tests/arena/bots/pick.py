"""A Connect Four bot for the arena tests: always the same rule, so games are reproducible.

python3 pick.py first|centre|last [DELAY_SECONDS]: the lowest, most central or highest open
column (never STEAL), after sleeping DELAY_SECONDS each turn; its message and its stderr look like
markup and SQL, which the arena must store and show as plain text.  With PICK_RECORD_CPUS set, it first
appends to that file the CPUs a thread it starts may run on (the one-CPU tests).  With PICK_FIRST_WORDS
set, it writes them to stderr as it starts (the line of a bot on its pure-Python fallback, say).
"""

import os
import sys
import threading
import time

if os.environ.get("PICK_RECORD_CPUS"):
    def record():
        with open(os.environ["PICK_RECORD_CPUS"], "a") as out:
            out.write(" ".join(map(str, sorted(os.sched_getaffinity(0)))) + "\n")

    thread = threading.Thread(target=record)
    thread.start()
    thread.join()

if os.environ.get("PICK_FIRST_WORDS"):
    print(os.environ["PICK_FIRST_WORDS"], file=sys.stderr, flush=True)

rule = sys.argv[1]
delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
sys.stdin.readline()  # myId oppId
while True:
    turn = sys.stdin.readline()
    if not turn:
        break
    for _ in range(7):
        sys.stdin.readline()
    columns = [int(sys.stdin.readline()) for _ in range(int(sys.stdin.readline()))]
    sys.stdin.readline()  # the opponent's last action
    columns = [c for c in columns if c >= 0]
    if rule == "first":
        choice = min(columns)
    elif rule == "last":
        choice = max(columns)
    else:
        choice = min(columns, key=lambda c: (abs(c - 4), c))
    time.sleep(delay)
    print(f"{rule} at turn {turn.strip()}: <b>{choice}</b>", file=sys.stderr, flush=True)  # its debug output
    print(f"{choice} [bold]{rule}[/bold]'); DROP TABLE games; --", flush=True)
