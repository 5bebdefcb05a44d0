"""Time limits of a turn-based referee: a long first turn, then shorter ones."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Seconds allowed for a player's first turn and for each later turn."""

    first_turn: float
    turn: float

    def scaled(self, factor: float) -> "Limits":
        """Every limit multiplied by ``factor`` (to relax them on a slow machine)."""
        return Limits(self.first_turn * factor, self.turn * factor)
