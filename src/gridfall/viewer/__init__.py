"""Replays: one self-contained HTML file per record, made from the recorded moves through the
rules of record (:mod:`gridfall.viewer.page` builds it, each game's ``replay.py`` its frames)."""
