"""Exact gaps between separated outlines when an oval is involved.

shapely measures two non-round outlines as polygons; an oval's polygon lies just inside
the true ellipse, so its gap can come out up to ~0.001" too large, and a pair exactly
1" apart would read 1.001" (not engaged). Here the polygons' closest points are only the
starting guess:

- oval against oval: Newton's method on the two ellipse angles for the minimum of
  ½|Pa(ta) − Pb(tb)|² (quadratic convergence from the polygon guess; a step that does
  not decrease the distance is halved);
- oval against rectangle: the minimum over the rectangle's edges of the distance to the
  ellipse, each exact: a corner by ``outline_distance.point_distance`` (exact nearest
  point of the ellipse), an edge's interior by the ellipse's support point in the
  direction of the edge's normal, when its foot falls within the edge.

Both answers are the same whichever way round the pair is asked.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit, outline
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.outline_distance import point_distance, xy

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

NEWTON_STEPS = 12
# sums are taken by the arrays' own ``sum`` (the reduction ``np.sum`` calls, without its
# Python wrapper: an oval's drag step takes ~40 of them on a few pairs)


def refine_gaps(ba: BodyArrays, i: IntArray, j: IntArray, pa: FloatArray, pb: FloatArray
                ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """True gaps of separated pairs (i[k], j[k]), at least one an oval, whose approximate
    closest points are pa[k] (on i) and pb[k] (on j); returns gaps and refined points.

    With the compiled kernels loaded (``jit.loaded()``) and every number finite, the pairs
    are measured by ``jit_kernels.oval_gaps`` (the same steps, pair by pair; within
    1e-12" of this numpy path), a pair it leaves (an oval that ``_ellipse_point`` does
    not measure) by numpy."""
    kernels = jit.loaded()
    if kernels is not None and len(i) and _finite(ba, pa, pb):
        return _compiled(kernels, ba, i, j, pa, pb)
    return _numpy_refine(ba, i, j, pa, pb)


def _finite(ba: BodyArrays, pa: FloatArray, pb: FloatArray) -> bool:
    """Are the bodies' places and outlines and the guesses finite (what the kernel takes)?"""
    return bool(np.isfinite(ba.x).all() and np.isfinite(ba.y).all()
                and np.isfinite(ba.half_width).all() and np.isfinite(ba.half_length).all()
                and np.isfinite(ba.forward).all() and np.isfinite(pa).all()
                and np.isfinite(pb).all())


def _compiled(kernels: ModuleType, ba: BodyArrays, i: IntArray, j: IntArray, pa: FloatArray,
              pb: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``refine_gaps`` by ``jit_kernels.oval_gaps``; the pairs it leaves in numpy."""
    gap: FloatArray
    a: FloatArray
    b: FloatArray
    done: BoolArray
    i = np.ascontiguousarray(i, dtype=np.intp)
    j = np.ascontiguousarray(j, dtype=np.intp)
    pa = np.ascontiguousarray(pa, dtype=np.float64)
    pb = np.ascontiguousarray(pb, dtype=np.float64)
    gap, a, b, done = kernels.oval_gaps(i, j, pa, pb, ba.x, ba.y, ba.shape, ba.half_width,
                                        ba.half_length, ba.forward)
    k = np.flatnonzero(~done)
    if len(k):
        gap[k], a[k], b[k] = _numpy_refine(ba, i[k], j[k], pa[k], pb[k])
    return gap, a, b


def _numpy_refine(ba: BodyArrays, i: IntArray, j: IntArray, pa: FloatArray, pb: FloatArray
                  ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``refine_gaps`` in numpy."""
    gap = np.hypot(*(pb - pa).T)
    pa, pb = pa.copy(), pb.copy()
    ee = (ba.shape[i] == outline.ELLIPSE) & (ba.shape[j] == outline.ELLIPSE)
    k = np.flatnonzero(ee)
    if len(k):
        gap[k], pa[k], pb[k] = _ellipse_pairs(ba, i[k], j[k], pa[k], pb[k])
    k = np.flatnonzero(~ee)
    if len(k):  # one oval, one rectangle: measured from the oval's side in one call
        first = ba.shape[i[k]] == outline.ELLIPSE
        e = np.where(first, i[k], j[k])
        q = np.where(first, j[k], i[k])
        d, on_e, on_q = _ellipse_rect(ba, e, q)
        gap[k] = d
        pa[k] = np.where(first[:, None], on_e, on_q)
        pb[k] = np.where(first[:, None], on_q, on_e)
    return gap, pa, pb


def _frame(ba: BodyArrays, k: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Centre (n,2), right (n,2) and forward (n,2) unit vectors of bodies k."""
    fwd = ba.forward[k]
    return xy(ba.x[k], ba.y[k]), xy(fwd[:, 1], -fwd[:, 0]), fwd


def _angle(ba: BodyArrays, k: IntArray, p: FloatArray) -> FloatArray:
    c, r, f = _frame(ba, k)
    d = p - c
    angle: FloatArray = np.arctan2((d * f).sum(axis=1) / ba.half_length[k],
                                   (d * r).sum(axis=1) / ba.half_width[k])
    return angle


def _ellipse_pairs(ba: BodyArrays, i: IntArray, j: IntArray, pa: FloatArray, pb: FloatArray
                   ) -> tuple[FloatArray, FloatArray, FloatArray]:
    ca, ra, fa = _frame(ba, i)
    cb, rb, fb = _frame(ba, j)
    wa, la = ba.half_width[i][:, None], ba.half_length[i][:, None]
    wb, lb = ba.half_width[j][:, None], ba.half_length[j][:, None]

    def points(ta: FloatArray, tb: FloatArray) -> tuple[FloatArray, FloatArray]:
        return (ca + wa * np.cos(ta)[:, None] * ra + la * np.sin(ta)[:, None] * fa,
                cb + wb * np.cos(tb)[:, None] * rb + lb * np.sin(tb)[:, None] * fb)

    def half_sq(ta: FloatArray, tb: FloatArray) -> FloatArray:
        a, b = points(ta, tb)
        value: FloatArray = 0.5 * ((a - b) ** 2).sum(axis=1)
        return value

    ta, tb = _angle(ba, i, pa), _angle(ba, j, pb)
    for _ in range(NEWTON_STEPS):
        a, b = points(ta, tb)
        d = a - b
        da = -wa * np.sin(ta)[:, None] * ra + la * np.cos(ta)[:, None] * fa
        db = -wb * np.sin(tb)[:, None] * rb + lb * np.cos(tb)[:, None] * fb
        g1 = (d * da).sum(axis=1)
        g2 = -(d * db).sum(axis=1)
        h11 = (da * da).sum(axis=1) - (d * (a - ca)).sum(axis=1)
        h22 = (db * db).sum(axis=1) + (d * (b - cb)).sum(axis=1)
        h12 = -(da * db).sum(axis=1)
        det = h11 * h22 - h12 * h12
        good = (det > 1e-14) & (h11 > 0)
        safe = np.where(good, det, 1.0)
        s1 = np.where(good, -(h22 * g1 - h12 * g2) / safe, -g1 / np.maximum(h11, 1.0))
        s2 = np.where(good, -(h11 * g2 - h12 * g1) / safe, -g2 / np.maximum(h22, 1.0))
        now: FloatArray = 0.5 * (d ** 2).sum(axis=1)  # ``half_sq(ta, tb)``: a, b known
        scale = np.ones_like(now)
        for _ in range(8):  # halve steps that do not decrease the distance
            worse = half_sq(ta + scale * s1, tb + scale * s2) > now * (1 + 1e-12) + 1e-18
            if not worse.any():
                break
            scale = np.where(worse, 0.5 * scale, scale)
        ta, tb = ta + scale * s1, tb + scale * s2
        if np.max(np.abs(scale * s1) + np.abs(scale * s2)) < 1e-13:
            break
    a, b = points(ta, tb)
    return np.hypot(*(a - b).T), a, b


def _ellipse_rect(ba: BodyArrays, e: IntArray, q: IntArray
                  ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Exact gap between ellipses e and rectangles q (separated), with closest points."""
    n = len(e)
    ce, re, fe = _frame(ba, e)
    cq, rq, fq = _frame(ba, q)
    hw, hl = ba.half_width[q][:, None], ba.half_length[q][:, None]
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    corners = [cq + su * hw * rq + sv * hl * fq for su, sv in signs]
    every = np.concatenate(corners)  # the four corners of every pair in one call
    d, nx, ny = point_distance(ba, np.tile(e, 4), every[:, 0], every[:, 1])
    near = xy(nx, ny).reshape(4, n, 2)
    # each edge k (corner k to k + 1) against the ellipse's support points along its two
    # normals, all 4 x 2 at once: axes (edge, sign, pair, xy)
    stacked = np.stack(corners)
    p0 = stacked[:, None]
    edge = np.roll(p0, -1, axis=0) - p0
    length = np.hypot(edge[..., 0], edge[..., 1])[..., None]
    unit = edge / length
    normal = xy(unit[..., 1], -unit[..., 0])
    direction = np.array([1.0, -1.0])[None, :, None, None] * normal
    we, le = ba.half_width[e][:, None], ba.half_length[e][:, None]
    du = (direction * re).sum(axis=-1)[..., None]
    dv = (direction * fe).sum(axis=-1)[..., None]
    norm = np.sqrt((we * du) ** 2 + (le * dv) ** 2)
    s = ce + (we * we * du / norm) * re + (le * le * dv / norm) * fe
    along = ((s - p0) * unit).sum(axis=-1)
    foot = p0 + along[..., None] * unit
    inside = (along >= 0) & (along <= length[..., 0])
    gap = s - foot
    dist = np.where(inside, np.hypot(gap[..., 0], gap[..., 1]), np.inf)
    # the first least candidate, corners first, then edge by edge (+ normal before -);
    # a candidate that is not finite never counts
    every_d = np.concatenate([d.reshape(4, n), dist.reshape(8, n)])
    every_d = np.where(np.isnan(every_d), np.inf, every_d)
    pick = np.argmin(every_d, axis=0)
    cols = np.arange(n)
    best = every_d[pick, cols]
    found = (best < np.inf)[:, None]
    best_e = np.where(found, np.concatenate([near, s.reshape(8, n, 2)])[pick, cols], 0.0)
    best_q = np.where(found, np.concatenate([stacked, foot.reshape(8, n, 2)])[pick, cols],
                      0.0)
    return best, best_e, best_q
