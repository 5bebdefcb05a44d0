"""What a Connect Four league's or SPRT's stored games say: ratings, pairings, faults, fallbacks,
the test.

The commands that play a run (``league``, ``sprt``) and the one that reads it while it plays
(``standings``) print the same tables and JSON from here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from gridfall import json_text
from gridfall.arena.database import GameRow, job_order
from gridfall.arena.elo import elo_text
from gridfall.arena.fallback import counts_json, said_loading, said_so, summary
from gridfall.arena.faults import faults_json, faults_table
from gridfall.connect4.match import fault_of, points_of
from gridfall.words import counted


def rated(names: list[str], rows):
    """The league table from the stored games, rated in the order of the schedule (pair, game),
    whatever order they finished in: a resumed league or one run on a cluster rates as one run
    here would."""
    from gridfall.arena.ratings import League

    table = League(names)
    for row in sorted(rows, key=lambda row: job_order(row.job)):
        table.add(row.seats[0], row.seats[1], points_of(row, row.seats[0]))
    return table


def leaderboard(table, games: int, retired=frozenset()):
    """The ratings as a table; the ``retired`` bots (no longer scheduled) are marked."""
    from rich.table import Table
    from rich.text import Text

    standings = table.standings()
    played = sum(s.score.games for s in standings) // 2
    out = Table(title=f"leaderboard, {played} of {counted(games, 'game')}")
    for column in ("#", "bot", "rating (mu - 3 sigma)", "mu", "sigma", "games", "W", "D", "L", "score"):
        out.add_column(column, justify="left" if column == "bot" else "right")
    for rank, s in enumerate(standings, start=1):
        name = Text(s.name) + (Text(" (retired)", "dim") if s.name in retired else Text(""))
        out.add_row(str(rank), name, f"{s.ordinal:.2f}", f"{s.mu:.2f}", f"{s.sigma:.2f}", str(s.score.games),
                    str(s.score.wins), str(s.score.draws), str(s.score.losses),
                    f"{100 * s.score.share:.1f}%" if s.score.games else "-")
    return out


def pairs_table(table, retired=frozenset()):
    from rich.table import Table
    from rich.text import Text

    unplayed = table.unplayed(retired)
    caption = f"no game yet: {'; '.join(f'{a} - {b}' for a, b in unplayed)}" if unplayed else None
    out = Table(title="every pairing that played: the first bot's Elo difference [95%]", caption=caption,
                caption_justify="left")
    for column in ("bot", "against", "games", "W", "D", "L", "Elo [95%]"):
        out.add_column(column, justify="left" if column in ("bot", "against") else "right")
    for (a, b), score in table.pairs.items():
        elo, low, high = score.elo()
        out.add_row(Text(a), Text(b), str(score.games), str(score.wins), str(score.draws), str(score.losses),
                    f"{elo_text(elo)} [{elo_text(low)}, {elo_text(high)}]")
    return out


def pairs_json(table) -> list[dict]:
    out = []
    for (a, b), score in table.pairs.items():
        elo, low, high = score.elo()
        out.append({"bot": a, "against": b, "games": score.games, "wins": score.wins, "draws": score.draws,
                    "losses": score.losses, "elo": elo, "elo_low": low, "elo_high": high})
    return out


@dataclass
class Caveats:
    """What the ratings of a run's stored games do not tell: the games a bot lost by a fault (a
    timeout, a crash, memory, an answer the referee refused), and the games it played pure Python
    (:mod:`gridfall.arena.fallback`): a leaderboard alone does not tell a weak bot from a broken
    one, nor a bot from its fallback."""

    faults: dict[str, Counter] = field(default_factory=dict)  # {bot: Counter of what went wrong}
    fallback: Counter = field(default_factory=Counter)  # {bot: games it played pure Python}
    games: Counter = field(default_factory=Counter)  # {bot: games}
    output: list[str] = field(default_factory=list)  # the fallback games' turns' stderr (said_loading)

    def to_json(self) -> dict:
        return {"faults": faults_json(self.faults), "fallback_games": counts_json(self.fallback)}

    def print(self, out) -> None:
        from rich.text import Text

        if self.faults:
            out.print(faults_table(self.faults))
        line = summary(self.fallback, self.games, loading=said_loading(self.output))
        if line:
            out.print(Text(line))


def caveats_of(rows) -> Caveats:
    found = Caveats()
    for row in rows:
        fault = fault_of(row)
        if fault is not None:
            found.faults.setdefault(fault[0], Counter())[fault[1]] += 1
        found.games.update(row.seats)
        seats = fallback_seats(row.result.get("output", []), row.result.get("opening", 0))
        found.fallback.update(row.seats[seat] for seat in seats)
        if seats:
            found.output.extend(row.result["output"])
    return found


def fallback_seats(output: list[str], opening: int) -> set[int]:
    """The seats whose bot said it played pure Python: after the referee's ``opening`` moves, the
    k-th bot turn (``output[k]``, its stderr) is seat (opening + k) % 2's."""
    return {(opening + k) % 2 for k, text in enumerate(output) if said_so(text)}


def league_json(table, caveats: Caveats, db: str, interrupted: bool, retired=frozenset()) -> str:
    board = [{**s.to_json(), "retired": s.name in retired} for s in table.standings()]
    return json_text.dumps({"leaderboard": board, "pairs": pairs_json(table),
                            "unplayed": [list(pair) for pair in table.unplayed(retired)], **caveats.to_json(),
                            "db": db, "interrupted": interrupted})


def retired_of(names: list[str], playing) -> set[str]:
    """The bots of a league that no longer play, from its kept changes ([[pair, [names]], ...])."""
    return set(names) - set(playing[-1][1]) if playing else set()


def print_league(out, table, games: int, caveats: Caveats, retired=frozenset()) -> None:
    out.print(leaderboard(table, games, retired))
    out.print(pairs_table(table, retired))
    caveats.print(out)


PAIR_GAME = re.compile(r"pair (\d+) game [01]")  # an SPRT's job


def sprt_test(settings: dict, rows: list[GameRow]):
    """The SPRT of a run's settings, fed with its stored pairs in the schedule's order."""
    from gridfall.arena.sprt import SPRT

    test = SPRT(settings["elo0"], settings["elo1"], settings["alpha"], settings["beta"])
    stored = {row.job: row for row in rows}
    most = settings["max_games"] // 2
    for k in sorted({int(m[1]) for m in map(PAIR_GAME.fullmatch, stored) if m and int(m[1]) < most}):  # stored ones only
        pair = [stored.get(f"pair {k} game {g}") for g in (0, 1)]
        if pair[0] is not None and pair[1] is not None:
            test.add_pair(points_of(pair[0], "new"), points_of(pair[1], "new"))
    return test


def sprt_conclusion(test, settings: dict, interrupted: bool, playing: bool = False) -> str:
    verdict = test.verdict()
    if verdict == "H1":
        return f"H1 accepted: the candidate is better (elo1 {settings['elo1']:g})"
    if verdict == "H0":
        return f"H0 accepted: the candidate is not better than elo0 {settings['elo0']:g}"
    if playing and test.games.games < settings["max_games"]:
        return f"undecided after {counted(test.games.games, 'game')} of at most {settings['max_games']:,}"
    return "interrupted: run the same command to resume" if interrupted else "no decision within --max-games"


def sprt_json(test, caveats: Caveats, db: str, interrupted: bool) -> str:
    from gridfall.arena.sprt import elo_interval

    elo, low, high = elo_interval(test.penta)
    lower, upper = test.bounds
    # an Elo or a bound that is not finite is written "inf" or "-inf" (json_text.dumps)
    return json_text.dumps({"verdict": test.verdict(), "llr": test.llr, "bounds": [lower, upper], "elo": elo,
                            "elo_low": low, "elo_high": high, "games": test.games.games,
                            "wins": test.games.wins, "losses": test.games.losses, "draws": test.games.draws,
                            "penta": test.penta, **caveats.to_json(), "db": db, "interrupted": interrupted,
                            "report": test.report()})


def print_sprt(out, test, caveats: Caveats, conclusion: str) -> None:
    from rich.text import Text

    out.print(Text(test.report()))
    caveats.print(out)
    out.print(conclusion)
