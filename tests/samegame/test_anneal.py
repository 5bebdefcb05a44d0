"""Lines written as clicks on tiles replay as the rules say, and annealing only ever returns
legal lines that score what it claims, never worse than its start."""

import math
import random
import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from gridfall.samegame import engine, rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.search import solve, tiles
from gridfall.samegame.search.anneal import Annealer, anneal_solve, kept_colour_of

from .fake_clock import clock_moved_by_work
from .strategies import settled_boards

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

FAR = math.inf


def random_line(board: rules.Board, rng: random.Random, stop_at: float = 1.0) -> list[tuple[int, int]]:
    """Random legal clicks (any cell of a group, not only its canonical one), the game
    left unfinished with probability 1 - stop_at at each move."""
    line = []
    while not board.is_over() and rng.random() < stop_at:
        group = rng.choice(board.groups())
        x, y = rng.choice(sorted(group.cells))
        line.append((x, y))
        board, _ = board.play(x, y)
    return line


def finish(board: rules.Board, kept: int) -> int:
    """The greedy finish as the rules would play it: largest group, kept colour last."""
    total = 0
    while not board.is_over():
        group = max(board.groups(), key=lambda g: (g.colour != kept, g.size))
        board, gained = board.play(group.x, group.y)
        total += gained
    return total


@settings(max_examples=60, deadline=None)
@given(settled_boards(), st.integers(0, 2**32), st.integers(0, 4))
def test_tile_replay_scores_as_the_rules_do(board, seed, kept):
    """A legal line, as tiles, replays to the rules' score; an unfinished one is finished
    greedily (kept colour last), exactly as the rules play that finish."""
    line = random_line(board, random.Random(seed), stop_at=0.9)
    clicks = tiles.line_to_tiles(board, line)
    out = np.zeros(tiles.CELLS, dtype=np.int64)
    score, played = tiles.replay(tiles.colours_of(board), clicks, len(clicks), kept, out, tiles.new_scratch(), tiles.NO_SNAPSHOTS, False)
    after, points = rules.play_sequence(board, line)
    assert score == points + finish(after, kept)
    whole = tiles.tiles_to_line(board, out[:played])
    final, replayed = rules.play_sequence(board, whole)
    assert final.is_over() and replayed == score
    assert whole[: len(line)] == [min(g.cells) for g in rules.removed_groups(board, line)]


def test_a_replay_skips_clicks_on_tiles_that_are_gone_or_alone():
    board = load_board("tuning:3")
    line = random_line(board, random.Random(1))
    clicks = tiles.line_to_tiles(board, line)
    colours = tiles.colours_of(board)
    out = np.zeros(tiles.CELLS, dtype=np.int64)
    # every click twice: the second finds its tile gone (a group is removed whole)
    doubled = np.repeat(clicks, 2)
    score, played = tiles.replay(colours, doubled, len(doubled), 0, out, tiles.new_scratch(), tiles.NO_SNAPSHOTS, False)
    assert (score, list(out[:played])) == (rules.play_sequence(board, line)[1], list(clicks))


def test_an_illegal_line_is_refused():
    board = load_board("tuning:3")
    lone = next((x, y) for x in range(15) for y in range(15) if len(board.region(x, y)) == 1)
    try:
        tiles.line_to_tiles(board, [lone])
    except ValueError:
        pass
    else:
        raise AssertionError("a click on a lone tile is not a line")


def test_annealing_returns_a_legal_line_never_worse_than_its_guide():
    for spec in ("tuning:5", "standard:2", "codingame:3"):
        board = load_board(spec)
        guide = solve(board, 0.3, algo="nrpa", level=2).moves
        guide_score = rules.play_sequence(board, guide)[1]
        score, line, _ = anneal_solve(engine.from_board(board), FAR, guide=guide, seed=3, max_edits=30_000)
        final, replayed = rules.play_sequence(board, line)
        assert final.is_over() and score == replayed >= guide_score


def test_annealing_improves_a_weak_line():
    board = load_board("tuning:9")
    guide = random_line(board, random.Random(2))
    score, _, _ = anneal_solve(engine.from_board(board), FAR, guide=guide, seed=1, max_edits=50_000)
    assert score > rules.play_sequence(board, guide)[1] + 200


def test_annealing_without_a_guide_starts_from_the_greedy_line():
    board = load_board("tuning:4")
    kept = kept_colour_of(board, [])
    start = Annealer(board, None, seed=1)
    assert start.best_score == finish(board, kept)
    score, line, _ = anneal_solve(engine.from_board(board), FAR, seed=1, max_edits=20_000)
    assert score == rules.play_sequence(board, line)[1] >= start.best_score


def test_annealing_seed_reproduces_and_seeds_differ():
    board = load_board("tuning:6")
    guide = random_line(board, random.Random(4))
    runs = [anneal_solve(engine.from_board(board), FAR, guide=guide, seed=s, max_edits=40_000, sweep=10_000) for s in (7, 7, 8)]
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]


def test_a_work_budget_anneals_the_same_way_on_a_slow_machine(monkeypatch):
    # with a deadline, a sweep was cut to the edits the measured rate fits in the time left: a
    # slow machine (or a first call that loads the kernel) annealed a budget on another schedule
    from gridfall.samegame.search import anneal

    board = load_board("tuning:6")
    guide = random_line(board, random.Random(4))
    deadline = time.monotonic() + 600  # far enough for the budget, but a deadline
    fast = anneal_solve(engine.from_board(board), deadline, guide=guide, seed=7, max_edits=40_000, sweep=30_000)
    looks, real = [], time.monotonic

    def first_chunk_slow() -> float:  # the sweep's first call takes 5 s (loading the kernel), then all is fast
        looks.append(1)
        return real() + (5.0 if len(looks) > 1 else 0.0)

    monkeypatch.setattr(anneal.time, "monotonic", first_chunk_slow)
    slow = anneal_solve(engine.from_board(board), deadline, guide=guide, seed=7, max_edits=40_000, sweep=30_000)
    assert slow == fast  # the old code measured 20 edits/s and cut the first sweep to 12,000 edits


def test_annealing_meets_its_deadline():
    board = load_board("tuning:8")
    guide = random_line(board, random.Random(5))
    # the kernels loaded first, untimed: a process's first call loads them from the cache (0.29 s
    # on an idle machine, 0.41 s beside another worker), which failed the 0.05 s case
    anneal_solve(engine.from_board(board), FAR, guide=guide, seed=1, max_edits=100)
    for seconds in (0.05, 0.6):
        started = time.monotonic()
        anneal_solve(engine.from_board(board), started + seconds, guide=guide, seed=1)
        assert time.monotonic() - started < seconds + 0.25


def test_solve_anneals_its_guide_and_says_so():
    board = load_board("tuning:10")
    guide = random_line(board, random.Random(6))
    solution = solve(board, 0.3, algo="anneal", guide=guide, seed=2)
    assert solution.notes["guided"]
    assert solution.score >= rules.play_sequence(board, guide)[1]


def test_bad_temperatures_are_refused():
    board = load_board("tuning:1")
    for temps in ((1.0, 30.0), (30.0, 0.0)):
        try:
            Annealer(board, None, temp_from=temps[0], temp_to=temps[1])
        except ValueError as e:
            assert "temperatures" in str(e)
        else:
            raise AssertionError(f"{temps} accepted")


def test_auto_polishes_nrpa_lines_and_an_explicit_nrpa_does_not():
    board = load_board("tuning:2")
    auto = solve(board, 1.5, algo="auto", seed=3)
    assert auto.algo == "nrpa+anneal" and auto.notes["polished"] >= 0
    assert rules.play_sequence(board, auto.moves)[1] == auto.score
    plain = solve(board, 1.5, algo="nrpa", seed=3)
    assert plain.algo == "nrpa" and "polished" not in plain.notes
    quick = solve(board, 0.3, algo="auto", seed=3)  # beam re-plans inside a turn, unpolished
    assert quick.algo == "beam" and "polished" not in quick.notes


def test_the_solve_help_gives_autos_share_of_annealing():
    from click.testing import CliRunner

    from gridfall.cli import main
    from gridfall.samegame.search import AUTO_POLISH

    result = CliRunner().invoke(main, ["samegame", "solve", "--help"])
    assert f"last {AUTO_POLISH:.0%} of the time annealing" in " ".join(result.output.split())


def test_a_sweep_given_centuries_is_not_shortened_by_an_infinite_product(monkeypatch):
    # solve(board, 1.7e308, algo="anneal"): the edits that fit, rate * time left, came to inf, and
    # int() raised OverflowError after the first chunk; here the clock stops the run at its third look
    from gridfall.samegame.search import anneal

    class Stop(Exception):
        pass

    looks = []

    def now():
        looks.append(time.monotonic())
        if len(looks) == 3:
            raise Stop
        return looks[-1]

    monkeypatch.setattr(anneal.clock, "now", now)
    annealer = Annealer(load_board("tuning:4"), None, seed=1)
    with pytest.raises(Stop):
        annealer.run(time.monotonic() + 1.7e308)  # two chunks, then the stop


def test_a_stop_ends_an_annealing_run_at_once():
    # Ctrl-C or SIGTERM of a campaign (clock.stop) ended each sweep, but the run began the next one
    # from time.monotonic() and spun, sweep after empty sweep, until its own deadline: a stopped
    # `--rounds anneal:300` ran on for the rest of its 300 s, at 100% of a core
    import threading

    from gridfall.samegame.search import clock

    annealer = Annealer(load_board("tuning:4"), None, seed=1, sweep=2_000)
    with clock.running():
        threading.Timer(0.3, clock.stop).start()
        began = time.monotonic()
        annealer.run(began + 60)
        took = time.monotonic() - began
    with clock.running():  # the first search to run clears the stop: the next tests' clock runs
        pass
    assert clock.now() < math.inf and 0.25 < took < 5, took


def test_a_sweep_begun_just_before_the_deadline_makes_a_call_of_the_time_left(monkeypatch):
    """A sweep that ends early (its length was set by a first rate, slowed by the kernel's first
    load) leaves a little time, and the next sweep's first call was sized for 20 ms of edits
    whatever was left: load_player's anneal given 5 ms took 23 ms.  Here the edits cost 40 us,
    then 20 us, of a clock that moves only when they are made."""
    from gridfall.samegame.search import anneal

    def seconds_of(args, _):  # its edits: 40 us each in the first call, then 20 us
        return args[5] * (40e-6 if now[0] == 0.0 else 20e-6)

    now = clock_moved_by_work(monkeypatch, anneal, "sweep_part", seconds_of)
    annealer = Annealer(load_board("standard:2"), None, seed=1)
    annealer.run(0.005)
    assert now[0] > 0.005 and annealer.edits > 0  # it worked up to the deadline
    assert now[0] <= 0.005 + 100 * 20e-6 + 1e-9  # and past it by one call of the fewest edits, 100 (it was 10.6 ms)
