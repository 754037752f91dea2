"""The nearest ellipse point of a few points (a plain loop) agrees with the numpy path.

``outline_distance._ellipse_nearest`` runs up to ``SMALL_ELLIPSES`` points one at a time in
plain floats (numpy's per-call cost dominates for a drag's few oval corners); both must give
the same nearest points, to far below the 0.001" of a distance, on random ellipses and on the
awkward points (on an axis, inside, on the outline, deep in the minor axis' curvature).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry import outline_distance as od

half = st.floats(min_value=0.2, max_value=3.0)
coord = st.floats(min_value=-6.0, max_value=6.0)
point = st.tuples(coord, coord, half, half)
special = st.sampled_from([(0.0, 0.0, 1.0, 0.6), (0.3, 0.0, 1.0, 0.6), (2.0, 0.0, 1.0, 0.6),
                           (0.0, 2.0, 1.0, 0.6), (0.0, 0.3, 0.6, 1.0), (1.0, 0.0, 1.0, 0.6),
                           (-0.0, -1.5, 1.0, 1.0), (1.5, -1.5, 0.7, 0.7),
                           (0.35, 0.0, 1.2, 0.5), (-0.1, 0.0, 1.2, 0.5)])


def _numpy_path(u, v, hw, hl):  # type: ignore[no-untyped-def]
    saved = od.SMALL_ELLIPSES
    od.SMALL_ELLIPSES = -1
    try:
        return od._ellipse_nearest(u, v, hw, hl)
    finally:
        od.SMALL_ELLIPSES = saved


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(point, special), min_size=1, max_size=od.SMALL_ELLIPSES))
def test_small_loop_matches_numpy(points: list[tuple[float, float, float, float]]) -> None:
    u, v, hw, hl = (np.array(c, dtype=float) for c in zip(*points, strict=True))
    small = od._ellipse_nearest_small(u.tolist(), v.tolist(), hw.tolist(), hl.tolist())
    assert small is not None
    ref = _numpy_path(u, v, hw, hl)
    assert small[0] == pytest.approx(ref[0], abs=1e-9)
    assert small[1] == pytest.approx(ref[1], abs=1e-9)
    # and the nearest point is on or inside the ellipse
    assert ((small[0] / hw) ** 2 + (small[1] / hl) ** 2 <= 1.0 + 1e-9).all()


def test_small_calls_take_the_loop_and_degenerate_ones_do_not() -> None:
    one = np.array([2.0]), np.array([0.5]), np.array([1.0]), np.array([0.6])
    assert od._ellipse_nearest_small(*(a.tolist() for a in one)) is not None
    flat = [2.0], [0.5], [1.0], [0.0]
    assert od._ellipse_nearest_small(*flat) is None  # a zero half-axis: numpy's path
    got = od._ellipse_nearest(*one)
    assert (got[0][0], got[1][0]) == pytest.approx(
        tuple(float(c[0]) for c in _numpy_path(*one)), abs=1e-9)


body = st.tuples(st.sampled_from(["circle", "ellipse", "rect"]),
                 st.floats(min_value=2.0, max_value=28.0), st.floats(min_value=2.0, max_value=28.0),
                 half, half, st.floats(min_value=0.0, max_value=359.0))
probe = st.tuples(st.integers(min_value=0, max_value=5), st.floats(min_value=0.0, max_value=30.0),
                  st.floats(min_value=0.0, max_value=30.0))


@settings(max_examples=200, deadline=None)
@given(st.lists(body, min_size=6, max_size=6),
       st.lists(probe, min_size=0, max_size=od.SMALL_POINTS))
def test_point_distance_small_loop_matches_numpy(
        bodies: list[tuple[str, float, float, float, float, float]],
        probes: list[tuple[int, float, float]]) -> None:
    """Circles, ovals and rectangles, points inside and out: the plain loop of up to
    ``SMALL_POINTS`` points gives numpy's distances and nearest points."""
    from tabletop_gui.geometry.board import Board, Body, Footprint
    from tabletop_gui.geometry.board_geometry import BoardGeometry

    fps = [Footprint(s, x, y, 2 * w, 2 * (w if s == "circle" else h), a)
           for s, x, y, w, h, a in bodies]
    ba = BoardGeometry(Board(30, 30, tuple(Body(f"b{m}", "red", fp)
                                           for m, fp in enumerate(fps)))).bodies
    k = np.array([p[0] for p in probes], dtype=np.intp)
    px = np.array([p[1] for p in probes], dtype=float)
    py = np.array([p[2] for p in probes], dtype=float)
    small = od._point_distance_small(ba, k, px, py)
    assert small is not None
    saved = od.SMALL_POINTS, od.SMALL_ELLIPSES
    od.SMALL_POINTS = od.SMALL_ELLIPSES = -1
    try:
        ref = od.point_distance(ba, k, px, py)
    finally:
        od.SMALL_POINTS, od.SMALL_ELLIPSES = saved
    for got, want in zip(small, ref, strict=True):
        assert got.shape == want.shape
        assert got == pytest.approx(want, abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(coord, coord), min_size=0, max_size=12), st.sampled_from([(), (3,)]))
def test_xy_is_numpy_stack(pairs: list[tuple[float, float]], lead: tuple[int, ...]) -> None:
    """``xy`` (the drag step's cheaper ``np.stack([x, y], axis=-1)``) gives numpy's array,
    for vectors and for arrays with leading axes."""
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    if lead:
        x, y = np.tile(x, lead + (1,)), np.tile(-y, lead + (1,))
    got = od.xy(x, y)
    want = np.stack([x, y], axis=-1)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@settings(max_examples=100, deadline=None)
@given(st.lists(body, min_size=6, max_size=6),
       st.lists(probe, min_size=1, max_size=40))
def test_point_distance_without_circles_equals_the_mixed_batch(
        bodies: list[tuple[str, float, float, float, float, float]],
        probes: list[tuple[int, float, float]]) -> None:
    """numpy's path for points on ovals and rectangles only (the clamps alone) gives each
    point exactly what it gets in a batch that also holds a round base."""
    from tabletop_gui.geometry.board import Board, Body, Footprint
    from tabletop_gui.geometry.board_geometry import BoardGeometry

    fps = [Footprint(s if m else "circle", x, y, 2 * w, 2 * (w if s == "circle" or not m
                                                              else h), a)
           for m, (s, x, y, w, h, a) in enumerate(bodies)]
    ba = BoardGeometry(Board(30, 30, tuple(Body(f"b{m}", "red", fp)
                                           for m, fp in enumerate(fps)))).bodies
    shaped = [p for p in probes if not ba.circle[p[0]]]
    assume(shaped)
    k = np.array([p[0] for p in shaped], dtype=np.intp)
    px = np.array([p[1] for p in shaped], dtype=float)
    py = np.array([p[2] for p in shaped], dtype=float)
    saved = od.SMALL_POINTS, od.SMALL_ELLIPSES
    od.SMALL_POINTS = od.SMALL_ELLIPSES = -1
    try:
        alone = od.point_distance(ba, k, px, py)
        mixed = od.point_distance(ba, np.append(k, 0), np.append(px, 3.0), np.append(py, 4.0))
    finally:
        od.SMALL_POINTS, od.SMALL_ELLIPSES = saved
    for got, want in zip(alone, mixed, strict=True):
        np.testing.assert_array_equal(got, want[:-1])
