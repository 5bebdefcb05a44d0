"""gridfall's bot: its search's noise is reseeded at every new game, its first move's time
goes to the position it leaves, and it plays the opening book's moves (as first player, one)."""

import random

import pytest

from gridfall.connect4.agents import VARIETY_CHIPS, make_agent
from gridfall.connect4.engine import from_game
from gridfall.connect4.opening_moves import BOOK_LAST_TURN
from gridfall.connect4.rules import STEAL, Game
from gridfall.connect4.search import SEED, VARIETY, Searcher

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_the_bot_reseeds_its_search_at_every_new_game_and_a_seed_repeats_its_seeds():
    agent = make_agent("gridfall", seed=5)
    seed = lambda: int(agent.searcher.stats[SEED])  # noqa: E731
    assert agent.searcher.stats[VARIETY] > 0
    first_game = seed()
    game = Game.from_moves("40358")
    agent.act(game, 0.02)
    game.apply_action(game.legal_actions()[0])
    agent.act(game, 0.02)
    assert seed() == first_game  # the same game, the same noise
    agent.act(Game.from_moves("44"), 0.02)
    second_game = seed()
    assert second_game != first_game  # fewer chips: a new game, new noise
    again = make_agent("gridfall", seed=5)
    assert int(again.searcher.stats[SEED]) == first_game
    assert int(make_agent("gridfall", seed=6).searcher.stats[SEED]) not in (first_game, second_game)


def test_the_first_move_ponders_the_position_it_leaves_which_is_also_the_stolen_one():
    # a ponder of 50,000 nodes, not of the turn's time: how much a ponder's table cuts at depth 7
    # depends on how deep it got (seeds 3-5: 36-69 times at 50,000 nodes, 1.2-2.6 times at 600,000),
    # so a ponder of 0.3 s cut only 1.3 times once on an Intel Xeon (2026-11-29)
    agent = make_agent("gridfall:50000", seed=3)
    game = Game()
    action = agent.act(game, 0.3)
    assert action == agent.opening.table.first_move
    after = game.clone()
    after.apply_action(action)
    stolen = after.clone()
    stolen.apply_action(STEAL)
    # from the side to move, the bot facing its stolen chip sees what the opponent sees after it
    assert from_game(stolen) == from_game(after)
    cur, mask = from_game(after)
    pondered = agent.searcher.choose(cur, mask, seconds=1e9, max_depth=7).nodes
    fresh = Searcher(9, 7, variety=int(agent.searcher.stats[VARIETY]), variety_chips=VARIETY_CHIPS,
                     seed=int(agent.searcher.stats[SEED]))
    # without a ponder the table would cut nothing
    assert pondered * 3 < fresh.choose(cur, mask, seconds=1e9, max_depth=7).nodes * 2


def test_the_bot_plays_the_book_as_second_player_and_as_first_its_reply_to_a_steal_or_all_of_it():
    # the book is the exported file's tree, and the bot opens and steals as the file does, so
    # whatever the opponent plays the bot finds its positions in the book
    agent = make_agent("gridfall", seed=1)
    table, book = agent.opening.table, agent.opening.book
    assert BOOK_LAST_TURN == (2, book.turns) and book.first_turns > book.turns
    rnd, booked, stolen_games = random.Random(4), {0: 0, 1: 0}, 0
    for number in range(24):
        seat, game = number % 2, Game()
        rnd_steals = seat == 0 and rnd.random() < 0.5  # half the first player's games: its chip stolen
        stolen_games += rnd_steals
        last = book.first_turns if seat == 0 and not rnd_steals else BOOK_LAST_TURN[seat]
        while game.turn <= max(book.turns, last) and not game.is_terminal():
            if game.current_player() == seat:
                expected = table.decide(game)
                if expected is None:
                    expected = book.lookup(game)
                    assert expected is not None, game.moves_string()
                    if game.turn > last:
                        agent.last = None
                        agent.act(game, 0.01)
                        assert agent.last is not None  # past its book turns: the search answers
                        game.apply_action(expected)
                        continue
                    booked[seat] += 1
                assert agent.act(game, 0.01) == expected, game.moves_string()
                game.apply_action(expected)
            elif game.turn == 1 and seat == 0:
                game.apply_action(STEAL if rnd_steals else rnd.choice(range(game.width)))
            else:
                game.apply_action(rnd.choice(game.legal_actions()))
    # as first player one reply after a steal, and turns 2 to 10 when the opponent plays on
    assert 0 < stolen_games < 12 and booked[0] == stolen_games + 5 * (12 - stolen_games)
    assert booked[1] >= 12 * 3


def test_a_time_that_is_not_finite_is_named_not_searched_forever():
    # MCTS given nan seconds never reached its deadline
    import pytest

    for name in ("mcts", "mcts-solver", "gridfall"):
        for seconds in (float("nan"), float("inf")):
            with pytest.raises(ValueError, match="give a finite time"):
                make_agent(name).act(Game(), seconds)


def test_a_number_of_nodes_plays_the_same_games_whatever_the_time():
    # gridfall thinks for the turn's time: a faster machine gives other games; gridfall:N
    # spends N nodes a move, its exact solver and its pondering included, and reads no clock
    games = []
    for seconds in (0.001, 2.0):
        pair, played = (make_agent("gridfall:20000", seed=4), make_agent("gridfall:60000", seed=9)), []
        for number in range(2):  # the second game: reseeded search, emptied solver table
            game, seats = Game(), pair if number == 0 else pair[::-1]
            while not game.is_terminal():
                game.apply_action(seats[game.current_player()].act(game, seconds))
            played.append(game.moves_string())
        games.append(played)
    assert games[0] == games[1]
    assert all(len(moves) > 63 - 40 for moves in games[0])  # reached exact play (40 empty cells)
    assert make_agent("gridfall:20000").name == "gridfall:20000"


def test_a_search_keeps_its_node_limit():
    searcher = Searcher(9, 7)
    cur, mask = from_game(Game.from_moves("4435"))
    decision = searcher.choose(cur, mask, seconds=0.0, nodes=50_000)
    assert 50_000 - 5_000 < decision.nodes <= 50_000 + 1 and decision.depth > 3
    searcher.forget()
    again = searcher.choose(cur, mask, seconds=5.0, nodes=50_000)
    assert (again.column, again.score, again.depth, again.nodes) == (decision.column, decision.score, decision.depth,
                                                                     decision.nodes)
