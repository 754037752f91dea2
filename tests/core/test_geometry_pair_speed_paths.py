"""The faster paths of the whole-battlefield pair tables give the answers of the plain ones.

- An oval against a rectangle, or two ovals, clearly apart are measured on the true
  outlines without shapely's closest points of the polygons (``gaps._shape_gaps``): the
  same gaps and closest points as the polygon path (``gaps._polygon_gaps``), which refines
  such a pair with the same arithmetic (two ovals: from another starting guess, to the
  same closest points within 1e-12"). Random ovals and rectangles, overlapping, touching,
  nearly touching and apart.
- A round base against another outline is measured from the round one, the pairs of
  either order in one call (``gaps._numpy_gaps``): the same gaps and closest points, each
  on its own body, as measuring each pair from its round base alone
  (``gaps._circle_shape_gaps``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry import gaps as gaps_module
from tabletop_gui.geometry.board import Board, Body, Footprint
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.terrain import TerrainSet

size = st.floats(min_value=0.4, max_value=3.0)
place = st.floats(min_value=2.0, max_value=12.0)
angle = st.floats(min_value=0.0, max_value=359.0)
kind = st.sampled_from(["ellipse", "rect"])
base = st.tuples(kind, place, place, size, size, angle)


def arrays(fps: list[Footprint]) -> BodyArrays:
    bodies = tuple(Body(f"b{k}", "red" if k % 2 else "blue", fp) for k, fp in enumerate(fps))
    b = Board(30.0, 30.0, bodies)
    return BodyArrays.build(b.bodies, TerrainSet.build(b.terrains))


def assert_same_as_polygon_path(ba: BodyArrays) -> None:
    shaped = ~ba.circle  # the pairs ``gaps`` gives these paths (an even oval is round)
    i, j = np.nonzero(np.triu(shaped[:, None] & shaped[None, :], 1))
    i, j = i.astype(np.intp), j.astype(np.intp)
    got = gaps_module._shape_gaps(ba, i, j)
    want = gaps_module._polygon_gaps(ba, i, j)
    for g, w in zip(got, want, strict=True):
        # the true-outline arithmetic is the same; an oval's nearest points are found by
        # Newton steps taken over the whole batch, which may move the last bit
        assert g == pytest.approx(w, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(base, min_size=2, max_size=10))
def test_oval_rect_apart_without_shapely_equals_the_polygon_path(
        bases: list[tuple[str, float, float, float, float, float]]) -> None:
    assert_same_as_polygon_path(arrays([Footprint(*b) for b in bases]))


def test_oval_rect_touching_and_nearly_touching() -> None:
    """An oval (60 x 35 mm, facing 0: half-axes 0.689" across, 1.181" along) and squares
    whose left edge is at the oval's right end (touching), just past it (1e-9, 1e-7: under
    and over the threshold of the polygon path), overlapping and clearly apart."""
    fps = [Footprint("ellipse", 10.0, 10.0, 60 / 25.4, 35 / 25.4, 0.0)]
    for k, gap in enumerate((0.0, 1e-9, 1e-7, -0.2, 0.5, 2.0)):
        fps.append(Footprint("rect", 10.0 + 35 / 50.8 + gap + 0.5, 10.0 + 3.0 * (k - 2), 1.0,
                             1.0, 0.0))
    ba = arrays(fps)
    assert_same_as_polygon_path(ba)
    d, _, _ = gaps_module.gaps(ba, np.zeros(1, np.intp), np.array([3], np.intp))
    assert d[0] == pytest.approx(0.0, abs=1e-12)  # overlapping


def test_two_ovals_touching_nearly_touching_and_long_ones_askew() -> None:
    """Ovals side by side at their ends (touching, 1e-9 and 1e-7 apart, overlapping, far),
    and long thin ovals at odd angles to each other (the support guess far from the
    closest points)."""
    half = 60 / 50.8  # half the length of a 60 x 35 mm oval, along its facing
    fps = [Footprint("ellipse", 10.0, 10.0, 60 / 25.4, 35 / 25.4, 90.0)]
    for k, gap in enumerate((0.0, 1e-9, 1e-7, -0.3, 0.5, 3.0)):
        fps.append(Footprint("ellipse", 10.0 + 2 * half + gap, 10.0 + 0.0 * k, 60 / 25.4,
                             35 / 25.4, 90.0))
    assert_same_as_polygon_path(arrays(fps))
    for turn in (0.0, 10.0, 45.0, 89.0, 135.0):
        long_ones = [Footprint("ellipse", 10.0, 10.0, 6.0, 0.5, 30.0),
                     Footprint("ellipse", 12.0, 13.5, 6.0, 0.4, 30.0 + turn),
                     Footprint("ellipse", 15.0, 9.0, 5.0, 0.3, 100.0 + turn)]
        assert_same_as_polygon_path(arrays(long_ones))


any_kind = st.sampled_from(["circle", "ellipse", "rect"])
any_base = st.tuples(any_kind, place, place, size, size, angle)


@settings(max_examples=60, deadline=None)
@given(st.lists(any_base, min_size=2, max_size=12))
def test_round_against_other_both_ways_in_one_call_equals_each_pair_alone(
        bases: list[tuple[str, float, float, float, float, float]]) -> None:
    fps = [Footprint(kind, x, y, w, w if kind == "circle" else ln, a)
           for kind, x, y, w, ln, a in bases]
    ba = arrays(fps)
    n = len(ba)
    i, j = (a.ravel().astype(np.intp) for a in np.meshgrid(np.arange(n), np.arange(n)))
    mixed = ba.circle[i] != ba.circle[j]
    i, j = i[mixed], j[mixed]  # every ordered pair of a round base and another outline
    gap, pa, pb = gaps_module.gaps(ba, i, j)
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist(), strict=True)):
        if ba.circle[a]:
            g, on_a, on_b = gaps_module._circle_shape_gaps(ba, np.array([a]), np.array([b]))
        else:
            g, on_b, on_a = gaps_module._circle_shape_gaps(ba, np.array([b]), np.array([a]))
        # the Newton steps on an oval run over the whole batch: the last bit may move
        assert gap[k] == pytest.approx(g[0], abs=1e-12)
        assert pa[k] == pytest.approx(on_a[0], abs=1e-12)
        assert pb[k] == pytest.approx(on_b[0], abs=1e-12)
