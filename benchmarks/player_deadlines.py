"""How closely gridfall's timed players keep the time that act(state, seconds) gives them, from the shortest budget to a second.

Each player of ``gridfall.load_player`` whose search is timed is asked for a move on the same
positions at each budget, and the calls are timed from outside, in this process: the median and
the longest call, and how far the longest passed its budget.  A search checks its clock between
steps of its own (a SameGame kernel call sized to the time left, a pair of Match-3 refills), so
what passes the budget is at most one such step, which matters at the shortest budgets.  Every kernel of the games is
warmed first (compiled if it must be, as ``gridfall warmup`` does), and each player makes one
untimed call, so no compile or first load is timed.

    python benchmarks/player_deadlines.py [--budgets 5,10,50,200,1000] [--positions 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import console, finish, first_paragraph, numbers, run_script, whole
from rich.table import Table

# the players whose act() is timed (portable: the exported pure-Python bot's); greedy, fast and
# alphabeta:DEPTH answer at once
PLAYERS = {
    "connect4": ["gridfall", "mcts", "mcts-solver", "portable"],
    "samegame": ["auto", "nrpa", "beam", "nmcs", "mcbs", "anneal"],
    "match3": ["strong"],
}


def positions(game_name: str, count: int) -> list:
    """``count`` states of ``game_name`` that are not over, reproducibly.  Connect Four: two
    random plies, then ``greedy`` (which takes a win and blocks a loss) to ply 12-20, past the
    opening book and with no win in one to take; SameGame: a random board after 0-10 random
    clicks; Match-3: boards of 8 and 13, CodeAbbey's smallest and largest."""
    import gridfall

    rng, states = random.Random(0), []
    for number in range(count):
        mover = None
        if game_name == "connect4":
            game, plies = gridfall.load_game("connect4"), rng.randrange(12, 21)
            mover = gridfall.load_player(game, "greedy", seed=number)
        elif game_name == "samegame":
            game, plies = gridfall.load_game("samegame", board=f"random:{number + 1}"), rng.randrange(0, 11)
        else:
            game, plies = gridfall.load_game("match3", size=(8, 13)[number % 2], seed=number + 1), 0
        state = game.new_initial_state()
        for ply in range(plies):
            random_ply = mover is None or ply < 2
            after = state.child(rng.choice(state.legal_actions()) if random_ply else mover.act(state))
            if after.is_terminal():
                break
            state = after
        states.append(state)
    return states


def timed_calls(player, states: list, seconds: float) -> list[float]:
    """The seconds of each act call, one a state."""
    times = []
    for state in states:
        start = time.perf_counter()
        player.act(state, seconds)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--budgets", default="5,10,50,200,1000",
                        help="the budgets given to act, in milliseconds, separated by commas (default 5,10,50,200,1000)")
    parser.add_argument("--positions", type=whole(1, 1000), default=5, help="positions a game (default 5)")
    parser.add_argument("--games", default="connect4,samegame,match3",
                        help="the games, separated by commas (default connect4,samegame,match3)")
    args = parser.parse_args()
    budgets = numbers(args.budgets, "--budgets")
    games = [g.strip() for g in args.games.split(",")]
    unknown = [g for g in games if g not in PLAYERS]
    if unknown or 0 in budgets:
        parser.error(f"--games {unknown[0]!r}: choose from {', '.join(PLAYERS)}" if unknown
                     else "--budgets: a budget of 0 ms measures nothing")
    import gridfall
    from gridfall.warmup import warm_saying

    for game_name in games:  # every kernel loaded (compiled first if it must be) before any call is timed
        warm_saying(game_name)
    table = Table(title=f"act(state, seconds) timed from outside, {args.positions} positions a game")
    for column in ("game", "player", "budget ms", "median ms", "longest ms", "longest over budget"):
        table.add_column(column, justify="left" if column in ("game", "player") else "right")
    stopped = ""
    try:
        for game_name in games:
            states = positions(game_name, args.positions)
            for name in PLAYERS[game_name]:
                player = gridfall.load_player(states[0].game, name, seed=1)
                player.act(states[0], 0.05)  # its first call's setting up, untimed
                for budget in budgets:
                    player = gridfall.load_player(states[0].game, name, seed=1)  # no plan kept from before
                    times = [t * 1000 for t in timed_calls(player, states, budget / 1000)]
                    longest = max(times)
                    console(stderr=True).print(f"{game_name} {name} {budget} ms: longest {longest:.1f} ms")
                    table.add_row(game_name, name, f"{budget:,}", f"{statistics.median(times):,.1f}",
                                  f"{longest:,.1f}", f"{max(0.0, longest - budget):,.1f}")
    except KeyboardInterrupt:
        stopped = "stopped: the table holds the budgets measured until then"
    return finish(stopped, table)


if __name__ == "__main__":
    run_script(main)
