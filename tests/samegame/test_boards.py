"""Board text, the bundled sets and their errors."""

import pytest

from gridfall.samegame import boards
from gridfall.samegame.board_args import expand_specs
from gridfall.samegame.boards import BoardError, load_board, parse_board, parse_row

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_every_bundled_board_loads_full_and_in_range():
    for set_name, count in boards.SETS.items():
        specs = boards.set_specs(set_name)
        assert len(specs) == count
        for spec in specs:
            board = load_board(spec)
            assert board.cell_count() == 225 or set_name == "codingame"


def test_codingame_validators_are_the_standard_set_twice():
    for i in range(1, 21):
        standard = load_board(f"standard:{i}")
        assert load_board(f"codingame:{10 + i}") == standard
        recoloured = load_board(f"codingame:{30 + i}")
        # the same cells, colours permuted by one bijection
        pairs = {(a, b) for ca, cb in zip(standard.cells, recoloured.cells) for a, b in zip(ca, cb)}
        mapping = dict(pairs)
        assert len(mapping) == len(pairs) and len(set(mapping.values())) == len(mapping)


def test_random_boards_are_reproducible_and_vary():
    assert load_board("random:7") == load_board("random:7")
    assert load_board("random:7") != load_board("random:8")
    counts = load_board("random:7").colour_counts()
    assert sum(counts) == 225 and min(counts) > 20


def test_fixed_count_boards_have_the_standard_sets_counts():
    # like standard 11-15 and 16-20, whose counts are fixed: the shuffle is the seed's alone
    assert sorted(load_board("balanced:3").colour_counts()) == sorted(load_board("standard:12").colour_counts())
    assert sorted(load_board("dominant:3").colour_counts()) == sorted(load_board("standard:17").colour_counts())
    assert load_board("dominant:3").colour_counts()[3] == 65
    assert load_board("balanced:3") == load_board("balanced:3") != load_board("balanced:4")
    with pytest.raises(BoardError, match="seed must be an integer"):
        load_board("dominant:x")


def test_board_file(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(load_board("standard:3").text() + "\n")
    assert load_board(str(path)) == load_board("standard:3")


def rows_text(rows):
    return "\n".join(" ".join(str(v) for v in row) for row in rows)


FULL = [[0] * 15 for _ in range(15)]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r.pop(), "expected 15 non-empty lines"),
        (lambda r: r[2].pop(), "line 3: expected 15 numbers, found 14"),
        (lambda r: r.__setitem__(0, ["012340123401234"]),  # as a rows: spec writes a row
         "line 1: expected 15 numbers, found 1 (012340123401234: the numbers of a row are written apart, as '0 1 2 ...')"),
        (lambda r: r[4].__setitem__(6, 5), "line 5, column 7: colour 5 is outside 0..4"),
        (lambda r: r[4].__setitem__(6, "a"), "line 5, column 7: 'a' is not a number"),
        (lambda r: r[14].__setitem__(3, -1), "line 14, column 4 (x=3, y=1): a cell above an empty cell"),
    ],
)
def test_malformed_boards_name_line_and_column(mutate, message):
    rows = [list(r) for r in FULL]
    mutate(rows)
    with pytest.raises(BoardError) as e:
        parse_board(rows_text(rows), "my.txt")
    assert message in str(e.value)
    assert str(e.value).startswith("my.txt")


def test_a_row_of_no_numbers_is_named_as_such():
    # parse_row is the bot's reader too: an empty row is a BoardError, never an IndexError
    with pytest.raises(BoardError, match="line 3: expected 15 numbers, found 0$"):
        parse_row("", 3, "my.txt")


def test_floating_column_is_refused():
    rows = [list(r) for r in FULL]
    for row in rows:
        row[2] = -1
    with pytest.raises(BoardError, match="right of an empty one"):
        parse_board(rows_text(rows))


def test_settled_partial_board_is_accepted():
    rows = [[-1] * 15 for _ in range(15)]
    rows[14][0] = rows[14][1] = 2
    board = parse_board(rows_text(rows))
    assert board.groups()[0].size == 2


@pytest.mark.parametrize("spec, message", [
    ("standard:0", "boards 1..20"),
    ("codingame:51", "boards 1..50"),
    ("tuning:x", "must be an integer"),
    ("standard:1-5", r"standard:1-5: the board number must be an integer 1\.\.20$"),
    ("random:x", "seed must be an integer"),
    ("nowhere/board.txt", "no such board file"),
    ("x" * 5000, "no such board file"),  # too long a name for the file system: was an OSError
    ("a\0b", "no such board file"),  # a NUL byte: was a ValueError of pathlib's
    ("", "'': an empty board spec; give standard:1-20, .* or a board file's path"),  # was "a directory"
    (" standard:1", r"no such board file \(without the spaces around it: 'standard:1'\?\)"),
    ("rows:01234/01234", "2 rows; a rows: spec has 15, each of 15 cells, separated by /"),
    ("rows:" + "/".join(["0" * 15] * 14 + ["0" * 14]), r"row 15 \(from the top\): 14 cells"),
    ("rows:" + "/".join(["0" * 15] * 14 + ["0" * 14 + "5"]), r"row 15 \(from the top\): '5' is no colour 0-4"),
    ("rows:" + "/".join(["0" * 15] * 14 + ["." + "0" * 14]), "rows: spec: line 14, column 1 .*: a cell above an empty cell"),
    ("rows:" + "/".join(["." + "0" * 14] * 15), "rows: spec: line 15, column 2 .*: a filled column right of an empty one"),
])
def test_bad_specs(spec, message):
    with pytest.raises(BoardError, match=message):
        load_board(spec)


def test_expand_specs():
    assert expand_specs(["standard", "random:3"])[-2:] == ["standard:20", "random:3"]
    assert len(expand_specs(["tuning"])) == 250


def test_a_sets_numbers_listed_are_one_spec_each_and_a_bad_list_is_named():
    assert expand_specs(["standard:1-3,8", "tuning:250"]) == ["standard:1", "standard:2", "standard:3",
                                                                     "standard:8", "tuning:250"]
    for spec, words in [("standard:5-1", "standard:5-1: '5-1' is an empty range"),
                        ("tuning:x-3", "tuning:x-3: 'x-3' is not a number N or a range LOW-HIGH"),
                        ("codingame:1,1", "codingame:1,1: '1,1' names 1 twice")]:
        with pytest.raises(BoardError, match=words):
            expand_specs([spec])
    with pytest.raises(BoardError, match="there is no board 21"):  # each board is still checked where it loads
        [load_board(spec) for spec in expand_specs(["standard:19-21"])]


def test_a_rows_spec_names_any_settled_board_and_reads_it_back():
    board = load_board("random:5")
    while True:  # the full board, then every position of a game, to its end
        spec = boards.rows_spec(board)
        assert len(spec) == len("rows:") + 15 * 16 - 1 and load_board(spec) == board
        if board.is_over():
            break
        group = board.groups()[-1]  # the rightmost group: columns empty from the right
        board, _ = board.play(group.x, group.y)
    assert spec.count(".") > 100 and board.cells[14][0] == -1  # empty cells, and an empty column
    assert boards.portable_spec("standard:3", load_board("standard:3")) == "standard:3"
    assert boards.portable_spec("some/file.txt", board) == spec
