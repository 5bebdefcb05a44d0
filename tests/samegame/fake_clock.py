"""A clock that moves only when a search's kernel works: the deadline tests of the searches hold
on any machine, however busy."""

from types import SimpleNamespace


def clock_moved_by_work(monkeypatch, module, kernel: str, seconds_of) -> list[float]:
    """Patch ``module`` (a search) so that its ``time.monotonic()`` and ``clock.now()`` read a clock
    that moves by ``seconds_of(args, result)`` at each call of its kernel ``kernel``, and no other
    time.  Returns the clock, a one-item list to read or reset."""
    now = [0.0]
    real = getattr(module, kernel)

    def timed(*args):
        result = real(*args)
        now[0] += seconds_of(args, result)
        return result

    monkeypatch.setattr(module, kernel, timed)
    monkeypatch.setattr(module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(module, "clock", SimpleNamespace(now=lambda: now[0]))
    return now
