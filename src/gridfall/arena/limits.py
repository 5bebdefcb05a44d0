"""The limits of a turn-based referee: a long first turn, then shorter ones, memory, and CPUs."""

from __future__ import annotations

from dataclasses import dataclass, replace

CODINGAME_MEMORY_MB = 768  # every language's limit on CodinGame (its FAQ)


@dataclass(frozen=True)
class Limits:
    """Seconds allowed for a player's first turn and for each later turn, the memory its
    processes may hold (MB; None for no limit), and whether they run on one CPU (as on CodinGame;
    Linux only, :mod:`gridfall.arena.cpus`)."""

    first_turn: float
    turn: float
    memory_mb: float | None = None
    one_cpu: bool = False

    def scaled(self, factor: float) -> "Limits":
        """Every time limit multiplied by ``factor`` (to relax them on a slow machine)."""
        return replace(self, first_turn=self.first_turn * factor, turn=self.turn * factor)

    def setting(self) -> list:
        """As a run's settings keep them: the two times, the memory limit if it is not CodinGame's,
        and ``"one CPU"`` if so (so that a run stored before either existed resumes, and is found
        under the same default file name)."""
        times = [self.first_turn, self.turn]
        if self.one_cpu:
            return [*times, self.memory_mb, "one CPU"]
        return times if self.memory_mb == CODINGAME_MEMORY_MB else [*times, self.memory_mb]
