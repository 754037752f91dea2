"""Which terrain pieces can meet the sight lines or cover line of a pair of bodies.

Every sample sight line and the closest-points line of a pair lie in the *corridor*: the
set of points within R of the segment joining the two centres, R being the larger
circumradius of the two bases. A terrain piece is a candidate unless a bounding-box test
or one of two separating axes (across and along that segment) shows it lies outside the
corridor. The test never drops a piece that touches the corridor; it may keep a few that
do not (the exact segment tests decide).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_CHUNK = 1 << 20


def corridor_candidates(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray
                        ) -> tuple[IntArray, IntArray]:
    """(pair index, terrain index) of every terrain that may touch pair k's corridor."""
    k = len(ts)
    if k == 0 or len(i) == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    step = max(1, _CHUNK // k)
    parts = [_chunk(ba, ts, ts.vertices, ts.vertex_valid, i[s:s + step], j[s:s + step], s)
             for s in range(0, len(i), step)]
    return (np.concatenate([p for p, _ in parts]).astype(np.intp),
            np.concatenate([t for _, t in parts]).astype(np.intp))


def _chunk(ba: BodyArrays, ts: TerrainSet, verts: FloatArray, vmask: NDArray[np.bool_],
           i: IntArray, j: IntArray, offset: int) -> tuple[IntArray, IntArray]:
    r = np.maximum(ba.circumradius[i], ba.circumradius[j])
    x0, y0, x1, y1 = ba.x[i], ba.y[i], ba.x[j], ba.y[j]
    b = ts.bounds
    hit = ((np.minimum(x0, x1) - r)[:, None] <= b[None, :, 2]) & (
        (np.maximum(x0, x1) + r)[:, None] >= b[None, :, 0]) & (
        (np.minimum(y0, y1) - r)[:, None] <= b[None, :, 3]) & (
        (np.maximum(y0, y1) + r)[:, None] >= b[None, :, 1])
    pk, tk = np.nonzero(hit)
    if len(pk) == 0:
        return pk, tk
    dx, dy = (x1 - x0)[pk], (y1 - y0)[pk]
    length = np.hypot(dx, dy)
    ok = length > 0
    ux = np.where(ok, dx / np.where(ok, length, 1.0), 1.0)
    uy = np.where(ok, dy / np.where(ok, length, 1.0), 0.0)
    vx = verts[tk, :, 0] - x0[pk][:, None]
    vy = verts[tk, :, 1] - y0[pk][:, None]
    m = vmask[tk]
    across = vx * (-uy)[:, None] + vy * ux[:, None]
    along = vx * ux[:, None] + vy * uy[:, None]
    rr = r[pk][:, None]
    big = np.inf
    sep = (
        (np.min(np.where(m, across, big), axis=1) > rr[:, 0])
        | (np.max(np.where(m, across, -big), axis=1) < -rr[:, 0])
        | (np.max(np.where(m, along, -big), axis=1) < -rr[:, 0])
        | (np.min(np.where(m, along, big), axis=1) > (length + rr[:, 0]))
    )
    keep = ~sep
    return pk[keep] + offset, tk[keep]
