"""The committed offline results file replays, line by line, to the scores it claims."""

from pathlib import Path

import pytest

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.store import results_row

RESULTS = Path(__file__).resolve().parents[2] / "results" / "samegame-standard.txt"


@pytest.mark.skipif(not RESULTS.exists(), reason="no results file in this checkout")
def test_results_file_replays_to_its_claims_and_header_total():
    lines = RESULTS.read_text().splitlines()
    rows = [results_row(line, "standard") for line in lines if line.strip() and not line.startswith("#")]
    assert sorted(spec for spec, _, _ in rows) == sorted(f"standard:{n}" for n in range(1, 21))
    total = 0
    for spec, score, moves in rows:
        judged = rules.judge(load_board(spec), rules.split_one_turn(moves), strict=True)
        assert judged.ok and judged.score == score, spec
        total += judged.score
    assert f"total {total}" in next(line for line in lines if line.startswith("# gridfall standard"))
