"""The paired comparison: differences, counts and the bootstrap interval against a normal check."""

import math
import random

import pytest

from gridfall.arena.compare import bootstrap_interval, compare

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_counts_mean_and_a_clear_verdict():
    result = compare(("A", "B"), [10, 12, 9, 15], [8, 12, 5, 11])
    assert result.differences == [2, 0, 4, 4]
    assert (result.wins, result.ties, result.losses) == (3, 1, 0)
    assert result.mean == pytest.approx(2.5)
    assert result.low <= 2.5 <= result.high
    assert result.verdict().startswith("A is better")
    assert compare(("A", "B"), [1, 2, 3], [4, 6, 5]).verdict().startswith("B is better")


def test_the_bootstrap_interval_matches_the_normal_interval_on_many_boards():
    rng = random.Random(5)
    differences = [rng.gauss(1.0, 10.0) for _ in range(400)]
    low, high = bootstrap_interval(differences, resamples=4000, seed=1)
    n = len(differences)
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    assert low == pytest.approx(mean - half, abs=0.15 * half)
    assert high == pytest.approx(mean + half, abs=0.15 * half)


def test_noise_around_zero_cannot_tell():
    rng = random.Random(2)
    a = [rng.randint(0, 100) for _ in range(20)]
    b = [x + rng.choice((-3, 3)) for x in a]
    assert "cannot tell" in compare(("A", "B"), a, b).verdict()


def test_the_interval_is_reproducible_and_unequal_lengths_are_refused():
    assert bootstrap_interval([1, 5, 2, 8], seed=3) == bootstrap_interval([1, 5, 2, 8], seed=3)
    with pytest.raises(ValueError, match="same boards"):
        compare(("A", "B"), [1, 2], [1])


def test_a_ranking_orders_by_mean_counts_best_boards_and_compares_each_with_the_first():
    from gridfall.arena.compare import rank

    ranking = rank({"C": [5, 5, 5, 5], "A": [10, 12, 9, 15], "B": [10, 11, 9, 14], "D": [9, 13, 8, 15]})
    assert [p.name for p in ranking] == ["A", "D", "B", "C"]
    assert [p.best_on for p in ranking] == [3, 2, 2, 0]  # a tie for the best counts for each
    assert ranking[0].verdict() == "first" and ranking[0].against_first is None
    assert ranking[3].against_first.names == ("A", "C") and ranking[3].verdict() == "A is better"
    assert ranking[1].verdict() == "cannot tell from A yet"  # D is worse on two boards and better on one
    assert rank({"X": [1], "Y": [0]})[1].verdict() == "cannot tell yet (fewer than two boards)"
    assert rank({"X": [1], "Y": [0]}, unit="seed")[1].verdict() == "cannot tell yet (fewer than two seeds)"
