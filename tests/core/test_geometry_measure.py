"""Distances between bases, elevations, "within" thresholds (hand-computed cases)."""

from __future__ import annotations

import math

import pytest

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tests.core.geometry_helpers import board, box, disc, oval, rect, unit


def g_of(*bodies, terrain=()):  # type: ignore[no-untyped-def]
    return BoardGeometry(board(*bodies, terrain=terrain))


def test_two_round_bases_gap_is_centre_distance_minus_radii() -> None:
    # centres 3" apart, radii 0.5 + 0.5 -> gap 2
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 3, 0))
    m = g.measure("a", "b")
    assert m.horizontal == pytest.approx(2.0)
    assert m.vertical == 0.0 and m.distance == pytest.approx(2.0)
    assert m.point_a == pytest.approx((0.5, 0.0)) and m.point_b == pytest.approx((2.5, 0.0))


def test_overlapping_bases_have_zero_gap() -> None:
    # centres 0.6 apart, radii 0.5 each: they overlap by 0.4
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 0.6, 0))
    m = g.measure("a", "b")
    assert m.horizontal == pytest.approx(0.0, abs=1e-9)
    assert m.distance == pytest.approx(0.0, abs=1e-9)
    assert m.point_a == pytest.approx(m.point_b)


def test_same_centre_is_defined() -> None:
    g = g_of(disc("a", "r", 5, 5), disc("b", "b", 5, 5, 2.0))
    assert g.measure("a", "b").horizontal == pytest.approx(0.0, abs=1e-9)


def test_vertical_and_3d_distance() -> None:
    # gap 4 on the table (centres 5 apart), 3" up on a platform: 3-4-5 triangle
    p = box("p1", 3.0, -2.0, 9.0, 2.0, 3.0, kind="platform")
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 5, 0), terrain=(p,))
    m = g.measure("a", "b")
    assert (m.horizontal, m.vertical, m.distance) == pytest.approx((4.0, 3.0, 5.0))


def test_exactly_one_inch_is_within_with_zero_margin() -> None:
    # centres 2 apart, radii 0.5: gap exactly 1
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 2, 0))
    t = g.within("a", "b", 1.0)
    assert t.met and t.margin == pytest.approx(0.0)


def test_margin_of_a_near_miss_and_a_near_hit() -> None:
    # gap 0.98: engaged by 0.02; gap 1.02: missed by 0.02
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 1.98, 0), disc("c", "b", 2.02, 5))
    t = g.within("a", "b", 1.0)
    assert t.met and t.margin == pytest.approx(0.02)
    g2 = g_of(disc("a", "r", 0, 0), disc("c", "b", 2.02, 0))
    t2 = g2.within("a", "c", 1.0)
    assert not t2.met and t2.margin == pytest.approx(-0.02)


@pytest.mark.parametrize("limit,gap", [(0.5, 0.5), (2.0, 2.0), (3.0, 3.0)])
def test_thresholds_exactly_met(limit: float, gap: float) -> None:
    g = g_of(disc("a", "r", 0, 0), disc("b", "b", 1.0 + gap, 0))
    assert g.within("a", "b", limit).met
    assert not g.within("a", "b", limit - 1e-6).met


def test_rectangle_rotated_by_facing() -> None:
    # rect length 2 along the facing, width 4 across. Facing +y: spans y in [-1, 1];
    # a 1" disc at (0, 3): gap 3 - 1 - 0.5 = 1.5. Facing +x: spans y in [-2, 2]: gap 0.5.
    g = g_of(rect("u", "r", 0, 0, 2.0, 4.0, 90.0), disc("b", "b", 0, 3))
    assert g.measure("u", "b").horizontal == pytest.approx(1.5)
    g = g_of(rect("u", "r", 0, 0, 2.0, 4.0, 0.0), disc("b", "b", 0, 3))
    assert g.measure("u", "b").horizontal == pytest.approx(0.5)


def test_rectangle_at_45_degrees_corner_first() -> None:
    # a 2x2 square turned 45 degrees: its corner reaches sqrt(2) along +x;
    # disc at (3, 0) radius 0.5: gap = 3 - sqrt(2) - 0.5 = 1.0857864
    g = g_of(rect("u", "r", 0, 0, 2.0, 2.0, 45.0), disc("b", "b", 3, 0))
    assert g.measure("u", "b").horizontal == pytest.approx(3 - math.sqrt(2) - 0.5, abs=1e-9)


def test_rotated_ovals_within_a_thousandth() -> None:
    # oval 2" long, 1" wide. Facing +x: semi-axis 1 along x; disc at (3,0): gap 3-1-0.5 = 1.5.
    # Facing +y: semi-axis 0.5 along x: gap 2.0. Two ovals facing +x 4" apart: 4-1-1 = 2.
    g = g_of(oval("o", "r", 0, 0, 2.0, 1.0, 0.0), disc("b", "b", 3, 0))
    assert g.measure("o", "b").horizontal == pytest.approx(1.5, abs=1e-3)
    g = g_of(oval("o", "r", 0, 0, 2.0, 1.0, 90.0), disc("b", "b", 3, 0))
    assert g.measure("o", "b").horizontal == pytest.approx(2.0, abs=1e-3)
    g = g_of(oval("o", "r", 0, 0, 2.0, 1.0, 0.0), oval("p", "b", 4, 0, 2.0, 1.0, 0.0))
    assert g.measure("o", "p").horizontal == pytest.approx(2.0, abs=1e-3)


def test_oval_at_30_degrees_against_exact_ellipse_distance() -> None:
    # the exact gap from a point to an ellipse, by dense sampling of the true ellipse
    length, width, facing = 6.7, 4.1, 30.0
    px, py, r = 6.0, 2.0, 0.5
    g = g_of(oval("o", "r", 0, 0, length, width, facing), disc("b", "b", px, py, 2 * r))
    t = [k * 2 * math.pi / 200000 for k in range(200000)]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    best = min(
        math.hypot(length / 2 * math.cos(a) * c - width / 2 * math.sin(a) * s - px,
                   length / 2 * math.cos(a) * s + width / 2 * math.sin(a) * c - py)
        for a in t
    )
    assert g.measure("o", "b").horizontal == pytest.approx(best - r, abs=1e-3)


def test_unit_boundary_distance() -> None:
    # 10 models in 5 files of 1" bases: boundary 5" wide, 2" deep, facing +y at (0,0);
    # a disc at (0, 4): gap 4 - 1 - 0.5 = 2.5
    g = g_of(unit("u", "r", 0, 0, 10, 5), disc("b", "b", 0, 4))
    assert g.measure("u", "b").horizontal == pytest.approx(2.5)


def test_elevation_rules() -> None:
    low = box("p1", 0, 0, 10, 10, 2.0, kind="platform")
    high = box("p2", 5, 5, 8, 8, 4.0, kind="platform")
    g = g_of(
        disc("own", "r", 6, 6, elevation=1.5),  # its own elevation wins
        disc("high", "r", 6, 7),  # both platforms under: the highest (4)
        disc("low", "r", 2, 2),  # only p1 (2)
        disc("edge", "r", 10, 3),  # on p1's edge: boundary counts (2)
        disc("ground", "b", 20, 20),  # nothing under: 0
        terrain=(low, high),
    )
    assert [g.elevation(k) for k in ("own", "high", "low", "edge", "ground")] == [
        1.5, 4.0, 2.0, 2.0, 0.0]


def test_obstacle_on_a_platform_starts_at_its_height() -> None:
    p = box("p1", 0, 0, 10, 10, 3.0, kind="platform")
    w = box("w1", 2, 2, 3, 6, 1.5)
    g = g_of(disc("a", "r", 20, 20), terrain=(p, w))
    assert (g.terrain.base[1], g.terrain.top[1]) == (3.0, 4.5)
    assert (g.terrain.base[0], g.terrain.top[0]) == (0.0, 3.0)


def test_enemies_by_distance_and_within_one() -> None:
    g = g_of(
        disc("a", "r", 0, 0),
        disc("friend", "r", 1.5, 0),
        disc("e1", "b", 2.0, 0),  # gap exactly 1
        disc("e2", "b", 0, 1.5),  # gap 0.5
        disc("e3", "b", 0, -10),  # gap 9
        disc("dead", "b", 0, -1.2, active=False),
    )
    assert g.enemies_by_distance("a") == [("e2", pytest.approx(0.5)), ("e1", pytest.approx(1.0)),
                                          ("e3", pytest.approx(9.0))]
    assert g.within_1_enemies("a") == ["e2", "e1"]


def test_unknown_id_raises_key_error() -> None:
    g = g_of(disc("a", "r", 0, 0))
    with pytest.raises(KeyError, match="nope"):
        g.measure("a", "nope")


def test_huge_and_tiny_coordinates_are_defined() -> None:
    g = g_of(disc("a", "r", 1e9, 1e9), disc("b", "b", 1e9 + 3, 1e9))
    assert g.measure("a", "b").horizontal == pytest.approx(2.0, abs=1e-6)
    g = g_of(disc("a", "r", 0, 0, 1e-9), disc("b", "b", 3e-9, 0, 1e-9))
    assert g.measure("a", "b").horizontal == pytest.approx(2e-9)


# -- properties ---------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tabletop_gui.geometry.board import Body, Footprint  # noqa: E402

SHAPES = st.sampled_from(["circle", "ellipse", "rect"])


@st.composite
def bases(draw: st.DrawFn, bid: str, side: str) -> Body:
    shape = draw(SHAPES)
    length = draw(st.floats(0.3, 4.0))
    width = length if shape == "circle" else draw(st.floats(0.3, 4.0))
    fp = Footprint(shape, draw(st.floats(-30, 30)), draw(st.floats(-30, 30)), length, width,
                   draw(st.floats(0, 360)))
    return Body(bid, side, fp, draw(st.none() | st.floats(0, 5)))


@settings(max_examples=80, deadline=None)
@given(bases("a", "r"), bases("b", "b"))
def test_distance_is_symmetric_and_non_negative(a: Body, b: Body) -> None:
    g = BoardGeometry(board(a, b))
    ab, ba = g.measure("a", "b"), g.measure("b", "a")
    assert ab.horizontal >= 0 and ab.distance >= ab.vertical >= 0
    assert ab.horizontal == pytest.approx(ba.horizontal, abs=2e-3)
    assert ab.distance == pytest.approx(math.hypot(ab.horizontal, ab.vertical))


@settings(max_examples=60, deadline=None)
@given(bases("a", "r"), bases("b", "b"), st.floats(0.0, 1.0), st.floats(0.01, 5.0))
def test_moving_apart_never_decreases_the_gap(a: Body, b: Body, angle: float,
                                              step: float) -> None:
    # move b away from a along the line of centres (or any direction if they coincide)
    ax, ay = a.footprint.x, a.footprint.y
    bx, by = b.footprint.x, b.footprint.y
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    if n < 1e-9:
        dx, dy, n = math.cos(6.28 * angle), math.sin(6.28 * angle), 1.0
    fp = b.footprint
    far = Body("b", "b", Footprint(fp.shape, bx + step * dx / n, by + step * dy / n,
                                   fp.length, fp.width, fp.facing), b.elevation)
    before = BoardGeometry(board(a, b)).measure("a", "b").horizontal
    after = BoardGeometry(board(a, far)).measure("a", "b").horizontal
    assert after >= before - 2e-3  # ovals as 128-gons against exact ellipses: 0.001" each


def test_huge_offsets_sight_and_cover_are_defined() -> None:
    off = 1e6
    wall = box("w", off + 1.4, off - 3, off + 1.6, off + 3, 3.0)
    g = BoardGeometry(board(disc("a", "r", off, off), disc("b", "b", off + 3, off),
                            terrain=(wall,)))
    assert not g.sight("a", "b").visible
    assert g.cover("a", "b", CoverRule(True, 3.0)).in_cover


def test_degenerate_terrain_is_ignored_without_errors() -> None:
    from tabletop_gui.geometry.board import Terrain

    flat = Terrain("z", "obstacle", ((0, 0), (1, 1), (2, 2)), 2.0)  # collinear: no area
    tiny = Terrain("t", "obstacle", ((1, 0), (2, 0)), 2.0)  # two points
    bow = Terrain("x", "obstacle", ((1, -1), (2, 1), (2, -1), (1, 1)), 2.0)  # self-crossing
    g = BoardGeometry(board(disc("a", "r", 0, 0), disc("b", "b", 3, 0),
                            terrain=(flat, tiny, bow)))
    assert g.sight("a", "b").visible in (True, False)
    g.cover("a", "b", CoverRule(True, 3.0))
    assert g.pair_table(None).visible.shape == (2, 2)
