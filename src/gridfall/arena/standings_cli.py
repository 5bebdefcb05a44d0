"""``gridfall standings DB``: where a run stands, read from its database while it plays or after.

A Connect Four league or SPRT gets the tables its own command prints (:mod:`gridfall.connect4.arena_cli`);
a SameGame or Match-3 comparison its boards' or seeds' scores and its verdict or ranking
(:mod:`gridfall.arena.compare_cli`), in the measure the comparison used; a pie-rule run
(``connect4 openings --rebuild``) the opening table its games give so far; a SameGame campaign
each board's passes and best score; the games played in the browser (``connect4 play``) your
score against each bot.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from gridfall.arena.compare_cli import log2_score, print_comparison

COMPARISONS = {"samegame compare": ("boards", "board"), "match3 compare": ("seeds", "seed")}
# the other kinds: the module and the function(stored run, as_json) that print where such a run stands
READERS = {"connect4 openings": ("gridfall.connect4.pie_cli", "print_run_table"),
           "samegame campaign": ("gridfall.samegame.campaign_cli", "print_campaign_standing"),
           "connect4 play": ("gridfall.connect4.play_cli", "print_play_standing")}


@click.command()
@click.argument("db", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON that the run's own command prints.")
def standings(db: str, as_json: bool) -> None:
    """Where the run in database DB stands: a Connect Four league or SPRT, a SameGame or
    Match-3 comparison, a pie-rule run (connect4 openings --rebuild), a
    SameGame campaign, or your games in the browser (connect4 play).

    Reads DB without writing or locking it, so it works while the run plays,
    in another terminal or in the background, and after.  A league: the
    leaderboard, every pairing and the games lost by a fault; an SPRT: its
    block and the verdict so far; a comparison: each board's (or seed's)
    scores, and the verdict of two bots or the ranking of more, over what
    every bot has played so far; a pie-rule run: the opening table its games
    give so far; a campaign: each board's passes, its best score and the last
    pass's rounds; the browser's games: your score against each bot, in all
    and by seat.  Nothing is played: the run's own command resumes it.
    """
    from gridfall.arena.database import read_run

    try:
        stored = read_run(Path(db))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="DB") from None
    if stored.kind in ("connect4 league", "connect4 sprt"):
        from gridfall.connect4.arena_cli import print_standings

        print_standings(db, stored, as_json)
        return
    if stored.kind in READERS:
        module, function = READERS[stored.kind]
        try:
            getattr(importlib.import_module(module), function)(stored, as_json)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise click.BadParameter(f"{db}: its run's settings or games are damaged ({e!r})", param_hint="DB") from None
        return
    if stored.kind not in COMPARISONS:
        raise click.BadParameter(f"{db}: holds a {stored.kind!r} run, which this gridfall cannot read "
                                 "(`gridfall view` replays its games)", param_hint="DB")
    setting, label = COMPARISONS[stored.kind]
    try:
        bots = [(str(name), str(command)) for name, command in stored.settings["bots"]]
        items = [str(item) for item in stored.settings[setting]]
    except (KeyError, TypeError, ValueError) as e:
        raise click.BadParameter(f"{db}: its run's settings are damaged ({e!r})", param_hint="DB") from None
    measure = stored.extras.get("measure") or ("log2(1 + total)" if stored.kind == "match3 compare" else "score")
    played = {}
    for row in stored.rows:
        item = row.result.get("board") if label == "board" else row.result.get("seed")
        if item is not None and row.seats:
            played[(str(item), row.seats[0])] = row
    rows = [(item, [played.get((item, name)) for name, _ in bots]) for item in items]
    log2 = measure == "log2(1 + total)"
    from gridfall.samegame.codingame import compare_notes

    print_comparison(bots, rows, item_label=label, transform=log2_score if log2 else float,
                     transform_label=measure if log2 else "", db=db, interrupted=False, as_json=as_json,
                     playing=any(game is None for _, games in rows for game in games),  # a game to play yet
                     notes=compare_notes if stored.kind == "samegame compare" else None)
