"""Environment steps per second through each adapter, beside PettingZoo's own connect_four_v3.

Every row plays random legal actions (from the action mask) for at least ``--seconds`` and counts
the steps taken, resets not counted.  The gridfall rows run on the rules of record in plain
Python, as the adapters do; the numba engines behind gridfall's players are far faster.

    pip install ".[test]" pygame     # the three frameworks, and pygame for connect_four_v3
    python benchmarks/adapter_speed.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

from common import console, first_paragraph, machine_line, positive, run_script
from rich.table import Table


def measure(reset, step, seconds: float) -> tuple[int, float]:
    """(steps, seconds): step() returns True when the episode is over."""
    steps, start = 0, time.perf_counter()
    reset()
    while time.perf_counter() - start < seconds:
        if step():
            reset()
        steps += 1
    return steps, time.perf_counter() - start


def state_row(game):
    """Random legal steps on a game with OpenSpiel's verbs: gridfall's own, or a pyspiel game."""
    rng, holder = random.Random(0), {}

    def reset():
        holder["s"] = game.new_initial_state()

    def step():
        state = holder["s"]
        state.apply_action(rng.choice(state.legal_actions()))
        return state.is_terminal()

    return reset, step


def interface_row(name: str, **parameters):
    import gridfall

    return state_row(gridfall.load_game(name, **parameters))


def gym_row(env_id: str, **kwargs):
    import gymnasium
    import numpy as np

    import gridfall.adapters.gym  # noqa: F401

    env, rng, holder = gymnasium.make(env_id, **kwargs), np.random.default_rng(0), {}
    seeds = iter(range(10**9))

    def reset():
        holder["info"] = env.reset(seed=next(seeds))[1]

    def step():
        action = int(rng.choice(np.flatnonzero(holder["info"]["action_mask"])))
        _, _, terminated, truncated, holder["info"] = env.step(action)
        return terminated or truncated

    return reset, step


def aec_row(make_env):
    import numpy as np

    env, rng = make_env(), np.random.default_rng(0)

    def reset():
        env.reset(seed=0)

    def step():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return True
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return False

    return reset, step


def openspiel_row(name: str):
    import pyspiel

    import gridfall.adapters.openspiel  # noqa: F401

    return state_row(pyspiel.load_game(name))


def rows():
    """(adapter, game, factory); a factory that cannot import is reported, not fatal."""
    from functools import partial

    def gridfall_c4():
        from gridfall.adapters.pettingzoo import connect4_steal_v0

        return aec_row(connect4_steal_v0.env)

    def pettingzoo_c4():
        from pettingzoo.classic import connect_four_v3

        return aec_row(connect_four_v3.env)

    return [
        ("interface", "samegame", partial(interface_row, "samegame", board="random:1")),
        ("interface", "match3 8x8", partial(interface_row, "match3", size=8)),
        ("interface", "connect4 9x7 STEAL", partial(interface_row, "connect4")),
        ("gymnasium", "gridfall/SameGame-v0", partial(gym_row, "gridfall/SameGame-v0")),
        ("gymnasium", "gridfall/Match3-v0", partial(gym_row, "gridfall/Match3-v0")),
        ("gymnasium", "gridfall/Connect4-v0 (against random)", partial(gym_row, "gridfall/Connect4-v0")),
        ("pettingzoo", "gridfall connect4_steal_v0 (9x7)", gridfall_c4),
        ("pettingzoo", "PettingZoo's connect_four_v3 (7x6)", pettingzoo_c4),
        ("openspiel", "python_gridfall_samegame", partial(openspiel_row, "python_gridfall_samegame(board=random:1)")),
        ("openspiel", "python_gridfall_match3", partial(openspiel_row, "python_gridfall_match3")),
        ("openspiel", "python_gridfall_connect4", partial(openspiel_row, "python_gridfall_connect4")),
        ("openspiel", "native C++ connect_four (7x9)", partial(openspiel_row, "connect_four(rows=7,columns=9)")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--seconds", type=positive, default=3.0, help="time for each row (default 3)")
    args = parser.parse_args()
    out = console()
    table = Table(title="Random legal steps per second, one core")
    for column in ("adapter", "game", "steps", "steps/s"):
        table.add_column(column, justify="right" if column.startswith("steps") else "left")
    for adapter, game, factory in rows():
        try:
            reset, step = factory()
        except ImportError as e:
            table.add_row(adapter, game, "-", f"not installed ({e.name})")
            continue
        steps, took = measure(reset, step, args.seconds)
        table.add_row(adapter, game, f"{steps:,}", f"{steps / took:,.0f}")
        out.print(f"{adapter:<10} {game:<40} {steps / took:>10,.0f} steps/s", style="dim")
    out.print(table)
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
