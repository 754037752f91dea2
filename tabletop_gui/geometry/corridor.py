"""Which terrain pieces can meet the sight lines or cover line of a pair of bodies.

Every sample sight line and the closest-points line of a pair lie in the *corridor*: the
set of points within R of the segment joining the two centres, R being the larger
circumradius of the two bases. A terrain piece is a candidate unless a bounding-box test,
the circle around its bounding box, or one of two separating axes (across and along that
segment) shows it lies outside the corridor. The test never drops a piece that touches
the corridor; it may keep a few that do not (the exact segment tests decide).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_CHUNK = 1 << 18


def corridor_candidates(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray
                        ) -> tuple[IntArray, IntArray]:
    """(pair index, terrain index) of every terrain that may touch pair k's corridor."""
    if len(ts) == 0 or len(i) == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    r = np.maximum(ba.circumradius[i], ba.circumradius[j])
    x0, y0, x1, y1 = ba.x[i], ba.y[i], ba.x[j], ba.y[j]
    lox, hix = np.minimum(x0, x1) - r, np.maximum(x0, x1) + r
    loy, hiy = np.minimum(y0, y1) - r, np.maximum(y0, y1) + r
    bd = ts.bounds
    step = max(1, _CHUNK // len(ts))
    found_p, found_t = [], []
    for s in range(0, len(i), step):
        sl = slice(s, s + step)
        box_hit = ((lox[sl, None] <= bd[None, :, 2]) & (hix[sl, None] >= bd[None, :, 0])
                   & (loy[sl, None] <= bd[None, :, 3]) & (hiy[sl, None] >= bd[None, :, 1]))
        p_, t_ = np.nonzero(box_hit)
        found_p.append(p_ + s)
        found_t.append(t_)
    pk = np.concatenate(found_p).astype(np.intp)
    tk = np.concatenate(found_t).astype(np.intp)
    if len(pk) == 0:
        return pk, tk
    # the circle around each terrain's bounding box against the centre segment
    bcx = 0.5 * (bd[:, 0] + bd[:, 2])
    bcy = 0.5 * (bd[:, 1] + bd[:, 3])
    brad = 0.5 * np.hypot(bd[:, 2] - bd[:, 0], bd[:, 3] - bd[:, 1])
    cx, cy, rad = bcx[tk], bcy[tk], brad[tk]
    ax, ay = x0[pk], y0[pk]
    dx, dy = x1[pk] - ax, y1[pk] - ay
    dd = dx * dx + dy * dy
    u = np.clip(((cx - ax) * dx + (cy - ay) * dy) / np.where(dd > 0, dd, 1.0), 0.0, 1.0)
    near = np.hypot(ax + u * dx - cx, ay + u * dy - cy) <= r[pk] + rad + 1e-9
    pk, tk = pk[near], tk[near]
    if len(pk) == 0:
        return pk, tk
    keep = np.concatenate([_across_and_along(ba, ts, i, j, r, pk[s:s + _CHUNK],
                                             tk[s:s + _CHUNK])
                           for s in range(0, len(pk), _CHUNK)])
    return pk[keep], tk[keep]


def _across_and_along(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                      r: FloatArray, pk: IntArray, tk: IntArray) -> NDArray[np.bool_]:
    """False where a separating axis (across or along the centre segment) shows no contact."""
    ai, bj = i[pk], j[pk]
    x0, y0 = ba.x[ai], ba.y[ai]
    dx, dy = ba.x[bj] - x0, ba.y[bj] - y0
    length = np.hypot(dx, dy)
    ok = length > 0
    ux = np.where(ok, dx / np.where(ok, length, 1.0), 1.0)[:, None]
    uy = np.where(ok, dy / np.where(ok, length, 1.0), 0.0)[:, None]
    rr = r[pk]
    ax = -uy[:, 0]
    ay = ux[:, 0]
    bx, by = ux[:, 0], uy[:, 0]
    a_min = np.full(len(pk), np.inf)
    a_max = np.full(len(pk), -np.inf)
    b_min = np.full(len(pk), np.inf)
    b_max = np.full(len(pk), -np.inf)
    for v in range(ts.vertex_x.shape[0]):
        vx = ts.vertex_x[v, tk] - x0
        vy = ts.vertex_y[v, tk] - y0
        across = vx * ax + vy * ay
        along = vx * bx + vy * by
        np.minimum(a_min, across, out=a_min)
        np.maximum(a_max, across, out=a_max)
        np.minimum(b_min, along, out=b_min)
        np.maximum(b_max, along, out=b_max)
    sep = (a_min > rr) | (a_max < -rr) | (b_max < -rr) | (b_min > length + rr)
    return np.asarray(~sep, dtype=bool)
