"""The one game interface: a random simulation test of the three games (after OpenSpiel's
random_sim_test), each checked against its rules of record and referee.

In every random game, at every step:
- the offered actions are exactly the legal moves the rules of record list, and the mask agrees;
- every offered action's text round-trips through string_to_action;
- a clone is independent of its original (checked at one random step a game);
- the serialised state replays to the same board, history and returns (one random step, and
  the end);
and at the end, returns() equals the score the rules of record (or the referee) give the moves.
"""

import copy as copy_module
import json
import pickle
import random
import re

import numpy as np
import pytest

import gridfall
from gridfall.interface import TERMINAL, IllegalAction
from gridfall.samegame.rules import IllegalMove as SameGameIllegalMove

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

# Random games of each game (of each Connect Four kind).  A SameGame or Match-3 game costs 20 to
# 50 ms on the rules of record, a Connect Four game 2 to 5 ms.  The suite plays a fifth of them
# (about 16 s): a wrong rule shows in most games, and one game fails the test.  `-m slow` plays
# them all (about 85 s), for the rare positions: a long cascade, a full board drawn.
GAMES_PER_KIND = {"samegame": 1000, "connect4": 2000, "match3": 1000}
SHARE = [pytest.param(5, id="a-fifth"), pytest.param(1, id="all", marks=pytest.mark.slow)]


def games(kind, every):
    """The first 1/EVERY of KIND's random games."""
    return range(GAMES_PER_KIND[kind] // every)


def random_game(game, rng):
    """Play one random game through the interface, with the generic checks; return (state, actions)."""
    state = game.new_initial_state()
    check_step = rng.randrange(game.max_game_length())
    actions = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a live state offers at least one action"
        assert legal == sorted(set(legal))
        assert all(0 <= a < game.num_distinct_actions() for a in legal)
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and sum(mask) == len(legal)
        assert all(mask[a] == 1 for a in legal)
        for a in legal:
            assert state.string_to_action(state.action_to_string(a)) == a
        assert 0 <= state.current_player() < game.num_players() == state.num_players()
        assert state.is_player_node() and state.is_initial_state() == (not actions)
        action = rng.choice(legal)
        if len(actions) == check_step:
            check_clone_and_serialisation(game, state, action)
        before = str(state)
        state.apply_action(action)
        actions.append(action)
        assert str(state) != before or game.short_name == "connect4"  # a steal changes owners only
    assert state.current_player() == TERMINAL and not state.is_player_node()
    assert [state.player_return(p) for p in range(game.num_players())] == state.returns()
    assert [state.player_reward(p) for p in range(game.num_players())] == state.rewards()
    assert state.legal_actions() == [] and sum(state.legal_actions_mask()) == 0
    with pytest.raises(IllegalAction):
        state.apply_action(0)
    assert len(actions) <= game.max_game_length()
    check_clone_and_serialisation(game, state, None)
    return state, actions


def check_clone_and_serialisation(game, state, action):
    snapshot = (str(state), state.history(), state.returns(), state.legal_actions())
    copy = game.deserialize_state(state.serialize())
    assert (str(copy), copy.history(), copy.returns(), copy.legal_actions()) == snapshot
    if action is None:
        return
    child = state.child(action)  # OpenSpiel's clone-and-apply
    assert (str(state), state.history(), state.returns(), state.legal_actions()) == snapshot
    assert child.history() == state.history() + [action] and not child.is_initial_state()
    assert child.history_str() == ", ".join(map(str, child.history()))
    for copied in (copy_module.copy(state), copy_module.deepcopy(state), pickle.loads(pickle.dumps(state))):
        copied.apply_action(action)  # copy.copy shared the board and history: the move moved both
        assert (str(state), state.history(), state.returns(), state.legal_actions()) == snapshot
    clone = state.clone()
    clone.apply_action(action)
    assert (str(state), state.history(), state.returns(), state.legal_actions()) == snapshot
    state.apply_action(action)
    assert (str(clone), clone.history(), clone.returns()) == (str(state), state.history(), state.returns())
    # The original went on; the clone must not follow it.
    if not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        assert clone.history() != state.history()
    # Put the state back where the game was: replay it from its serialisation.
    replayed = game.deserialize_state(copy.serialize())
    state.__dict__.update(replayed.__dict__)


# -- SameGame ------------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("every", SHARE)
def test_samegame_random_games_agree_with_the_rules_of_record(every):
    from gridfall.samegame.rules import play_sequence
    from gridfall.samegame.state import action_cell, cell_action

    rng = random.Random(38)
    for seed in games("samegame", every):
        game = gridfall.load_game("samegame", board=f"random:{seed}")
        state, actions = random_game(game, rng)
        board, again = game.board, game.new_initial_state()
        for action in actions:  # each was a group (check raises if not), named by its smallest cell
            # the state's groups (columns.py, updated move by move) are the rules' at every step
            assert again.legal_actions() == [cell_action(g.x, g.y) for g in board.groups()]
            x, y = action_cell(action)
            assert min(board.check(x, y)) == (x, y)
            board, _ = board.play(x, y)
            again.apply_action(action)
        assert board.is_over()
        final, total = play_sequence(game.board, [action_cell(a) for a in actions])
        assert state.returns() == [float(total)]
        assert str(state) == final.text()


def test_samegame_offers_each_group_once_and_takes_any_of_its_cells():
    from gridfall.samegame.rules import EMPTY
    from gridfall.samegame.state import action_cell, cell_action

    game = gridfall.load_game("samegame", board="standard:1")
    state = game.new_initial_state()
    groups = game.board.groups()
    assert [action_cell(a) for a in state.legal_actions()] == [(g.x, g.y) for g in groups]
    big = max(groups, key=lambda g: g.size)
    other_cell = max(big.cells)
    by_other = state.clone()
    by_other.apply_action(cell_action(*other_cell))
    state.apply_action(cell_action(big.x, big.y))
    assert str(by_other) == str(state) and by_other.returns() == state.returns() == [float(big.points)]
    single = next((x, y) for x in range(15) for y in range(15) if len(state.board.region(x, y)) == 1)
    with pytest.raises(IllegalAction, match="Region of size 1"):
        state.apply_action(cell_action(*single))
    empty = next((x, y) for x in range(15) for y in range(15) if state.board.cells[x][y] == EMPTY)
    with pytest.raises(IllegalAction, match="Selected empty tile"):
        state.apply_action(cell_action(*empty))
    planes = np.zeros((5, 15, 15), dtype=np.int8)  # the planes, from the rules' board cell by cell
    for x in range(15):
        for y in range(15):
            if state.board.cells[x][y] != EMPTY:
                planes[state.board.cells[x][y], 14 - y, x] = 1
    assert np.array_equal(state.observation_planes(), planes) and state.observation_planes().dtype == np.int8
    assert state.action_to_string(cell_action(3, 7)) == "3 7"
    assert state.string_to_action("3 7 a message") == cell_action(3, 7)
    with pytest.raises(IllegalAction, match="outside"):
        state.string_to_action("15 0")
    with pytest.raises(IllegalAction, match="not properly formatted"):  # as the other games' text errors
        state.string_to_action("left")


# -- Connect Four --------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("every", SHARE)
@pytest.mark.parametrize("width,height,steal", [(9, 7, True), (7, 6, False)])
def test_connect4_random_games_agree_with_the_rules_of_record(width, height, steal, every):
    from gridfall.connect4.rules import STEAL, Game, Outcome

    rng = random.Random(width)
    game = gridfall.load_game("connect4", width=width, height=height, steal=steal)
    steals = 0
    for _ in games("connect4", every):
        state, actions = random_game(game, rng)
        rules = Game(width, height, steal)
        for action in actions:
            expected = [width if a == STEAL else a for a in rules.legal_actions()]
            assert action in expected
            rules.apply_action(STEAL if steal and action == width else action)
        assert rules.is_terminal()
        utility = {o.points: o.utility for o in Outcome}
        assert state.returns() == [float(utility[p]) for p in rules.returns()]
        assert state.points() == rules.returns()
        steals += steal and len(actions) > 1 and actions[1] == width
    assert steals > 0 or not steal


def test_connect4_steal_is_an_action_id_and_text():
    game = gridfall.load_game("connect4")
    state = game.new_initial_state()
    assert game.num_distinct_actions() == 10 and state.legal_actions() == list(range(9))
    state.apply_action(2)
    assert state.legal_actions() == list(range(10))
    assert state.action_to_string(9) == "STEAL"
    assert state.string_to_action("steal") == state.string_to_action("-2") == 9
    state.apply_action(9)
    assert str(state).splitlines()[-1] == "..1......" and state.current_player() == 0
    with pytest.raises(IllegalAction, match="STEAL"):
        state.apply_action(9)
    with pytest.raises(IllegalAction, match="neither a column nor STEAL"):
        state.string_to_action("left")


# -- Match-3 -------------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("every", SHARE)
def test_match3_random_games_agree_with_the_referee(every):
    from gridfall.match3.codeabbey import play_challenge
    from gridfall.match3.rules import Generator, refilled

    rng = random.Random(370)
    for number in games("match3", every):
        size, moves = (8, 11, 12, 13)[number % 4], rng.choice((3, 10, 20))
        game = gridfall.load_game("match3", size=size, seed=number, moves=moves)
        state, actions = random_game(game, rng)
        again = game.new_initial_state()
        for action in actions:  # the state (portable.py's board) is the rules' at every step
            board = again.board
            assert again.legal_actions() == [game.swap_action(*move) for move in board.legal_moves()]
            result = board.play(*game.action_swap(action))
            expected = refilled(result.board_after, Generator(again.generator.x))
            again.apply_action(action)
            assert again.board == expected and again.rewards() == [float(result.points)]
        texts = iter([game.action_swap(a) for a in actions])
        report = play_challenge(lambda *_: (next(texts), 0.0), seed=number, time_limit=None,
                                sizes=(size,), moves=moves)
        assert report.failed == "" and not report.games[0].error
        assert report.games[0].moves == len(actions)
        assert state.returns() == [float(report.total)]


def test_match3_reads_every_direction_of_a_swap():
    game = gridfall.load_game("match3", size=8, seed=1)
    state = game.new_initial_state()
    assert state.string_to_action("3 4 R") == state.string_to_action("4 4 L")
    assert state.string_to_action("3 4 D") == state.string_to_action("3 5 u")
    with pytest.raises(IllegalAction, match="leaves"):
        state.string_to_action("8 1 R")
    with pytest.raises(IllegalAction, match="not 'col row dir'"):
        state.string_to_action("3 R")
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions()
                   and not (a % 2 == 0 and a // 2 % 8 == 7) and not (a % 2 == 1 and a // 16 == 7))
    with pytest.raises(IllegalAction, match="no line"):
        state.apply_action(illegal)
    with pytest.raises(IllegalAction, match="leaves the board"):
        state.apply_action(14)  # R from (8, 1)
    planes = np.zeros((7, 8, 8), dtype=np.int8)  # the planes, from the rules' board cell by cell
    for r, line in enumerate(state.board.rows):
        for c, jewel in enumerate(line):
            planes["ABCDEFG".index(jewel), r, c] = 1
    assert np.array_equal(state.observation_planes(), planes) and state.observation_planes().dtype == np.int8


# -- the registry ----------------------------------------------------------------------------


def test_load_game_names_parameters_and_string_form():
    assert str(gridfall.load_game("connect4")) == "connect4(width=9,height=7,steal=True)"
    assert gridfall.load_game("connect4(width=7,height=6,steal=false)") == gridfall.load_game(
        "connect4", width=7, height=6, steal=False)
    assert gridfall.load_game("samegame", board="standard:3").board == gridfall.load_game(
        "samegame(board=standard:3)").board
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        gridfall.load_game("chess")
    with pytest.raises(ValueError, match="no parameter 'levl'"):
        gridfall.load_game("samegame", levl=2)
    for board in (None, [[0] * 15] * 15):  # a grid of numbers was read as a file name, too long
        with pytest.raises(ValueError, match=r"board=.*: give a spec \(standard:3, random:7, a file's path\) or a Board"):
            gridfall.load_game("samegame", board=board)
    from gridfall.samegame.rules import EMPTY, Board

    cells = gridfall.load_game("samegame", board="standard:3").board.cells
    floating = Board(tuple((EMPTY, *c[1:]) if x == 3 else c for x, c in enumerate(cells)))  # a Board made in code
    with pytest.raises(ValueError, match=r"board=: line 14, column 4 \(x=3, y=1\): a cell above an empty cell"):
        gridfall.load_game("samegame", board=floating)  # checked as a board read from text is
    with pytest.raises(ValueError, match="board=: not 15 columns of 15 cells"):
        gridfall.load_game("samegame", board=Board(cells[:3]))
    with pytest.raises(ValueError, match="not supported"):
        gridfall.load_game("connect4", width=10, height=7)
    other = gridfall.load_game("match3", size=8, seed=2)
    state = gridfall.load_game("match3", size=8, seed=1).new_initial_state()
    with pytest.raises(ValueError, match="this game is match3"):
        other.deserialize_state(state.serialize())
    with pytest.raises(ValueError, match="not a serialised gridfall state"):
        other.deserialize_state("[1, 2")
    with pytest.raises(ValueError, match="its history is None, not a list of actions"):  # was a TypeError
        other.deserialize_state(state.serialize().replace('"history": []', '"history": null'))
    with pytest.raises(ValueError, match="not a serialised gridfall state: JSON nested too deeply"):
        other.deserialize_state("[" * 100_000)  # was a RecursionError
    with pytest.raises(ValueError, match=r"it is list \[1, 2\]; one is a JSON object of game, parameters, history"):
        other.deserialize_state("[1, 2]")  # was "list indices must be integers or slices, not str"
    with pytest.raises(ValueError, match="it has no 'parameters'"):  # was "not a serialised gridfall state: 'parameters'"
        other.deserialize_state('{"game": "match3", "history": []}')
    connect4 = gridfall.load_game("connect4")
    with pytest.raises(IllegalAction, match="the serialised state's action 8 of 9: column 4 is full"):
        connect4.deserialize_state('{"game": "connect4", "parameters": {"width": 9, "height": 7, "steal": true}, '
                                   '"history": [4, 4, 4, 4, 4, 4, 4, 4, 0]}')
    samegame = gridfall.load_game("samegame")
    with pytest.raises(SameGameIllegalMove, match=r"action 1 of 1: Region of size 1 \(x=0, y=8\)") as refused:
        samegame.deserialize_state(samegame.new_initial_state().serialize().replace("[]", "[8]"))  # a lone cell
    assert refused.value.reason  # the game's own error, still carrying its fields


def test_load_game_takes_openspiels_dict_of_parameters():
    """pyspiel.load_game(name, params): the same game as the keywords, and a game's own
    get_parameters() loads it again; a clash or a dict that is not one is named."""
    assert gridfall.load_game("connect4", {"width": 7, "height": 6, "steal": False}) == gridfall.load_game(
        "connect4", width=7, height=6, steal=False)
    game = gridfall.load_game("match3", {"size": 11}, seed=4)
    assert (game.get_parameters()["size"], game.get_parameters()["seed"]) == (11, 4)
    again = gridfall.load_game(game.short_name, game.get_parameters())
    assert str(again.new_initial_state()) == str(game.new_initial_state())
    assert gridfall.load_game("samegame", {}).board == gridfall.load_game("samegame").board
    with pytest.raises(ValueError, match="no parameter 'rows'"):  # checked as keywords are
        gridfall.load_game("connect4", {"rows": 6})
    with pytest.raises(ValueError, match="width must be a whole number, not 'x'"):
        gridfall.load_game("connect4", {"width": "x"})
    with pytest.raises(TypeError, match="'width' is given both in the dict and as a keyword"):
        gridfall.load_game("connect4", {"width": 7}, width=9)
    with pytest.raises(TypeError, match=r"parameters are a dict, such as \{'width': 7\}"):
        gridfall.load_game("connect4", [("width", 7)])


def test_a_samegame_board_from_a_file_or_an_object_is_named_by_its_cells(tmp_path):
    """A game's parameters name its board on any machine: a file's board (or a Board's) by its
    rows: spec, so its string form and serialised states replay once the file is gone."""
    from gridfall.samegame.boards import load_board

    path = tmp_path / "board.txt"
    path.write_text(load_board("standard:2").text() + "\n")
    for board in (str(path), path, load_board("standard:2")):
        game = gridfall.load_game("samegame", board=board)
        assert game.get_parameters()["board"].startswith("rows:") and game.board == load_board("standard:2")
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[3])
        path.unlink(missing_ok=True)  # the text must not need the file any more
        record = json.loads(state.serialize())
        again = gridfall.load_game(record["game"], **record["parameters"]).deserialize_state(state.serialize())
        assert (str(again), again.returns()) == (str(state), state.returns())
        assert gridfall.load_game(str(game)).board == game.board
        path.write_text(load_board("standard:2").text() + "\n")
    # a spec that names a board anywhere stays as it was given
    assert gridfall.load_game("samegame", board="random:7").get_parameters() == {"board": "random:7"}


@pytest.mark.parametrize("name", ["samegame", "connect4", "match3"])
def test_the_text_verbs_name_a_wrong_argument(name):
    state = gridfall.load_game(name).new_initial_state()
    action = state.legal_actions()[0]
    assert state.string_to_action(state.action_to_string(action)) == action
    assert state.string_to_action(0, state.action_to_string(0, action)) == action  # OpenSpiel's (player, x)
    for not_text in (3, None, b"3 4", ["3"]):  # each was an AttributeError ('int' has no attribute 'strip')
        with pytest.raises(TypeError, match=f"string_to_action reads text, not {type(not_text).__name__}"):
            state.string_to_action(not_text)
    for verb in (state.string_to_action, state.action_to_string):  # no argument was an IndexError
        with pytest.raises(TypeError, match=r"takes \(value\) or \(player, value\), not 0 arguments"):
            verb()
        with pytest.raises(TypeError, match="not 3 arguments"):
            verb(0, 1, 2)


@pytest.mark.parametrize("name", ["samegame", "connect4", "match3"])
def test_an_action_or_a_player_the_game_has_not_is_named(name):
    state = gridfall.load_game(name).new_initial_state()
    last = state.game.num_distinct_actions() - 1
    state.action_to_string(last)  # the whole range has a text
    # each was text of nothing: "-1 14" and "0.0 2.5" on SameGame, "10" and "None" on Connect Four
    for far in (last + 1, -1):
        with pytest.raises(IllegalAction, match=rf"^action {far} is outside 0\.\.{last}$"):
            state.action_to_string(far)
    for bad in (2.5, "3", None):
        with pytest.raises(IllegalAction, match="is not an integer"):
            state.action_to_string(bad)
    players = state.game.num_players()
    assert state.player_return(players - 1) == state.returns()[-1]
    # each was an index of the returns: -1 quietly answered for the last player, 2 an IndexError
    for player in (-1, players, "0", 0.5):
        for verb in (state.player_return, state.player_reward, state.observation_planes):
            with pytest.raises(ValueError, match=rf"^player {re.escape(repr(player))} is not a player of {name}"):
                verb(player)
    assert state.observation_planes(np.int64(0)).shape == state.game.observation_shape()


def test_a_parameter_or_an_action_that_is_no_whole_number_is_named():
    for game, key, value in [("match3", "size", "x"), ("match3", "moves", 8.5), ("connect4", "width", True),
                             ("connect4(height=seven)", "height", "seven")]:
        with pytest.raises(ValueError, match=f"{key} must be a whole number, not {value!r}"):
            gridfall.load_game(game, **({} if "(" in game else {key: value}))
    assert gridfall.load_game("match3", size=np.int64(11)).size == gridfall.load_game("match3", size=11.0).size == 11
    for value in ("false", "no", 2, None):  # bool("false") is True: steal="false" played with STEAL
        with pytest.raises(ValueError, match=f"steal must be True or False, not {value!r}"):
            gridfall.load_game("connect4", steal=value)
    for value, steal in ((0, False), (np.True_, True), (False, False)):
        assert gridfall.load_game("connect4", steal=value).steal is steal
    with pytest.raises(ValueError, match="steal must be True or False, not 'maybe'"):
        gridfall.load_game("connect4(steal=maybe)")
    state = gridfall.load_game("connect4").new_initial_state()
    for bad in (2.5, "3", None, True):
        with pytest.raises(IllegalAction, match="is not an integer"):
            state.apply_action(bad)
    state.apply_action(np.int64(4))
    state.apply_action(3.0)  # a whole float is its integer
    assert state.history() == [4, 3]
    for far, named in ((1e300, "1e+300"), (np.int64(99), "99"), (-1, "-1")):  # as given, not as 300 digits
        with pytest.raises(IllegalAction, match=rf"^action {re.escape(named)} is outside 0\.\.9$"):
            state.apply_action(far)


def test_a_state_or_game_that_misses_a_verb_cannot_be_made():
    from gridfall.connect4.state import Connect4State
    from gridfall.interface import GameBase, StateBase

    class NoClone(Connect4State):
        clone = StateBase.clone  # the abstract verb again: as if the subclass had not written it

    class NoShape(type(gridfall.load_game("connect4"))):
        observation_shape = GameBase.observation_shape

    with pytest.raises(TypeError, match="abstract method.*clone"):
        NoClone(gridfall.load_game("connect4"), None)
    with pytest.raises(TypeError, match="abstract method.*observation_shape"):
        NoShape()
    for name in ("samegame", "connect4", "match3"):  # the games implement every verb
        state = gridfall.load_game(name).new_initial_state()
        assert state.observation_planes(0).shape == state.game.observation_shape()
