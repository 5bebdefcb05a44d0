"""Call every SameGame kernel once, so that numba compiles and caches it before anything is timed:
in three groups, which ``gridfall.warmup.GROUPS`` lists and a cold cache compiles apart."""

from __future__ import annotations

import time

import numpy as np


def warm_engine() -> None:
    from gridfall.jit import new_rng
    from gridfall.samegame import engine
    from gridfall.samegame.boards import random_board
    from gridfall.samegame.search.colours import most_common_colour

    b = engine.from_board(random_board(1))
    moves = engine.new_moves()
    engine.list_moves(b, moves)
    engine.has_moves(b)
    engine.cell_count(b)
    engine.board_hash(b)
    engine.move_code(moves[0])
    engine.canonical_cell(moves[0])
    engine.play_xy(b.copy(), 0, 0, np.zeros(6, dtype=np.uint64))
    engine.random_playout(b.copy(), new_rng(1), most_common_colour(b), moves)


def warm_nrpa_and_annealing() -> None:
    """What the bots and `solve`'s default (`auto`) run: NRPA, its replay of a guide, annealing."""
    from gridfall.samegame import engine
    from gridfall.samegame.boards import random_board
    from gridfall.samegame.search.anneal import anneal_solve
    from gridfall.samegame.search.portfolio import nrpa_solve

    start = engine.from_board(random_board(2))
    _, line, _ = nrpa_solve(start, time.monotonic() + 1e9, level=2, iterations=2, max_runs=1)
    nrpa_solve(start, time.monotonic() + 1e9, level=1, iterations=2, max_runs=1, guide=line)  # the replay kernel
    anneal_solve(start, time.monotonic() + 1e9, guide=line, max_edits=2, sweep=2)


def warm_tree_searches() -> None:
    """The other solvers: beam search, NMCS and MCBS."""
    from gridfall.samegame import engine
    from gridfall.samegame.boards import random_board
    from gridfall.samegame.search.beam import beam_solve
    from gridfall.samegame.search.mcbs import mcbs_solve
    from gridfall.samegame.search.nmcs import nmcs_solve

    start = engine.from_board(random_board(2))
    beam_solve(start, time.monotonic() + 1e9, max_width=2)
    nmcs_solve(start, time.monotonic(), level=1)
    mcbs_solve(start, 0.0, width=2, playouts=1, widen=False)
