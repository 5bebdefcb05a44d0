"""Games a bot lost by a fault (a timeout, a crash, memory, an answer refused), counted by what
went wrong: a score or a rating alone does not tell a weak bot from a broken one.  The leagues and
SPRTs (which find the loser of a game by its seat) and the comparisons (one bot a game) print them
with the same table and JSON, from ``{bot: Counter of reasons}``."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from gridfall.arena.process import LATE

FAULT_TITLE = "games lost by a fault (a timeout, a crash, memory, an answer refused)"
# "answered after 1126 ms": the number apart, so that timeouts under one limit count together
_LATE_MS = re.compile(re.escape(LATE).replace(re.escape("{ms}"), r"(\d+)").replace(re.escape("{limit}"), r"[^ ]+"))


def late_together(reasons: Counter) -> Counter:
    """Reasons that differ only in how late an answer came, counted as one that gives the range:
    "timeout (answered after 1003-1140 ms, over the limit of 1000 ms)".  Each late answer names
    its own time, so thirty timeouts at start-up were thirty reasons of one game each."""
    merged: Counter = Counter()
    late_ms: dict[tuple[str, str], list[int]] = defaultdict(list)  # (text before the time, after): times
    for reason, n in reasons.items():
        late = _LATE_MS.search(reason)
        if late is None:
            merged[reason] += n
        else:
            late_ms[reason[:late.start(1)], reason[late.end(1):]] += [int(late.group(1))] * n
    for (before, after), ms in late_ms.items():
        span = f"{min(ms)}" if min(ms) == max(ms) else f"{min(ms)}-{max(ms)}"
        merged[before + span + after] += len(ms)
    return merged


def faults_table(faults: dict[str, Counter], title: str = FAULT_TITLE):
    from rich.table import Table
    from rich.text import Text

    out = Table(title=title)
    for column in ("bot", "games", "what went wrong (the most frequent)"):
        out.add_column(column, justify="right" if column == "games" else "left")
    for name, reasons in sorted(faults.items()):
        common = "\n".join(f"{n} x {reason[:160]}" for reason, n in late_together(reasons).most_common(2))
        out.add_row(Text(name), str(sum(reasons.values())), Text(common))  # Text: a bot's words are not markup
    return out


def faults_json(faults: dict[str, Counter]) -> list[dict]:
    return [{"bot": name, "games": sum(reasons.values()), "reasons": dict(reasons.most_common())}
            for name, reasons in sorted(faults.items())]
