"""A state's board as an SVG picture: what a notebook shows for a state (``_repr_svg_``).

Jupyter, VS Code and any IPython front end call ``_repr_svg_`` on the value of a cell and draw
the picture instead of the text, as python-chess does for its boards.  The drawing is the
``rgb_array`` image's (:mod:`gridfall.adapters.raster`), from the same observation planes and in
the same colours (:mod:`gridfall.palette`): squares inset by a pixel for SameGame's tiles and
Match-3's jewels, discs in the holes of a blue board for Connect Four, the first player's chips
yellow.  Vector shapes, so the picture stays sharp at any zoom, and nothing but numbers goes into
it: no text of the state's is written into the markup.
"""

from __future__ import annotations

from gridfall.palette import plane_colours

CELL = 24  # SVG units a cell, the raster's pixels


def state_svg(state, cell: int = CELL) -> str:
    """The board of ``state`` (a state of one of the three games) as an SVG document."""
    game = state.game.short_name
    # Connect Four's planes are a seat's view: seat 0's keeps yellow for the first player's chips
    planes = state.observation_planes(0) if game == "connect4" else state.observation_planes()
    return planes_svg(planes, game, cell)


def planes_svg(planes, game: str, cell: int = CELL) -> str:
    """The board whose one-hot ``planes`` ``(pieces, rows, columns)`` are given, row 0 the top."""
    colours, empty, background = plane_colours(game)
    pieces, rows, columns = planes.shape
    if pieces != len(colours):
        raise ValueError(f"{pieces} planes for {game}'s {len(colours)} colours")
    width, height = columns * cell, rows * cell
    shapes = [f'<rect width="{width}" height="{height}" fill="{background}"/>']
    for row in range(rows):
        for column in range(columns):
            marked = [p for p in range(pieces) if planes[p, row, column]]
            colour = colours[marked[0]] if marked else empty
            x, y = column * cell, row * cell
            if game == "connect4":  # a chip, or the hole where none has fallen
                r = cell / 2 - 2
                shapes.append(f'<circle cx="{x + cell / 2:g}" cy="{y + cell / 2:g}" r="{r:g}" fill="{colour}"/>')
            elif marked:  # the empty cells are the background's white
                shapes.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="{colour}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(shapes) + "</svg>")
