"""Where the points of a SameGame results file come from, board by board.

(n-2)^2 makes the largest groups worth nearly everything: a line scores its
kept colour's one big group, the +1000 for a cleared board, and the rest,
which is large only when a second colour was gathered too.  This table shows,
for each line of a results file, the board's colour counts, the four largest
groups the line removes (size and colour) and the points beyond the largest
group and the clear bonus ("rest"), so a search change can aim at the boards
whose rest is small.

    python benchmarks/samegame_anatomy.py results/samegame-standard.txt
"""

from __future__ import annotations

import argparse
from collections import Counter

from common import console, first_paragraph, run_script, text_of
from rich.table import Table

from gridfall.samegame import rules
from gridfall.samegame.line import Line
from gridfall.samegame.boards import load_board
from gridfall.samegame.campaign import largest_groups
from gridfall.samegame.store import results_row


def anatomy(spec: str, moves: str) -> tuple[list[int], list[rules.Group], int, bool]:
    """Colour counts (largest first), the groups the line removes (largest first), its score
    and whether it clears the board."""
    board = load_board(spec)
    counts = Counter(colour for column in board.cells for colour in column if colour != rules.EMPTY)
    cells = list(Line.from_text(moves))
    groups = sorted(rules.removed_groups(board, cells), key=lambda g: -g.size)
    cleared = sum(g.size for g in groups) == sum(counts.values())  # the groups are the whole replay
    score = sum(g.points for g in groups) + (rules.CLEAR_BONUS if cleared else 0)
    return sorted(counts.values(), reverse=True), groups, score, cleared


def main() -> None:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("results", help="a results file: board, score, moves per line, tab-separated")
    parser.add_argument("--set", default="standard", help="the set a bare board number belongs to")
    args = parser.parse_args()
    lines = text_of(args.results, args.results).splitlines()
    table = Table(title=f"where the points come from: {args.results}")
    for name in ("board", "score", "colour counts", "largest groups removed (size/colour)", "largest", "clear", "rest"):
        table.add_column(name, justify="left" if "colour" in name else "right")
    total_rest = 0
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            spec, _, moves = results_row(line, args.set)
            counts, groups, score, cleared = anatomy(spec, moves)
        except (ValueError, rules.IllegalMove) as e:
            parser.error(f"{args.results}, line {number}: {e}")
        largest = groups[0].points if groups else 0
        rest = score - largest - (rules.CLEAR_BONUS if cleared else 0)
        total_rest += rest
        table.add_row(spec, str(score), " ".join(map(str, counts)),
                      largest_groups(groups), str(largest),
                      "yes" if cleared else "no", str(rest))
    out = console()
    out.print(table)
    out.print(f"rest over all boards: {total_rest}")


if __name__ == "__main__":
    run_script(main)
