"""A user's player, written against the one interface, as a CodeAbbey suggest function.

``gridfall match3 play --player FILE.py:NAME`` plays the challenge with it in this process, as
``play --agent`` does.  :func:`suggest_for` gives the same function to a suggest file of your own,
which ``gridfall match3 referee`` and ``compare`` judge like any other::

    from gridfall.match3.player_suggest import suggest_for
    suggest = suggest_for("mybot.py:make")       # the path from where the referee runs

* Each call's state is the board suggest is given (:meth:`Match3Game.from_board`), with the
  moves left of its game.  The refills that a search sees in its clones come from a generator
  seeded with the player's seed, not the platform's, whose state no player knows.
* ``act`` gets a share of the run's time (``run_seconds``): each board an even part of what is
  left when it begins, each move an even part of its board's (:mod:`gridfall.match3.run_time`).
  A player that wants more for some moves takes it from the later ones.  Once a board's time
  is spent, the board is quit (``Q``) without asking the player: a run over its limit fails whole.
* Its answer, an action id, goes back as ``(col, row, dir)``; a number that is no action id
  raises NotAnAction (a ValueError) naming it; anything else goes back as it is, for the
  referee to judge.  An exception is the player's fault, as in any suggest file.

Such a file imports gridfall, so it runs where gridfall is installed (Python 3.10 or newer): it
measures your player.  ``gridfall match3 export --player`` writes the file to submit, this module
with the interface's inside it, made for CodeAbbey's Python 3.6 (:mod:`gridfall.player_export`).
"""

from __future__ import annotations

from gridfall.actions import whole_number
from gridfall.match3.rules import DEFAULT_SEED, MOVES_PER_GAME
from gridfall.match3.run_time import RunTime, run_seconds_here
from gridfall.match3.state import Match3Game
from gridfall.run_seed import seed_from_environment

QUIT = (1, 1, "Q")  # ends this board's game (any cell, dir Q)


class NotAnAction(ValueError):
    """The player's act returned a number that is no action id of the board."""


def answer_move(state, answer):
    """``(col, row, dir)``, as suggest returns a move, for an action id of ``state``; any answer
    that is no number as it is (a suggest answer, or one for the referee to refuse).  A number
    outside the ids is refused here: the referee would call it "not col, row, dir"."""
    action = whole_number(answer)
    if action is None:
        return answer
    game, ids = state.game, state.game.num_distinct_actions()
    if not 0 <= action < ids:
        raise NotAnAction(f"act returned {action}, which is no action id of a {game.size}x{game.size} board "
                         f"(0..{ids - 1})")
    return game.action_swap(action)


def suggest_for(player, *, seed: int | None = None, run_seconds: float | None = None):
    """``suggest(board, boardNo, move, elapsed)`` that asks ``player``: a player (anything with
    ``act(state, seconds)``), or a target ``FILE.py:NAME`` or ``MODULE:NAME`` that makes one (see
    :mod:`gridfall.user_player`), made here, with ``seed`` (None: GRIDFALL_SEED, which the
    referee sets to the challenge's seed, else 0), for a run of ``run_seconds`` (None:
    GRIDFALL_RUN_SECONDS, which the referee sets to its limit, else CodeAbbey's second).
    TargetError says why a target makes none."""
    if run_seconds is None:
        run_seconds = run_seconds_here()
    if seed is None:
        seed = seed_from_environment()
        seed = 0 if seed is None else seed
    if isinstance(player, str):
        from gridfall.user_player import make_player

        player = make_player(player, Match3Game(seed=DEFAULT_SEED), seed)
    elif not callable(getattr(player, "act", None)):
        raise TypeError(f"{type(player).__name__} has no act(state, seconds): give a player, or FILE.py:NAME")

    run_time = RunTime(run_seconds)

    def suggest(board, boardNo=1, move=1, elapsed=0.0):  # noqa: N803 - CodeAbbey's names
        seconds = run_time.share(boardNo, move, elapsed)
        if seconds is None:  # the board's time is spent
            return QUIT
        state = Match3Game.from_board(board, seed=seed, moves=MOVES_PER_GAME - move + 1).new_initial_state()
        return answer_move(state, player.act(state, seconds))

    return suggest
