"""``BodyArrays.build`` reads every body's values column by column (``bodies._columns``)
and locates the centres on the platforms at once (``_platforms``): the arrays are those
the plain way builds, body by body (``bodies._row``, what a drag step computes of one
body: ``is_circle``, ``circumradius``, ``axes``, shapely asked of each centre), bit for
bit, on random boards with every base shape (ovals of equal axes: round), own elevations,
heights below zero, facings of any angle, and platforms overlapping, nested, of equal
tops and stood on within the tolerance or not."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import bodies
from tabletop_gui.geometry.board import Body, Footprint, Terrain
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.terrain import TerrainSet

ARRAYS = ("x", "y", "circle", "radius", "circumradius", "elevation", "top", "active",
          "stands_on", "shape", "half_length", "half_width", "forward")

coords = st.floats(-2.0, 22.0, allow_nan=False)
sizes = st.sampled_from([0.5, 1.0, 1.25, 1.5, 2.0, 2.4, 3.0])
footprints = st.builds(
    Footprint, st.sampled_from(["circle", "ellipse", "rect"]), coords, coords, sizes, sizes,
    st.one_of(st.floats(-720.0, 720.0, allow_nan=False), st.integers(-360, 360),
              st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0])))
elevations = st.one_of(st.none(), st.sampled_from([0.0, 1.0, 2.0, 3.0, 3.005]),
                       st.floats(-1.0, 5.0, allow_nan=False))
heights = st.one_of(st.sampled_from([-1.0, 0.0, -0.0, 1.25]), st.floats(-2.0, 4.0,
                                                                           allow_nan=False))


@st.composite
def boards(draw: st.DrawFn) -> tuple[tuple[Body, ...], tuple[Terrain, ...]]:
    n = draw(st.integers(0, 40))
    out = []
    for k in range(n):
        fp = draw(footprints)
        if fp.shape == "ellipse" and draw(st.booleans()):  # an oval of equal axes: round
            fp = Footprint("ellipse", fp.x, fp.y, fp.length, fp.length, fp.facing)
        out.append(Body(f"b{k}", draw(st.sampled_from(["red", "blue", "green"])), fp,
                        draw(elevations), draw(heights), active=draw(st.booleans())))
    terrains = []
    for k in range(draw(st.integers(0, 6))):
        x0, y0 = draw(coords), draw(coords)
        w, h = draw(st.sampled_from([1.0, 4.0, 8.0, 30.0])), draw(st.sampled_from([1.0, 6.0]))
        kind = draw(st.sampled_from(["platform", "platform", "obstacle"]))
        top = draw(st.sampled_from([1.0, 2.0, 3.0, 3.0 - 0.004, 0.0]))
        terrains.append(Terrain(f"t{k}", kind, ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h),
                                                (x0, y0 + h)), top))
    return tuple(out), tuple(terrains)


def assert_as_body_by_body(body_list: tuple[Body, ...], ts: TerrainSet) -> BodyArrays:
    ba = BodyArrays.build(body_list, ts)
    rows = [bodies._row(b, ts) for b in body_list]
    for name in ARRAYS:
        got = getattr(ba, name)
        want = np.array([r[name] for r in rows], dtype=got.dtype).reshape(got.shape)
        assert got.tobytes() == want.tobytes(), name  # bit for bit (NaN, -0.0 included)
        assert got.flags.c_contiguous, name  # what the compiled loops take
    assert ba.index == {b.id: k for k, b in enumerate(body_list)}
    assert ba.sides == tuple(dict.fromkeys(b.side for b in body_list))
    assert [ba.sides[s] for s in ba.side] == [b.side for b in body_list]
    assert ba.shapes.shape == (len(body_list),) and all(s is None for s in ba.shapes)
    return ba


@settings(max_examples=80, deadline=None)
@given(boards())
def test_the_arrays_are_those_built_body_by_body(board: tuple[tuple[Body, ...],
                                                              tuple[Terrain, ...]]) -> None:
    body_list, terrains = board
    assert_as_body_by_body(body_list, TerrainSet.build(terrains))


@pytest.mark.parametrize("n", [50, 200, 800])
def test_the_benchmark_boards_arrays_are_those_built_body_by_body(n: int) -> None:
    b = synthetic_board(n, seed=4)  # some fighters on platforms at every size
    ba = assert_as_body_by_body(b.bodies, TerrainSet.build(b.terrains))
    assert (ba.stands_on >= 0).any() and (ba.shape == 1).any() and (ba.shape == 2).any()


def test_bodies_on_platforms_of_equal_tops_and_near_ones() -> None:
    """The first of the highest platforms holding a centre gives its elevation; a body
    with its own elevation stands on the first of the highest within the tolerance."""
    sq = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    terrains = (Terrain("w", "obstacle", sq, 5.0), Terrain("a", "platform", sq, 2.0),
                Terrain("b", "platform", sq, 3.0), Terrain("c", "platform", sq, 3.0),
                Terrain("d", "platform", sq, 3.005))
    fp = Footprint("circle", 5.0, 5.0, 1.0, 1.0)
    body_list = (Body("p", "r", fp), Body("q", "b", fp, 2.993), Body("s", "b", fp, 2.0),
                 Body("t", "b", fp, 9.0), Body("u", "b", Footprint("rect", 10.0, 0.0, 1, 2)),
                 Body("v", "b", Footprint("ellipse", math.nan, 1.0, 2.0, 1.0)))
    ba = assert_as_body_by_body(body_list, TerrainSet.build(terrains))
    assert ba.elevation.tolist()[:5] == [3.005, 2.993, 2.0, 9.0, 3.005]
    assert ba.stands_on.tolist() == [4, 2, 1, -1, 4, -1]


def test_a_shape_of_no_code_is_refused() -> None:
    fp = Footprint("hexagon", 0.0, 0.0, 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="hexagon"):
        BodyArrays.build((Body("h", "r", fp),), TerrainSet.build(()))
