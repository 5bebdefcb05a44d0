"""The numba engine against the rules of record over many random boards and moves."""

import random

import numpy as np
import pytest

from gridfall.jit import new_rng
from gridfall.match3 import engine
from gridfall.match3.rules import Board, Generator, lines, new_board, refilled

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def engine_moves(board):
    g = engine.from_board(board)
    out = engine.new_moves(board.size)
    n = engine.legal_moves(g, out)
    return {(int(c) + 1, int(r) + 1, "RD"[int(d)]) for r, c, d in out[:n]}


def test_engine_agrees_with_rules_over_random_games():
    rnd = random.Random(11)
    checked = 0
    for seed in range(40):
        gen = Generator(seed)
        board = new_board(rnd.choice((8, 11, 12, 13)), gen)
        state = np.array([gen.x], dtype=np.int64)
        for _ in range(40):
            moves = board.legal_moves()
            assert engine_moves(board) == set(moves)
            if not moves:
                break
            col, row, d = rnd.choice(moves)
            result = board.play(col, row, d)
            g = engine.from_board(board)
            marks = np.zeros(g.shape, dtype=np.bool_)
            cascades = np.zeros(64, dtype=np.int64)
            total = engine.play(g, row - 1, col - 1, "RD".index(d), marks, cascades)
            assert total == result.total
            assert list(cascades[: len(result.removed)]) == result.removed
            assert engine.to_board(g) == result.board_after
            # the same refill from the same generator state
            board = refilled(result.board_after, gen)
            engine.fill_lcg(g, state)
            assert engine.to_board(g) == board and state[0] == gen.x
            checked += 1
    assert checked > 1000


def test_random_fill_never_makes_a_line_and_is_seeded():
    g = np.full((13, 13), engine.HOLE, dtype=np.int8)
    engine.fill_random(g, new_rng(4))
    board = engine.to_board(g)
    assert not board.has_holes() and not lines(board.grid())
    g2 = np.full((13, 13), engine.HOLE, dtype=np.int8)
    engine.fill_random(g2, new_rng(4))
    assert np.array_equal(g, g2)


def test_round_trip():
    board = Board.parse("ABC\nC*A\nBCA")
    assert engine.to_board(engine.from_board(board)) == board
