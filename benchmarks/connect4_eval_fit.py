"""Which evaluation terms predict who wins a Connect Four 9x7 game, and with what weights?

Reads the games of a pie-rule run (``gridfall connect4 openings --rebuild --db FILE``: gridfall's
bot against MCTS-Solver at 100 ms a move, the exact solver finishing each game) and takes every
position ``--from``-``--to`` empty cells before the end in which the side to move cannot win at
once.  For each set of terms it fits a logistic model of the side to move's result (win 1, draw
1/2, loss 0) on one half of the pairs of games and reports the log loss and the share of decided
games called right on the other half, then the other way round (two-fold, by pair: a pair's two
games share their opening).  Every model also gets a constant and a "gridfall to move" term, so
that the two engines' strength does not leak into the terms' weights.

The sets: the evaluation gridfall used until 2026-11-26 (all threats counted, stacked threats,
centre), the current evaluation (:func:`gridfall.connect4.search.evaluation_terms`) and the
current one without some of its terms.  The last line prints the current terms' weights fitted
on all the games, scaled so the lowest-threat term weighs as in the code, beside the code's.

    python benchmarks/connect4_eval_fit.py [results/connect4-pie.sqlite] [--from 39] [--to 49]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from common import console, first_paragraph, machine_line, pie_run_games, run_script, whole
from rich.table import Table

from gridfall.connect4 import engine
from gridfall.connect4.rules import Game
from gridfall.connect4.search import (
    EVEN_ROW_WEIGHT,
    LOWEST_WEIGHT,
    THREAT_WEIGHT,
    evaluation_terms,
)

TERMS = ("all threats", "stacked threats", "centre", "lowest threats", "even rows")
SETS = {
    "until 2026-11-26": ("all threats", "stacked threats", "centre"),
    "without even rows": ("lowest threats", "centre"),
    "without all threats": ("lowest threats", "even rows", "centre"),
    "current": ("lowest threats", "even rows", "centre", "all threats"),
}


def terms(cur: int, mask: int, g: np.ndarray) -> list[float]:
    """The values of TERMS for the side to move."""
    cur, mask = np.uint64(cur), np.uint64(mask)
    mine, theirs = int(engine.winning_cells(cur, mask, g)), int(engine.winning_cells(cur ^ mask, mask, g))
    top = int(g[engine.TOP])

    def stacked(cells: int) -> int:  # two threats one above the other
        return bin(cells & (cells >> 1) & ~top).count("1")

    lowest, even, centre, threats = evaluation_terms(cur, mask, g)
    return [threats, stacked(mine) - stacked(theirs), centre, lowest, even]


def positions(games, low: int, high: int):
    """(terms, gridfall to move, result for the side to move, pair) of every quiet position."""
    g = engine.geometry(9, 7)
    rows = []
    for run_game in games:
        pair, seats, moves, winner = (run_game.column * 100_000 + run_game.pair, run_game.seats, run_game.moves,
                                      run_game.winner)
        game = Game(9, 7, steal=False)
        for ply, move in enumerate(moves):
            if low <= 63 - ply <= high:
                cur, mask = engine.from_game(game)
                if not engine.can_win_next(np.uint64(cur), np.uint64(mask), g):
                    mover = ply % 2
                    result = 0.5 if winner is None else float(winner == mover)
                    rows.append((terms(cur, mask, g), float(seats[mover] == "gridfall"), result, pair))
            game.apply_action(move)
    x = np.array([r[0] for r in rows], dtype=float)
    return x, np.array([r[1] for r in rows]), np.array([r[2] for r in rows]), np.array([r[3] for r in rows])


def fit(a: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method (a little ridge keeps it well posed)."""
    w = np.zeros(a.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-a @ w))
        gradient = a.T @ (p - y) + 1e-6 * w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def design(x: np.ndarray, gridfall: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    return np.c_[np.ones(len(x)), gridfall, x[:, [TERMS.index(n) for n in names]]]


def held_out(a: np.ndarray, y: np.ndarray, fold: np.ndarray) -> tuple[float, float]:
    """Log loss and share of decided results called right, each half predicted by the other."""
    losses, right = [], []
    for part in (False, True):
        w = fit(a[fold != part], y[fold != part])
        z = a[fold == part] @ w
        losses.append(np.logaddexp(0, z) - y[fold == part] * z)
        decided = y[fold == part] != 0.5
        right.append(((z > 0) == (y[fold == part] > 0.5))[decided])
    return float(np.mean(np.concatenate(losses))), float(np.mean(np.concatenate(right)))


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("db", nargs="?", default="results/connect4-pie.sqlite", help="a pie-rule run database")
    parser.add_argument("--from", dest="low", type=whole(0, 63), default=39, help="fewest empty cells (default 39)")
    parser.add_argument("--to", dest="high", type=whole(0, 63), default=49, help="most empty cells (default 49)")
    args = parser.parse_args()
    if not 1 <= args.low <= args.high <= 62:
        raise SystemExit("--from and --to: 1 <= from <= to <= 62 empty cells")
    out = console()
    games = pie_run_games(Path(args.db))
    with out.status(f"reading the positions of {len(games):,} games"):
        x, gridfall, y, pair = positions(games, args.low, args.high)
    fold = (pair % 2).astype(bool)
    table = Table(title=f"What predicts the result: {len(y):,} positions, {args.low}-{args.high} empty cells, "
                        f"{len(games):,} games of {args.db}")
    for name in ("evaluation", "terms", "held-out log loss", "results called right"):
        table.add_column(name, justify="left" if name in ("evaluation", "terms") else "right")
    table.add_row("none", "a constant", f"{held_out(np.ones((len(y), 1)), y, fold)[0]:.4f}", "-")
    for label, names in SETS.items():
        loss, right = held_out(design(x, gridfall, names), y, fold)
        table.add_row(label, ", ".join(names), f"{loss:.4f}", f"{100 * right:.1f}%")
    out.print(table)
    names = SETS["current"]
    w = fit(design(x, gridfall, names), y)[2:]
    scale = LOWEST_WEIGHT / w[0]
    code = {"lowest threats": LOWEST_WEIGHT, "even rows": EVEN_ROW_WEIGHT, "centre": 1, "all threats": THREAT_WEIGHT}
    out.print(f"The current evaluation's terms fitted on all the games, scaled to lowest threats = {LOWEST_WEIGHT} "
              "(the code's weight in brackets): "
              + ", ".join(f"{n} {scale * v:.1f} ({code[n]})" for n, v in zip(names, w)))
    out.print(machine_line())


if __name__ == "__main__":
    run_script(main)
