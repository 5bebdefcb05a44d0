"""Long work off the main thread: its result and errors come back, and a Ctrl-C stops it at once,
in the helper itself and in a library caller's own loop over gridfall's players."""

import subprocess
import sys
import threading

import pytest

from gridfall.main_thread import off_the_main_thread


def test_the_work_gives_its_result_and_its_error_in_the_caller():
    assert off_the_main_thread(lambda: threading.current_thread() is threading.main_thread()) is False
    with pytest.raises(ValueError, match="no such kernel"):
        off_the_main_thread(lambda: (_ for _ in ()).throw(ValueError("no such kernel")))
    # away from the main thread it is a plain call
    seen = []
    thread = threading.Thread(target=lambda: seen.append(off_the_main_thread(threading.current_thread)))
    thread.start()
    thread.join()
    assert seen == [thread]


# Ctrl-C 0.5 s into a work of 30 s that halt() ends: the stop is raised once the work has ended
HALTED = '''
import os, signal, threading, time
from gridfall.main_thread import off_the_main_thread
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C's, even under a shell that ignores it
told, ended = threading.Event(), []

def work():
    told.wait(30)
    time.sleep(0.2)  # the kernel's way to its next node
    ended.append(time.monotonic())

threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    off_the_main_thread(work, halt=told.set)
except KeyboardInterrupt:
    print(f"stopped after {time.monotonic() - start:.2f} s, the work ended first: {bool(ended)}")
'''


def test_a_stop_halts_the_work_waits_for_it_and_is_raised_again():
    done = subprocess.run([sys.executable, "-c", HALTED], capture_output=True, text=True, timeout=60)
    words = done.stdout.split()
    assert done.stdout.startswith("stopped after") and words[-1] == "True", (done.stdout, done.stderr)
    assert float(words[2]) < 5, done.stdout


# A library caller's loop: the player's search of 30 s, Ctrl-C after 1 s.  The Connect Four
# alpha-beta depth held it to the depth's end (2.1 s after the signal), and the SameGame searches
# took it as "stop searching" and returned a move: the loop went on, Ctrl-C after Ctrl-C.
LIBRARY_CALLER = '''
import os, signal, sys, threading, time
import gridfall
signal.signal(signal.SIGINT, signal.default_int_handler)
game = gridfall.load_game(sys.argv[1], **({"board": "standard:1"} if sys.argv[1] == "samegame" else {}))
player = gridfall.load_player(game, sys.argv[2], seed=1)
state = game.new_initial_state()
player.act(state, 0.05)  # its kernels are loaded before the clock
sent = []
threading.Timer(1.0, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    for _ in range(3):
        player.act(state, 30)
    print("played on")
except KeyboardInterrupt:
    print(f"stopped {time.monotonic() - sent[0]:.3f} s after Ctrl-C")
start = time.monotonic()  # the halted searcher plays its next move as any other
action = player.act(state, 0.3)
print(f"then {action in state.legal_actions()} in {time.monotonic() - start:.2f} s")
'''


@pytest.mark.parametrize("game, player", [("connect4", "gridfall"), ("samegame", "nrpa"), ("samegame", "auto")])
def test_a_library_callers_ctrl_c_stops_a_long_move_at_once(game, player):
    done = subprocess.run([sys.executable, "-c", LIBRARY_CALLER, game, player], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.startswith("stopped"), (done.stdout, done.stderr[-2000:])
    assert float(done.stdout.split()[1]) < 1.0, done.stdout  # the wait's step, and a kernel's way out
    then = done.stdout.splitlines()[1].split()
    assert then[1] == "True" and float(then[3]) < 2.0, done.stdout

