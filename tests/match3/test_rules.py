"""Match-3 rules of record: the statement's worked example, generator, refill and moves."""

import pytest

from gridfall.match3.rules import Board, Generator, IllegalMove, lines, new_board, points, refilled

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

# The statement's 8x8 example.  Rows 1-4 are the statement's own; the statement's
# rows 5-8 were not available offline, so these were found by search among all
# rows that make every fact the statement gives about the example true (see
# tests/match3/README.md).
EXAMPLE = Board.parse("""
EGACCBGD
EDCCGDEC
DBGEEACF
AFBDGEAC
BEBEAEAG
EDGDDGDD
CAFAGFAG
GCGDECEG
""")


def after_first_move():
    grid = EXAMPLE.play(5, 3, "R").board_after.grid()
    for r, jewel in zip(range(3), "AFC"):  # the statement's refill of column 6, top to bottom
        grid[r][5] = jewel
    return Board(tuple("".join(row) for row in grid))


def test_worked_example_from_the_statement():
    first = EXAMPLE.play(5, 3, "R")
    assert first.removed == [3] and first.points == 1
    after = first.board_after
    assert [after[6, r] for r in (1, 2, 3)] == ["*", "*", "*"]
    refilled_board = after_first_move()
    assert not lines(refilled_board.grid())
    second = refilled_board.play(6, 5, "D")
    assert second.total == 14 and second.points == 2048
    assert second.removed == [5, 9]  # five D, then three C, three A and three G at once


def test_points():
    assert [points(n) for n in (3, 4, 5, 14)] == [1, 2, 4, 2048]


def test_generator_is_codeabbeys_lcg():
    gen = Generator(1)
    assert gen.next_value() == (445 * 1 + 700001) % 2097152
    assert gen.next_value() == (445 * 700446 + 700001) % 2097152
    gen = Generator(5)
    drawn = [gen.next_jewel() for _ in range(7000)]
    assert set(drawn) == set("ABCDEFG") and all(700 < drawn.count(j) < 1300 for j in "ABCDEFG")


def test_new_boards_have_no_line_and_a_legal_move():
    gen = Generator(7)
    for size in (8, 11, 12, 13):
        board = new_board(size, gen)
        assert board.size == size and not board.has_holes()
        assert board.legal_moves()
        assert not lines(board.grid())


def test_legal_moves_are_the_swaps_is_legal_accepts():
    gen = Generator(11)
    boards = [new_board(size, gen) for size in (8, 11, 12, 13)]
    boards.append(EXAMPLE.play(5, 3, "R").board_after)  # holes: no swap may move one
    for board in boards:
        n = board.size
        every = [(c, r, d) for r in range(1, n + 1) for c in range(1, n + 1) for d in "RD" if board.is_legal(c, r, d)]
        assert board.legal_moves() == every


def test_refill_never_makes_a_line():
    gen = Generator(3)
    board = new_board(8, gen)
    for _ in range(50):
        if not board.legal_moves():
            break
        col, row, d = board.legal_moves()[0]
        board = refilled(board.play(col, row, d).board_after, gen)
        assert not board.has_holes() and not lines(board.grid())


@pytest.mark.parametrize("move, message", [
    ((1, 1, "X"), "not one of"),
    ((9, 1, "R"), "outside"),
    ((8, 1, "R"), "leaves the board"),
    ((1, 8, "D"), "leaves the board"),
    ((1, 1, "R"), "makes no line"),
])
def test_illegal_moves_say_why(move, message):
    with pytest.raises(IllegalMove, match=message):
        EXAMPLE.play(*move)


def test_all_four_directions():
    # (6, 3) L is the same swap as (5, 3) R; (6, 6) U the same as (6, 5) D
    assert EXAMPLE.play(6, 3, "L").removed == EXAMPLE.play(5, 3, "R").removed
    board = after_first_move()
    assert board.play(6, 6, "U").board_after == board.play(6, 5, "D").board_after


def test_parse_errors_name_line_and_column():
    with pytest.raises(ValueError, match=r"line 2: expected 3"):
        Board.parse("ABC\nAB\nABC")
    with pytest.raises(ValueError, match=r"line 2, column 2: 'x'"):
        Board.parse("ABC\nAxC\nABC")


def test_holes_cannot_be_swapped():
    board = Board.parse("A*B\nBAA\nCCB")
    with pytest.raises(IllegalMove, match="hole"):
        board.play(1, 1, "R")


def test_a_board_is_a_value_that_does_not_change():
    """Written out rather than a frozen dataclass (Python 3.6 has none): it must behave as one."""
    import pickle

    board = Board.parse("ABC\nBCA\nCAB")
    assert board == Board(["ABC", "BCA", "CAB"]) and board != Board.parse("ABC\nBCA\nCAA") and board != "ABC"
    assert len({board, Board.parse("ABC\nBCA\nCAB")}) == 1 and board.rows == ("ABC", "BCA", "CAB")
    assert pickle.loads(pickle.dumps(board)) == board and eval(repr(board)) == board
    with pytest.raises(AttributeError, match="a Board does not change"):
        board.rows = ("AAA",)
