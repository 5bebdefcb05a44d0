"""portable.py (the exported players' own cascade code) against the rules of record, on random games."""

import random

import pytest

import gridfall
from gridfall.match3 import portable

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_portable_cascades_agree_with_the_rules_on_random_positions():
    rng = random.Random(6)
    positions = 0
    for number in range(40):
        size = (8, 11, 12, 13)[number % 4]
        state = gridfall.load_game("match3", size=size, seed=number, moves=25).new_initial_state()
        while not state.is_terminal():
            board = state.board
            g, n = portable._grid(list(board.rows))
            legal = board.legal_moves()
            swaps = portable.legal_swaps(g, n)  # found from pairs, in the rules' order
            assert [portable._named(i, j, n) for i, j in swaps] == legal, board.text()
            for i, j in swaps:
                col, row, direction = portable._named(i, j, n)
                assert portable._swap_score(g, n, i, j) > 0
                result = board.play(col, row, direction)
                assert portable.simulate(g, n, i, j) == result.total
                if rng.random() > 0.2:
                    continue
                after = portable._after(g, n, i, j)  # holes never match, as in the rules
                assert [portable._named(a, b, n) for a, b in portable.legal_swaps(after, n)] == \
                    result.board_after.legal_moves()
                holes_board = "\n".join("".join("ABCDEFG"[v] if v >= 0 else "*" for v in after[r * n:r * n + n])
                                         for r in range(n))
                assert holes_board == result.board_after.text()
            assert portable.greedy_move(list(board.rows)) in legal
            assert portable.fast_move(list(board.rows)) in legal
            state.apply_action(rng.choice(state.legal_actions()))
            positions += 1
    assert positions > 500


def plan_value(board, move):
    """A move's worth by the rules of record: its points plus those of the best move it leaves ready."""
    result = board.play(*move)
    ready = max((result.board_after.play(*m).total for m in result.board_after.legal_moves()), default=0)
    return 2.0 ** (result.total - 3) + (2.0 ** (ready - 3) if ready else 0.0)


def test_a_cascade_is_decided_by_the_cells_it_reads():
    """What plan_move's reuse rests on: scramble every cell outside cascade_reads' mask (jewels
    and holes at random), and the swap removes the same jewels and leaves the mask's cells alike."""
    rng = random.Random(9)
    swaps = 0
    for number in range(16):
        size = (8, 11, 12, 13)[number % 4]
        state = gridfall.load_game("match3", size=size, seed=300 + number, moves=10).new_initial_state()
        while not state.is_terminal():
            g, n = portable._grid(list(state.board.rows))
            for i, j in portable.legal_swaps(g, n):
                here = list(g)
                removed, reads = portable.cascade_reads(here, n, i, j)
                inside = [k for k in range(n * n) if reads >> k & 1]
                assert reads < 1 << (n * n) and i in inside and j in inside
                scrambled = [g[k] if reads >> k & 1 else rng.randrange(-1, 7) for k in range(n * n)]
                assert portable.cascade(scrambled, n, i, j) == removed
                assert [scrambled[k] for k in inside] == [here[k] for k in inside]
                swaps += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert swaps > 1000


@pytest.mark.parametrize("reads_pay", [True, False], ids=["second-ply-reused", "every-move-simulated"])
@pytest.mark.parametrize("size, games, moves", [(8, 6, 12), (13, 1, 6)])
def test_plan_move_is_the_best_two_ply_move_by_the_rules(monkeypatch, reads_pay, size, games, moves):
    monkeypatch.setattr(portable, "READS_PAY", reads_pay)  # CPython reuses, PyPy simulates: both must hold
    rng = random.Random(8)
    positions = 0
    for number in range(games):
        state = gridfall.load_game("match3", size=size, seed=100 + number, moves=moves).new_initial_state()
        while not state.is_terminal():
            board = state.board
            choice = portable.plan_move(list(board.rows))
            values = {m: plan_value(board, m) for m in board.legal_moves()}
            assert choice in values and values[choice] == max(values.values())
            state.apply_action(rng.choice(state.legal_actions()))
            positions += 1
    assert positions > games * moves // 2
