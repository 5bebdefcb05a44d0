"""Games a bot lost by a fault (a timeout, a crash, memory, an answer refused), counted by what
went wrong: a score or a rating alone does not tell a weak bot from a broken one.  The leagues and
SPRTs (which find the loser of a game by its seat) and the comparisons (one bot a game) print them
with the same table and JSON, from ``{bot: Counter of reasons}``."""

from __future__ import annotations

from collections import Counter

FAULT_TITLE = "games lost by a fault (a timeout, a crash, memory, an answer refused)"


def faults_table(faults: dict[str, Counter], title: str = FAULT_TITLE):
    from rich.table import Table
    from rich.text import Text

    out = Table(title=title)
    for column in ("bot", "games", "what went wrong (the most frequent)"):
        out.add_column(column, justify="right" if column == "games" else "left")
    for name, reasons in sorted(faults.items()):
        common = "\n".join(f"{n} x {reason[:160]}" for reason, n in reasons.most_common(2))
        out.add_row(Text(name), str(sum(reasons.values())), Text(common))  # Text: a bot's words are not markup
    return out


def faults_json(faults: dict[str, Counter]) -> list[dict]:
    return [{"bot": name, "games": sum(reasons.values()), "reasons": dict(reasons.most_common())}
            for name, reasons in sorted(faults.items())]
