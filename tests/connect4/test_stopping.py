"""A stop reaches every Connect Four search of the process, however long its turn: a stopped
pie-rule run waited for the games on its threads to end (42 s after SIGTERM with 2 s turns, and
never with --turn-ms 1e300)."""

import signal
import subprocess
import sys
import threading
import time

import pytest

from gridfall.arena import job_name
from gridfall.connect4 import stopping
from gridfall.connect4.pie import PieGame, play_pie_game
from tests.processes import stopped

# one search thread at a time, and nothing timed against a clock it could lose to
pytestmark = pytest.mark.parallel_safe

FOREVER = 1e9  # seconds: no turn ends on its own within the test


def stopped_after(search, wait: float = 0.5, key: str = "game 1") -> float:
    """Run ``search()`` as the job ``key`` (a stoppable game) on a thread, stop ``key`` after
    ``wait`` seconds, and return how long it took to raise Stopped after that (it must not have
    ended before)."""
    outcome: list = []

    def run():
        try:
            with job_name.running_as(key), stopping.stoppable():
                search()
            outcome.append("returned")
        except stopping.Stopped:
            outcome.append(time.perf_counter())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(wait)
    assert thread.is_alive(), f"the search ended by itself: {outcome}"
    job_name.stop(["another game"])  # names no game here: nothing stops
    time.sleep(0.2)
    assert thread.is_alive(), "a stop naming another game stopped this one"
    stopped = time.perf_counter()
    job_name.stop([key])
    thread.join(30)
    assert not thread.is_alive() and isinstance(outcome[0], float), outcome
    return outcome[0] - stopped


def test_a_stop_ends_an_alpha_beta_depth_inside_its_kernel():
    """The searcher is made on this thread and searches on another, the game's: the stop reaches
    the thread that searches.  (It looked for the one that made it, so the stop waited for the
    depth under way to end: 0.05-5.5 s here, and a 3.4 s failure of this test on a loaded machine.)"""
    from gridfall.connect4.engine import from_game
    from gridfall.connect4.rules import Game
    from gridfall.connect4.search import ABORTED, Searcher

    searcher = Searcher()
    game = Game(9, 7, steal=False)
    game.apply_action(4)
    position = from_game(game)
    searcher.choose(*position, seconds=0.01)  # the kernels load before the clock starts
    for budget in ({"seconds": FOREVER}, {"seconds": FOREVER, "nodes": 10**15}):
        assert stopped_after(lambda: searcher.choose(*position, **budget)) < 2.0
        # cut inside the kernel, not at the next depth's start: nothing else ends a depth here
        assert searcher.stats[ABORTED] == 1, budget
    assert searcher.choose(*position, seconds=0.05).column in range(9)  # only the stopped thread stops


def test_a_stop_after_its_game_ended_does_not_reach_the_threads_next_game():
    """On a Dask worker shared by two runs, the thread of a game that one run abandons may already
    play the other run's next game when the stop comes."""
    from gridfall.connect4.mcts import MCTS

    mcts = MCTS()
    with job_name.running_as("run 1 game 1"), stopping.stoppable():
        mcts.choose(0, 0, 0.01)
    job_name.stop(["run 1 game 1"])
    with job_name.running_as("run 2 game 1"), stopping.stoppable():
        assert mcts.choose(0, 0, 0.05)[1] > 0


def test_a_stop_ends_mcts_and_the_solver():
    from gridfall.connect4.mcts import MCTS
    from gridfall.connect4.solver import Solver

    mcts = MCTS(solver=True)
    mcts.choose(0, 0, 0.01)
    assert stopped_after(lambda: mcts.choose(0, 0, FOREVER)) < 2.0
    solver = Solver(9, 7, table_bits=20)
    solver.solve(0, 0, seconds=0.01)
    assert stopped_after(lambda: solver.solve(0, 0)) < 2.0  # the empty 9x7 board: hours to solve
    assert mcts.choose(0, 0, 0.01)[1] > 0


@pytest.mark.parametrize("engines", [("gridfall", "mcts-solver"), ("alphabeta:40", "gridfall:1000000000"),
                                     ("portable", "portable")])  # the exported file's pure-Python search
def test_a_stop_abandons_a_pie_game(engines):
    game = PieGame(3, 0, 0, engines, 2, FOREVER, 0, FOREVER, 0)
    assert stopped_after(lambda: play_pie_game(game), wait=3.0) < 2.0


@pytest.mark.alone  # two games at once
def test_a_stopped_pie_rule_run_ends_at_once_however_long_its_turns(tmp_path):
    db = tmp_path / "pie.sqlite"
    command = [sys.executable, "-m", "gridfall", "connect4", "openings", "--rebuild", "--pairs", "2",
               "--turn-ms", "1e300", "--solve-ms", "1e300", "--db", str(db), "--out", str(tmp_path / "t.json"),
               "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = process.stderr.readline()
    err, took = stopped(process, signal.SIGTERM)  # 3 s on: the games are under way
    assert "to play on 2 local workers" in said, said + err
    assert took < 15, took  # closing waits for the stopped games, and for nothing else
    assert "too few finished pairs to write a table; the games are kept in" in err, err
    assert "Traceback" not in err


@pytest.mark.alone  # two games at once
def test_a_stop_reaches_its_runs_game_alone_beside_another_runs_game_of_the_same_key():
    """Two runs on one Dask worker may play games of the same key side by side: the stop of one
    run named the key, and reached the other run's game (or missed its own).  A stop names the
    job, which the executor named."""
    ours, theirs = (PieGame(3, 0, 0, ("gridfall", "mcts-solver"), 2, FOREVER, 0, FOREVER, 0) for _ in range(2))
    assert ours.key == theirs.key
    outcomes: dict = {}

    def play(game, name):
        try:
            with job_name.running_as(f"{name}, named by its run's executor"):
                play_pie_game(game)
            outcomes[name] = "returned"
        except stopping.Stopped:
            outcomes[name] = "stopped"

    threads = [threading.Thread(target=play, args=(game, name), daemon=True)
               for game, name in ((ours, "ours"), (theirs, "theirs"))]
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    job_name.stop(["ours, named by its run's executor"])
    threads[0].join(30)
    assert outcomes == {"ours": "stopped"}, outcomes
    assert threads[1].is_alive()
    job_name.stop(["theirs, named by its run's executor"])
    threads[1].join(30)
    assert outcomes == {"ours": "stopped", "theirs": "stopped"}
