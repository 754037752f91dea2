"""Grids of Circle of Realms: spaces, centres, neighbours, distances, Zones of Control."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry.board import GridSpec
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.grid import GridGeometry
from tests.core.geometry_helpers import board, disc

SQ = GridGeometry("square", 1.0)
HEX = GridGeometry("hex", 1.0)


def test_square_spaces_and_centres() -> None:
    # space (col,row) covers [col, col+1) x [row, row+1)
    assert SQ.space_at(5.5, 5.5) == (5, 5)
    assert SQ.space_at(5.0, 5.999) == (5, 5)  # the lower edges belong to the space
    assert SQ.space_at(-0.5, 0.0) == (-1, 0)
    assert SQ.centre((5, 5)) == (5.5, 5.5)
    assert GridGeometry("square", 2.0).centre((1, 0)) == (3.0, 1.0)


def test_square_neighbours_and_chebyshev_distance() -> None:
    assert len(SQ.neighbours((0, 0))) == 8 and (1, 1) in SQ.neighbours((0, 0))
    assert SQ.distance((0, 0), (3, 1)) == 3
    assert SQ.distance((2, 2), (2, 2)) == 0
    assert SQ.distance((0, 0), (-2, 5)) == 5


def test_hex_centres_and_neighbours() -> None:
    # centre (col, row): x = (col + 0.5 + 0.5 * odd) * size, y = (row * sqrt3/2 + 0.5) * size
    assert HEX.centre((0, 0)) == (0.5, 0.5)
    assert HEX.centre((0, 1)) == pytest.approx((1.0, 0.5 + math.sqrt(3) / 2))
    for space in ((0, 0), (3, 1), (2, 2), (-1, -1)):
        ns = HEX.neighbours(space)
        assert len(set(ns)) == 6
        cx, cy = HEX.centre(space)
        for n in ns:  # every neighbour's centre is exactly one size away
            nx, ny = HEX.centre(n)
            assert math.hypot(nx - cx, ny - cy) == pytest.approx(1.0)
            assert HEX.distance(space, n) == 1


def test_hex_distance() -> None:
    # along a row: columns apart; (0,0) -> (0,2): two rows down, the odd row between: 2
    assert HEX.distance((0, 0), (4, 0)) == 4
    assert HEX.distance((0, 0), (0, 2)) == 2
    assert HEX.distance((0, 0), (1, 2)) == 2
    assert HEX.distance((0, 0), (2, 2)) == 3


@settings(max_examples=200, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.floats(-0.49, 0.49),
       st.floats(-0.42, 0.42))
def test_hex_space_at_finds_the_space_near_its_centre(col: int, row: int, dx: float,
                                                      dy: float) -> None:
    # points within the inscribed circle (radius 0.5 * size... shrunk) map to the space
    cx, cy = HEX.centre((col, row))
    if math.hypot(dx, dy) < 0.43:
        assert HEX.space_at(cx + dx, cy + dy) == (col, row)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([SQ, HEX]), st.integers(-9, 9), st.integers(-9, 9),
       st.integers(-9, 9), st.integers(-9, 9))
def test_distance_is_a_metric(g: GridGeometry, a: int, b: int, c: int, d: int) -> None:
    assert g.distance((a, b), (c, d)) == g.distance((c, d), (a, b)) >= 0
    assert g.space_at(*g.centre((a, b))) == (a, b)


def test_zone_of_control_and_worked_example_4() -> None:
    # enemy at (5.5, 5.5): space (5,5). (4.5,4.5) -> (3.5,3.5) leaves (4,4), in its zone:
    # one Attack of Opportunity. The reverse only enters the zone: none.
    enemy = SQ.space_at(5.5, 5.5)
    assert SQ.zone_of_control(enemy) == set(SQ.neighbours((5, 5)))
    out = [SQ.space_at(4.5, 4.5), SQ.space_at(3.5, 3.5)]
    assert SQ.zones_left(out, {"e": enemy}) == [("e", (4, 4))]
    back = [SQ.space_at(3.5, 3.5), SQ.space_at(4.5, 4.5)]
    assert SQ.zones_left(back, {"e": enemy}) == []


def test_passing_through_a_zone_triggers_and_standing_still_does_not() -> None:
    path = [(3, 5), (4, 5), (4, 6), (3, 7)]  # through (4,5) and (4,6), both next to (5,5)
    assert SQ.zones_left(path, {"e": (5, 5), "f": (0, 0)}) == [("e", (4, 5)), ("e", (4, 6))]
    assert SQ.zones_left([(4, 4), (4, 4)], {"e": (5, 5)}) == []


def test_board_grid_spaces_between_fighters() -> None:
    g = BoardGeometry(board(disc("a", "r", 0.5, 0.5), disc("b", "b", 3.5, 1.5),
                               grid=GridSpec("square", 1.0)))
    assert g.grid is not None
    assert g.space_of("b") == (3, 1) and g.spaces_between("a", "b") == 3
    assert BoardGeometry(board(disc("a", "r", 0, 0))).grid is None


def test_bad_grid_size_refused() -> None:
    with pytest.raises(ValueError):
        GridGeometry("square", 0.0)
