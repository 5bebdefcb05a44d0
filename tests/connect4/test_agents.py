"""gridfall's bot varies between games: its search's noise is reseeded at every new game."""

from gridfall.connect4.agents import make_agent
from gridfall.connect4.rules import Game
from gridfall.connect4.search import SEED, VARIETY


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
