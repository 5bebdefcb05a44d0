"""Replays of games played through the one interface: ``save_replay(path, states)``.

    import gridfall
    from gridfall.viewer.states import save_replay

    state = gridfall.load_game("connect4").new_initial_state()
    ...                                           # play it: your agent, a load_player bot, a Gym env
    save_replay("game.html", state, names=["mine", "gridfall"])

Each state's game and action history are all that is read: the page is made from them by the
rules of record, as every other replay is (the same page as a referee's ``--replay``).  A state
may be unfinished; several states of one game become one page with a game each.
"""

from __future__ import annotations

from pathlib import Path

from gridfall.interface import StateBase


def replay_games(states: StateBase | list[StateBase], names: list[str] | None = None,
                 title: str = "") -> tuple[str, list[dict]]:
    """(kind, page games) for ``states`` (one, or a list of states of one game); ValueError naming
    what is not a state of the three games, or a mix of games."""
    if not isinstance(states, (StateBase, list, tuple)):  # a text or a number is not a list of states
        raise ValueError(f"{states!r:.60} is not a gridfall state or a list of them")
    states = [states] if isinstance(states, StateBase) else list(states)
    if not states:
        raise ValueError("no state to replay")
    for state in states:
        if not isinstance(state, StateBase):
            raise ValueError(f"{state!r:.60} is not a gridfall state (gridfall.load_game(...).new_initial_state())")
    kinds = {state.game.short_name for state in states}
    if len(kinds) != 1:
        raise ValueError(f"the states are of {', '.join(sorted(kinds))}: one page shows games of one kind")
    kind = kinds.pop()
    games: list[dict] = []
    for number, state in enumerate(states, start=1):
        label = title or str(state.game)
        if len(states) > 1:
            label += f", game {number}"
        games += _games(kind, state, label, names)
    return kind, games


def _games(kind: str, state: StateBase, title: str, names: list[str] | None) -> list[dict]:
    from gridfall.connect4 import replay as connect4_replay
    from gridfall.connect4.state import Connect4Game
    from gridfall.match3 import replay as match3_replay
    from gridfall.match3.state import Match3Game
    from gridfall.samegame import replay as samegame_replay
    from gridfall.samegame.state import SameGameGame, action_cell

    game = state.game
    if isinstance(game, Connect4Game):
        from gridfall.connect4.rules import STEAL

        seats = list(names) if names else ["player 0", "player 1"]
        if isinstance(names, str) or len(seats) != 2 or not all(isinstance(seat, str) for seat in seats):
            raise ValueError(f"names={names!r}: Connect Four has two players: give a list of two names")
        moves = [STEAL if game.steal and a == game.width else a for a in state.history()]
        return [connect4_replay.replay_game(moves, seats, title, width=game.width, height=game.height)]
    if isinstance(game, SameGameGame):
        return [samegame_replay.replay_game(game.board, [action_cell(a) for a in state.history()], title)]
    if isinstance(game, Match3Game):
        swaps = [game.action_swap(a) for a in state.history()]
        return match3_replay.replay_run(game.seed, [swaps], title, sizes=(game.size,))
    raise ValueError(f"no replay for {kind!r} games")


def save_replay(path: str | Path, states: StateBase | list[StateBase], names: list[str] | None = None,
                 title: str = "") -> int:
    """Write the self-contained HTML replay of ``states`` to ``path``; its size in bytes.
    ``names``: Connect Four's two players (default "player 0", "player 1").  OSError if the file
    cannot be written, ValueError as :func:`replay_games`."""
    from gridfall.viewer import page

    kind, games = replay_games(states, names, title)
    return page.write(path, kind, title or games[0]["title"], games)
