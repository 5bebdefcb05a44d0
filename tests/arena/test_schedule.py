"""League schedules: fixed by their settings, fair to every bot."""

import itertools

import pytest

from gridfall.arena.schedule import schedule as pairings

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def schedule(*args, **kwargs):
    return list(pairings(*args, **kwargs))


def test_fewest_games_first_keeps_the_bots_level_and_meets_everyone():
    plan = schedule(5, 40, "fewest", seed=3)
    games = [0] * 5
    for i, j in plan:
        assert i != j
        games[i] += 2
        games[j] += 2
    assert max(games) - min(games) <= 2
    met = {frozenset(p) for p in plan}
    assert met == {frozenset(p) for p in itertools.combinations(range(5), 2)}


def test_a_schedule_is_a_function_of_its_settings():
    assert schedule(4, 30, "fewest", seed=7) == schedule(4, 30, "fewest", seed=7)
    assert schedule(4, 30, "fewest", seed=7) != schedule(4, 30, "fewest", seed=8)
    # a longer league starts with the shorter one's pairs: a resumed run with more games keeps its start
    assert schedule(4, 50, "round-robin")[:30] == schedule(4, 30, "round-robin")


def test_round_robin_cycles_through_every_pairing():
    assert schedule(3, 7, "round-robin") == [(0, 1), (0, 2), (1, 2), (0, 1), (0, 2), (1, 2), (0, 1)]


def test_bad_settings():
    with pytest.raises(ValueError, match="two bots"):
        schedule(1, 3)
    with pytest.raises(ValueError, match="unknown matchmaking"):
        schedule(3, 3, "swiss")


def test_a_schedule_is_made_as_it_is_played():
    # a league of 2,000,000,000 games (a typo's zeros) sat silent while its whole schedule was made
    for maker in ("fewest", "round-robin"):
        plan = pairings(3, 10**9, maker, seed=1)
        assert not isinstance(plan, list) and [next(plan) for _ in range(3)] == schedule(3, 3, maker, seed=1)
    with pytest.raises(ValueError, match="two bots"):  # checked before any pairing is asked for
        pairings(1, 10**9)


@pytest.mark.parametrize("maker", ["fewest", "round-robin"])
def test_bots_that_join_keep_the_pairs_before_them_and_then_catch_up(maker):
    before = schedule(6, 40, maker, seed=2, changes=[(0, (0, 1, 2))])
    assert before == schedule(3, 40, maker, seed=2)  # bots that never play change nothing
    joined = schedule(6, 40, maker, seed=2, changes=[(0, (0, 1, 2)), (10, (0, 1, 2, 3)), (16, range(6))])
    assert joined[:10] == before[:10]  # the stored pairs keep their pairings
    assert all(max(pair) < 4 for pair in joined[10:16]) and any(5 in pair for pair in joined[16:])
    games = [0] * 6
    for i, j in joined:
        games[i], games[j] = games[i] + 2, games[j] + 2
    if maker == "fewest":  # the joiners played until level: all within one pair of each other
        assert max(games) - min(games) <= 2 and all(3 in pair for pair in joined[10:13])
    else:  # each segment goes round its own pairings from its start
        assert joined[16:31] == list(itertools.combinations(range(6), 2))


@pytest.mark.parametrize("maker", ["fewest", "round-robin"])
def test_a_retired_bot_plays_no_more_and_one_that_comes_back_catches_up(maker):
    plan = schedule(4, 40, maker, seed=5, changes=[(8, (0, 1, 3)), (20, (0, 1, 2, 3))])
    assert plan[:8] == schedule(4, 8, maker, seed=5)
    assert not any(2 in pair for pair in plan[8:20]) and any(2 in pair for pair in plan[20:])
    if maker == "fewest":
        assert all(2 in pair for pair in plan[20:23])  # behind the others: it plays first


def test_changes_that_leave_fewer_than_two_bots_or_name_others_are_refused():
    for changes in ([(5, (1,))], [(4, (0, 5))], [(4, ())]):
        with pytest.raises(ValueError, match="cannot play a league of 3 bots"):
            schedule(3, 10, changes=changes)


def test_the_bots_left_are_the_bots_of_the_pairs_left_found_without_walking_them_all():
    from gridfall.connect4.arena_cli import _bots_left

    def by_brute_force(plan, done):
        return list(dict.fromkeys(b for k, pair in enumerate(plan) if f"pair {k} game 0" not in done for b in pair))

    stored = lambda *pairs: {f"pair {k} game {g}" for k in pairs for g in (0, 1)}  # noqa: E731
    for changes, done in [([(0, (0, 1, 2, 3))], set()),
                          ([(0, (0, 1, 2, 3))], stored(*range(30))),
                          ([(0, (0, 1, 2, 3)), (12, (1, 2, 3))], stored(*range(12))),  # 0 retired
                          ([(0, (0, 1, 2, 3)), (12, (1, 2, 3))], stored(*range(12)) - stored(5)),  # 5 lost in flight
                          ([(0, (0, 1)), (6, (0, 1, 2, 3))], stored(*range(6)))]:  # 2 and 3 join
        for pairs in (12, 13, 40):
            plan = lambda: pairings(4, pairs, seed=1, changes=changes)  # noqa: E731
            assert _bots_left(plan(), done, changes) == by_brute_force(plan(), done), (changes, pairs, done)
    retired_since = [(0, (0, 1, 2, 3)), (12, (1, 2, 3))]  # pair 5, (0, 1), was lost in flight; then 0 retired
    assert _bots_left(pairings(4, 12, seed=1, changes=retired_since), stored(*range(12)) - stored(5),
                      retired_since) == [0, 1]
    assert len(_bots_left(pairings(4, 10**12, seed=1), stored(*range(30)), [(0, (0, 1, 2, 3))])) == 4  # at once
