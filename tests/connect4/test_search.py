"""The bot's alpha-beta search: its pruning (null windows, the table) never changes a value."""

import random
from importlib import resources

import numpy as np
import pytest

from gridfall.connect4 import engine
from gridfall.connect4.rules import Game
from gridfall.connect4.search import (
    ABORTED,
    BUDGET,
    DEADLINE,
    NODES,
    WIN,
    Searcher,
    _noise,
    evaluate,
    evaluation_terms,
    search_root,
)
from gridfall.connect4.solver import Solver

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def sign(v):
    return (v > 0) - (v < 0)


def minimax(cur, mask, depth, g, stats=None):
    """The search's value by plain negamax over the same moves and leaves, without any pruning
    (``stats``: a searcher's, whose seeded noise the leaves then carry)."""
    cells = int(g[engine.W] * g[engine.H])
    n = int(engine.moves_played(mask))
    if engine.can_win_next(cur, mask, g):
        return WIN + cells - n
    possible = int(engine.non_losing_moves(cur, mask, g))
    if possible == 0:
        return -(WIN + cells - n - 1)
    if n >= cells - 2:
        return 0
    if depth <= 0:
        return int(evaluate(cur, mask, g)) + (0 if stats is None else int(_noise(cur, mask, stats)))
    best = None
    while possible:
        move = possible & -possible
        possible ^= move
        v = -minimax(cur ^ mask, mask | np.uint64(move), depth - 1, g, stats)
        best = v if best is None else max(best, v)
    return best


def root_values(cur, mask, depth, g, stats=None):
    """{column: value} of each playable column, as the search's root sees them."""
    cells = int(g[engine.W] * g[engine.H])
    values = {}
    for x in range(int(g[engine.W])):
        move = np.uint64(engine.column_move(mask, x, g))  # numba hands back a Python int: numpy 1 would not mix them
        if move:
            if engine.has_four(cur | move, g):
                values[x] = WIN + cells - int(engine.moves_played(mask))
            else:
                values[x] = -minimax(cur ^ mask, mask | move, depth - 1, g, stats)
    return values


def quiet_positions(count, plies, seed):
    """Positions of random games in which neither side had a win at hand, with six or more safe
    moves: where the search has real choices to prune."""
    rnd = random.Random(seed)
    g = engine.geometry(9, 7)
    positions = []
    while len(positions) < count:
        game = Game(9, 7, steal=False)
        length = rnd.randint(*plies)
        for ply in range(length + 1):
            cur, mask = (np.uint64(v) for v in engine.from_game(game))
            safe = int(engine.non_losing_moves(cur, mask, g))
            if engine.can_win_next(cur, mask, g) or bin(safe).count("1") < 6:
                break
            if ply == length:
                positions.append((cur, mask))
                break
            game.apply_action(rnd.choice([x for x in range(9) if safe & int(g[engine.COLUMN + x])]))
    return positions


@pytest.mark.parametrize("depth", [3, 5])
def test_the_searched_value_is_the_plain_negamax_value(depth):
    searcher = Searcher(9, 7, table_bits=16)
    g = searcher.g
    for cur, mask in quiet_positions(60 if depth == 3 else 30, (4, 24), seed=depth):
        searcher.forget()
        decision = searcher.choose(cur, mask, seconds=1e9, max_depth=depth)
        values = root_values(cur, mask, decision.depth, g)
        assert decision.score == max(values.values()), (int(cur), int(mask))
        assert values[decision.column] == decision.score


def test_with_variety_the_searched_value_is_negamax_over_the_noisy_leaves():
    # the leaves hold 8 to 28 chips: the noise stops at 18
    searcher = Searcher(9, 7, table_bits=16, variety=3, seed=12345, variety_chips=18)
    g = searcher.g
    for cur, mask in quiet_positions(40, (4, 24), seed=8):
        searcher.forget()
        decision = searcher.choose(cur, mask, seconds=1e9, max_depth=4)
        values = root_values(cur, mask, decision.depth, g, searcher.stats)
        assert decision.score == max(values.values()), (int(cur), int(mask))
        plain = max(root_values(cur, mask, decision.depth, g).values())
        assert abs(decision.score - plain) <= 3  # the noise, 0..3 a leaf, moves a value by at most 3


def test_a_depth_stopped_early_answers_only_with_a_move_proved_better_than_the_first():
    # search_root from a fresh table searches every position to one depth, so its values are
    # plain negamax values: a move it returns when stopped must beat the first move's value
    searcher = Searcher(9, 7, table_bits=16)
    g, stats = searcher.g, searcher.stats
    depth, answered = 5, 0

    def run(cur, mask, first, budget):
        searcher.forget()
        stats[NODES], stats[ABORTED], stats[BUDGET], stats[DEADLINE] = 0, 0, budget, 1 << 62
        x, _ = search_root(cur, mask, depth, first, g, searcher.keys, searcher.data, stats)
        return int(x), int(stats[NODES]), bool(stats[ABORTED])

    for cur, mask in quiet_positions(25, (4, 20), seed=11):
        values = root_values(cur, mask, depth, g)
        first = min(values, key=values.get)  # the worst move first, so that later ones prove better
        best, nodes, aborted = run(cur, mask, first, 1 << 62)
        assert not aborted
        for budget in [nodes * k // 8 for k in range(1, 8)] + [nodes - 1]:
            x, _, aborted = run(cur, mask, first, budget)
            assert aborted
            if x >= 0:
                answered += 1
                assert x != first and values[x] > values[first], (int(cur), int(mask), budget)
        if values[best] > values[first]:
            assert x == best  # stopped at the very last node, the last move proved better is the answer
    assert answered >= 50


def test_the_noise_spans_0_to_variety_below_the_chip_limit_and_is_0_from_it():
    stats = Searcher(9, 7, table_bits=10, variety=3, seed=7, variety_chips=20).stats
    seen = {True: set(), False: set()}
    for cur, mask in random_positions_with_threats(400):
        seen[bin(int(mask)).count("1") < 20].add(int(_noise(cur, mask, stats)))
    assert seen == {True: {0, 1, 2, 3}, False: {0}}


def test_seeds_vary_the_choice_and_a_seed_repeats_it():
    positions = quiet_positions(40, (6, 20), seed=9)

    def choices(seed):
        searcher = Searcher(9, 7, table_bits=16, variety=3, seed=seed)
        return [searcher.choose(cur, mask, seconds=1e9, max_depth=5).column for cur, mask in positions]

    first = choices(1)
    assert choices(1) == first
    differing = sum(a != b for a, b in zip(first, choices(2)))
    assert 2 <= differing <= 20  # some choices change, most hold: the noise is small
    plain = Searcher(9, 7, table_bits=16)
    plain_choices = [plain.choose(cur, mask, seconds=1e9, max_depth=5).column for cur, mask in positions]
    assert plain_choices != first
    no_chips = Searcher(9, 7, table_bits=16, variety=3, seed=1, variety_chips=0)  # noise nowhere
    assert [no_chips.choose(cur, mask, seconds=1e9, max_depth=5).column for cur, mask in positions] == plain_choices


def test_reseeding_empties_the_table():
    searcher = Searcher(9, 7, table_bits=16, variety=3, seed=1)
    cur, mask = quiet_positions(1, (10, 10), seed=3)[0]
    searcher.choose(cur, mask, seconds=1e9, max_depth=6)
    again = searcher.choose(cur, mask, seconds=1e9, max_depth=6).nodes
    searcher.reseed(2)
    assert searcher.choose(cur, mask, seconds=1e9, max_depth=6).nodes > 3 * again


def test_searched_to_the_end_the_result_is_exact():
    text = resources.files("gridfall").joinpath("data", "connect4", "scored", "7x6", "endgame_L1.txt").read_text()
    rows = [(m, int(s)) for m, s in (line.split() for line in text.splitlines() if line.strip())]
    solver, searcher = Solver(7, 6, 18), Searcher(7, 6, table_bits=18)
    checked = 0
    for moves, score in rows[::8]:
        if len(moves) < 30:  # at most 12 empty cells: a full-depth search is quick
            continue
        cur, mask = solver.position(moves)
        decision = searcher.choose(cur, mask, seconds=1e9)
        assert sign(decision.score) == sign(score), moves
        assert (abs(decision.score) >= WIN) == (score != 0), moves  # a draw is 0, never "proven"
        checked += 1
    assert checked >= 20


def test_the_lowest_threat_terms_agree_with_a_scan_of_each_column():
    g = engine.geometry(9, 7)
    seen = 0
    for cur, mask in quiet_positions(300, (10, 40), seed=7) + random_positions_with_threats(300):
        mine, theirs = int(engine.winning_cells(cur, mask, g)), int(engine.winning_cells(cur ^ mask, mask, g))
        lowest = even = 0
        side_wants_even = bin(int(mask)).count("1") % 2 == 0
        for x in range(9):
            for y in range(7):
                cell = 1 << (x * 7 + y)
                if (mine | theirs) & cell:  # the lowest threat of column x
                    if mine & cell and not theirs & cell:
                        lowest += 1
                        even += y % 2 == 0 and side_wants_even
                    elif theirs & cell and not mine & cell:
                        lowest -= 1
                        even -= y % 2 == 0 and not side_wants_even
                    break
        terms = evaluation_terms(cur, mask, g)
        assert (terms[0], terms[1]) == (lowest, even), (int(cur), int(mask))
        assert terms[3] == bin(mine).count("1") - bin(theirs).count("1")
        seen += lowest != 0
    assert seen > 50  # the positions do have threats to count


def random_positions_with_threats(count):
    """Positions of random games, threats and all, before anyone has won."""
    rnd = random.Random(11)
    positions = []
    while len(positions) < count:
        game = Game(9, 7, steal=False)
        for _ in range(rnd.randint(15, 50)):
            game.apply_action(rnd.choice(game.legal_actions()))
            if game.is_terminal():
                break
        else:
            positions.append(tuple(np.uint64(v) for v in engine.from_game(game)))
    return positions


def test_a_search_given_centuries_runs_to_its_depth():
    # seconds=1e300 made the cycle counter's deadline infinite, and int() raised OverflowError
    # (the Python API's player.act(state, 1e300) did that)
    from gridfall.jit import deadline_ticks

    assert deadline_ticks(1e300) == deadline_ticks(float("inf")) == 2**64 - 1  # never
    assert deadline_ticks(1.0) < deadline_ticks(2.0) < 2**63
    searcher = Searcher(9, 7, table_bits=16)
    cur, mask = quiet_positions(1, (10, 12), seed=1)[0]
    assert searcher.choose(cur, mask, seconds=1e300, max_depth=4).depth == 4
