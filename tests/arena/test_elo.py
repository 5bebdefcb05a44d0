"""Match statistics."""

import math

from gridfall.arena.elo import MatchScore, elo_from_share


def test_even_match_is_zero_elo_with_a_symmetric_interval():
    elo, low, high = MatchScore(50, 0, 50).elo()
    assert elo == 0 and math.isclose(low, -high)


def test_known_shares():
    assert math.isclose(elo_from_share(0.75), 400 * math.log10(3))
    assert MatchScore(9, 2, 9).share == 0.5


def test_perfect_scores_have_finite_bounds():
    elo, low, high = MatchScore(200, 0, 0).elo()
    assert elo == math.inf and high == math.inf and 700 < low < 750
    elo, low, high = MatchScore(0, 0, 200).elo()
    assert elo == -math.inf and -750 < high < -700


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
