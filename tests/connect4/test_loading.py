"""gridfall's bot while its search loads (connect4/loading.py): a turn waits for the search as
long as its plan allows, then answers without it (the table, the book, else the pure-Python search),
and never past its time."""

import io
import threading
import time

import pytest

from gridfall.arena.fallback import said_so
from gridfall.connect4.loading import FIRST_TURN_GRACE, LEAST_FIRST_SEARCH, WAIT_SHARE, LoadingAgent
from gridfall.connect4.opening_moves import OpeningMoves
from gridfall.connect4.openings import OpeningTable
from gridfall.connect4.rules import STEAL, Game

pytestmark = pytest.mark.parallel_safe  # no bot against a clock: waits of a few hundred ms, checked loosely


class Recorder:
    """The loaded agent: it answers column 8 and keeps the time each turn was given."""

    def __init__(self):
        self.given = []

    def act(self, game, seconds):
        self.given.append(seconds)
        return 8


def _loading(release: threading.Event, fail: bool = False):
    agent, log = Recorder(), io.StringIO()

    def load():
        release.wait()
        if fail:
            raise OSError("the cache went away")
        return agent

    return LoadingAgent("gridfall", load, log), agent, log


def _reply_position() -> Game:
    """The second player's first turn after a first chip that the table does not steal: the book answers."""
    table = OpeningTable.load()
    for column in range(9):
        game = Game(9, 7, steal=True)
        game.apply_action(column)
        if table.decide(game) is None:
            return game
    raise AssertionError("the table steals every first chip")


def _unbooked_position() -> Game:
    """The first player's turn after its chip was stolen and two chips more: past its book, the search decides."""
    game = Game(9, 7, steal=True)
    for action in (OpeningTable.load().first_move, STEAL, 4, 4):
        game.apply_action(action)
    assert OpeningMoves.load().move(game) is None
    return game


def test_a_search_not_ready_in_time_leaves_the_opening_to_the_table_and_the_book_and_the_rest_to_pure_python():
    release = threading.Event()
    bot, loaded, log = _loading(release)
    start = time.monotonic()
    first = bot.act(Game(9, 7, steal=True), 0.1)
    waited = time.monotonic() - start
    assert first == OpeningTable.load().first_move and 0.1 - LEAST_FIRST_SEARCH + FIRST_TURN_GRACE - 0.01 <= waited < 2
    assert log.getvalue() == ""  # the table's move is the one the search would have played
    reply = _reply_position()
    assert bot.act(reply, 0.05) == OpeningMoves.load().book.lookup(reply) is not None
    assert log.getvalue() == ""  # and so is the book's
    bot._portable = pure_python = Recorder()  # the exported file's search, which answers 8 here
    start = time.monotonic()
    assert bot.act(_unbooked_position(), 0.1) == 8
    assert 0.1 * WAIT_SHARE - 0.005 <= time.monotonic() - start < 0.1 + FIRST_TURN_GRACE  # half the turn: no grace now
    assert 0.0 < pure_python.given[0] <= 0.1 * (1 - WAIT_SHARE) + 0.001  # and the rest of it
    assert said_so(log.getvalue()) and "(portable): the compiled search's kernels were still loading (not ready in time)" in log.getvalue()
    release.set()
    assert bot.act(_reply_position(), 0.5) == 8 and 0.3 < loaded.given[-1] <= 0.5  # loaded: it plays, with the time left
    assert loaded.given == [loaded.given[-1]] and len(pure_python.given) == 1


def test_a_search_that_comes_within_the_turn_plays_it_with_the_time_left():
    release = threading.Event()
    bot, loaded, log = _loading(release)
    threading.Timer(0.2, release.set).start()
    assert bot.act(_reply_position(), 1.0) == 8
    assert 0.5 < loaded.given[0] < 0.85 and log.getvalue() == ""


def test_a_first_turn_past_the_book_waits_for_the_search_as_long_as_a_known_move_would():
    # a league's game starts from an opening of its own: the bot's first turn is past its book
    release = threading.Event()
    bot, loaded, log = _loading(release)
    threading.Timer(0.35, release.set).start()  # past half the turn, where a later turn stops waiting
    start = time.monotonic()
    assert bot.act(_unbooked_position(), 0.4) == 8 and log.getvalue() == ""
    assert 0.3 < time.monotonic() - start < 0.4 + FIRST_TURN_GRACE and 0.0 < loaded.given[0] < 0.1
    late, never = threading.Event(), threading.Event()
    bot, loaded, log = _loading(late)
    threading.Timer(0.45, late.set).start()  # inside the grace, past the plan: it still searches a little
    assert bot.act(_unbooked_position(), 0.4) == 8 and loaded.given == [LEAST_FIRST_SEARCH] and log.getvalue() == ""
    bot, _, log = _loading(never)
    bot._portable = pure_python = Recorder()
    start = time.monotonic()
    assert bot.act(_unbooked_position(), 0.4) == 8 and pure_python.given == [LEAST_FIRST_SEARCH]
    assert 0.4 + FIRST_TURN_GRACE - LEAST_FIRST_SEARCH - 0.01 < time.monotonic() - start < 0.4 + FIRST_TURN_GRACE
    assert "(portable): the compiled search's kernels were still loading (not ready in time)" in log.getvalue()


def test_a_turn_of_centuries_waits_for_the_search_and_gives_it_the_time():
    # `connect4 bot --first-turn-ms 1e300`: the wait overflowed threading's longest timeout, and the
    # bot answered "agent failed: OverflowError: timestamp out of range for platform time_t"
    release = threading.Event()
    bot, loaded, log = _loading(release)
    threading.Timer(0.2, release.set).start()
    assert bot.act(_unbooked_position(), 1e297) == 8 and log.getvalue() == ""
    assert loaded.given[0] > 1e296


def test_the_first_turns_grace_is_at_most_half_its_plan():
    # a referee's limit of 200 ms gives a built-in a plan of 100 (arena.limits.fitted_ms): the
    # answer must come well inside the other 100, not 150 ms past the plan
    bot = LoadingAgent("gridfall", threading.Event().wait, io.StringIO(), first_turn=0.1)
    bot._portable = Recorder()
    start = time.monotonic()
    bot.act(_unbooked_position(), 0.1)
    assert 0.1 - LEAST_FIRST_SEARCH + 0.05 - 0.01 < time.monotonic() - start < 0.1 + 0.05 + 0.02


def test_a_search_that_fails_to_load_is_named_and_the_bot_plays_on():
    release = threading.Event()
    release.set()
    bot, _, log = _loading(release, fail=True)
    position = _unbooked_position()
    assert bot.act(position, 0.1) in position.legal_actions()  # the exported file's search, for the whole game
    assert "the search failed to load (OSError('the cache went away'))" in log.getvalue()
    assert "(portable): the compiled search failed to load" in log.getvalue()
    bot._portable = pure_python = Recorder()
    assert bot.act(position, 0.1) == 8 and pure_python.given[0] > 0.07  # no wait (of 0.05 s) for what will not come
    assert bot.act(_reply_position(), 1.0) == OpeningMoves.load().book.lookup(_reply_position())
    assert bot.act(Game(9, 7, steal=True), 1.0) == OpeningTable.load().first_move


FROZEN_AFTER_LOADING = """
import gc, io, sys
from gridfall.connect4.loading import LoadingAgent
made, before = [], gc.get_freeze_count()  # Python 3.13 starts with a few hundred frozen
bot = LoadingAgent("gridfall", lambda: made.extend([n] for n in range(50_000)) or made, io.StringIO(),
                   freeze=sys.argv[1] == "freeze")
bot._ready.wait(10)
print(gc.get_freeze_count() - before)
"""


@pytest.mark.parametrize("freeze", [True, False])
def test_the_bots_process_freezes_what_its_search_loaded_out_of_the_collectors_walks(freeze):
    """A full collection walks every object the collector tracks: in the loaded bot, 21-26 ms at a
    random later turn, more than a turn keeps back.  The bot's process (``freeze``) freezes what
    loading made; a test's process, which other tests share, keeps its collector as it was."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FROZEN_AFTER_LOADING, "freeze" if freeze else "keep"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen = int(done.stdout)
    assert (frozen > 50_000) if freeze else frozen == 0, frozen
