"""SameGame bots written as scripts for the referee's tests: each reads its board per turn as the
protocol sends it, then runs a few lines of the test's."""

import sys
import textwrap


def script_bot(tmp_path, body: str) -> str:
    """A bot program: reads a board per turn, then runs ``body`` (which may print)."""
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent('''
        import sys, time
        from gridfall.samegame import rules
        turn = 0
        while True:
            rows = [sys.stdin.readline() for _ in range(15)]
            if not rows[-1]:
                break
            board = rules.Board.from_rows([[int(v) for v in r.split()] for r in rows])
            turn += 1
    ''') + textwrap.indent(textwrap.dedent(body), "    "))
    return f"{sys.executable} {path}"


LARGEST = "g = max(board.groups(), key=lambda g: g.size); print(g.x, g.y, 'msg', flush=True)\n"
