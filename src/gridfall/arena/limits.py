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

    def to_json(self) -> dict:
        """As a referee's --json records them, beside the gridfall that judged (:func:`judged_by`)."""
        return {"first_turn_ms": round(self.first_turn * 1000, 3), "turn_ms": round(self.turn * 1000, 3),
                "memory_mb": self.memory_mb, "one_cpu": self.one_cpu}

    def setting(self) -> list:
        """As a run's settings keep them: the two times, the memory limit if it is not CodinGame's,
        and ``"one CPU"`` if so (so that a run stored before either existed resumes, and is found
        under the same default file name)."""
        times = [self.first_turn, self.turn]
        if self.one_cpu:
            return [*times, self.memory_mb, "one CPU"]
        return times if self.memory_mb == CODINGAME_MEMORY_MB else [*times, self.memory_mb]


def setting_text(setting: object) -> str:
    """A run's stored limits (:meth:`Limits.setting`) in words without a comma, to stand in a list
    of settings: "1000 ms then 100 ms a turn with 512 MB on one CPU"; anything else (a damaged
    file's) as Python writes it."""
    parts = setting if isinstance(setting, list) else []
    times, rest = parts[:2], parts[2:]
    if len(times) != 2 or not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in times):
        return repr(setting)
    words = [f"{times[0] * 1000:g} ms then {times[1] * 1000:g} ms a turn"]
    for item in rest:
        if item == "one CPU":
            words.append("on one CPU")
        elif item is None:
            words.append("with no memory limit")
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            words.append(f"with {item:g} MB")
        else:
            return repr(setting)
    return " ".join(words)


def fitted_ms(own: float, platform: float, limit: float) -> float | None:
    """A built-in bot's time (ms) under a referee's ``limit`` (ms) tighter than the ``platform``'s,
    where the bot takes ``own``: the limit less the bot's margin on the platform, and at least half
    the limit; None when the limit is not tighter, and the bot keeps its own time.  (A looser
    limit, as --time-scale gives a slow machine, is slack for the machine, not time to think.)"""
    if limit >= platform:
        return None
    return min(own, max(limit / 2, limit - (platform - own)))


def judged_by() -> dict:
    """What a referee's --json says of the gridfall that judged: its version and its files' hash
    (:func:`gridfall.fingerprint.fingerprint`), so that a result names the rules and limits it
    was measured under."""
    from gridfall.fingerprint import fingerprint

    return {"gridfall": fingerprint()}
