"""The pentanomial GSPRT against values worked out independently: the binary SPRT by hand, the
normal approximation, a brute-force maximum likelihood, and Wald's bounds."""

import itertools
import math

import pytest

from gridfall.arena.sprt import (
    ELO_LIMIT,
    SCORES,
    SPRT,
    bounds,
    elo_interval,
    expected_score,
    llr,
    most_likely,
    pair_cell,
)

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_with_only_lost_and_won_pairs_it_is_the_textbook_binary_sprt():
    # pairs either LL or WW: the constrained distribution can only be (1 - s, 0, 0, 0, s), up to
    # the 1e-3 counts the empty cells get
    s0, s1 = expected_score(0), expected_score(10)
    by_hand = 10 * math.log((1 - s1) / (1 - s0)) + 14 * math.log(s1 / s0)
    assert llr([10, 0, 0, 0, 14], 0, 10) == pytest.approx(by_hand, rel=2e-3)


def test_it_agrees_with_the_normal_approximation_on_a_large_test():
    counts = [400, 1800, 4000, 2100, 500]
    n = sum(counts)
    mean = sum(a * c for a, c in zip(SCORES, counts)) / n
    variance = sum(c * (a - mean) ** 2 for a, c in zip(SCORES, counts)) / n
    s0, s1 = expected_score(0), expected_score(5)
    normal = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert llr(counts, 0, 5) == pytest.approx(normal, rel=0.01)


def test_the_constrained_maximum_is_the_maximum_by_brute_force():
    counts = [3, 11, 20, 9, 4]
    target = 0.53
    best = most_likely([c / sum(counts) for c in counts], target)
    assert sum(best) == pytest.approx(1) and sum(a * p for a, p in zip(SCORES, best)) == pytest.approx(target)

    def loglik(p):
        return sum(c * math.log(x) for c, x in zip(counts, p))

    # every distribution on a grid with the same mean does no better
    step = 0.01
    grid = [i * step for i in range(1, int(1 / step))]
    for p0, p1, p2 in itertools.product(grid[::4], grid[::4], grid[::4]):
        # solve p3, p4 from sum = 1 and the mean
        rest, mean_rest = 1 - p0 - p1 - p2, target - 0.25 * p1 - 0.5 * p2
        p4 = (mean_rest - 0.75 * rest) / 0.25
        p3 = rest - p4
        if p3 > 0 and p4 > 0:
            assert loglik([p0, p1, p2, p3, p4]) <= loglik(best) + 1e-9


def test_a_winning_record_is_evidence_for_h1_even_when_no_pair_was_lost():
    # no pair below 1/2: H0's mean (exactly 1/2) is at the edge of what was observed, H1's inside;
    # both must be judged on the same (regularised) frequencies, or the ratio is meaningless
    assert llr([0, 0, 1, 1, 9], 0, 10) > 0
    assert llr([0, 0, 1, 1, 10], 0, 10) > llr([0, 0, 1, 1, 9], 0, 10)
    assert llr([9, 1, 1, 0, 0], 0, 10) < 0
    # the same sign as the normal approximation's
    counts = [1, 3, 10, 6, 5]
    n = sum(counts)
    mean = sum(a * c for a, c in zip(SCORES, counts)) / n
    s0, s1 = expected_score(0), expected_score(10)
    assert (llr(counts, 0, 10) > 0) == (2 * mean - s0 - s1 > 0)


def test_wald_bounds_and_the_verdicts():
    assert bounds(0.05, 0.05) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    strong, weak, even = SPRT(0, 10), SPRT(0, 10), SPRT(0, 10)
    for _ in range(400):
        strong.add_pair(1, 0.5)  # +3/4 a pair
        weak.add_pair(0, 0.5)
        even.add_pair(1, 0)
    assert strong.verdict() == "H1" and weak.verdict() == "H0"
    assert even.verdict() is None or even.verdict() == "H0"


def test_pairs_are_counted_in_pentanomial_cells_and_games():
    test = SPRT(0, 10)
    for first, second in [(0, 0), (0, 0.5), (1, 0), (0.5, 0.5), (1, 0.5), (1, 1)]:
        test.add_pair(first, second)
    assert test.penta == [1, 1, 2, 1, 1]
    assert (test.games.wins, test.games.losses, test.games.draws) == (4, 4, 4)
    assert [pair_cell(a, b) for a, b in [(0, 0), (0.5, 0), (0.5, 0.5), (1, 0.5), (1, 1)]] == [0, 1, 2, 3, 4]
    text = test.report()
    for label in ("Elo:", "LLR:", "(-2.94, 2.94) [0, 10]", "Games: 12 W: 4 L: 4 D: 4", "Penta: [1, 1, 2, 1, 1]"):
        assert label in text


def test_the_elo_interval_is_the_score_interval_through_the_logistic_curve():
    counts = [10, 20, 40, 20, 10]  # mean exactly 1/2
    elo, low, high = elo_interval(counts)
    assert elo == pytest.approx(0) and low == pytest.approx(-high)
    variance = sum(c * (a - 0.5) ** 2 for a, c in zip(SCORES, counts)) / 100
    n = 0.25 / (variance / 100)  # the effective games: pairs that agree within themselves count more
    z2 = 1.959964**2 / n
    margin = 1.959964 * math.sqrt(0.25 / n + z2 / (4 * n)) / (1 + z2)  # Wilson's, centred at 1/2
    assert high == pytest.approx(-400 * math.log10(1 / (0.5 + margin) - 1))


@pytest.mark.parametrize("chances, pairs", [([0.01, 0.02, 0.17, 0.3, 0.5], 50), ([0, 0.01, 0.04, 0.15, 0.8], 100),
                                            ([0.05, 0.1, 0.7, 0.1, 0.05], 30), ([0, 0, 0.05, 0.05, 0.9], 40)])
def test_the_pair_interval_covers_the_true_elo_95_times_in_100(chances, pairs):
    import numpy as np

    rng = np.random.default_rng(3)
    true = -400 * math.log10(1 / sum(a * p for a, p in zip(SCORES, chances)) - 1)
    samples = rng.multinomial(pairs, chances, size=1000)
    covered = [low <= true <= high for _, low, high in (elo_interval(list(map(int, c))) for c in samples)]
    assert 0.91 <= np.mean(covered) <= 0.99
    assert all(math.isfinite(elo_interval([0, 1, 3, 10, 20])[i]) for i in range(3))  # not one-sided: finite


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="elo1"):
        SPRT(10, 0)
    with pytest.raises(ValueError, match="alpha"):
        SPRT(0, 10, alpha=1.5)
    with pytest.raises(ValueError, match=r"alpha \+ beta"):
        SPRT(0, 10, alpha=0.6, beta=0.4)  # Wald's bounds would meet at 0: decided before a game
    with pytest.raises(ValueError, match="within"):
        SPRT(1e6, 2e6)  # its expected score is 1.0 exactly: the LLR raised "max() arg is an empty sequence"
    with pytest.raises(ValueError, match="within"):
        SPRT(-1e6, 0)  # 10 ** 2500 overflowed


@pytest.mark.parametrize("elo0, elo1", [(-ELO_LIMIT, -ELO_LIMIT + 10), (ELO_LIMIT - 10, ELO_LIMIT)])
def test_at_the_limits_the_llr_is_finite_and_favours_the_hypothesis_nearer_the_record(elo0, elo1):
    records = [[0, 0, 0, 0, 40], [40, 0, 0, 0, 0], [10, 5, 20, 5, 10]]  # all won, all lost, even
    assert all(math.isfinite(llr(counts, elo0, elo1)) for counts in records)
    nearer_even = 1 if elo0 < 0 else -1  # an even record (Elo 0) favours the hypothesis nearer 0
    assert llr([10, 5, 20, 5, 10], elo0, elo1) * nearer_even > 2  # 2.30 either way: the test decides
    assert SPRT(elo0, elo1).verdict() is None  # no pair yet
    wide = -ELO_LIMIT, ELO_LIMIT
    assert llr(records[0], *wide) > 400 and llr(records[1], *wide) < -400
    assert llr(records[2], *wide) == pytest.approx(0, abs=1e-9)
