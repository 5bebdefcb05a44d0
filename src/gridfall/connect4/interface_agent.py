"""A player written against the one interface, as a Connect Four agent.

A player's ``act(state, seconds)`` takes the interface's state and returns an action id
(:mod:`gridfall.user_player`); an agent's ``act(game, seconds)`` takes the rules' game and returns
a column or STEAL (:mod:`gridfall.connect4.agents`).  This module, pure Python, is the bridge
both for ``gridfall connect4 bot --player`` and for the player's exported CodinGame file.
"""

from __future__ import annotations

from gridfall.actions import whole_number
from gridfall.connect4.rules import STEAL, Game
from gridfall.connect4.state import Connect4Game, Connect4State


class InterfaceAgent:
    """Each turn the player is given the interface's state of the game, and its answer is mapped
    back (the id ``width`` is STEAL).  An answer that is no whole number is passed on as it is,
    for the referee to judge."""

    def __init__(self, player, name: str):
        self.player, self.name = player, name

    def act(self, game: Game, seconds: float):
        state = Connect4State(Connect4Game(game.width, game.height, game.steal), game.clone())
        answer = self.player.act(state, seconds)
        action = whole_number(answer)
        if action is None:
            return answer
        return STEAL if game.steal and action == game.width else action
