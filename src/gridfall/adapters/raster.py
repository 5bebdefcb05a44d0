"""A board as an RGB image (``render_mode="rgb_array"``), drawn from its observation planes.

Every game's observation is one-hot planes ``(pieces, rows, columns)``, row 0 the top row, so one
drawing serves all three: each cell is a square of ``cell`` pixels, filled with the colour of the
plane that marks it (:func:`gridfall.palette.plane_colours`), inset by a margin of the background
colour.  A disc (Connect Four's chips) is the square's pixels within its inscribed circle.
"""

from __future__ import annotations

import numpy as np

from gridfall.palette import plane_colours, rgb

CELL = 24  # pixels a cell: 15 x 15 SameGame cells make a 360 x 360 frame


def board_image(planes: np.ndarray, game: str, cell: int = CELL) -> np.ndarray:
    """``(rows * cell, columns * cell, 3)`` uint8: the board whose ``planes`` are given."""
    colours, empty, background = plane_colours(game)
    pieces, rows, columns = planes.shape
    if pieces != len(colours):
        raise ValueError(f"{pieces} planes for {game}'s {len(colours)} colours")
    # the colour index of each cell: its plane, or len(colours) for a cell no plane marks
    index = np.where(planes.any(axis=0), planes.argmax(axis=0), len(colours))
    table = np.array([rgb(c) for c in (*colours, empty)], dtype=np.uint8)
    image = np.repeat(np.repeat(table[index], cell, axis=0), cell, axis=1)
    # inside one cell: which pixels the piece covers (the square inset by a pixel, or a disc)
    centre = (np.arange(cell) + 0.5 - cell / 2) ** 2
    if game == "connect4":
        covered = centre[:, None] + centre[None, :] <= (cell / 2 - 2) ** 2
    else:
        margin = np.zeros(cell, dtype=bool)
        margin[1:-1] = True
        covered = margin[:, None] & margin[None, :]
    mask = np.tile(covered, (rows, columns))
    image[~mask] = rgb(background)
    return image
