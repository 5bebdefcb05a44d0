"""A state shows as a picture in a notebook: its SVG is the rgb_array image's drawing, in shapes."""

import xml.etree.ElementTree as ET

import pytest

import gridfall
from gridfall.adapters.raster import CELL, board_image
from gridfall.export import package_closure
from gridfall.palette import rgb

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

SVG = "{http://www.w3.org/2000/svg}"


def played(name, moves, **parameters):
    state = gridfall.load_game(name, **parameters).new_initial_state()
    for pick in moves:  # an index into the legal actions: -1 is STEAL where it is offered
        state.apply_action(state.legal_actions()[pick])
    return state


@pytest.mark.parametrize("state", [
    played("samegame", [0, 5, -1, 3, 0, 7], board="standard:4"),
    played("match3", [0, 2, -1], size=8, seed=3),
    played("connect4", [4, -1, 2, 2, 0]),  # a stolen chip: the first player's chips stay yellow
    played("connect4", [0, 1, 0, 1, 0, 1, 0], width=7, height=6, steal=False),  # over: four in column 0
], ids=["samegame", "match3", "connect4-steal", "connect4-over"])
def test_each_cells_shape_has_the_colour_of_that_cell_in_the_rgb_array_image(state):
    name = state.game.short_name
    rows, columns = state.game.observation_shape()[1:]
    root = ET.fromstring(state._repr_svg_())  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg" and (root.get("width"), root.get("height")) == (str(columns * CELL), str(rows * CELL))
    image = board_image(state.observation_planes(0 if name == "connect4" else None), name)
    shapes = root.findall(f"{SVG}circle" if name == "connect4" else f"{SVG}rect")[0 if name == "connect4" else 1:]
    drawn = {}
    for shape in shapes:
        x = float(shape.get("cx") if name == "connect4" else shape.get("x"))
        y = float(shape.get("cy") if name == "connect4" else shape.get("y"))
        drawn[int(y // CELL), int(x // CELL)] = rgb(shape.get("fill"))
    for row in range(rows):
        for column in range(columns):
            centre = tuple(int(v) for v in image[row * CELL + CELL // 2, column * CELL + CELL // 2])
            # SameGame's and Match-3's empty cells are left to the white background
            assert drawn.get((row, column), rgb(root[0].get("fill"))) == centre, (row, column)
    if name == "connect4":
        assert len(shapes) == rows * columns


def test_a_cleared_samegame_cell_and_a_stolen_chip_are_drawn_as_such():
    state = played("connect4", [4, -1])  # yellow's chip in column 4 becomes red's
    chips = {shape.get("fill") for shape in ET.fromstring(state._repr_svg_()).findall(f"{SVG}circle")}
    assert chips == {"#d1495b", "#f6f6f4"}  # red and the holes: no yellow chip is left
    samegame = played("samegame", [], board="standard:1")
    before = len(ET.fromstring(samegame._repr_svg_()).findall(f"{SVG}rect"))
    samegame.apply_action(samegame.legal_actions()[0])
    after = len(ET.fromstring(samegame._repr_svg_()).findall(f"{SVG}rect"))
    assert before == 1 + 225 and after < before


def test_the_exported_bots_do_not_carry_the_drawing():
    """interface.py names the module at run time only: every module an import statement names goes
    into each exported bot, and a bot never draws."""
    modules = package_closure([], start=("gridfall.interface",))
    assert "gridfall.interface" in modules and "gridfall.board_svg" not in modules
    assert "gridfall.palette" not in modules
