"""The table of games lost by a fault."""

from collections import Counter

import pytest
from rich.console import Console

from gridfall.arena.faults import faults_json, faults_table, late_together
from gridfall.arena.process import LATE

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def late(ms: int, limit: int) -> str:
    return f"timeout ({LATE.format(ms=ms, limit=limit)})"


def test_late_answers_under_one_limit_count_together_with_their_range():
    reasons = Counter({late(1126, 1000): 1, late(1095, 1000): 2, late(1003, 1000): 1, late(130, 100): 1,
                       "timeout (no answer line in time)": 3})
    assert late_together(reasons) == Counter({"timeout (answered after 1003-1126 ms, over the limit of 1000 ms)": 4,
                                              "timeout (no answer line in time)": 3,
                                              "timeout (answered after 130 ms, over the limit of 100 ms)": 1})
    # only the whole phrase of a late answer is read for a time: other reasons stay as they are
    crashes = Counter({"bot crashed (exited with code 1; stderr: answered after 5 ms)": 1,
                       "bot crashed (exited with code 1; stderr: answered after 7 ms)": 1})
    assert late_together(crashes) == crashes


def test_the_table_names_the_most_frequent_fault_and_the_json_keeps_each_reason():
    reasons = Counter({late(1000 + ms, 1000): 1 for ms in range(1, 30)} | {"bot crashed (exited with code 1)": 2})
    console = Console(width=200, record=True)
    console.print(faults_table({"mcts": reasons}))
    shown = console.export_text()
    assert "29 x timeout (answered after 1001-1029 ms, over the limit of 1000 ms)" in shown, shown
    assert "2 x bot crashed (exited with code 1)" in shown, shown
    assert faults_json({"mcts": reasons}) == [{"bot": "mcts", "games": 31, "reasons": dict(reasons.most_common())}]
