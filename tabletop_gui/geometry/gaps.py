"""The horizontal gap between two bodies of a board, and the closest points.

Gaps: circle to circle is exact (centre distance minus radii); a circle against any
other outline is the distance from its centre to that outline minus its radius (exact
for convex outlines); other pairs use shapely on the outline polygons (exact for
rectangles, within 0.001" for ovals, see ``outline``).
"""

from __future__ import annotations

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.bodies import BodyArrays, outline_shapes
from tabletop_gui.geometry.outline_distance import point_distance, xy
from tabletop_gui.geometry.oval_gap import refine_gaps

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


def gaps(ba: BodyArrays, i: IntArray, j: IntArray
         ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Horizontal gaps of pairs (i[k], j[k]) and their closest points, shapes (n,), (n,2), (n,2).

    Overlapping outlines have gap 0; their closest points are then one point of the overlap
    (for two circles, the middle of the overlap on the line of centres).
    """
    n = len(i)
    gap = np.zeros(n)
    pa = np.zeros((n, 2))
    pb = np.zeros((n, 2))
    if n == 0:
        return gap, pa, pb
    cc = ba.circle[i] & ba.circle[j]
    k = np.flatnonzero(cc)
    if len(k):
        gap[k], pa[k], pb[k] = _circle_gaps(ba, i[k], j[k])
    for ci, cj, flip in ((ba.circle[i], ~ba.circle[j], False),
                         (~ba.circle[i], ba.circle[j], True)):
        k = np.flatnonzero(ci & cj)
        if len(k):
            if flip:
                gap[k], pb[k], pa[k] = _circle_shape_gaps(ba, j[k], i[k])
            else:
                gap[k], pa[k], pb[k] = _circle_shape_gaps(ba, i[k], j[k])
    k = np.flatnonzero(~ba.circle[i] & ~ba.circle[j])
    if len(k):
        gap[k], pa[k], pb[k] = _shape_gaps(ba, i[k], j[k])
    return gap, pa, pb


def _circle_shape_gaps(ba: BodyArrays, c: IntArray, k: IntArray
                       ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Round base c against any outline k: centre-to-outline distance minus the radius."""
    d, nx, ny = point_distance(ba, k, ba.x[c], ba.y[c])
    r = ba.radius[c]
    raw = d - r
    safe = np.where(d > 0, d, 1.0)
    ux, uy = (nx - ba.x[c]) / safe, (ny - ba.y[c]) / safe
    near = xy(nx, ny)
    on_circle = xy(ba.x[c] + r * ux, ba.y[c] + r * uy)
    overlap = (raw <= 0)[:, None]
    return np.maximum(raw, 0.0), np.where(overlap, near, on_circle), near


def _circle_gaps(ba: BodyArrays, i: IntArray, j: IntArray
                 ) -> tuple[FloatArray, FloatArray, FloatArray]:
    dx = ba.x[j] - ba.x[i]
    dy = ba.y[j] - ba.y[i]
    dist = np.hypot(dx, dy)
    ux = np.where(dist > 0, dx / np.where(dist > 0, dist, 1.0), 1.0)
    uy = np.where(dist > 0, dy / np.where(dist > 0, dist, 1.0), 0.0)
    ri, rj = ba.radius[i], ba.radius[j]
    raw = dist - ri - rj
    gap = np.maximum(raw, 0.0)
    ta = np.where(raw >= 0, ri, 0.5 * (ri + dist - rj))
    tb = np.where(raw >= 0, dist - rj, ta)
    pa = xy(ba.x[i] + ta * ux, ba.y[i] + ta * uy)
    pb = xy(ba.x[i] + tb * ux, ba.y[i] + tb * uy)
    return gap, pa, pb


def _shape_gaps(ba: BodyArrays, i: IntArray, j: IntArray
                ) -> tuple[FloatArray, FloatArray, FloatArray]:
    gi, gj = outline_shapes(ba, i), outline_shapes(ba, j)
    lines = shapely.shortest_line(gi, gj)
    coords = shapely.get_coordinates(lines).reshape(len(i), 2, 2)
    pa = coords[:, 0].copy()
    pb = coords[:, 1].copy()
    # the shortest line's length is the distance (0 when the outlines overlap)
    d = pb - pa
    dist = np.hypot(d[:, 0], d[:, 1])
    # an oval's polygon lies inside the ellipse: refine separated pairs on the true outlines
    e = np.flatnonzero((dist > 0) & ((ba.shape[i] == outline.ELLIPSE)
                                     | (ba.shape[j] == outline.ELLIPSE)))
    if len(e):
        dist[e], pa[e], pb[e] = refine_gaps(ba, i[e], j[e], pa[e], pb[e])
        d = pb - pa
    raw = dist - ba.radius[i] - ba.radius[j]
    u = d / np.where(dist > 0, dist, 1.0)[:, None]
    pa_out = pa + u * ba.radius[i][:, None]
    pb_out = pb - u * ba.radius[j][:, None]
    # overlapping: one point of the overlap (the outline point nearest a circle's centre)
    inside = np.where(ba.circle[i][:, None], pb, pa)
    overlap = (raw <= 0)[:, None]
    pa = np.where(overlap, inside, pa_out)
    pb = np.where(overlap, inside, pb_out)
    return np.maximum(raw, 0.0), pa, pb
