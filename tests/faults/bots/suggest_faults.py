"""CodeAbbey suggest players, one fault each, chosen by the FAULT environment variable
(gridfall-fault): the referee runs this one file for every fault.

hang, import-hang, late, garbage, raise, exit, flood-stdout, system-echo, markup, bad-utf8, fork,
setsid, huge, close-stdout, forge-clock, escape (an error whose text is terminal control sequences).
"""

import os
import subprocess
import sys
import time

FAULT = os.environ.get("FAULT", "")
if FAULT == "import-hang":
    while True:
        pass
if FAULT == "forge-clock":
    time.perf_counter = lambda: 0.0
    time.monotonic = lambda: 0.0


def suggest(board):
    if FAULT in ("hang", "forge-clock"):
        time.sleep(1000 if FAULT == "hang" else 0.5)
    if FAULT == "late":
        time.sleep(3)
    if FAULT == "garbage":
        return "hello"
    if FAULT == "raise":
        raise ValueError("no move here [/x]")
    if FAULT == "escape":
        raise ValueError("\x1b[2J\x1b]0;pwned\x07 wiped")
    if FAULT == "exit":
        os._exit(3)
    if FAULT == "flood-stdout":
        for _ in range(200):
            print("x" * 65536)
    if FAULT == "system-echo":
        os.system("echo 5")
        os.system('echo \'{"result": [1, 1, "R"]}\'')
    if FAULT == "markup":
        return "[/x]"
    if FAULT == "bad-utf8":
        return "\udcff\udcfe"
    if FAULT == "fork":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "gridfall-fault-child"])
    if FAULT == "setsid":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "gridfall-fault-child"],
                         start_new_session=True)
    if FAULT == "huge":
        return list(range(10 ** 6))
    if FAULT == "close-stdout":
        os.close(1)
    return 1, 1, "Q"
