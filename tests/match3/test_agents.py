"""The strong Match-3 agent's sampling stops where its budget says, on a clock the test drives."""

from types import SimpleNamespace

import pytest

import gridfall
from gridfall.match3 import agents

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


@pytest.mark.parametrize("budget, samples", [
    (1.0, 16),     # max_samples: enough to rank the moves, well inside a second
    (0.040, 8),    # min_samples, then half the budget is spent (8 x 4 ms = 32 ms)
    (0.020, 4),    # under the time of min_samples: a pair more (24 ms) would pass 20 ms
    (0.005, 2),    # one pair at least: the answer needs a sample
])
def test_sampling_keeps_to_the_budget_even_under_the_time_of_min_samples(monkeypatch, budget, samples):
    """A budget under the time of min_samples was overrun: seconds=0.01 a move took 38 ms on a
    13x13 board, the time of 8 samples.  Each sample here takes 4 ms of a clock that moves only
    when a batch is sampled."""
    clock = [0.0]
    sampled = []
    real = agents._sample_values

    def sample_values(g, moves, count, batch, *rest):
        real(g, moves, count, batch, *rest)
        clock[0] += 0.004 * batch
        sampled.append(batch)

    monkeypatch.setattr(agents, "_sample_values", sample_values)
    monkeypatch.setattr(agents, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    board = list(gridfall.load_game("match3", size=8, seed=3).new_initial_state().board.rows)
    agents.StrongAgent(budget=budget, seed=1).suggest(board)
    assert sum(sampled) == samples
