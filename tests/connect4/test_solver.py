"""Exact scores on a sample of every bundled scored file (whole files: benchmarks/connect4_solver.py)."""

from importlib import resources

import pytest

from gridfall.connect4.solver import Solver

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

# (file, positions sampled): the opening files are slow in pure search, so fewer
SAMPLES = {
    "7x6/endgame_L1": 200, "7x6/midgame_L1": 100, "7x6/midgame_L2": 25, "7x6/opening_L1": 20, "7x6/opening_L2": 2,
    "9x5/endgame_L1": 200, "9x5/midgame_L1": 50, "9x5/midgame_L2": 8, "9x5/opening_L1": 8, "9x5/opening_L2": 1,
}


def scored(name):
    text = resources.files("gridfall").joinpath("data", "connect4", "scored", f"{name}.txt").read_text()
    return [(m, int(s)) for m, s in (line.split() for line in text.splitlines() if line.strip())]


@pytest.fixture(scope="module")
def solvers():
    return {"7x6": Solver(7, 6, 20), "9x5": Solver(9, 5, 20)}


@pytest.mark.parametrize("name, count", SAMPLES.items())
def test_exact_scores_on_a_sample(solvers, name, count):
    positions = scored(name)
    step = max(1, len(positions) // count)
    solver = solvers[name.split("/")[0]]
    for moves, expected in positions[::step][:count]:
        assert solver.solve_moves(moves).score == expected, moves


def test_weak_solve_gives_the_sign(solvers):
    for moves, expected in scored("7x6/midgame_L1")[:60]:
        weak = solvers["7x6"].solve_moves(moves, weak=True).score
        assert (weak > 0) == (expected > 0) and (weak < 0) == (expected < 0)


def test_analyze_matches_solving_each_child(solvers):
    solver = solvers["7x6"]
    moves = scored("7x6/midgame_L1")[5][0]
    scores = solver.analyze(moves)
    best = max(v for v in scores.values() if v is not None)
    assert best == solver.solve_moves(moves).score
    for x, v in scores.items():
        if v is None:
            continue
        try:
            assert v == -solver.solve_moves(moves + str(x)).score
        except ValueError:  # the move wins at once: analyze scores it as that win
            assert v == (42 + 1 - len(moves)) // 2


def test_immediate_win_and_bad_input(solvers):
    solver = solvers["7x6"]
    assert solver.solve_moves("010101").score == (42 + 1 - 6) // 2
    with pytest.raises(ValueError, match="full"):
        solver.solve_moves("0000000")
    with pytest.raises(ValueError, match="already won"):
        solver.solve_moves("01010101")
    with pytest.raises(ValueError, match="not a column"):
        solver.solve_moves("07")
    with pytest.raises(ValueError, match="' ' is not a column 0..6 \\(one digit a move, nothing between"):
        solver.solve_moves("0 1")  # as a CodinGame log writes them
    with pytest.raises(ValueError, match=r"'S' is not a column 0..6 \(a STEAL is not written: it swaps the sides"):
        solver.solve_moves("4STEAL")
    for digit in ("\u00b2", "\u0663"):  # '²' and '٣' are isdigit(): int() failed on one and read 3 of the other
        with pytest.raises(ValueError, match=f"move 2 of '4{digit}': '{digit}' is not a column 0..6"):
            solver.solve_moves("4" + digit)
    with pytest.raises(ValueError) as long:  # a pasted file: the message names the fault, not all of it
        solver.solve_moves("4" * 100_000)
    assert str(long.value) == f"move 7 of {'4' * 80!r}... (100,000 characters): column 4 is full"


def test_a_search_cut_into_tiny_slices_finds_the_same_score(solvers, monkeypatch):
    """Each slice aborts mid-search and the next starts again from the table: the score must not
    change, however often that happens."""
    from gridfall.connect4 import solver as solver_module

    solver = solvers["7x6"]
    moves = "4344063250152251"
    exact = solver.solve_moves(moves).score
    monkeypatch.setattr(solver_module, "SLICE", 0.0005)
    slices = []
    result = solver.solve_moves(moves, on_progress=lambda *a: slices.append(a))
    assert result.exact and result.score == exact and len(slices) > 3


def test_out_of_time_the_range_holds_the_exact_score(solvers):
    solver = solvers["7x6"]
    moves = "4344063250"
    exact = solver.solve_moves(moves).score
    result = solver.solve_moves(moves, seconds=0.002)
    assert result.low <= exact <= result.high
    if not result.exact:
        assert result.low < result.high


def test_a_steal_is_the_same_position_for_the_side_to_move_as_the_game_without_it():
    """What `connect4 solve --help` tells: '4 STEAL 5 3' is solved as '453'."""
    from gridfall.connect4 import engine
    from gridfall.connect4.rules import STEAL, Game

    stolen = Game(steal=True)
    for action in (4, STEAL, 5, 3):
        stolen.apply_action(action)
    assert engine.from_game(stolen) == Solver(9, 7, 16).position("453")
    assert stolen.current_player() == 0 and Game.from_moves("453", steal=False).current_player() == 1


def test_a_new_solver_has_its_kernel_loaded_before_any_clock_starts():
    # numba loads a cached kernel at its first call; the first solve's seconds counted that load
    # (0.27 s against 0.04 s of search for the README's 7x6 position: "0.66 M nodes/s")
    import subprocess
    import sys

    code = ("from gridfall.connect4 import solver\n"
            "assert not solver.negamax.signatures\n"
            "solver.Solver(7, 6, 16)\n"
            "assert solver.negamax.signatures\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


def test_a_node_limit_gives_the_same_answer_and_work_every_time_and_the_exact_one_when_enough(solvers):
    # a time limit proves more on a faster machine; a node limit proves the same everywhere
    solver = solvers["7x6"]
    moves, expected = scored("7x6/midgame_L2")[3]
    full = solver.solve_moves(moves)
    assert full.score == expected and full.nodes > 1000
    cut = [solver.solve(*solver.position(moves), nodes=full.nodes // 3) for _ in range(2)]
    assert not cut[0].exact and cut[0].low <= expected <= cut[0].high
    assert (cut[0].low, cut[0].high, cut[0].nodes) == (cut[1].low, cut[1].high, cut[1].nodes)
    assert cut[0].nodes <= full.nodes // 3 + 1  # the limit is kept (one node over is the one that stops)
    enough = solver.solve(*solver.position(moves), nodes=10 * full.nodes)
    assert enough.exact and enough.score == expected and enough.nodes == full.nodes


FIRST_SOLVER_FROM_A_COLD_CACHE = '''
import threading
from numba.core import event

on_the_main_thread = set()

class Where(event.Listener):
    def on_start(self, ev):
        on_the_main_thread.add(threading.current_thread() is threading.main_thread())

    def on_end(self, ev):
        pass

event.register("numba:compile", Where())
from gridfall.connect4.solver import Solver

Solver(7, 6, 16).solve_moves("4455")
print(sorted(on_the_main_thread))
'''


def test_a_first_solvers_kernels_compile_off_the_main_thread(tmp_path):
    """A Ctrl-C during the compile that the first Solver makes (5 s, from a cold cache) was
    raised in numba's cache callbacks, where ctypes drops it: `connect4 solve` ran on to its end.
    Off the main thread, where no signal handler runs, the stop lands in the wait."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FIRST_SOLVER_FROM_A_COLD_CACHE], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "[False]", done.stdout  # kernels compiled, none on the main thread
