"""A stop reaches the SameGame searches it names by key, and no other: a stopped campaign's board
pass on a shared Dask worker went on searching in the worker's threads for the rest of its rounds
(900 s by default), since the clock's stop was the whole process's."""

import math
import threading
import time

import pytest

from gridfall.samegame.boards import load_board
from gridfall.samegame.campaign import BoardPass, Round, play_board_pass, stop_board_passes
from gridfall.samegame.search import clock, solve
from tests.samegame.test_search import replayed_score

# each test searches on two or three threads at once
pytestmark = pytest.mark.alone

FOREVER = 1e6  # seconds: no search ends on its own within a test


def started(work) -> tuple[threading.Thread, list]:
    """``work()`` on a thread of its own; the list gets its result."""
    outcome: list = []
    thread = threading.Thread(target=lambda: outcome.append(work()), daemon=True)
    thread.start()
    return thread, outcome


def stopped_in(thread: threading.Thread, keys: list[str]) -> float:
    """Stop ``keys``, and how long ``thread`` took to end after that."""
    assert thread.is_alive(), "it ended by itself"
    begun = time.perf_counter()
    clock.stop_keys(keys)
    thread.join(30)
    assert not thread.is_alive(), "the stop did not reach it"
    return time.perf_counter() - begun


def test_a_keyed_stop_ends_its_search_and_its_worker_threads_alone():
    board = load_board("tuning:1")
    solve(board, 0.01, algo="nrpa")  # the kernels load before the searches are timed

    def search(key: str, workers: int):
        with clock.stoppable(key):
            return solve(board, FOREVER, algo="nrpa", workers=workers)

    two_threads, first = started(lambda: search("pass a", 2))  # the key must reach the solver's threads
    other, second = started(lambda: search("pass b", 1))
    time.sleep(1.5)
    assert sorted(clock.keys_under_way()) == ["pass a", "pass b"]
    clock.stop_keys(["pass c"])  # names no search here: nothing stops
    time.sleep(0.3)
    assert two_threads.is_alive() and other.is_alive()
    assert stopped_in(two_threads, ["pass a"]) < 2.0
    assert other.is_alive(), "a stop of one key stopped another"
    assert first[0].score == replayed_score(board, first[0].moves) > 0  # its best line so far
    assert stopped_in(other, ["pass b"]) < 2.0
    assert clock.keys_under_way() == [] and clock.now() < math.inf  # the process's clock still runs


def test_a_stop_that_comes_after_its_search_reaches_nothing():
    """On a shared worker, the thread of a stopped run's pass may already search for another run."""
    board = load_board("tuning:2")
    with clock.stoppable("pass a"):
        solve(board, 0.01, algo="beam")
    clock.stop_keys(["pass a"])
    with clock.stoppable("pass a"):  # the same words, another search
        took = time.perf_counter()
        solve(board, 0.3, algo="beam")
        assert time.perf_counter() - took > 0.25


def test_a_stopped_board_pass_keeps_its_rounds_best_line_and_starts_no_other_round():
    rounds = (Round("nrpa", FOREVER), Round("beam", FOREVER))
    job = BoardPass("pass 1 tuning:3", "tuning:3", rounds, 0, 1, None, None, False, False)
    same_key = BoardPass("pass 1 tuning:3", "tuning:3", rounds, 0, 1, None, None, False, False)  # another run's
    assert job == same_key and job.stop_key != same_key.stop_key
    solve(load_board("tuning:3"), 0.01, algo="nrpa")
    thread, outcome = started(lambda: play_board_pass(job))
    other, _ = started(lambda: play_board_pass(same_key))
    time.sleep(1.5)
    begun = time.perf_counter()
    stop_board_passes([job])
    thread.join(30)
    assert time.perf_counter() - begun < 2.0
    assert other.is_alive(), "the stop reached another run's pass of the same board"
    (only,) = outcome[0].rounds
    assert outcome[0].stopped and only.stopped and only.score > 0
    assert stopped_in(other, [same_key.stop_key]) < 2.0
