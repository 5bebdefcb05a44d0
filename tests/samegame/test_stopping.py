"""A stop reaches the SameGame searches of the jobs it names, and no other: a stopped campaign's
board pass on a shared Dask worker went on searching in the worker's threads for the rest of its
rounds (900 s by default), since the clock's stop was the whole process's."""

import math
import threading
import time

import pytest

from gridfall.samegame.boards import load_board
from gridfall.arena import job_name
from gridfall.samegame.campaign import BoardPass, Round, play_board_pass
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


def stopped_in(thread: threading.Thread, names: list[str]) -> float:
    """Stop the jobs ``names``, and how long ``thread`` took to end after that."""
    assert thread.is_alive(), "it ended by itself"
    begun = time.perf_counter()
    job_name.stop(names)
    thread.join(30)
    assert not thread.is_alive(), "the stop did not reach it"
    return time.perf_counter() - begun


def test_a_jobs_stop_ends_its_search_and_its_worker_threads_alone():
    board = load_board("tuning:1")
    solve(board, 0.01, algo="nrpa")  # the kernels load before the searches are timed

    def search(name: str, workers: int):
        with job_name.running_as(name):
            return solve(board, FOREVER, algo="nrpa", workers=workers)

    two_threads, first = started(lambda: search("pass a", 2))  # the name must reach the solver's threads
    other, second = started(lambda: search("pass b", 1))
    time.sleep(1.5)
    assert job_name.under_way() == ["pass a", "pass b"]
    job_name.stop(["pass c"])  # names no search here: nothing stops
    time.sleep(0.3)
    assert two_threads.is_alive() and other.is_alive()
    assert stopped_in(two_threads, ["pass a"]) < 2.0
    assert other.is_alive(), "a stop of one job stopped another"
    assert first[0].score == replayed_score(board, first[0].moves) > 0  # its best line so far
    assert stopped_in(other, ["pass b"]) < 2.0
    assert job_name.under_way() == [] and clock.now() < math.inf  # the process's clock still runs


def test_a_stop_that_comes_after_its_search_reaches_nothing():
    """On a shared worker, the thread of a stopped run's pass may already search for another run."""
    board = load_board("tuning:2")
    with job_name.running_as("pass a"):
        solve(board, 0.01, algo="beam")
    job_name.stop(["pass a"])
    with job_name.running_as("pass a"):  # the same words, another search
        took = time.perf_counter()
        solve(board, 0.3, algo="beam")
        assert time.perf_counter() - took > 0.25


def test_a_stopped_board_pass_keeps_its_rounds_best_line_and_starts_no_other_round():
    rounds = (Round("nrpa", FOREVER), Round("beam", FOREVER))
    job = BoardPass("pass 1 tuning:3", "tuning:3", rounds, 0, 1, None, None, False, False)  # two runs' passes
    solve(load_board("tuning:3"), 0.01, algo="nrpa")

    def play(name: str):
        with job_name.running_as(name):  # as an executor runs it
            return play_board_pass(job)

    thread, outcome = started(lambda: play("run 1's"))
    other, _ = started(lambda: play("run 2's"))
    time.sleep(1.5)
    begun = time.perf_counter()
    job_name.stop(["run 1's"])
    thread.join(30)
    assert time.perf_counter() - begun < 2.0
    assert other.is_alive(), "the stop reached another run's pass of the same board"
    (only,) = outcome[0].rounds
    assert outcome[0].stopped and only.stopped and only.score > 0
    assert stopped_in(other, ["run 2's"]) < 2.0
