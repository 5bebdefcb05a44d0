"""The limits of a turn-based referee: a long first turn, then shorter ones, and memory."""

from __future__ import annotations

from dataclasses import dataclass

CODINGAME_MEMORY_MB = 768  # every language's limit on CodinGame (its FAQ)


@dataclass(frozen=True)
class Limits:
    """Seconds allowed for a player's first turn and for each later turn, and the memory its
    processes may hold (MB; None for no limit)."""

    first_turn: float
    turn: float
    memory_mb: float | None = None

    def scaled(self, factor: float) -> "Limits":
        """Every time limit multiplied by ``factor`` (to relax them on a slow machine)."""
        return Limits(self.first_turn * factor, self.turn * factor, self.memory_mb)

    def setting(self) -> list[float]:
        """As a run's settings keep them: the two times, and the memory limit if it is not
        CodinGame's (so a run stored before there was a memory limit resumes, and is found
        under the same default file name)."""
        times = [self.first_turn, self.turn]
        return times if self.memory_mb == CODINGAME_MEMORY_MB else [*times, self.memory_mb]
