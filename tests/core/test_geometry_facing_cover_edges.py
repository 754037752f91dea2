"""Facing cover at its edges, single pairs and the whole-battlefield table alike, against
the straightforward computation (one line per sample): exactly half of the Target
Facing hidden (cover under "half or more", none under "more than half"), and units
touching an obstacle (the target's facing on a wall, the shooter's front on a hedge)."""

from __future__ import annotations

from typing import Literal

import pytest

from tabletop_gui.geometry.board import Board, Body, Footprint, Formation, Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tests.core.test_geometry_facing_cover import straightforward

Threshold = Literal["more_than_half", "half_or_more"]
FILES, BASE, RANKS = 5, 1.0, 2  # 5 bases of 1" wide: a facing 5" wide
TARGET_Y = 10.0
FRONT = TARGET_Y + RANKS * BASE / 2  # the target's front facing: y = 11, x from 21.5 to 26.5


def unit(uid: str, side: str, x: float, y: float, facing: float) -> Body:
    fp = Footprint("rect", x, y, RANKS * BASE, FILES * BASE, facing)
    return Body(uid, side, fp, 0.0, 1.25, Formation(FILES * RANKS, FILES, BASE, BASE))


def board(terrain: tuple[Terrain, ...], shooter_y: float = 30.0) -> Board:
    """A target facing up (90 degrees) at (24, 10), a shooter facing it from above."""
    return Board(48.0, 36.0, (unit("target", "blue", 24.0, TARGET_Y, 90.0),
                              unit("shooter", "red", 24.0, shooter_y, 270.0)), terrain)


def wall(x0: float, x1: float, y0: float, y1: float, cover: Literal["hard", "soft"] = "hard",
         wid: str = "wall") -> Terrain:
    return Terrain(wid, "obstacle", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 1.0, wid,
                   True, cover)


def both_ways(b: Board, threshold: Threshold) -> tuple[object, object]:
    """The cover of the shooter's attack asked alone and from the whole-battlefield table."""
    single = BoardGeometry(b).facing_cover("shooter", "target", threshold=threshold)
    table = BoardGeometry(b).facing_covers(threshold)[(1, 0)]
    return single, table


@pytest.mark.parametrize("threshold", ["more_than_half", "half_or_more"])
def test_exactly_half_of_the_facing_hidden(threshold: Threshold) -> None:
    """A thin hard wall lying on the target's facing up to its middle hides exactly the
    32 samples of its left half from every shooter point: cover only when half is enough."""
    b = board((wall(20.0, 24.0, FRONT, FRONT + 0.01),))
    single, table = both_ways(b, threshold)
    g = BoardGeometry(b)
    want = straightforward(g, 1, 0, threshold)
    assert single == table == want
    assert (want.hard_fraction, want.total_fraction, want.by) == (0.5, 0.5, ("wall",))
    assert want.kind == ("hard" if threshold == "half_or_more" else "none")


@pytest.mark.parametrize("threshold", ["more_than_half", "half_or_more"])
@pytest.mark.parametrize("case", ["target_on_wall", "shooter_on_hedge", "both_touching",
                                  "wall_across_the_middle"])
def test_units_touching_an_obstacle(case: str, threshold: Threshold) -> None:
    terrain = {
        "target_on_wall": (wall(22.0, 30.0, FRONT, FRONT + 0.5),),
        "shooter_on_hedge": (wall(18.0, 30.0, 29.0 - 0.4, 29.0, "soft", "hedge"),),
        "both_touching": (wall(23.0, 27.0, FRONT, FRONT + 0.3),
                          wall(20.0, 24.5, 28.6, 29.0, "soft", "hedge")),
        "wall_across_the_middle": (wall(10.0, 24.0, 19.0, 21.0),
                                   wall(24.0, 38.0, 19.0, 21.0, "soft", "hedge")),
    }[case]
    b = board(terrain)
    single, table = both_ways(b, threshold)
    want = straightforward(BoardGeometry(b), 1, 0, threshold)
    assert single == table == want, case
    assert want.by  # something hides part of the facing
