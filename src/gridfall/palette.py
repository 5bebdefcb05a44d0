"""The colours of each game's pieces, in one place.

The replay pages and the play page draw with them (:func:`for_pages`, given to their scripts as
``PALETTE``), and so do the adapters' ``rgb_array`` images and a notebook's picture of a state
(:func:`plane_colours`), so a game looks the same in a browser, in a recorded video and in a
notebook.
"""

from __future__ import annotations

SAMEGAME = ("#e4572e", "#29335c", "#f3a712", "#669bbc", "#8cb369")  # colours 0..4
MATCH3 = {"A": "#e4572e", "B": "#29335c", "C": "#f3a712", "D": "#669bbc", "E": "#8cb369", "F": "#a26769",
          "G": "#6d597a"}  # jewels A..G
CONNECT4 = {"0": "#f2c14e", "1": "#d1495b", "hole": "#f6f6f4", "board": "#1d4e89"}  # yellow moves first
EMPTY = "#ffffff"  # behind SameGame's and Match-3's pieces


def for_pages() -> dict:
    """The palette as the pages' scripts read it."""
    return {"samegame": list(SAMEGAME), "match3": dict(MATCH3), "connect4": dict(CONNECT4)}


def plane_colours(game: str) -> tuple[list[str], str, str]:
    """(a colour for each observation plane, in the planes' order; the colour of a cell no plane
    marks; the colour between cells) for ``game``.  Connect Four's planes are seat 0's view: its
    chips, then the other seat's."""
    if game == "samegame":
        return list(SAMEGAME), EMPTY, EMPTY
    if game == "match3":
        return list(MATCH3.values()), EMPTY, EMPTY
    if game == "connect4":
        return [CONNECT4["0"], CONNECT4["1"]], CONNECT4["hole"], CONNECT4["board"]
    raise ValueError(f"unknown game {game!r}; one of samegame, match3, connect4")


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as three bytes."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
