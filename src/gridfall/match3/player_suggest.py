"""A user's player, written against the one interface, as a CodeAbbey suggest function.

``gridfall match3 play --player FILE.py:NAME`` plays the challenge with it in this process, as
``play --agent`` does.  :func:`suggest_for` gives the same function to a suggest file of your own,
which ``gridfall match3 referee`` and ``compare`` judge like any other::

    from gridfall.match3.player_suggest import suggest_for
    suggest = suggest_for("mybot.py:make")       # the path from where the referee runs

* Each call's state is the board suggest is given (:meth:`Match3Game.from_board`), with the
  moves left of its game.  The refills that a search sees in its clones come from a generator
  seeded with the player's seed, not the platform's, whose state no player knows.
* ``act`` gets an even share of the run's time left: what remains of ``run_seconds`` after
  ``elapsed``, over the moves the run may still have (1000 a board).  A player that wants more
  for some moves takes it from the later ones: the referee only counts the run's whole time.
* Its answer, an action id, goes back as ``(col, row, dir)``; anything else goes back as it is,
  for the referee to judge.  An exception is the player's fault, as in any suggest file.

Such a file imports gridfall, so it runs where gridfall is installed (Python 3.10 or newer): it
measures your player.  ``gridfall match3 export --player`` writes the file to submit, this module
with the interface's inside it, made for CodeAbbey's Python 3.6 (:mod:`gridfall.match3.player_export`).
"""

from __future__ import annotations

from gridfall.actions import whole_number
from gridfall.match3.rules import BOARD_SIZES, DEFAULT_SEED, MOVES_PER_GAME
from gridfall.match3.state import Match3Game
from gridfall.run_seed import seed_from_environment

RUN_SECONDS = 1.0  # CodeAbbey's limit for the whole run


def moves_left(board_no: int, move: int) -> int:
    """The most moves the run may still ask for, this one included: the rest of this board's
    1000, and 1000 for each board after it."""
    return max((len(BOARD_SIZES) - board_no) * MOVES_PER_GAME + MOVES_PER_GAME - move + 1, 1)


def move_seconds(run_seconds: float, board_no: int, move: int, elapsed: float) -> float:
    """This move's even share of what is left of ``run_seconds`` after ``elapsed``."""
    return max(run_seconds - elapsed, 0.0) / moves_left(board_no, move)


def answer_move(state, answer):
    """``(col, row, dir)``, as suggest returns a move, for an action id of ``state``; any other
    answer as it is."""
    action = whole_number(answer)
    if action is not None and 0 <= action < state.game.num_distinct_actions():
        return state.game.action_swap(action)
    return answer


def suggest_for(player, *, seed: int | None = None, run_seconds: float = RUN_SECONDS):
    """``suggest(board, boardNo, move, elapsed)`` that asks ``player``: a player (anything with
    ``act(state, seconds)``), or a target ``FILE.py:NAME`` or ``MODULE:NAME`` that makes one (see
    :mod:`gridfall.user_player`), made here, with ``seed`` (None: GRIDFALL_SEED, which the
    referee sets to the challenge's seed, else 0).  TargetError says why a target makes none."""
    if seed is None:
        seed = seed_from_environment()
        seed = 0 if seed is None else seed
    if isinstance(player, str):
        from gridfall.user_player import make_player

        player = make_player(player, Match3Game(seed=DEFAULT_SEED), seed)
    elif not callable(getattr(player, "act", None)):
        raise TypeError(f"{type(player).__name__} has no act(state, seconds): give a player, or FILE.py:NAME")

    def suggest(board, boardNo=1, move=1, elapsed=0.0):  # noqa: N803 - CodeAbbey's names
        state = Match3Game.from_board(board, seed=seed, moves=MOVES_PER_GAME - move + 1).new_initial_state()
        return answer_move(state, player.act(state, move_seconds(run_seconds, boardNo, move, elapsed)))

    return suggest
