"""The pure-Python bot's search (the CodinGame export): its threats against the rules of record,
its values against a plain minimax, and a depth cut off by the clock answers only with a move it
proved better than the one it tried first."""

import random

import pytest

from gridfall.connect4.book import position_of
from gridfall.connect4.portable import WIN, Board, OutOfTime, Searcher
from gridfall.connect4.rules import Game, Position

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def unlimited(board):
    searcher = Searcher(board)
    searcher.deadline = float("inf")  # _root and _negamax read the deadline that choose sets
    return searcher


class Stopped(Searcher):
    """A searcher whose clock runs out after ``budget`` nodes, instead of at a time."""

    def __init__(self, board, budget):
        super().__init__(board)
        self.budget = budget
        self.deadline = float("inf")

    def _negamax(self, *args):
        if self.nodes >= self.budget:
            raise OutOfTime
        return super()._negamax(*args)


def positions(count, seed):
    """Positions from random games where the side to move has four or more moves that do not lose."""
    rnd = random.Random(seed)
    board = Board()
    found = []
    while len(found) < count:
        game = Game(steal=False)
        for _ in range(rnd.randint(4, 16)):
            game.apply_action(rnd.choice([x for x in range(9) if game.position.can_play(x)]))
            if game.is_terminal():
                break
        if game.is_terminal():
            continue
        current, mask = position_of(game)
        if len(Searcher(board)._moves(current, mask)) >= 4:
            found.append((current, mask))
    return found


@pytest.mark.parametrize("size", [(9, 7), (7, 6), (10, 6)])
def test_winning_cells_are_the_empty_cells_where_a_chip_makes_four_by_the_rules(size):
    width, height = size
    board, rnd, checked = Board(width, height), random.Random(width * height), 0
    for _ in range(60):
        game = Game(width, height, steal=False)
        while not game.is_terminal():
            me = game.current_player()
            current, mask = position_of(game)
            wins = board.winning_cells(current, mask)
            for x in range(width):
                for y in range(height):
                    if game.position.cell(x, y) is None:
                        stones = list(game.position.stones)
                        stones[me] |= game.position.bit(x, y)
                        four = Position(width, height, tuple(stones)).has_four(me)
                        assert four == bool(wins & game.position.bit(x, y)), (game.moves_string(), x, y)
                        checked += four
            game.apply_action(rnd.choice(game.legal_actions()))
    assert checked > 300


def plain_minimax(searcher, current, mask, depth, ply):
    """The search's value by brute force: every legal move, no table, no order, no pruning; only
    the leaf's exact checks (a win next, a full board, no move that does not lose at once) are the
    search's own, since they decide what a leaf is worth."""
    b = searcher.b
    possible = (mask + b.bottom) & b.full
    mine, theirs = b.winning_cells(current, mask), b.winning_cells(current ^ mask, mask)
    if possible & mine:
        return WIN - ply
    if possible == 0:
        return 0
    if not searcher._safe(possible, theirs):
        return -(WIN - ply - 1)
    if depth <= 0:
        return searcher._evaluate(current, mask, mine, theirs)
    return max(-plain_minimax(searcher, current ^ mask, mask | move, depth - 1, ply + 1)
               for move in (possible & column for column in b.columns) if move)


def test_the_search_value_is_the_plain_minimax_value():
    board = Board()
    for current, mask in positions(6, seed=11):
        searcher = unlimited(board)  # deepened as in play: the table carries entries from depth to depth
        for depth in range(1, 6):  # from 4 plies on, transpositions meet in the table
            score, _ = searcher._root(current, mask, depth, searcher._moves(current, mask))
            assert score == plain_minimax(searcher, current, mask, depth, 0), (current, mask, depth)


def root_values(board, current, mask, depth):
    """The root's moves in the search's order, and each one's value at ``depth`` from a fresh
    full-window search of its own: the tests' reference."""
    moves = Searcher(board)._moves(current, mask)
    return moves, {m: -unlimited(board)._negamax(current ^ mask, mask | m, depth - 1, -2 * 10**6, 2 * 10**6, 1)
                   for m in moves}


def test_a_depth_cut_off_answers_only_with_a_move_proved_better_than_the_first():
    board, depth, answered = Board(), 4, 0
    for current, mask in positions(40, seed=4):
        moves, values = root_values(board, current, mask, depth)
        moves.sort(key=values.get)  # the worst first, so that later moves prove better
        full = unlimited(board)
        _, best = full._root(current, mask, depth, list(moves))
        for k in range(1, 8):
            stopped = Stopped(board, full.nodes * k // 8)
            try:
                stopped._root(current, mask, depth, list(moves))
            except OutOfTime:
                pass
            if stopped.proved is not None:
                answered += 1
                assert values[stopped.proved] > values[moves[0]], (current, mask, k)
        assert values[best] == max(values.values())
    assert answered >= 20


def test_with_a_seed_the_root_finds_exactly_the_moves_tied_for_best():
    board, depth, ties_seen = Board(), 4, 0
    for current, mask in positions(40, seed=5):
        moves, values = root_values(board, current, mask, depth)
        searcher = unlimited(board)
        searcher.ties = True
        score, _ = searcher._root(current, mask, depth, list(moves))
        assert score == max(values.values())
        assert searcher.tied == [m for m in moves if values[m] == score], (current, mask)
        ties_seen += len(searcher.tied) > 1
    assert ties_seen >= 5


def test_a_seed_repeats_its_picks_another_varies_them_and_none_is_drawn_afresh():
    from gridfall.connect4.agents import make_agent
    from gridfall.connect4.book import Book
    from gridfall.connect4.portable import PortableAgent

    board = Board()
    found = positions(30, seed=7)
    tied = [1, 2, 4]  # three moves tied for best: only the first two may be picked

    def picks(seed):
        searcher = Searcher(board, seed=seed)
        return [searcher.pick(tied, current, mask) for current, mask in found]

    first = picks(1)
    assert picks(1) == first and set(first) == {1, 2}
    assert 5 <= sum(a != b for a, b in zip(first, picks(2))) <= 25
    no_book = Book(9, 7, {}, "none")  # every move searched
    agent = PortableAgent(seed=9, book=no_book)
    game = Game.from_moves("4435")
    agent.act(game, 0.02)
    seed = agent.searcher.seed
    game.apply_action(agent.act(game, 0.02))
    assert agent.searcher.seed == seed  # the same game, the same seed
    agent.act(Game.from_moves("44"), 0.02)
    assert agent.searcher.seed != seed  # fewer chips: a new game
    again = PortableAgent(seed=9, book=no_book)
    again.act(Game.from_moves("4435"), 0.02)
    assert again.searcher.seed == seed
    assert PortableAgent().seed != PortableAgent().seed  # no seed: one drawn for each agent
    assert make_agent("portable", seed=9).seed == 9  # `gridfall connect4 bot --agent portable --seed 9`


def test_max_depth_stops_the_deepening_there():
    board = Board()
    for current, mask in positions(5, seed=12):
        searcher = Searcher(board)
        column, _, reached = searcher.choose(current, mask, 60.0, max_depth=3)
        assert reached == 3 and (mask + board.bottom) & board.columns[column]


def test_the_agent_opens_and_steals_as_the_table_says():
    from gridfall.connect4.openings import OpeningTable
    from gridfall.connect4.portable import PortableAgent
    from gridfall.connect4.rules import STEAL

    table = OpeningTable.load()
    assert PortableAgent(table, seed=1).act(Game(), 0.02) == table.first_move
    for column in range(9):
        expected = STEAL if table.should_steal(column) else None
        action = PortableAgent(table, seed=1).act(Game.from_moves(str(column)), 0.02)
        assert (action == STEAL) == (expected == STEAL), column


def test_the_evaluation_is_the_numba_bots_on_random_games():
    import numpy as np

    from gridfall.connect4 import engine
    from gridfall.connect4.search import evaluate

    g, board, searcher, rnd, seen = engine.geometry(9, 7), Board(), Searcher(Board()), random.Random(3), set()
    for _ in range(80):
        game = Game(steal=False)
        while not game.is_terminal():
            cur, mask = engine.from_game(game)
            current, bits = position_of(game)
            value = searcher._evaluate(current, bits, board.winning_cells(current, bits),
                                       board.winning_cells(current ^ bits, bits))
            assert value == int(evaluate(np.uint64(cur), np.uint64(mask), g)), game.moves_string()
            seen.add(value)
            game.apply_action(rnd.choice(game.legal_actions()))
    assert len(seen) > 50  # the terms vary: not a constant on both sides


def test_a_win_at_once_is_played_even_against_a_double_threat():
    """The root looked for the opponent's threats before its own win: with two threats against
    it every move looked lost, and it played the first legal column (a game of the 2026-11-27
    runs, lost at 10 empty cells with a win on the board)."""
    game = Game(steal=False)
    # 0 has three in column 0 (wins at its top); 1 has two open threats on row 0 (columns 3, 7)
    for move in (0, 4, 0, 5, 0, 6, 8, 8):
        game.apply_action(move)
    current, mask = position_of(game)
    searcher = Searcher(Board())
    assert searcher._moves(current, mask) == []  # both of the opponent's threats cannot be blocked
    column, score, _ = searcher.choose(current, mask, 1.0)
    assert (column, score) == (0, WIN)
    game.apply_action(column)
    assert game.is_terminal() and game.returns()[0] > 0
