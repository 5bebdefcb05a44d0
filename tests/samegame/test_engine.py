"""Differential tests: the numba engine must agree with the rules of record."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from gridfall.jit import new_rng
from gridfall.samegame import engine, rules
from gridfall.samegame.boards import load_board

from .strategies import settled_boards

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def engine_moves(b):
    moves = engine.new_moves()
    n = engine.list_moves(b, moves)
    return {(engine.cell_of(moves[i]), engine.cells_of(moves[i]), int(moves[i, engine.COLOUR])) for i in range(n)}


def rules_moves(board):
    return {((g.x, g.y), g.cells, g.colour) for g in board.groups()}


def assert_same_position(board, b):
    assert engine.to_board(b) == board
    assert engine_moves(b) == rules_moves(board)
    assert engine.has_moves(b) == bool(board.groups())
    assert bool(engine.is_cleared(b)) == board.is_cleared()
    assert engine.cell_count(b) == board.cell_count()


def play_both(board, b, x, y, scratch):
    try:
        after, gained = board.play(x, y)
    except rules.IllegalMove as e:
        code = engine.play_xy(b, x, y, scratch)
        assert code == {rules.EMPTY_TILE: engine.EMPTY_TILE, rules.REGION_OF_ONE: engine.REGION_OF_ONE}[e.reason]
        return board
    assert engine.play_xy(b, x, y, scratch) == gained
    return after


@settings(max_examples=300, deadline=None)
@given(settled_boards(), st.randoms(use_true_random=False))
def test_engine_agrees_with_rules_on_random_positions(board, rnd):
    b = engine.from_board(board)
    scratch = np.zeros(6, dtype=np.uint64)
    assert_same_position(board, b)
    while not board.is_over():
        # any cell, legal or not, so refusals are compared too
        x, y = rnd.randrange(rules.WIDTH), rnd.randrange(rules.HEIGHT)
        if rnd.random() < 0.7:
            group = rnd.choice(board.groups())
            x, y = rnd.choice(sorted(group.cells))
        board = play_both(board, b, x, y, scratch)
        assert_same_position(board, b)


def test_engine_agrees_with_rules_over_seeded_full_games():
    rnd = random.Random(2024)
    scratch = np.zeros(6, dtype=np.uint64)
    positions = 0
    for seed in range(60):
        board = load_board(f"random:{seed}") if seed % 3 else load_board(f"tuning:{seed + 1}")
        b = engine.from_board(board)
        while board.groups():
            group = rnd.choice(board.groups())
            board = play_both(board, b, *rnd.choice(sorted(group.cells)), scratch)
            assert engine.to_board(b) == board
            positions += 1
        assert_same_position(board, b)
    assert positions > 2000


def test_play_move_from_move_list_matches_rules():
    board = load_board("standard:2")
    b = engine.from_board(board)
    moves = engine.new_moves()
    rnd = random.Random(5)
    while True:
        n = engine.list_moves(b, moves)
        if n == 0:
            break
        i = rnd.randrange(n)
        x, y = engine.cell_of(moves[i])
        board, gained = board.play(x, y)
        assert engine.play_move(b, moves[i].copy()) == gained
        assert engine.to_board(b) == board


def test_reference_sequences_score_the_same_on_the_engine():
    from .test_rules import reference_solutions

    scratch = np.zeros(6, dtype=np.uint64)
    for number, score, *_, moves in reference_solutions():
        b = engine.from_board(load_board(f"standard:{number}"))
        total = 0
        for action in moves.split(";"):
            if action:
                x, y = map(int, action.split())
                total += engine.play_xy(b, x, y, scratch)
        assert total == score


def test_random_playout_is_seeded_and_scores_what_it_plays():
    start = engine.from_board(load_board("standard:4"))
    moves = engine.new_moves()
    results = []
    for _ in range(2):
        b = start.copy()
        results.append((engine.random_playout(b, new_rng(9), 2, moves), b.tobytes()))
    assert results[0] == results[1]
    assert not engine.has_moves(np.frombuffer(results[0][1], dtype=np.uint64).reshape(5, 4))
    b = start.copy()
    other = engine.random_playout(b, new_rng(10), 2, moves)
    assert (other, b.tobytes()) != results[0]


def test_board_hash_tells_positions_apart():
    seen = {}
    for seed in range(200):
        b = engine.from_board(load_board(f"random:{seed}"))
        seen[int(engine.board_hash(b))] = seed
    assert len(seen) == 200


def test_move_codes_depend_on_cells_and_colour():
    b = engine.from_board(load_board("standard:1"))
    moves = engine.new_moves()
    n = engine.list_moves(b, moves)
    codes = {int(engine.move_code(moves[i])) for i in range(n)}
    assert len(codes) == n


def test_incremental_move_list_matches_a_fresh_one():
    rnd = random.Random(31)
    moves, seeds = engine.new_moves(), engine.new_scratch()
    steps = drops = 0
    for seed in range(40):
        b = engine.from_board(load_board(f"random:{seed}"))
        n = engine.list_moves(b, moves)
        while n:
            before = engine.to_board(b)
            x, y = engine.cell_of(moves[i := rnd.randrange(n)])
            expected_board, expected_points = before.play(x, y)
            columns = sum(1 for column in before.cells if column[0] != rules.EMPTY)
            points, n = engine.play_listed(b, moves, n, i, seeds)
            assert (points, engine.to_board(b)) == (expected_points, expected_board)
            listed = {(engine.cells_of(moves[j]), int(moves[j, engine.COLOUR]), int(moves[j, engine.SIZE])) for j in range(n)}
            assert len(listed) == n
            assert listed == {(g.cells, g.colour, len(g.cells)) for g in expected_board.groups()}
            steps += 1
            drops += sum(1 for column in expected_board.cells if column[0] != rules.EMPTY) < columns
    assert steps > 1500 and drops > 40  # both the zone refresh and the rebuild ran
