"""The horizontal gap between two bodies of a board, and the closest points.

Gaps: circle to circle is exact (centre distance minus radii); a circle against any
other outline is the distance from its centre to that outline minus its radius (exact
for convex outlines); other pairs use shapely on the outline polygons (exact for
rectangles, within 0.001" for ovals, see ``outline``).

With the compiled loops loaded (``jit``), the pairs holding a round base are measured by
``jit_kernels.round_gaps`` and the other pairs' ovals by ``jit_kernels.shape_gaps``
(``_compiled_gaps``), the same steps pair by pair; two rectangles are shapely's always.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import jit, outline
from tabletop_gui.geometry.bodies import BodyArrays, outline_shapes
from tabletop_gui.geometry.outline_distance import point_distance, xy
from tabletop_gui.geometry.oval_gap import refine_gaps
from tabletop_gui.geometry.oval_gap_small import SMALL_PAIRS, shape_gaps_small

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]


def gaps(ba: BodyArrays, i: IntArray, j: IntArray
         ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Horizontal gaps of pairs (i[k], j[k]) and their closest points, shapes (n,), (n,2), (n,2).

    Overlapping outlines have gap 0; their closest points are then one point of the overlap
    (for two circles, the middle of the overlap on the line of centres).
    """
    if len(i) == 0:
        return np.zeros(0), np.zeros((0, 2)), np.zeros((0, 2))
    kernels = jit.loaded()
    if kernels is not None and _finite(ba):
        return _compiled_gaps(kernels, ba, i, j)
    return _numpy_gaps(ba, i, j)


def _numpy_gaps(ba: BodyArrays, i: IntArray, j: IntArray
                ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``gaps`` in numpy."""
    n = len(i)
    gap = np.zeros(n)
    pa = np.zeros((n, 2))
    pb = np.zeros((n, 2))
    cc = ba.circle[i] & ba.circle[j]
    k = np.flatnonzero(cc)
    if len(k):
        gap[k], pa[k], pb[k] = _circle_gaps(ba, i[k], j[k])
    # a round base against another outline, either way round, in one call (measured from
    # the round one; a small board's few such pairs pay for each call more than for them)
    k = np.flatnonzero(ba.circle[i] != ba.circle[j])
    if len(k):
        first = ba.circle[i[k]]
        g, on_round, on_other = _circle_shape_gaps(ba, np.where(first, i[k], j[k]),
                                                   np.where(first, j[k], i[k]))
        gap[k] = g
        pa[k] = np.where(first[:, None], on_round, on_other)
        pb[k] = np.where(first[:, None], on_other, on_round)
    k = np.flatnonzero(~ba.circle[i] & ~ba.circle[j])
    if len(k):
        gap[k], pa[k], pb[k] = _shape_gaps(ba, i[k], j[k])
    return gap, pa, pb


def _finite(ba: BodyArrays) -> bool:
    """Are the places and outlines of every body finite (what the compiled loop takes)?"""
    return bool(np.isfinite(ba.x).all() and np.isfinite(ba.y).all()
                and np.isfinite(ba.radius).all() and np.isfinite(ba.half_width).all()
                and np.isfinite(ba.half_length).all() and np.isfinite(ba.forward).all())


def _compiled_gaps(kernels: ModuleType, ba: BodyArrays, i: IntArray, j: IntArray
                   ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``gaps`` with the pairs holding a round base measured by the compiled loop
    (``jit_kernels.round_gaps``: the same steps, an oval's nearest point found point by
    point), the others by ``_compiled_shape_gaps``."""
    gap: FloatArray
    pa: FloatArray
    pb: FloatArray
    done: BoolArray
    gap, pa, pb, done = kernels.round_gaps(
        np.ascontiguousarray(i, dtype=np.intp), np.ascontiguousarray(j, dtype=np.intp),
        ba.x, ba.y, ba.radius, ba.circle, ba.shape, ba.half_width, ba.half_length,
        ba.forward)
    k = np.flatnonzero(~done)
    if len(k):
        rest = ba.circle[i[k]] | ba.circle[j[k]]  # an oval left to numpy
        if rest.any():
            with_circle = k[rest]
            gap[with_circle], pa[with_circle], pb[with_circle] = _numpy_gaps(
                ba, i[with_circle], j[with_circle])
        k = k[~rest]
        if len(k):
            gap[k], pa[k], pb[k] = _compiled_shape_gaps(kernels, ba, i[k], j[k])
    return gap, pa, pb


def _compiled_shape_gaps(kernels: ModuleType, ba: BodyArrays, i: IntArray, j: IntArray
                         ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``_shape_gaps`` of non-round pairs, however few, with what it measures without
    shapely (an oval against a rectangle, two parted ovals) done by the compiled loop
    (``jit_kernels.shape_gaps``: the same steps pair by pair, the parted ovals refined in
    one batch as there), the rest from the polygons (``_polygon_gaps``)."""
    gap: FloatArray
    pa: FloatArray
    pb: FloatArray
    done: BoolArray
    i = np.ascontiguousarray(i, dtype=np.intp)
    j = np.ascontiguousarray(j, dtype=np.intp)
    gap, pa, pb, done = kernels.shape_gaps(i, j, ba.x, ba.y, ba.radius, ba.circle, ba.shape,
                                           ba.half_width, ba.half_length, ba.forward)
    k = np.flatnonzero(~done)
    if len(k):
        gap[k], pa[k], pb[k] = _polygon_gaps(ba, i[k], j[k])
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
    """Gaps of pairs of non-round bases. Where an oval is involved the gap is measured on
    the true outlines (``refine_gaps``) from a starting guess; shapely's closest points of
    the outline polygons are that guess (and the answer for two rectangles, or for
    outlines that meet). Without them where a line clearly parts the two (the oval's
    polygon lies inside the ellipse: the polygons are then apart too, and would be refined
    the same way):

    - an oval against a rectangle: ``refine_gaps`` does not read the guess; the line square
      to the measured gap must part them by more than ``_APART``;
    - two ovals: the line square to their centres' must part them by more than ``_APART``;
      the guess is then the closest pair of support points (``_support_guess``), from
      which Newton's method reaches the same closest points as from the polygons' --
      kept only where the lines square to the gap through its ends hold nothing of either
      oval between them (``_closest``: then no two points are closer), else measured
      from the polygons' guess.
    """
    if len(i) <= SMALL_PAIRS:  # a few pairs: one at a time in plain floats
        small = shape_gaps_small(ba, i, j)
        if small is not None:
            gap, pa, pb, rest = small
            k = np.flatnonzero(rest)
            if len(k):
                gap[k], pa[k], pb[k] = _polygon_gaps(ba, i[k], j[k])
            return gap, pa, pb
    n = len(i)
    gap = np.empty(n)
    pa = np.empty((n, 2))
    pb = np.empty((n, 2))
    rest = np.ones(n, dtype=bool)
    oval_i = ba.shape[i] == outline.ELLIPSE
    oval_j = ba.shape[j] == outline.ELLIPSE
    mixed = np.flatnonzero(oval_i != oval_j)
    both = np.flatnonzero(oval_i & oval_j)
    if len(both):
        both = both[_ovals_parted(ba, i[both], j[both])]
    # the ovals against rectangles (whose refinement reads no guess) and the parted pairs
    # of ovals (from their support guess) refined in one call (``refine_gaps`` measures
    # each kind apart: the same values), then each kept where sure
    m = len(mixed)
    k = np.concatenate([mixed, both])
    if len(k):
        guess_a = np.zeros((len(k), 2))
        guess_b = np.zeros((len(k), 2))
        if len(both):
            guess_a[m:], guess_b[m:] = _support_guess(ba, i[both], j[both])
        d, a, b = refine_gaps(ba, i[k], j[k], guess_a, guess_b)
        sure = np.empty(len(k), dtype=bool)
        if m:
            first = oval_i[mixed]
            sure[:m] = _parted(ba, np.where(first, i[mixed], j[mixed]),
                               np.where(first, j[mixed], i[mixed]),
                               np.where(first[:, None], b[:m] - a[:m], a[:m] - b[:m]))
        if len(both):
            sure[m:] = _closest(ba, i[both], j[both], d[m:], a[m:], b[m:])
        k, d, a, b = k[sure], d[sure], a[sure], b[sure]
        gap[k], pa[k], pb[k] = _finish(ba, i[k], j[k], d, a, b)
        rest[k] = False
    k = np.flatnonzero(rest)
    if len(k):
        gap[k], pa[k], pb[k] = _polygon_gaps(ba, i[k], j[k])
    return gap, pa, pb


_APART = 1e-6  # inches: outlines this far apart are measured without shapely
_GUESS_STEPS = 3


def _support(ba: BodyArrays, k: IntArray, ux: FloatArray, uy: FloatArray
             ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The point of oval k farthest along (ux, uy) (unit), and how far along it lies
    beyond the centre."""
    fx, fy = ba.forward[k, 0], ba.forward[k, 1]
    w, h = ba.half_width[k], ba.half_length[k]
    du = ux * fy - uy * fx  # along right = (fy, -fx)
    dv = ux * fx + uy * fy
    norm = np.hypot(w * du, h * dv)
    safe = np.where(norm > 0, norm, 1.0)
    su = w * w * du / safe
    sv = h * h * dv / safe
    return ba.x[k] + su * fy + sv * fx, ba.y[k] - su * fx + sv * fy, norm


def _both_supports(ba: BodyArrays, a: IntArray, b: IntArray, ux: FloatArray, uy: FloatArray
                   ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray,
                              FloatArray]:
    """``_support`` of ovals a along (ux, uy) and of ovals b the other way, in one call
    (the same values element by element): (ax, ay, reach_a, bx, by, reach_b)."""
    n = len(a)
    x, y, reach = _support(ba, np.concatenate([a, b]), np.concatenate([ux, -ux]),
                           np.concatenate([uy, -uy]))
    return x[:n], y[:n], reach[:n], x[n:], y[n:], reach[n:]


def _ovals_parted(ba: BodyArrays, a: IntArray, b: IntArray) -> BoolArray:
    """Does the line square to the centres' part ovals a and b by more than ``_APART``?"""
    dx, dy = ba.x[b] - ba.x[a], ba.y[b] - ba.y[a]
    dist = np.hypot(dx, dy)
    ok = dist > 0
    ux = dx / np.where(ok, dist, 1.0)
    uy = dy / np.where(ok, dist, 1.0)
    reach_a, reach_b = _both_supports(ba, a, b, ux, uy)[2::3]
    return np.asarray(ok & (dist - reach_a - reach_b > _APART), dtype=bool)


def _closest(ba: BodyArrays, a: IntArray, b: IntArray, gap: FloatArray, pa: FloatArray,
             pb: FloatArray) -> BoolArray:
    """Are pa (on oval a) and pb (on oval b), ``gap`` apart, the closest points: does the
    gap between the supporting lines square to pb - pa equal it (within ``_SURE``)? Any
    two points of the ovals are at least that gap apart."""
    d = pb - pa
    ok = gap > 0
    ux = d[:, 0] / np.where(ok, gap, 1.0)
    uy = d[:, 1] / np.where(ok, gap, 1.0)
    reach_a, reach_b = _both_supports(ba, a, b, ux, uy)[2::3]
    parted = ((ba.x[b] - ba.x[a]) * ux + (ba.y[b] - ba.y[a]) * uy) - reach_a - reach_b
    return np.asarray(ok & (np.abs(gap - parted) <= _SURE), dtype=bool)


_SURE = 1e-10  # inches


def _support_guess(ba: BodyArrays, a: IntArray, b: IntArray) -> tuple[FloatArray, FloatArray]:
    """Points near the closest of two parted ovals: the support points of each along the
    line from the other's, from the centres' line on (``_GUESS_STEPS`` rounds)."""
    ux, uy = ba.x[b] - ba.x[a], ba.y[b] - ba.y[a]
    for _ in range(_GUESS_STEPS):
        length = np.hypot(ux, uy)
        ux, uy = ux / length, uy / length
        ax, ay, _, bx, by, _ = _both_supports(ba, a, b, ux, uy)
        ux, uy = bx - ax, by - ay
    return np.stack([ax, ay], axis=1), np.stack([bx, by], axis=1)


def _parted(ba: BodyArrays, e: IntArray, q: IntArray, toward: FloatArray) -> BoolArray:
    """Does the line square to ``toward`` (from oval e towards rectangle q) leave more than
    ``_APART`` between the ellipse's support and the rectangle's nearest corner?"""
    length = np.hypot(toward[:, 0], toward[:, 1])
    ok = length > 0
    u = toward / np.where(ok, length, 1.0)[:, None]

    def along(axis: FloatArray) -> FloatArray:
        return np.asarray(np.abs(axis[:, 0] * u[:, 0] + axis[:, 1] * u[:, 1]))

    fe, fq = ba.forward[e], ba.forward[q]
    re = np.stack([fe[:, 1], -fe[:, 0]], axis=1)
    rq = np.stack([fq[:, 1], -fq[:, 0]], axis=1)
    oval_far = (ba.x[e] * u[:, 0] + ba.y[e] * u[:, 1]
                + np.hypot(ba.half_width[e] * along(re), ba.half_length[e] * along(fe)))
    rect_near = (ba.x[q] * u[:, 0] + ba.y[q] * u[:, 1]
                 - ba.half_width[q] * along(rq) - ba.half_length[q] * along(fq))
    return np.asarray(ok & (rect_near - oval_far > _APART), dtype=bool)


def _polygon_gaps(ba: BodyArrays, i: IntArray, j: IntArray
                  ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Gaps of non-round pairs from shapely's closest points of their outline polygons
    (refined on the true outlines where an oval is involved)."""
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
    return _finish(ba, i, j, dist, pa, pb)


def _finish(ba: BodyArrays, i: IntArray, j: IntArray, dist: FloatArray, pa: FloatArray,
            pb: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Gaps and closest points of the bases from those of their outlines (``dist`` apart,
    closest points pa and pb)."""
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
