"""JSON that comes from outside gridfall (a user's file, a bot's harness, a browser, a damaged
database), read so that every way it can be wrong is a ValueError; and gridfall's own JSON
output, written so that any JSON reader takes it (:func:`dumps`).

``json.loads`` raises ValueError for text that is not JSON, but RecursionError for arrays or
objects nested a few thousand deep (``"[" * 100000``): valid-looking input that would otherwise
end a command in an internal error instead of the message its caller gives for bad data.
"""

from __future__ import annotations

import json
import math


def loads(text: str | bytes):
    """``json.loads(text)``; ValueError for anything that is not JSON gridfall can read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None


def dumps(data, **options) -> str:
    """gridfall's JSON output (``--json``, the play page's answers): strict JSON, which ``jq``
    and a browser's ``JSON.parse`` read.  Python's ``json.dumps`` writes an infinite Elo as
    ``Infinity``, which is not JSON; here a float that is not finite is the text ``"inf"``,
    ``"-inf"`` or ``"nan"``."""
    return json.dumps(_finite(data), allow_nan=False, **options)


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value
