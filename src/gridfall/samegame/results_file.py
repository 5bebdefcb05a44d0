"""The results file a campaign writes: its campaign line, the history of earlier ones, the lines.

The file is rewritten whole (a new file replaces the old one, so a reader sees the old file or
the new one, never a part, and a full disk leaves the old one: :mod:`gridfall.atomic_file`) under an exclusive lock: two campaigns run side by side into one file
on one store both keep their lines.  The campaign lines of the file it replaces are carried
below the new one (:func:`~gridfall.samegame.store.campaign_history`), so the file keeps the
history of every campaign behind its lines.
"""

from __future__ import annotations

import contextlib
import os

from gridfall import lock_file
from gridfall.atomic_file import replacing
from gridfall.samegame.store import SolutionStore, campaign_history, results_row
from gridfall.text_file import NotText, read_text


def earlier_campaigns(path: str, campaign: str) -> list[str]:
    """The campaign lines of the results file at ``path``, as they follow a newer one, without
    ``campaign`` itself (its line from an earlier write, whatever progress it gave)."""
    own = "# before it: " + campaign[2:]
    return [line for line in campaign_history(read_text(path)) if not line.startswith((own + ",", own + ";"))]


def check_replaceable(path: str, set_name: str) -> None:
    """ValueError naming the first line of the file at ``path`` that is neither a comment nor a
    results row (any other file is not a campaign's to rewrite), or why it cannot be read."""
    try:
        text = read_text(path)
    except (OSError, NotText) as e:
        raise ValueError(f"{path}: cannot read the results file it would replace: {e}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            try:
                results_row(line, set_name)
            except ValueError as e:
                raise ValueError(f"{path}:{number}: not a results file's line ({e}); a campaign would "
                                 "overwrite the file: give another --out") from None


def write_results(store: SolutionStore, path: str, set_name: str, campaign: str, progress: str) -> None:
    """Rewrite the results file at ``path`` from the store: this campaign's line (with
    ``progress``, empty once it is done) above the campaign lines of the file it replaces."""
    line = f"{campaign}{progress}; each board's line below names the round that found it"
    # campaigns side by side into one file take turns (not on Windows: no flock); a device or a pipe
    # (/dev/stdout) is written in place, with no lock file beside it and no history read from it
    regular = os.path.isfile(path) or not os.path.exists(path)
    with lock_file.holding(path) if regular else contextlib.nullcontext():
        history = earlier_campaigns(path, campaign) if os.path.isfile(path) else []
        with replacing(path) as results:  # whole or not at all: a full disk leaves the last one
            for text in [line, *history]:
                results.write(text + "\n")
            store.export_results(results, set_name)
