"""Cover for the Warcry family: obstacles crossed by the line between closest points, platforms.

The line runs between the closest points of the two bases (in plan). It gives cover when
a part of it longer than ``segments.EPS_LENGTH`` lies strictly inside an obstacle after
dropping the part within 1/2" of the attacker's base. Warcry drops that part only when
the fighters are more than 1" apart (``gate_1in=True``); the variants always drop it.
Because the distance to a convex base grows steadily along a line leaving it, the dropped
part is a prefix of the line: up to 0.5/L for a round attacker (the line is radial), found
by bisection for other outlines. When the bases touch or overlap the line has no length
and no obstacle gives cover.

Platform cover: the target stands on a platform and its elevation is at least
``platform_threshold`` above the attacker's (only when ``platform_applies``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

EXEMPT = 0.5
GATE = 1.0


@dataclass(frozen=True)
class CoverRule:
    """The parameters of a Warcry-family cover test."""

    gate_1in: bool
    platform_threshold: float
    platform_applies: bool = True


@dataclass(frozen=True)
class CoverResult:
    in_cover: BoolArray  # (m,)
    obstacle_pair: IntArray  # pair index of each (pair, obstacle) crossing
    obstacle: IntArray
    platform: IntArray  # (m,) terrain index of the platform giving cover, or -1

    def by_of(self, k: int) -> list[int]:
        out = sorted(int(t) for t in self.obstacle[self.obstacle_pair == k])
        if self.platform[k] >= 0:
            out.append(int(self.platform[k]))
        return out


def exempt_fraction(ba: BodyArrays, i: IntArray, pa: FloatArray, pb: FloatArray
                    ) -> FloatArray:
    """Fraction of each line pa->pb lying within 1/2" of attacker i's base."""
    d = pb - pa
    length = np.hypot(d[:, 0], d[:, 1])
    out = np.ones(len(i))
    ok = length > 0
    circ = ok & ba.circle[i]
    out[circ] = np.minimum(1.0, EXEMPT / length[circ])
    other = np.flatnonzero(ok & ~ba.circle[i])
    if len(other):
        shapes = ba.shapes[i[other]]
        lo = np.zeros(len(other))
        hi = np.ones(len(other))
        end_far = shapely.distance(shapes, shapely.points(pb[other])) <= EXEMPT
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            pts = shapely.points(pa[other] + mid[:, None] * d[other])
            near = shapely.distance(shapes, pts) <= EXEMPT
            lo = np.where(near, mid, lo)
            hi = np.where(near, hi, mid)
        out[other] = np.where(end_far, 1.0, hi)
    return out


def cover_pairs(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                pa: FloatArray, pb: FloatArray, distance: FloatArray, rule: CoverRule
                ) -> CoverResult:
    """Cover of target j[k] against attacker i[k]; pa/pb the closest points, distance 3D."""
    m = len(i)
    t_from = np.zeros(m)
    exempt = distance > GATE + 1e-9 if rule.gate_1in else np.ones(m, dtype=bool)
    if exempt.any():
        e = np.flatnonzero(exempt)
        t_from[e] = exempt_fraction(ba, i[e], pa[e], pb[e])
    pk, tk = _line_candidates(ts, pa, pb, t_from)
    if len(pk):
        p = np.column_stack([pa[pk], np.zeros(len(pk))])
        q = np.column_stack([pb[pk], np.zeros(len(pk))])
        hit = blocked(p, q, tk, ts, use_z=False, t_from=t_from[pk])
        pk, tk = pk[hit], tk[hit]
    in_cover = np.zeros(m, dtype=bool)
    in_cover[pk] = True
    platform = np.full(m, -1, dtype=np.intp)
    if rule.platform_applies:
        stands = ba.stands_on[j]
        high = ba.elevation[j] - ba.elevation[i] >= rule.platform_threshold - 1e-9
        on = (stands >= 0) & high
        platform[on] = stands[on]
        in_cover |= on
    return CoverResult(in_cover, pk, tk, platform)


def _line_candidates(ts: TerrainSet, pa: FloatArray, pb: FloatArray, t_from: FloatArray
                     ) -> tuple[IntArray, IntArray]:
    obst = np.flatnonzero(ts.is_obstacle)
    live = np.flatnonzero(t_from < 1.0)
    if len(obst) == 0 or len(live) == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    a, b = pa[live], pb[live]
    minx, maxx = np.minimum(a[:, 0], b[:, 0]), np.maximum(a[:, 0], b[:, 0])
    miny, maxy = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    bd = ts.bounds[obst]
    hit = ((minx[:, None] <= bd[None, :, 2]) & (maxx[:, None] >= bd[None, :, 0])
           & (miny[:, None] <= bd[None, :, 3]) & (maxy[:, None] >= bd[None, :, 1]))
    r, c = np.nonzero(hit)
    return live[r].astype(np.intp), obst[c].astype(np.intp)
