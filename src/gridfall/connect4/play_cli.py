"""``gridfall connect4 play``: a person against a bot, in the browser (the server: :mod:`.play_server`)."""

from __future__ import annotations

import sys

import click

from gridfall.arena.runs import open_run
from gridfall.arena.signals import exit_code, stopping_on_signals
from gridfall.cli_options import limit_options
from gridfall.connect4.agents import AGENT_NAMES
from gridfall.connect4.arena_cli import check_program
from gridfall.connect4.protocol import FIRST_TURN_SECONDS, TURN_SECONDS


def print_play_standing(stored, as_json: bool) -> None:
    """``gridfall standings`` of the games played in the browser (a
    :class:`~gridfall.arena.database.StoredRun`): your wins, draws and losses against each bot, in
    all and by seat (as first player, as second)."""
    from rich.table import Table

    from gridfall import json_text
    from gridfall.cli_output import console

    tally: dict[str, dict] = {}
    for row in stored.rows:
        seat = row.seats.index("you")
        against = tally.setdefault(row.seats[1 - seat], {"opponent": row.seats[1 - seat], "games": 0, "won": 0,
                                                         "drawn": 0, "lost": 0, "first": [0, 0], "second": [0, 0]})
        winner = row.result.get("winner")
        points = 0.5 if winner is None else float(winner == seat)
        against["games"] += 1
        against["won" if points == 1 else "drawn" if points == 0.5 else "lost"] += 1
        by_seat = against["first" if seat == 0 else "second"]  # [points, games]
        by_seat[0], by_seat[1] = by_seat[0] + points, by_seat[1] + 1
    if as_json:
        click.echo(json_text.dumps({"opponents": list(tally.values())}))
        return
    if not tally:  # the server opened the run, and no game has ended since: an empty table said nothing
        click.echo("your games in the browser: none finished yet (a game is stored when it ends)")
        return
    table = Table(title="your games in the browser")
    for column in ("against", "games", "you won", "drawn", "lost", "your score", "as first", "as second"):
        table.add_column(column, justify="left" if column == "against" else "right")

    def share(points: float, games: int) -> str:
        return f"{100 * points / games:.0f}% of {games}" if games else "-"

    for against in tally.values():
        table.add_row(against["opponent"], str(against["games"]), str(against["won"]), str(against["drawn"]),
                      str(against["lost"]), share(against["won"] + against["drawn"] / 2, against["games"]),
                      share(*against["first"]), share(*against["second"]))
    console().print(table)


@click.command()
@click.option("--opponent", default="gridfall", show_default=True,
              help="The bot: a built-in agent's name (gridfall, mcts, greedy, alphabeta:4, ...) or a command.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the address without opening a browser.")
@click.option("--db", type=click.Path(dir_okay=False), default="play.sqlite", show_default=True,
              help="Where finished games are stored, as arena games (replay them with gridfall view).")
@click.option("--seed", type=int,
              help="The bot's seed in every game (a built-in bot's --seed, a command's GRIDFALL_SEED).  "
                   "By default each game draws its own, stored with the game, so a line that beat the "
                   "bot once need not win again.")
@limit_options(FIRST_TURN_SECONDS, TURN_SECONDS, scaled=False, memory=False)
def play(opponent, port, no_browser, db, seed, limits):
    """Play Connect Four 7x9 with STEAL against a bot, in your browser.

    Starts a small web server on 127.0.0.1 (this machine only) and opens its
    page.  Choose a seat, click a column to drop a chip, and STEAL the bot's
    first chip when you move second.  The bot plays under the CodinGame
    protocol and the referee's limits; every finished game is stored in --db.
    Ctrl-C stops the server and the bots.
    """
    import webbrowser

    from gridfall.arena.process import kill_all
    from gridfall.connect4.play_server import PlayServer, serve
    from gridfall.viewer.page import build_play

    check_program(opponent, "--opponent")
    run = open_run(db, "connect4 play", {}, exclusive=False)  # each game its own job: two servers may share it
    from gridfall.arena.warm_bots import warm_bots
    from gridfall.connect4.match import name_unfitted

    try:
        name_unfitted([opponent], limits)
        warm_bots("connect4", [opponent], AGENT_NAMES)  # a built-in's kernels, or those of the gridfall a command runs
        server = PlayServer(opponent, limits, database=run, seed=seed)
        try:
            httpd = serve(server, build_play(f"Connect Four 7x9 with STEAL against {opponent}"), port)
        except OSError as e:
            raise click.BadParameter(f"cannot listen on 127.0.0.1:{port}: {e}", param_hint="--port") from None
    except BaseException:  # a server that never served leaves no database it made
        run.discard()
        raise
    address = f"http://127.0.0.1:{httpd.server_address[1]}/"
    click.echo(f"playing {opponent} at {address} (Ctrl-C stops); games are stored in {run.path}", err=True)
    if not no_browser:
        webbrowser.open(address)
    try:
        with stopping_on_signals():  # SIGTERM and SIGHUP stop the server as Ctrl-C does
            httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
        server.close()
        kill_all()
    sys.exit(exit_code(True))
