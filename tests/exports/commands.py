"""What the export tests run and write: the gridfall command in a folder, and a player's file."""

import subprocess
import sys
import textwrap


def gridfall(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "gridfall", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd)


def write(folder, name, text):
    (folder / name).write_text(textwrap.dedent(text))
    return folder / name


def refused_export(folder, game, name, text):
    """What ``GAME export --player NAME:P`` says on stderr for a file NAME holding TEXT, which must
    be refused: exit 1, no traceback, no file written."""
    (folder / name).write_text(text)
    out = folder / "exported.py"
    done = gridfall(game, "export", str(out), "--player", f"{name}:P", cwd=folder)
    assert done.returncode == 1 and "Traceback" not in done.stderr and not out.exists(), done.stderr
    return done.stderr
