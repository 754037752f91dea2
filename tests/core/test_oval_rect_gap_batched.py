"""The oval-to-rectangle gap, its 4 edges x 2 normals batched, equals the edge-by-edge loop.

``oval_gap._ellipse_rect`` takes the first least of the corner and edge candidates in one
numpy pass; the reference below is the former loop (keep a candidate when strictly less),
written out plainly. Random ovals and rectangles (separated or not: the arithmetic is the
same) must give the same gaps and closest points.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry import oval_gap
from tabletop_gui.geometry.board import Board, Body, Footprint
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.outline_distance import point_distance


def _loop_reference(ba, e, q):  # type: ignore[no-untyped-def]
    n = len(e)
    ce, re, fe = oval_gap._frame(ba, e)
    cq, rq, fq = oval_gap._frame(ba, q)
    hw, hl = ba.half_width[q][:, None], ba.half_length[q][:, None]
    corners = [cq + su * hw * rq + sv * hl * fq for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    best, best_e, best_q = np.full(n, np.inf), np.zeros((n, 2)), np.zeros((n, 2))

    def keep(dist, on_e, on_q):  # type: ignore[no-untyped-def]
        better = dist < best
        best[better], best_e[better], best_q[better] = dist[better], on_e[better], on_q[better]

    for corner in corners:
        d, nx, ny = point_distance(ba, e, corner[:, 0], corner[:, 1])
        keep(d, np.stack([nx, ny], axis=1), corner)
    we, le = ba.half_width[e][:, None], ba.half_length[e][:, None]
    for k in range(4):
        p0, p1 = corners[k], corners[(k + 1) % 4]
        length = np.hypot(*(p1 - p0).T)[:, None]
        unit = (p1 - p0) / length
        for sign in (1.0, -1.0):
            direction = sign * np.stack([unit[:, 1], -unit[:, 0]], axis=1)
            du = np.sum(direction * re, axis=1)[:, None]
            dv = np.sum(direction * fe, axis=1)[:, None]
            norm = np.sqrt((we * du) ** 2 + (le * dv) ** 2)
            s = ce + (we * we * du / norm) * re + (le * le * dv / norm) * fe
            along = np.sum((s - p0) * unit, axis=1)
            foot = p0 + along[:, None] * unit
            inside = (along >= 0) & (along <= length[:, 0])
            keep(np.where(inside, np.hypot(*(s - foot).T), np.inf), s, foot)
    return best, best_e, best_q


size = st.floats(min_value=0.4, max_value=3.0)
place = st.floats(min_value=2.0, max_value=28.0)
angle = st.floats(min_value=0.0, max_value=359.0)
pair = st.tuples(place, place, size, size, angle, place, place, size, size, angle)


@settings(max_examples=60, deadline=None)
@given(st.lists(pair, min_size=1, max_size=12))
def test_batched_edges_match_the_loop(pairs: list[tuple[float, ...]]) -> None:
    bodies = []
    for m, (x1, y1, w1, l1, a1, x2, y2, w2, l2, a2) in enumerate(pairs):
        bodies.append(Body(f"e{m}", "red", Footprint("ellipse", x1, y1, w1, l1, a1)))
        bodies.append(Body(f"q{m}", "blue", Footprint("rect", x2, y2, w2, l2, a2)))
    ba = BoardGeometry(Board(30, 30, tuple(bodies))).bodies
    e = np.arange(0, 2 * len(pairs), 2)
    q = e + 1
    got = oval_gap._ellipse_rect(ba, e, q)
    ref = _loop_reference(ba, e, q)
    for g, r in zip(got, ref, strict=True):
        assert g == pytest.approx(r, abs=1e-12)
