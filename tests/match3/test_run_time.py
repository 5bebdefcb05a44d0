"""How a player behind a suggest function shares the run's one second: boards, moves, overrun."""

import pytest

from gridfall.match3.run_time import RUN_SECONDS_VARIABLE, SAFETY, Overrun, RunTime, run_seconds_here

pytestmark = pytest.mark.parallel_safe  # no clock is read: the elapsed times are given


def test_each_board_gets_an_even_part_of_what_is_left_and_each_move_of_its_boards():
    run = RunTime(1.0)
    first = run.share(1, 1, 0.0)
    assert first == pytest.approx(SAFETY / 4 / 1000)  # the run's even share over its 4,000 moves
    assert run.share(1, 2, first) == pytest.approx(first)  # the move took its share: the next gets as much
    assert run.share(2, 1, 2 * first) == pytest.approx((SAFETY - 2 * first) / 3 / 1000)  # board 1 ended early
    assert run.board_ends == pytest.approx(2 * first + (SAFETY - 2 * first) / 3)  # its time goes to boards 2-4
    assert run.share(2, 500, run.board_ends) is None  # board 2's time is spent: quit it
    assert run.share(3, 1, 0.5) is not None and run.board_ends == pytest.approx(0.5 + (SAFETY - 0.5) / 2)
    assert RunTime(1.0).share(1, 1001, 0.0) == pytest.approx(SAFETY / 4)  # past 1000 moves: one is left, not 0


def test_what_calls_take_beyond_their_share_is_kept_for_the_calls_left():
    overrun = Overrun()
    overrun.called(0.0)
    overrun.shared(0.001)
    overrun.called(0.0015)  # the call took 0.5 ms more than its share
    assert overrun.per_call == pytest.approx(0.0005)
    overrun.shared(0.002)
    overrun.called(0.0030)  # less than its share: nothing over
    assert overrun.per_call == pytest.approx(0.00025)
    overrun.shared(0.0)
    overrun.called(0.0030)  # an elapsed that does not move (suggest(board) gets 0.0 each call)
    assert overrun.per_call == pytest.approx(0.0005 / 3)
    run = RunTime(1.0)
    run.share(4, 1, 0.5)
    run.share(4, 2, 0.5 + 0.45 / 1000 + 0.001)  # 1 ms over: the 998 calls left get 1 ms each first
    assert run.overrun.per_call == pytest.approx(0.001)
    assert run.share(4, 3, 0.502) == pytest.approx(max(0.95 - 0.502 - 0.001 * 998, 0) / 998)


def test_the_run_is_over_once_95_percent_of_it_is_spent():
    run = RunTime(2.0)
    assert run.share(4, 1, 2.0 * SAFETY) is None and run.share(4, 2, 1.99) is None


@pytest.mark.parametrize("value, seconds", [(None, 1.0), ("100", 100.0), ("0.5", 0.5), ("0", 1.0), ("-3", 1.0),
                                            ("inf", 1.0), ("nan", 1.0), ("soon", 1.0)])
def test_the_runs_time_is_the_referees_limit_where_it_gives_one_else_codeabbeys_second(monkeypatch, value, seconds):
    if value is None:
        monkeypatch.delenv(RUN_SECONDS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(RUN_SECONDS_VARIABLE, value)
    assert run_seconds_here() == seconds
