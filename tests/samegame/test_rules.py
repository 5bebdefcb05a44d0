"""The rules of record against the referee's behaviour and known scores."""

from importlib import resources

import pytest

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board

from .conftest import board_from_columns

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def reference_solutions():
    text = resources.files("gridfall").joinpath("data", "samegame", "reference_solutions_nan0S.txt").read_text()
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, score, n_moves, left, moves = line.split("\t")
        yield int(number), int(score), int(n_moves), int(left), moves


def test_reference_sequences_reproduce_their_scores_exactly():
    total = 0
    solutions = list(reference_solutions())
    assert len(solutions) == 20
    for number, score, n_moves, left, moves in solutions:
        judged = rules.judge(load_board(f"standard:{number}"), rules.split_one_turn(moves), strict=True)
        assert judged.ok, judged.error
        assert judged.score == score, number
        assert len(judged.actions) == n_moves
        assert judged.board.cell_count() == left
        assert judged.cleared == (left == 0)
        total += judged.score
    assert total == 72_819


def test_points_and_clear_bonus():
    board = board_from_columns([[1, 1], [1]])
    after, gained = board.play(1, 0)
    assert gained == (3 - 2) ** 2 + 1000
    assert after.is_cleared() and after.is_over()


def test_pair_scores_zero():
    board = board_from_columns([[2, 2, 3]])
    after, gained = board.play(0, 1)
    assert gained == 0
    assert after == board_from_columns([[3]])


def test_cells_fall_keeping_order():
    board = board_from_columns([[0, 1, 1, 2, 3], [4, 1]])
    after, gained = board.play(0, 2)  # the three 1s: two in column 0 and one in column 1
    assert gained == 1
    assert after == board_from_columns([[0, 2, 3], [4]])


def test_empty_columns_close_up_to_the_left():
    board = board_from_columns([[0, 1], [2, 2], [3], [2, 2], [4]])
    after, _ = board.play(1, 1)
    assert after == board_from_columns([[0, 1], [3], [2, 2], [4]])


def test_region_is_four_connected_not_diagonal():
    board = board_from_columns([[0, 1], [1, 0]])
    assert board.region(0, 0) == {(0, 0)}
    assert board.groups() == []
    assert board.is_over()


def test_groups_are_named_by_smallest_cell():
    board = board_from_columns([[3, 0, 0], [0, 0, 3]])
    (group,) = board.groups()
    assert (group.x, group.y, group.colour, group.size) == (0, 1, 0, 4)


def test_illegal_clicks_name_their_reason(standard1):
    board = board_from_columns([[0, 1]])
    with pytest.raises(rules.IllegalMove) as e:
        board.play(0, 0)
    assert e.value.reason == rules.REGION_OF_ONE
    with pytest.raises(rules.IllegalMove) as e:
        board.play(5, 5)
    assert e.value.reason == rules.EMPTY_TILE
    with pytest.raises(rules.IllegalMove):
        standard1.play(15, 0)


def test_text_round_trips(standard1):
    assert rules.Board.from_rows([[int(v) for v in line.split()] for line in standard1.text().splitlines()]) == standard1
    assert standard1.text().splitlines()[0].startswith("3 1 1 4 1")  # top row first


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3 4", (3, 4)),
        ("3 4 hello world", (3, 4)),
        ("3\t4", (3, 4)),
        ("+3 04", (3, 4)),
        ("-1 4", (-1, 4)),
    ],
)
def test_parse_action_accepts_what_the_referee_accepts(text, expected):
    assert rules.parse_action(text) == expected


@pytest.mark.parametrize("text", ["", "3", "3,4", "x y", " 3 4", "3 4x", "3.0 4"])
def test_parse_action_refuses_what_the_referee_refuses(text):
    with pytest.raises(rules.ActionFormatError):
        rules.parse_action(text)


def test_split_one_turn_drops_trailing_separators_only():
    assert rules.split_one_turn(" 1 2;3 4;; \n") == ["1 2", "3 4"]
    assert rules.split_one_turn("1 2;;3 4") == ["1 2", "", "3 4"]


def test_one_turn_illegal_click_is_a_warning_and_changes_nothing():
    board = board_from_columns([[0, 0, 1], [2, 2, 3]])
    judged = rules.judge(board, ["0 2", "9 9", "0 0", "1 0"])
    assert judged.ok
    assert judged.actions == [(0, 0), (1, 0)]
    assert len(judged.warnings) == 2
    assert "Region of size 1" in judged.warnings[0]
    assert "Selected empty tile" in judged.warnings[1]


def test_turn_flavour_illegal_click_ends_the_game():
    board = board_from_columns([[0, 0, 1], [2, 2, 3]])
    judged = rules.judge(board, ["0 0", "0 0", "1 0"], strict=True)
    assert judged.actions == [(0, 0)]
    assert judged.error == "Region of size 1"
    assert judged.detail == "action 2: Region of size 1 (x=0, y=0)"


def test_format_and_range_errors_end_both_flavours():
    board = board_from_columns([[0, 0], [1, 1]])
    for strict in (False, True):
        assert rules.judge(board, ["zero zero"], strict=strict).error == rules.FORMAT_VERDICT
        assert rules.judge(board, ["15 0"], strict=strict).error == rules.OUT_OF_BOUNDS
    # the error as printed names the verdict once, with the action and the cell
    assert rules.judge(board, ["0 0", "15 0"]).error_text == "action 2: Selected target out of bounds (x=15, y=0)"
    assert rules.judge(board, ["zero zero"]).error_text.startswith("action 1: Action not properly formatted")
    assert rules.judge(board, ["0 0"]).error_text == ""
    bare = rules.Judgement(board=board, error=rules.OUT_OF_BOUNDS, detail="turn 3")  # a detail without its verdict
    assert bare.error_text == "Selected target out of bounds (turn 3)"


def test_one_turn_reads_at_most_150_actions():
    # 160 columns-worth of legal pairs is impossible, so count warnings instead:
    board = load_board("standard:1")
    judged = rules.judge(board, ["14 14"] * 149 + ["0 0"] * 5)
    assert len(judged.warnings[:-1]) + len(judged.actions) == 150
    assert judged.warnings[-1] == "actions 151-154: not read (the one-turn flavour reads the first 150)"
    assert not any("not read" in w for w in rules.judge(board, ["14 14"] * 150).warnings)  # nothing left out
    over = board_from_columns([[0, 0]])  # over after its first action: what follows is not read either way
    assert rules.judge(over, ["0 0"] + ["0 1"] * 200).warnings == []


def test_game_stops_when_over():
    board = board_from_columns([[0, 0]])
    judged = rules.judge(board, ["0 0", "0 0", "junk"])
    assert judged.ok and judged.cleared and judged.score == 1000
    assert judged.actions == [(0, 0)]
