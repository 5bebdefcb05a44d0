"""Match statistics."""

import math

import numpy as np
import pytest

from gridfall.arena.elo import Z95, MatchScore, elo_from_share

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_even_match_is_zero_elo_with_a_symmetric_interval():
    elo, low, high = MatchScore(50, 0, 50).elo()
    assert elo == 0 and math.isclose(low, -high)


def test_known_shares():
    assert math.isclose(elo_from_share(0.75), 400 * math.log10(3))
    assert MatchScore(9, 2, 9).share == 0.5


def test_perfect_scores_have_finite_bounds():
    elo, low, high = MatchScore(200, 0, 0).elo()
    assert elo == math.inf and high == math.inf
    assert low == pytest.approx(elo_from_share(200 / (200 + Z95**2)))  # Wilson's end: n / (n + z^2)
    elo, low, high = MatchScore(0, 0, 200).elo()
    assert elo == -math.inf and low == -math.inf and high == pytest.approx(-elo_from_share(200 / (200 + Z95**2)))
    # even one or two games bound it (the textbook interval gave [-inf, +inf] for 2 of 2)
    assert all(math.isfinite(MatchScore(n, 0, 0).elo()[1]) for n in (1, 2, 3))


def test_a_match_that_is_not_one_sided_has_a_finite_interval():
    # the textbook interval ran past a share of 1: 31 of 34 gave [+259, +inf], 198 of 200 [+645, +inf]
    for wins, draws, losses in [(31, 0, 3), (198, 0, 2), (195, 1, 4), (0, 1, 99), (3, 0, 31)]:
        elo, low, high = MatchScore(wins, draws, losses).elo()
        assert math.isfinite(low) and math.isfinite(high) and low < elo < high


@pytest.mark.parametrize("win, draw, games", [(0.7, 0.0, 10), (0.5, 0.1, 20), (0.9, 0.05, 30),
                                              (0.95, 0.02, 100), (0.99, 0.005, 200)])
def test_the_interval_covers_the_true_elo_95_times_in_100(win, draw, games):
    # 2,000 simulated matches of a player with known chances; the textbook interval covered
    # 86% at (0.7, 0, 10), 89% at (0.95, 0.02, 100) and 87% at (0.99, 0.005, 200)
    rng = np.random.default_rng(7)
    true = elo_from_share(win + draw / 2)
    matches = rng.multinomial(games, [win, draw, 1 - win - draw], size=2000)
    covered = [low <= true <= high for _, low, high in (MatchScore(*map(int, m)).elo() for m in matches)]
    assert 0.91 <= np.mean(covered) <= 0.99


def test_interval_narrows_with_more_games():
    small = MatchScore(15, 2, 3).elo()
    large = MatchScore(150, 20, 30).elo()
    assert large[2] - large[1] < small[2] - small[1]
    assert "W 150 / D 20 / L 30" in MatchScore(150, 20, 30).describe()


def test_elo_is_printed_signed_and_whole_never_minus_zero():
    from gridfall.arena.elo import elo_text

    assert [elo_text(v) for v in (-0.0, -0.4, 0.4, 12.6, -7.5, math.inf, -math.inf)] == [
        "+0", "+0", "+0", "+13", "-8", "+inf", "-inf"]
    assert "Elo +0 [95%:" in MatchScore(wins=1, losses=1).describe()  # was "Elo -0"
    assert [elo_text(v, 2) for v in (-0.001, 3.14159, -2.5)] == ["+0.00", "+3.14", "-2.50"]
