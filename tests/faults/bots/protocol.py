"""A CodinGame bot that commits one fault (argv[1]); any game, any flavour (gridfall-fault).

hang, late, garbage, empty, out-of-range, exit, crash, close-stdout, flood-stdout, flood-stderr,
deaf (never reads and never answers), fork (a child that outlives the bot), exit-child (it exits,
and a child it started keeps its output open), setsid (a child in a session of its own), markup
(a line with rich markup), bad-utf8, escape (terminal control sequences on stderr, then a crash),
hog (holds ever more memory, past CodinGame's 768 MB), hog-child (a child of the bot does),
hang-second (a format error on its first game, then it hangs: for the signal tests; FAULT_DIR
holds its memory).
"""

import os
import subprocess
import sys
import time

fault = sys.argv[1]
out = sys.stdout


def answer(text):
    out.write(text + "\n")
    out.flush()


if fault == "deaf":
    time.sleep(1000)
first = sys.stdin.readline()  # the first line of the first turn: the fault comes before any answer
if fault == "hang":
    time.sleep(1000)
elif fault == "late":
    time.sleep(3)
    answer("0 0")
elif fault == "garbage":
    answer("hello there")
elif fault == "empty":
    answer("")
elif fault == "out-of-range":
    answer("99 99")
elif fault == "exit":
    sys.exit(0)
elif fault == "crash":
    raise RuntimeError("the bot fell over while loading [/tmp/weights.bin]")
elif fault == "close-stdout":
    os.close(1)
    time.sleep(1000)
elif fault == "flood-stdout":
    while True:
        out.write("x" * 65536)
elif fault == "flood-stderr":
    for _ in range(2000):
        sys.stderr.write("noise " * 10000 + "\n")
    time.sleep(1000)
elif fault == "fork":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "gridfall-fault-child"])
    time.sleep(1000)
elif fault == "exit-child":  # the pipe stays open: only the end of the bot's process tells
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "gridfall-fault-child"])
    sys.exit(3)
elif fault == "setsid":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "gridfall-fault-child"],
                     start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sys.exit(0)
elif fault == "markup":
    answer("[/x] [bold]not a move[/bold]")
elif fault == "bad-utf8":
    sys.stdout.buffer.write(b"\xff\xfe\xfd 1\n")
    sys.stdout.flush()
elif fault == "escape":  # clear the screen, retitle the window, turn the text red
    sys.stderr.write("\x1b[2J\x1b]0;pwned\x07\x1b[31m wiped\n")
    sys.exit(3)
elif fault in ("hog", "hog-child"):
    grow = "held = []\nfor _ in range(40):\n    held.append(b'x' * (40 << 20))\n    time.sleep(0.01)\n"
    if fault == "hog":
        exec(grow)
    else:
        subprocess.Popen([sys.executable, "-c", "import time\n" + grow + "time.sleep(1000)", "gridfall-fault-child"])
elif fault == "hang-second":
    memory = os.path.join(os.environ["FAULT_DIR"], "played")
    if os.path.exists(memory):
        # the second run: the referee judged the first game before it started this one
        open(os.path.join(os.environ["FAULT_DIR"], "second"), "w").close()
        time.sleep(1000)
    open(memory, "w").close()
    answer("hello there")
time.sleep(1000)
