"""Does a segment pass through the inside of a terrain prism? Vectorised and exact.

A segment P->Q (3D) is blocked by a prism (polygon x [base, top)) when the part of it
that lies strictly inside the polygon (in plan) while at or above the base and below
the top has a length of more than ``EPS_LENGTH``. So a segment that only touches the
outline (grazing a corner, running along an edge) or that skims the top face is not
blocked, while one running along the table through a wall is.

Convex polygons are clipped in numpy (Cyrus-Beck with strict inequalities; those with
many edges only against the edges near the segment, ``rings.convex_span``); other polygons
use the exact "interior of the line meets interior of the polygon" (``relate``), found in
numpy from the edges near the segment (``rings.interior_meets``) and by shapely where a
segment touches the outline without crossing it. Both give the same answers on convex
polygons.
"""

from __future__ import annotations

import weakref

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import jit
from tabletop_gui.geometry.rings import EPS_SIDE, clip_ring, convex_span, interior_meets
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

EPS_LENGTH = 1e-7  # inches of a segment inside a polygon that count as passing through
_EPS_SIDE = EPS_SIDE  # a point this close to an edge line counts as on the edge
_EPS_Z = 1e-9
_FEW_EDGES = 8  # polygons clipped apart from those with more edges
_AT_ONCE = 1600  # (segments x edges) clipped as one array up to this size (fewer calls)
_PADDED_LINES = 4096  # sight lines up to which ``_blocked_padded`` clips them all together
# its (lines x edges) up to which they are one array (``_AT_ONCE``; beyond, the loop's
# fewer passes over the elements cost less than its extra calls)
_PADDED_AT_ONCE = 2560


def blocked(
    p: FloatArray,
    q: FloatArray,
    tid: IntArray,
    ts: TerrainSet,
    *,
    use_z: bool = True,
    t_from: FloatArray | None = None,
    exact_shapely: bool = False,
) -> BoolArray:
    """For each i: is segment p[i]->q[i] blocked by terrain ``tid[i]``?

    ``p`` and ``q`` have shape (n, 3) (x, y, z). With ``use_z=False`` heights are
    ignored (a 2D line through a polygon). ``t_from`` drops the part of each segment
    before that fraction (the half-inch exemption of cover). ``exact_shapely`` uses shapely
    for every polygon (the reference path of the benchmark).
    """
    n = len(tid)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    if n <= _PADDED_LINES and use_z and t_from is None and not exact_shapely \
            and _all_padded(ts):
        return _blocked_padded(p, q, tid, ts)
    d = q - p
    length3 = np.sqrt(np.einsum("ij,ij->i", d, d)) if use_z else np.hypot(d[:, 0], d[:, 1])
    lo = np.zeros(n) if t_from is None else np.asarray(t_from, dtype=float).copy()
    hi = np.ones(n)
    if use_z:
        zlo, zhi = _z_interval(p[:, 2], d[:, 2], ts.base[tid], ts.top[tid])
        lo = np.maximum(lo, zlo)
        hi = np.minimum(hi, zhi)
    live = hi > lo
    if not exact_shapely and not use_z:
        # a segment whose box misses the polygon's box cannot pass through it (plan lines
        # of cover; sight lines mostly reach their candidates, so the test would not pay)
        bd = ts.bounds[tid]
        x0, x1 = p[:, 0], q[:, 0]
        y0, y1 = p[:, 1], q[:, 1]
        live &= ((np.minimum(x0, x1) <= bd[:, 2]) & (np.maximum(x0, x1) >= bd[:, 0])
                 & (np.minimum(y0, y1) <= bd[:, 3]) & (np.maximum(y0, y1) >= bd[:, 1]))
    conv = ts.convex[tid] & (not exact_shapely)
    idx = np.flatnonzero(live & conv)
    if len(idx):
        ilo, ihi = convex_interior(p[idx, :2], d[idx, :2], tid[idx], ts)
        a = np.maximum(lo[idx], ilo)
        b = np.minimum(hi[idx], ihi)
        span = np.where(b > a, b - a, 0.0)
        out[idx] = (span > 0) & (span * length3[idx] > EPS_LENGTH)
    idx = np.flatnonzero(live & ~conv)
    if len(idx):
        out[idx] = _interior(p[idx, :2], d[idx, :2], lo[idx], hi[idx], tid[idx], ts,
                             exact_shapely)
    return out


def _all_padded(ts: TerrainSet) -> bool:
    """Is every piece a convex polygon of the padded edge arrays, and no compiled loop
    loaded (``_blocked_padded`` applies)?"""
    padded = _PADDED.get(ts)
    if padded is None:
        padded = _PADDED[ts] = bool(ts.convex.all()) and not ts.large.any()
    return padded and jit.loaded() is None


_PADDED: weakref.WeakKeyDictionary[TerrainSet, bool] = weakref.WeakKeyDictionary()


def _blocked_padded(p: FloatArray, q: FloatArray, tid: IntArray, ts: TerrainSet
                    ) -> BoolArray:
    """``blocked`` of sight lines (heights counted, no part dropped) when every piece is a
    convex polygon of the padded edge arrays: the same values, every line clipped in one
    pass with the height interval (fewer numpy calls for a drag's few hundred lines)."""
    n = len(tid)
    d = q - p
    length3 = np.sqrt(np.einsum("ij,ij->i", d, d))
    zlo, zhi = _z_interval(p[:, 2], d[:, 2], ts.base[tid], ts.top[tid])
    lo = np.maximum(np.zeros(n), zlo)
    hi = np.minimum(np.ones(n), zhi)
    # every line clipped (those without a height interval too: each line's values are its
    # own), then only the lines with one counted, as ``blocked`` does
    edges = int(ts.edge_count[tid].max())
    if n * edges <= _PADDED_AT_ONCE:
        ilo, ihi = _clip_at_once(p[:, 0], p[:, 1], d[:, 0], d[:, 1],
                                 1e-12 * np.hypot(d[:, 0], d[:, 1]), tid, ts, edges)
    else:
        ilo, ihi = _clip(p, d, tid, ts, edges)
    a = np.maximum(lo, ilo)
    b = np.minimum(hi, ihi)
    span = np.where(b > a, b - a, 0.0)
    return np.asarray((hi > lo) & (span > 0) & (span * length3 > EPS_LENGTH), dtype=bool)


def _z_interval(z0: FloatArray, dz: FloatArray, base: FloatArray, top: FloatArray
                ) -> tuple[FloatArray, FloatArray]:
    """The t-range where base <= z(t) < top (as a closed interval; its ends carry no length)."""
    flat = np.abs(dz) <= 1e-12
    if not flat.any():  # no level line (the usual case): the same values, fewer calls
        t1 = (base - z0) / dz
        t2 = (top - z0) / dz
        return np.minimum(t1, t2), np.maximum(t1, t2)
    safe = np.where(flat, 1.0, dz)
    t1 = (base - z0) / safe
    t2 = (top - z0) / safe
    lo = np.minimum(t1, t2)
    hi = np.maximum(t1, t2)
    inside_flat = (z0 >= base - _EPS_Z) & (z0 < top - _EPS_Z)
    lo = np.where(flat, np.where(inside_flat, -np.inf, np.inf), lo)
    hi = np.where(flat, np.where(inside_flat, np.inf, -np.inf), hi)
    return lo, hi


def convex_interior(p: FloatArray, d: FloatArray, tid: IntArray, ts: TerrainSet
                    ) -> tuple[FloatArray, FloatArray]:
    """The t-range where p + t d is strictly inside convex polygon ``tid`` (empty: lo >= hi).

    Each edge (inward normal n, offset c) keeps n . x - c > 0; padding edges have n = 0 and
    c = -1, so they never constrain. Loops over the (few) edges with whole-array steps;
    polygons with few edges are clipped apart from those with many (the padding edges
    they would skip change nothing).
    """
    large = ts.large[tid]
    if not large.any():
        return _padded_interior(p, d, tid, ts)
    lo = np.empty(len(tid))
    hi = np.empty(len(tid))
    small = np.flatnonzero(~large)
    if len(small):
        lo[small], hi[small] = _padded_interior(p[small], d[small], tid[small], ts)
    big = np.flatnonzero(large)
    lo[big], hi[big], unsure = convex_span(ts.rings, ts.polygons, p[big], d[big], tid[big])
    ask = big[unsure]
    if len(ask):
        lo[ask], hi[ask] = clip_ring(ts.rings, p[ask], d[ask], tid[ask])
    return lo, hi


def _padded_interior(p: FloatArray, d: FloatArray, tid: IntArray, ts: TerrainSet
                     ) -> tuple[FloatArray, FloatArray]:
    """``convex_interior`` for polygons in the padded edge arrays."""
    kernels = jit.loaded()
    if kernels is not None and len(tid):
        lo: FloatArray
        hi: FloatArray
        lo, hi = kernels.clip(np.ascontiguousarray(p, dtype=float),
                              np.ascontiguousarray(d, dtype=float),
                              np.ascontiguousarray(tid, dtype=np.intp), ts.edge_nx_t,
                              ts.edge_ny_t, ts.edge_c_t, ts.edge_count)
        return lo, hi
    counts = ts.edge_count[tid]
    few = counts <= _FEW_EDGES
    if few.all() or not few.any():
        return _clip(p, d, tid, ts, int(counts.max()) if len(counts) else 0)
    lo = np.empty(len(tid))
    hi = np.empty(len(tid))
    for part in (np.flatnonzero(few), np.flatnonzero(~few)):
        lo[part], hi[part] = _clip(p[part], d[part], tid[part], ts, int(counts[part].max()))
    return lo, hi


def _clip(p: FloatArray, d: FloatArray, tid: IntArray, ts: TerrainSet, edges: int
          ) -> tuple[FloatArray, FloatArray]:
    """``convex_interior`` over the first ``edges`` edges (those of every polygon in tid)."""
    n = len(tid)
    px, py, dx, dy = p[:, 0], p[:, 1], d[:, 0], d[:, 1]
    tol = 1e-12 * np.hypot(dx, dy)
    if n * edges <= _AT_ONCE:
        return _clip_at_once(px, py, dx, dy, tol, tid, ts, edges)
    lo = np.full(n, -np.inf)
    hi = np.full(n, np.inf)
    outside = np.zeros(n, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for v in range(edges):
            nx, ny, c = ts.edge_nx_t[v, tid], ts.edge_ny_t[v, tid], ts.edge_c_t[v, tid]
            num = nx * px + ny * py - c
            den = nx * dx + ny * dy
            t = -num / den
            enter = den > tol
            leave = den < -tol
            lo = np.where(enter & (t > lo), t, lo)
            hi = np.where(leave & (t < hi), t, hi)
            outside |= ~enter & ~leave & (num <= _EPS_SIDE)
    return np.where(outside, np.inf, lo), hi


def _clip_at_once(px: FloatArray, py: FloatArray, dx: FloatArray, dy: FloatArray,
                  tol: FloatArray, tid: IntArray, ts: TerrainSet, edges: int
                  ) -> tuple[FloatArray, FloatArray]:
    """``_clip`` with every edge in one (edges, n) array: the same values (lo is the
    largest entering t, hi the smallest leaving t, NaN never counted), fewer numpy calls."""
    nx = ts.edge_nx_t[:edges, tid]
    ny = ts.edge_ny_t[:edges, tid]
    c = ts.edge_c_t[:edges, tid]
    num = nx * px + ny * py - c
    den = nx * dx + ny * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -num / den
    enter = den > tol
    leave = den < -tol
    lo = np.fmax.reduce(np.where(enter, t, -np.inf), axis=0, initial=-np.inf)
    hi = np.fmin.reduce(np.where(leave, t, np.inf), axis=0, initial=np.inf)
    outside = (~enter & ~leave & (num <= _EPS_SIDE)).any(axis=0)
    return np.where(outside, np.inf, lo), hi


def _interior(p: FloatArray, d: FloatArray, lo: FloatArray, hi: FloatArray, tid: IntArray,
              ts: TerrainSet, exact_shapely: bool) -> BoolArray:
    """Interior of each segment, clipped to [lo, hi], meets the interior of its polygon
    (``relate``): from the edges near it (``rings``) where the polygon is indexed and the
    segment does not touch its outline without crossing it, else by shapely."""
    a = np.clip(lo, 0.0, 1.0)
    b = np.clip(hi, 0.0, 1.0)
    start = p + a[:, None] * d
    end = p + b[:, None] * d
    if exact_shapely:
        return _shapely_interior(start, end, tid, ts)
    out = np.zeros(len(tid), dtype=bool)
    moved = np.hypot(end[:, 0] - start[:, 0], end[:, 1] - start[:, 1]) > 0
    fast = np.flatnonzero(moved & ts.ringed[tid])
    slow = np.flatnonzero(~(moved & ts.ringed[tid]))
    if len(fast):
        answer, unsure = interior_meets(ts.rings, ts.polygons, start[fast], end[fast],
                                        tid[fast])
        out[fast] = answer
        slow = np.concatenate([slow, fast[unsure]])
    if len(slow):
        out[slow] = _shapely_interior(start[slow], end[slow], tid[slow], ts, prefilter=True)
    return out


def _shapely_interior(start: FloatArray, end: FloatArray, tid: IntArray, ts: TerrainSet,
                      prefilter: bool = False) -> BoolArray:
    """Interior of each segment start -> end meets the interior of its polygon (``relate``).

    With ``prefilter``, only the segments that meet the polygon at all (a cheap
    ``intersects``) are related: the others cannot meet its interior.
    """
    moved = np.hypot(end[:, 0] - start[:, 0], end[:, 1] - start[:, 1]) > 0
    geoms = np.empty(len(tid), dtype=object)
    if moved.any():
        geoms[moved] = shapely.linestrings(np.stack([start[moved], end[moved]], axis=1))
    if (~moved).any():
        geoms[~moved] = shapely.points(start[~moved])
    polys = ts.polygons[tid]
    if not prefilter:
        return np.asarray(shapely.relate_pattern(geoms, polys, "T********"), dtype=bool)
    out = np.zeros(len(tid), dtype=bool)
    meet = np.flatnonzero(shapely.intersects(geoms, polys))
    if len(meet):
        out[meet] = shapely.relate_pattern(geoms[meet], polys[meet], "T********")
    return out
