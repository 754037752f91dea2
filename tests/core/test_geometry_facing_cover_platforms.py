"""The Ninth Age's facing cover and platforms: a hill under the shooter or the target
hides nothing of that pair; a hill between them is hard cover."""

from __future__ import annotations

from tabletop_gui.geometry.board import Board, Body, Footprint, Formation, Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry

W, D = 5 * 0.787, 2 * 0.787  # 5 files x 2 ranks of 20 mm bases


def unit(uid: str, side: str, x: float, y: float, facing: float) -> Body:
    return Body(uid, side, Footprint("rect", x, y, D, W, facing), elevation=0.0,
                formation=Formation(10, 5, 0.787, 0.787))


def hill(x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain("h1", "platform", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 3.0, "Hill")


def cover(*terrain: Terrain) -> str:
    # shooter at y=5 facing +y, target at y=20 facing -y: the Target Facing is its front
    board = Board(48, 36, (unit("s", "red", 20, 5, 90), unit("t", "blue", 20, 20, 270)),
                  terrain)
    return BoardGeometry(board).facing_cover("s", "t").kind


def test_hill_between_the_units_is_hard_cover() -> None:
    assert cover(hill(14, 11, 26, 14)) == "hard"


def test_hill_under_the_shooter_hides_nothing() -> None:
    # the shooter's centre (20, 5) stands on the hill; before the fix its own hill was
    # counted as hiding every line and the target had hard cover
    assert cover(hill(14, 2, 26, 8)) == "none"


def test_hill_under_the_target_hides_nothing() -> None:
    assert cover(hill(14, 17, 26, 23)) == "none"
