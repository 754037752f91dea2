"""The nearest ellipse point of a few points (a plain loop) agrees with the numpy path.

``outline_distance._ellipse_nearest`` runs up to ``SMALL_ELLIPSES`` points one at a time in
plain floats (numpy's per-call cost dominates for a drag's few oval corners); both must give
the same nearest points, to far below the 0.001" of a distance, on random ellipses and on the
awkward points (on an axis, inside, on the outline, deep in the minor axis' curvature).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
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
