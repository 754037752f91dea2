"""Steps of the facing-cover obstructions and candidates against their obvious forms:
the slab boxes that choose a pair's candidate obstructions (``facing_cover._slab_boxes``)
hold every point of the convex hull of the pair's four facing ends (so no obstruction that
could hide a sample is left out), and no box reaches beyond the hull's own box (random
quadrilaterals, flat and degenerate ones included); the bodies' outlines made together
(``facing_cover._outlines``) are ``outline.outline_points`` of each, exactly; masks or-ed
by segments (``facing_cover._or_segments``) are ``reduceat``'s."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tabletop_gui.geometry import facing_cover, outline
from tabletop_gui.geometry.board import Body, Footprint

COORD = st.floats(-200.0, 200.0, allow_nan=False, width=64)
POINT = st.tuples(COORD, COORD)


@st.composite
def four_points(draw: st.DrawFn) -> np.ndarray:
    pts = [draw(POINT) for _ in range(4)]
    kind = draw(st.sampled_from(("any", "same", "line", "tiny")))
    if kind == "same":  # two ends on one point (a round body's facing seen edge-on)
        pts[1] = pts[0]
    elif kind == "line":  # all four on one line
        (x0, y0), (x1, y1) = pts[0], pts[1]
        ts = [draw(st.floats(-2.0, 3.0)) for _ in range(2)]
        pts[2] = (x0 + ts[0] * (x1 - x0), y0 + ts[0] * (y1 - y0))
        pts[3] = (x0 + ts[1] * (x1 - x0), y0 + ts[1] * (y1 - y0))
    elif kind == "tiny":  # a facing much shorter than the distance
        x, y = pts[2]
        pts[3] = (x + draw(st.floats(-1e-6, 1e-6)), y + draw(st.floats(-1e-6, 1e-6)))
    return np.array(pts, dtype=float)


@given(st.lists(four_points(), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_slab_boxes_hold_the_hull_and_stay_in_its_box(quads: list[np.ndarray],
                                                      seed: int) -> None:
    ends = np.stack(quads)
    boxes = facing_cover._slab_boxes(ends)
    assert boxes.shape == (len(quads), facing_cover._SLABS, 4)
    rng = np.random.default_rng(seed)
    for n, q in enumerate(quads):
        scale = 1.0 + np.abs(q).max()
        lo, hi = q.min(axis=0), q.max(axis=0)
        live = boxes[n, :, 0] <= boxes[n, :, 2]
        assert live.any()
        b = boxes[n, live]
        assert (b[:, :2] >= lo - 1e-6 * scale).all() and (b[:, 2:] <= hi + 1e-6 * scale).all()
        # points of the hull: the corners, and random convex combinations of them
        weights = rng.dirichlet(np.ones(4), 200)
        weights[:4] = np.eye(4)
        p = (weights @ q)[:, None, :]  # (points, 1, 2) against (boxes, 4)
        inside = ((b[:, 0] <= p[..., 0]) & (p[..., 0] <= b[:, 2])
                  & (b[:, 1] <= p[..., 1]) & (p[..., 1] <= b[:, 3]))
        assert inside.any(axis=1).all(), (q, p[~inside.any(axis=1)])


@given(st.lists(st.tuples(st.sampled_from(("rect", "rect", "circle", "ellipse")),
                          COORD, COORD, st.floats(1e-9, 60.0), st.floats(1e-9, 60.0),
                          st.floats(-720.0, 720.0)), max_size=8))
def test_outlines_made_together_are_each_bodys_outline(shapes: list[tuple]) -> None:
    bodies = [Body(f"b{k}", "red", Footprint(shape, x, y, length if shape != "circle" else
                                             width, width, facing), 0.0, 1.0)
              for k, (shape, x, y, length, width, facing) in enumerate(shapes)]
    made = facing_cover._outlines(bodies)
    assert len(made) == len(bodies)
    for b, ring in zip(bodies, made, strict=True):
        want = tuple(map(tuple, outline.outline_points(b.footprint, 32)))
        assert ring == want, b.footprint


@given(st.lists(st.integers(1, 7), min_size=1, max_size=40), st.integers(0, 2**32 - 1))
def test_or_of_segments_is_reduceat(lengths: list[int], seed: int) -> None:
    """``_or_segments`` (the masks of an obstruction's pieces, and of a pair's candidates,
    or-ed together) is ``np.bitwise_or.reduceat`` along the rows."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2**63, (sum(lengths), 9), dtype=np.uint64)
    x[rng.random(x.shape) < 0.3] = 0
    starts = (np.cumsum(lengths) - np.array(lengths)).astype(np.intp)
    got = facing_cover._or_segments(x, starts)
    assert got.dtype == np.uint64
    assert np.array_equal(got, np.bitwise_or.reduceat(x, starts, axis=0))
