"""One self-contained HTML replay: the frames as JSON, the player and the game's renderer inline.

The page needs no network and no other file, so it opens from disk and can be mailed.  The frames
are data: they are embedded as JSON inside a ``<script type="application/json">`` element, with
every ``<`` written as ``\\u003c`` so that no text from a bot can close the element, and the
player sets all text with ``textContent``, so a bot's message is shown, never run or parsed.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path

from gridfall import json_text, palette
from gridfall.atomic_file import write_text

KINDS = ("samegame", "connect4", "match3")


def _asset(name: str) -> str:
    return (resources.files("gridfall.viewer") / "assets" / name).read_text(encoding="utf-8")


def _json_for_script(data: dict) -> str:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _palette_script() -> str:
    """The pieces' colours (:mod:`gridfall.palette`), as the pages' scripts read them."""
    return f"var PALETTE = {_json_for_script(palette.for_pages())};"


def build(kind: str, title: str, games: list[dict], interval_ms: int = 400) -> str:
    """The HTML of a replay of ``games`` (each ``{"title": ..., "frames": [...], ...}``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown game {kind!r}; one of {', '.join(KINDS)}")
    if not games or not all(g.get("frames") for g in games):
        raise ValueError("a replay needs at least one game with at least one frame")
    data = {"kind": kind, "interval": interval_ms, "games": games}
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
{_asset("player.css")}
</style>
</head>
<body data-kind="{kind}">
<h1>{html.escape(title)}</h1>
<div id="controls">
<select id="game" aria-label="game"></select>
<button id="first" title="first frame (Home)">&laquo;</button>
<button id="back" title="step back (left arrow)">&lsaquo;</button>
<button id="play" title="play or pause (space)">play</button>
<button id="forward" title="step forward (right arrow)">&rsaquo;</button>
<button id="last" title="last frame (End)">&raquo;</button>
<span id="position"></span>
</div>
<div id="main">
<div id="board"></div>
<div id="info"></div>
</div>
<div id="plot" hidden></div>
<script type="application/json" id="replay-data">{_json_for_script(data)}</script>
<script>
{_palette_script()}
{_asset("svg.js")}
{_asset(kind + ".js")}
{_asset("player.js")}
</script>
</body>
</html>
"""


def build_play(title: str) -> str:
    """The page of ``gridfall connect4 play``: it talks to the server that serves it."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
{_asset("player.css")}
</style>
</head>
<body data-state="none">
<h1>{html.escape(title)}</h1>
<div id="controls">
<button id="new-first">new game: you move first</button>
<button id="new-second">new game: you move second</button>
<button id="steal" hidden>STEAL the first chip</button>
</div>
<div id="main">
<div id="board"></div>
<div id="info"><p id="status">Start a game; click a column to drop a chip.</p>
<p id="bot-message" class="message"></p>
<div id="bot-output" class="output"></div></div>
</div>
<script>
{_palette_script()}
{_asset("svg.js")}
{_asset("play.js")}
</script>
</body>
</html>
"""


def write(path: str | Path, kind: str, title: str, games: list[dict]) -> int:
    """Write the replay, whole or not at all; returns its size in bytes.  OSError if it cannot be written."""
    text = build(kind, title, games)
    write_text(path, text, kind="replay")
    return len(text.encode("utf-8"))


def read_data(text: str) -> dict:
    """The embedded record of a replay page (what the tests compare with the rules)."""
    start = text.index('<script type="application/json" id="replay-data">') + len(
        '<script type="application/json" id="replay-data">')
    end = text.index("</script>", start)
    return json_text.loads(text[start:end])
