"""``gaps._shape_gaps`` for a few pairs, one pair at a time in plain floats.

A small board's non-round pairs (a dozen among 50 fighters) or a drag step's few cost
numpy far more in calls than in arithmetic: each array operation of the batch paths
(``gaps._shape_gaps``, ``oval_gap.refine_gaps``) costs microseconds whatever its size.
Here each pair takes the same steps in plain floats:

- an oval against a rectangle: ``oval_gap._ellipse_rect`` (the corners' nearest ellipse
  points by ``outline_distance._ellipse_point``, the ellipse's support points along the
  edges' normals), kept when ``gaps._parted`` holds;
- two ovals parted along their centres' line (``gaps._ovals_parted``): Newton's method
  from the support guess (``gaps._support_guess``, ``oval_gap._ellipse_pairs``), each
  pair stopping at its own last step under the tolerance (the batch stops at the last
  pair's: the last bits may differ, as between batches), kept when ``gaps._closest``
  holds;
- every other pair (two rectangles, outlines that meet, a pair not sure) is left to
  shapely's polygons (``gaps._polygon_gaps``), as in the batch path.

Returns None when a body's numbers are not finite or an ellipse is degenerate: the batch
path answers those. With the compiled loops loaded, every non-round pair, however few,
goes to ``jit_kernels.shape_gaps`` instead (``gaps._compiled_shape_gaps``).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.outline_distance import _ellipse_point
from tabletop_gui.geometry.oval_gap import NEWTON_STEPS

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

SMALL_PAIRS = 32  # up to this many non-round pairs: one at a time (``gaps._shape_gaps``)
_APART = 1e-6  # gaps._APART
_SURE = 1e-10  # gaps._SURE
_GUESS_STEPS = 3  # gaps._GUESS_STEPS

_Frame = tuple[float, float, float, float, float, float]  # x, y, fx, fy, half w, half l
_Point = tuple[float, float]


def shape_gaps_small(ba: BodyArrays, i: IntArray, j: IntArray
                     ) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray] | None:
    """Gaps and closest points of non-round pairs (i[k], j[k]), and which pairs are left
    to the polygons (``rest``: their entries are not set); None: all to the batch path."""
    frames = {k: _frame(ba, k) for k in set(i.tolist()) | set(j.tolist())}
    if not all(math.isfinite(v) for f in frames.values() for v in f):
        return None
    oval = {k: int(ba.shape[k]) == outline.ELLIPSE for k in frames}
    if any(oval[k] and not (f[4] > 0 and f[5] > 0) for k, f in frames.items()):
        return None  # a flat oval: numpy's arithmetic of infinities
    try:
        return _pairs(i, j, frames, oval)
    except (ArithmeticError, ValueError):  # beyond plain floats (numpy's infinities)
        return None


def _pairs(i: IntArray, j: IntArray, frames: dict[int, _Frame], oval: dict[int, bool]
           ) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray] | None:
    """``shape_gaps_small`` of bodies with finite frames (ovals not flat)."""
    n = len(i)
    gap = np.empty(n)
    pa = np.empty((n, 2))
    pb = np.empty((n, 2))
    rest = np.ones(n, dtype=bool)
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist(), strict=True)):
        fa, fb = frames[a], frames[b]
        found: tuple[float, _Point, _Point] | None = None
        if oval[a] != oval[b]:
            e, q = (fa, fb) if oval[a] else (fb, fa)
            measured = _ellipse_rect(e, q)
            if measured is None:
                return None
            d, on_e, on_q = measured
            if _parted(e, q, (on_q[0] - on_e[0], on_q[1] - on_e[1])):
                found = (d, on_e, on_q) if oval[a] else (d, on_q, on_e)
        elif oval[a] and _ovals_parted(fa, fb):
            p, q_ = _support_guess(fa, fb)
            d, p, q_ = _ellipse_pair(fa, fb, p, q_)
            if _closest(fa, fb, d, p, q_):
                found = (d, p, q_)
        if found is not None:
            d, p, q_ = found
            # ``gaps._finish`` of two non-round bases (no radius): the outlines' own
            gap[k] = max(d, 0.0)
            pa[k] = p
            pb[k] = q_
            rest[k] = False
    return gap, pa, pb, rest


def _frame(ba: BodyArrays, k: int) -> _Frame:
    return (float(ba.x[k]), float(ba.y[k]), float(ba.forward[k, 0]), float(ba.forward[k, 1]),
            float(ba.half_width[k]), float(ba.half_length[k]))


def _reach(f: _Frame, ux: float, uy: float) -> tuple[float, float, float]:
    """``gaps._support``: the point of oval f farthest along (ux, uy), and how far along
    it lies beyond the centre."""
    x, y, fx, fy, w, h = f
    du = ux * fy - uy * fx
    dv = ux * fx + uy * fy
    norm = math.hypot(w * du, h * dv)
    safe = norm if norm > 0 else 1.0
    su = w * w * du / safe
    sv = h * h * dv / safe
    return x + su * fy + sv * fx, y - su * fx + sv * fy, norm


def _ovals_parted(fa: _Frame, fb: _Frame) -> bool:
    """``gaps._ovals_parted`` of one pair."""
    dx, dy = fb[0] - fa[0], fb[1] - fa[1]
    dist = math.hypot(dx, dy)
    if not dist > 0:
        return False
    ux, uy = dx / dist, dy / dist
    return dist - _reach(fa, ux, uy)[2] - _reach(fb, -ux, -uy)[2] > _APART


def _closest(fa: _Frame, fb: _Frame, gap: float, pa: _Point, pb: _Point) -> bool:
    """``gaps._closest`` of one pair."""
    if not gap > 0:
        return False
    ux, uy = (pb[0] - pa[0]) / gap, (pb[1] - pa[1]) / gap
    parted = (((fb[0] - fa[0]) * ux + (fb[1] - fa[1]) * uy) - _reach(fa, ux, uy)[2]
              - _reach(fb, -ux, -uy)[2])
    return abs(gap - parted) <= _SURE


def _support_guess(fa: _Frame, fb: _Frame) -> tuple[_Point, _Point]:
    """``gaps._support_guess`` of one pair."""
    ux, uy = fb[0] - fa[0], fb[1] - fa[1]
    ax = ay = bx = by = 0.0
    for _ in range(_GUESS_STEPS):
        length = math.hypot(ux, uy)
        ux, uy = ux / length, uy / length
        ax, ay, _ = _reach(fa, ux, uy)
        bx, by, _ = _reach(fb, -ux, -uy)
        ux, uy = bx - ax, by - ay
    return (ax, ay), (bx, by)


def _parted(e: _Frame, q: _Frame, toward: _Point) -> bool:
    """``gaps._parted`` of one pair (oval e, rectangle q)."""
    length = math.hypot(*toward)
    if not length > 0:
        return False
    ux, uy = toward[0] / length, toward[1] / length
    ex, ey, efx, efy, ew, eh = e
    qx, qy, qfx, qfy, qw, qh = q
    oval_far = (ex * ux + ey * uy
                + math.hypot(ew * abs(efy * ux + -efx * uy), eh * abs(efx * ux + efy * uy)))
    rect_near = (qx * ux + qy * uy - qw * abs(qfy * ux + -qfx * uy)
                 - qh * abs(qfx * ux + qfy * uy))
    return rect_near - oval_far > _APART


def _on_ellipse(f: _Frame, t: float) -> _Point:
    """The point of parameter t on oval f (``oval_gap._ellipse_pairs``' ``points``)."""
    x, y, fx, fy, w, h = f
    c, s = math.cos(t), math.sin(t)
    return x + w * c * fy + h * s * fx, y + w * c * -fx + h * s * fy


def _ellipse_pair(fa: _Frame, fb: _Frame, pa: _Point, pb: _Point
                  ) -> tuple[float, _Point, _Point]:
    """``oval_gap._ellipse_pairs`` of one pair: Newton's method on the two angles from the
    points pa and pb, a step that does not decrease the distance halved."""
    def angle(f: _Frame, p: _Point) -> float:
        x, y, fx, fy, w, h = f
        dx, dy = p[0] - x, p[1] - y
        return math.atan2((dx * fx + dy * fy) / h, (dx * fy + dy * -fx) / w)

    def half_sq(ta: float, tb: float) -> float:
        (ax, ay), (bx, by) = _on_ellipse(fa, ta), _on_ellipse(fb, tb)
        return 0.5 * ((ax - bx) ** 2 + (ay - by) ** 2)

    xa, ya, fxa, fya, wa, la = fa
    xb, yb, fxb, fyb, wb, lb = fb
    ta, tb = angle(fa, pa), angle(fb, pb)
    for _ in range(NEWTON_STEPS):
        (ax, ay), (bx, by) = _on_ellipse(fa, ta), _on_ellipse(fb, tb)
        dx, dy = ax - bx, ay - by
        sa, ca = math.sin(ta), math.cos(ta)
        sb, cb = math.sin(tb), math.cos(tb)
        dax = -wa * sa * fya + la * ca * fxa  # right = (fy, -fx)
        day = -wa * sa * -fxa + la * ca * fya
        dbx = -wb * sb * fyb + lb * cb * fxb
        dby = -wb * sb * -fxb + lb * cb * fyb
        g1 = dx * dax + dy * day
        g2 = -(dx * dbx + dy * dby)
        h11 = (dax * dax + day * day) - (dx * (ax - xa) + dy * (ay - ya))
        h22 = (dbx * dbx + dby * dby) + (dx * (bx - xb) + dy * (by - yb))
        h12 = -(dax * dbx + day * dby)
        det = h11 * h22 - h12 * h12
        if det > 1e-14 and h11 > 0:
            s1 = -(h22 * g1 - h12 * g2) / det
            s2 = -(h11 * g2 - h12 * g1) / det
        else:
            s1 = -g1 / max(h11, 1.0)
            s2 = -g2 / max(h22, 1.0)
        now = half_sq(ta, tb)
        scale = 1.0
        for _ in range(8):  # halve a step that does not decrease the distance
            if not half_sq(ta + scale * s1, tb + scale * s2) > now * (1 + 1e-12) + 1e-18:
                break
            scale = 0.5 * scale
        ta, tb = ta + scale * s1, tb + scale * s2
        if abs(scale * s1) + abs(scale * s2) < 1e-13:
            break
    a, b = _on_ellipse(fa, ta), _on_ellipse(fb, tb)
    return math.hypot(a[0] - b[0], a[1] - b[1]), a, b


_SIGNS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))  # oval_gap._ellipse_rect's


def _ellipse_rect(e: _Frame, q: _Frame) -> tuple[float, _Point, _Point] | None:
    """``oval_gap._ellipse_rect`` of one pair (oval e, rectangle q): the gap and closest
    points (on e, on q); None when the ellipse is degenerate."""
    ex, ey, efx, efy, ew, el = e
    qx, qy, qfx, qfy, qw, ql = q
    corners = [(qx + su * qw * qfy + sv * ql * qfx, qy + su * qw * -qfx + sv * ql * qfy)
               for su, sv in _SIGNS]
    best, best_e, best_q = math.inf, (0.0, 0.0), (0.0, 0.0)
    for cx, cy in corners:  # the corners' nearest ellipse points first
        dx, dy = cx - ex, cy - ey
        u = dx * efy + dy * -efx
        v = dx * efx + dy * efy
        near = _ellipse_point(u, v, ew, el)
        if near is None:
            return None
        nu, nv = near
        d = float(np.hypot(u - nu, v - nv))
        if d < best:
            best = d
            best_e = (ex + nu * efy + nv * efx, ey + nu * -efx + nv * efy)
            best_q = (cx, cy)
    for k in range(4):  # then each edge's interior, against its two normals' supports
        p0x, p0y = corners[k]
        p1x, p1y = corners[(k + 1) % 4]
        edx, edy = p1x - p0x, p1y - p0y
        length = math.hypot(edx, edy)
        if not length > 0:  # a flat rectangle's edge: no interior (numpy's NaN)
            continue
        unx, uny = edx / length, edy / length
        for sign in (1.0, -1.0):
            dirx, diry = sign * uny, sign * -unx
            du = dirx * efy + diry * -efx
            dv = dirx * efx + diry * efy
            norm = math.sqrt((ew * du) ** 2 + (el * dv) ** 2)
            su, sv = ew * ew * du / norm, el * el * dv / norm
            sx = ex + su * efy + sv * efx
            sy = ey + su * -efx + sv * efy
            along = (sx - p0x) * unx + (sy - p0y) * uny
            if not 0 <= along <= length:
                continue
            fx_, fy_ = p0x + along * unx, p0y + along * uny
            d = math.hypot(sx - fx_, sy - fy_)
            if d < best:
                best, best_e, best_q = d, (sx, sy), (fx_, fy_)
    return best, best_e, best_q
