"""Line of sight between prisms, segment tests, grazing corners and edges."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet
from tests.core.geometry_helpers import board, box, disc, rect


def seg_blocked(terrain: Terrain, p: tuple[float, ...], q: tuple[float, ...],
                use_z: bool = True) -> tuple[bool, bool]:
    """(numpy answer, shapely answer) for one segment."""
    ts = TerrainSet.build((terrain,))
    args = (np.array([p], float), np.array([q], float), np.array([0]), ts)
    return (bool(blocked(*args, use_z=use_z)[0]),
            bool(blocked(*args, use_z=use_z, exact_shapely=True)[0]))


SQUARE = box("s", 0, 0, 1, 1, 2.0)
L_SHAPE = Terrain("l", "obstacle", ((0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)), 2.0)


@pytest.mark.parametrize("p,q,expected", [
    ((0, 2, 1), (2, 0, 1), False),  # touches only the corner (1, 1)
    ((-1, 1, 1), (3, 1, 1), False),  # runs along the top edge y = 1
    ((-1, 0.999, 1), (3, 0.999, 1), True),  # just inside
    ((-1, 0.5, 2.0), (3, 0.5, 2.0), False),  # skims the top face (z = top)
    ((-1, 0.5, 1.999), (3, 0.5, 1.999), True),  # just below the top
    ((-1, 0.5, 0.0), (3, 0.5, 0.0), True),  # along the table: the base counts
    # z = 3 - 3 (x + 1) / 4 falls below the top (2) at x = 1/3, over the square until x = 1
    ((-1, 0.5, 3.0), (3, 0.5, 0.0), True),
    # z = 3 - 1.5 (x + 1) / 4 reaches 2 only at x = 1.667, past the square
    ((-1, 0.5, 3.0), (3, 0.5, 1.5), False),
    ((0.5, 0.5, 5.0), (0.5, 0.5, 1.0), True),  # vertical, through the top
])
def test_segment_against_square_prism(p: tuple[float, ...], q: tuple[float, ...],
                                      expected: bool) -> None:
    assert seg_blocked(SQUARE, p, q) == (expected, expected)


@pytest.mark.parametrize("p,q,expected", [
    ((0.5, 3, 1), (0.5, -1, 1), True),  # through the upright bar
    ((1, 3, 1), (1, -1, 1), True),  # along the inner edge x = 1 then into the foot
    ((1.5, 3, 1), (3, 1.5, 1), False),  # misses the notch
    ((3, 0, 1), (0, 3, 1), False),  # through the inner corner (1, 1) only... touches
    ((2, 2, 1), (0, 0, 1), True),  # diagonal through the inner corner into the bars
])
def test_segment_against_non_convex_prism(p: tuple[float, ...], q: tuple[float, ...],
                                          expected: bool) -> None:
    # the L is [0,2]x[0,1] plus [0,1]x[1,2]; shapely path only (not convex)
    ts = TerrainSet.build((L_SHAPE,))
    assert not ts.convex[0]
    assert seg_blocked(L_SHAPE, p, q)[1] is expected


def g_of(*bodies, terrain=()):  # type: ignore[no-untyped-def]
    return BoardGeometry(board(*bodies, terrain=terrain))


def test_tall_wall_blocks_and_is_named() -> None:
    wall = box("w1", 1.4, -3, 1.6, 3, 3.0, name="Ruined wall")
    s = g_of(disc("a", "r", 0, 0), disc("b", "b", 3, 0), terrain=(wall,)).sight("a", "b")
    assert not s.visible and s.blocked_by == ("w1",)


def test_low_wall_is_seen_over() -> None:
    # tops at 1.25 pass above a 0.5" wall
    wall = box("w1", 1.4, -3, 1.6, 3, 0.5)
    assert g_of(disc("a", "r", 0, 0), disc("b", "b", 3, 0), terrain=(wall,)).sight("a", "b").visible


def test_wall_not_blocking_sight_is_ignored() -> None:
    hedge = box("h", 1.4, -3, 1.6, 3, 3.0, blocks_sight=False)
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 3, 0), terrain=(hedge,))
    assert g.sight("a", "b").visible


def test_sight_along_an_obstacle_edge_is_not_blocked() -> None:
    # square bases 1x1 at (0,0) and (4,0): corner lines run along y = 0.5.
    # An obstacle filling y >= 0.5 between them only touches those lines: visible.
    grazing = box("g", 1, 0.5, 3, 5, 5.0)
    assert g_of(rect("a", "r", 0, 0, 1, 1), rect("b", "b", 4, 0, 1, 1),
                terrain=(grazing,)).sight("a", "b").visible
    # the same obstacle from y = 0.4 blocks the centre line but not the lines at y = -0.5
    deeper = box("g", 1, 0.4, 3, 5, 5.0)
    assert g_of(rect("a", "r", 0, 0, 1, 1), rect("b", "b", 4, 0, 1, 1),
                terrain=(deeper,)).sight("a", "b").visible
    full = box("g", 1, -5, 3, 5, 5.0)
    assert not g_of(rect("a", "r", 0, 0, 1, 1), rect("b", "b", 4, 0, 1, 1),
                    terrain=(full,)).sight("a", "b").visible


def test_sight_through_a_gap_between_walls_at_the_side_of_the_base() -> None:
    # round bases 1" at (0,0) and (6,0). Walls cover y in [-5, 0.45] and [0.55, 5]... no:
    # one wall covers y <= 0.45 only, so the lines from the left edge points (y = 0.5) pass
    left_open = box("w", 2, -5, 4, 0.45, 5.0)
    assert g_of(disc("a", "r", 0, 0), disc("b", "b", 6, 0), terrain=(left_open,)).sight(
        "a", "b").visible


def test_own_platform_does_not_block_and_the_edge_does() -> None:
    # platform [0,4]x[-2,2], 3" high. A on it at (1,0) (elevation 3, top 4.25); B on the
    # table at (8,0) (top 1.25). Top-centre line: z = 4.25 - 3 (x - 1)/7 is below 3 for
    # x > 3.917 while still over the platform: blocked. From A's front point (1.5, 0):
    # z at x = 4 is 4.25 - 3 * 2.5 / 6.5 = 3.096 > 3: clear, so B is visible.
    p = box("p1", 0, -2, 4, 2, 3.0, kind="platform")
    g = g_of(disc("a", "r", 1, 0), disc("b", "b", 8, 0), terrain=(p,))
    assert g.elevation("a") == 3.0
    assert g.sight("a", "b").visible
    assert g.sight("b", "a").visible  # symmetric
    # from deep inside the platform the edge hides the foot of the platform:
    # A at (-3,0) on a platform [-4,4]: every line reaches the edge x=4 below 3"
    p2 = box("p1", -4, -2, 4, 2, 3.0, kind="platform")
    g = g_of(disc("a", "r", -3, 0), disc("b", "b", 4.8, 0), terrain=(p2,))
    s = g.sight("a", "b")
    assert not s.visible and s.blocked_by == ("p1",)


def test_platform_solid_hides_a_model_behind_it() -> None:
    p = box("p1", 2, -3, 4, 3, 3.0, kind="platform")
    s = g_of(disc("a", "r", 0, 0), disc("b", "b", 6, 0), terrain=(p,)).sight("a", "b")
    assert not s.visible and s.blocked_by == ("p1",)


def test_two_models_on_one_platform_see_each_other() -> None:
    p = box("p1", -1, -3, 8, 3, 3.0, kind="platform")
    assert g_of(disc("a", "r", 0, 0), disc("b", "b", 6, 0), terrain=(p,)).sight("a", "b").visible


def test_tall_model_seen_over_a_wall() -> None:
    # wall 2" high; the target is 4" tall: the attacker's top (1.25) to the target's top (4)
    # rises over the wall at x = 3 (z = 1.25 + 2.75 * 2.5/5 = 2.625 > 2)
    wall = box("w", 2.9, -3, 3.1, 3, 2.0)
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 6, 0, height=4.0), terrain=(wall,))
    assert g.sight("a", "b").visible
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 6, 0), terrain=(wall,))
    assert not g.sight("a", "b").visible


def test_sight_is_symmetric_on_a_random_board() -> None:
    rng = np.random.default_rng(3)
    bodies = [disc(f"m{k}", "rb"[k % 2], *rng.uniform(0, 20, 2)) for k in range(16)]
    walls = tuple(box(f"w{k}", x, y, x + 2, y + 0.3, rng.uniform(0.5, 3))
                  for k, (x, y) in enumerate(rng.uniform(0, 20, (8, 2))))
    g = g_of(*bodies, terrain=walls)
    for a in bodies[:6]:
        for b in bodies[6:]:
            assert g.sight(a.id, b.id).visible == g.sight(b.id, a.id).visible
