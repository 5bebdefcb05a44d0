"""JSON that comes from outside gridfall (a user's file, a bot's harness, a browser, a damaged
database), read so that every way it can be wrong is a ValueError.

``json.loads`` raises ValueError for text that is not JSON, but RecursionError for arrays or
objects nested a few thousand deep (``"[" * 100000``): valid-looking input that would otherwise
end a command in an internal error instead of the message its caller gives for bad data.
"""

from __future__ import annotations

import json


def loads(text: str | bytes):
    """``json.loads(text)``; ValueError for anything that is not JSON gridfall can read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
