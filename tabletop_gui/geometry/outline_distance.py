"""Distance from points to base outlines, in numpy (exact for circles and rectangles).

For a point outside an outline: the distance to it and the nearest outline point; inside
(or on it): 0 and the point itself. Ellipses use the true ellipse (not a polygon): the
nearest point solves Eberly's one-variable equation by Newton's method (12 steps from
below the root, far below 0.001"). These serve the gaps between a round base and anything
else, and the half-inch exemption of cover.
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.bodies import BodyArrays

ELLIPSE_NEWTON_STEPS = 12
SMALL_ELLIPSES = 8  # up to this many points: a plain loop (numpy's per-call cost dominates)
SMALL_POINTS = 8

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
Num = TypeVar("Num", float, FloatArray)


def xy(x: FloatArray, y: FloatArray) -> FloatArray:
    """``np.stack([x, y], axis=-1)`` (x and y of one shape) in fewer numpy calls: small
    arrays, as a drag step's, pay for each call more than for their elements."""
    out = np.empty(x.shape + (2,))
    out[..., 0] = x
    out[..., 1] = y
    return out


def point_distance(ba: BodyArrays, k: IntArray, px: FloatArray, py: FloatArray
                   ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distance from (px, py) to body k's outline region, and the nearest point (x, y)."""
    if len(k) <= SMALL_POINTS:
        small = _point_distance_small(ba, k, px, py)
        if small is not None:
            return small
    fwd = ba.forward[k]
    fx, fy = fwd[:, 0], fwd[:, 1]
    rx, ry = fy, -fx
    dx, dy = px - ba.x[k], py - ba.y[k]
    u = dx * rx + dy * ry
    v = dx * fx + dy * fy
    hw, hl = ba.half_width[k], ba.half_length[k]
    shape = ba.shape[k]
    # circles: radial; rectangles (and, until replaced below, ellipses): clamp
    c = shape == outline.CIRCLE
    if c.any():
        r = np.where(c, ba.radius[k], 0.0)
        rho = np.hypot(u, v)
        scale = np.where(rho > r, r / np.where(rho > 0, rho, 1.0), 1.0)
        nu = np.where(c, u * scale, np.minimum(np.maximum(u, -hw), hw))
        nv = np.where(c, v * scale, np.minimum(np.maximum(v, -hl), hl))
    else:  # no circle (a round base against the other outlines): the clamps alone
        nu = np.minimum(np.maximum(u, -hw), hw)
        nv = np.minimum(np.maximum(v, -hl), hl)
    # ellipses
    e = np.flatnonzero(shape == outline.ELLIPSE)
    if len(e):
        nu[e], nv[e] = _ellipse_nearest(u[e], v[e], hw[e], hl[e])
    dist = np.hypot(u - nu, v - nv)
    x = ba.x[k] + nu * rx + nv * fx
    y = ba.y[k] + nu * ry + nv * fy
    return dist, x, y


def _point_distance_small(ba: BodyArrays, k: IntArray, px: FloatArray, py: FloatArray
                          ) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """``point_distance`` for a few points, one at a time in plain floats (the same steps),
    or None when a point or body is not finite (left to the numpy path)."""
    fwd = ba.forward[k].tolist()
    cols = zip(px.tolist(), py.tolist(), ba.x[k].tolist(), ba.y[k].tolist(),
               ba.half_width[k].tolist(), ba.half_length[k].tolist(), ba.radius[k].tolist(),
               ba.shape[k].tolist(), strict=True)
    gu: list[float] = []
    gv: list[float] = []
    xs: list[float] = []
    ys: list[float] = []
    for (fx, fy), (qx, qy, cx, cy, hw, hl, radius, shape) in zip(fwd, cols, strict=True):
        if not all(map(math.isfinite, (fx, fy, qx, qy, cx, cy, hw, hl, radius))):
            return None
        rx, ry = fy, -fx
        dx, dy = qx - cx, qy - cy
        u = dx * rx + dy * ry
        v = dx * fx + dy * fy
        if shape == outline.CIRCLE:
            rho = float(np.hypot(u, v))  # numpy's hypot (math's may differ in the last bit)
            scale = radius / (rho if rho > 0 else 1.0) if rho > radius else 1.0
            nu, nv = u * scale, v * scale
        elif shape == outline.ELLIPSE:
            near = _ellipse_point(u, v, hw, hl)
            if near is None:
                return None
            nu, nv = near
        else:
            nu, nv = min(max(u, -hw), hw), min(max(v, -hl), hl)
        gu.append(u - nu)
        gv.append(v - nv)
        xs.append(cx + nu * rx + nv * fx)
        ys.append(cy + nu * ry + nv * fy)
    return np.hypot(np.array(gu), np.array(gv)), np.array(xs), np.array(ys)


def _ellipse_nearest(u: FloatArray, v: FloatArray, hw: FloatArray, hl: FloatArray
                     ) -> tuple[FloatArray, FloatArray]:
    """Nearest point of the ellipse region (u/hw)^2 + (v/hl)^2 <= 1 to (u, v)."""
    if len(u) <= SMALL_ELLIPSES:
        small = _ellipse_nearest_small(u.tolist(), v.tolist(), hw.tolist(), hl.tolist())
        if small is not None:
            return small
    swap = hw < hl  # work with a >= b along the first axis
    a = np.where(swap, hl, hw)
    b = np.where(swap, hw, hl)
    su = np.where(swap, v, u)
    sv = np.where(swap, u, v)
    x = np.abs(su)
    y = np.abs(sv)
    inside = (x / a) ** 2 + (y / b) ** 2 <= 1.0
    a2, b2 = a * a, b * b
    ax, by = a * x, b * y
    tol = 1e-13 * a2
    # Newton on Eberly's F(t) = (a x / (t + a^2))^2 + (b y / (t + b^2))^2 - 1, decreasing and
    # convex for t > -b^2; started left of the root (F >= 0) it climbs to it monotonically.
    # Since t + b^2 <= t + a^2, F >= 0 wherever t + a^2 <= hypot(a x, b y): a start closer
    # to the root than max(a x - a^2, b y - b^2) alone, and still left of it.
    t = np.maximum(np.hypot(ax, by) - a2, by - b2)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for _ in range(ELLIPSE_NEWTON_STEPS):
            f, df = _eberly(t, a2, b2, ax, by)
            step = np.where((df < 0) & np.isfinite(f), f / df, 0.0)
            t = t - step
            if not (np.abs(step) > tol).any():
                break
        ex = a2 * x / (t + a2)
        denom = t + b2
        pos = denom > 0
        ey = np.where(pos, b2 * y / np.where(pos, denom, 1.0), 0.0)
    ex = np.where(np.isfinite(ex), ex, a)
    # on the minor axis' far side (y == 0 and x deep inside the curvature): clamp to the ellipse
    ex = np.minimum(ex, a)
    ex = np.where(inside, x, ex)
    ey = np.where(inside, y, ey)
    ex *= np.sign(su) + (su == 0)
    ey *= np.sign(sv) + (sv == 0)
    nu = np.where(swap, ey, ex)
    nv = np.where(swap, ex, ey)
    return nu, nv


def _eberly(t: Num, a2: Num, b2: Num, ax: Num, by: Num) -> tuple[Num, Num]:
    """Eberly's F(t) and F'(t) (see ``_ellipse_nearest``), for arrays or plain floats."""
    ta = t + a2
    tb = t + b2
    p = ax / ta
    q = by / tb
    pp = p * p
    qq = q * q
    return pp + qq - 1.0, -2.0 * (pp / ta + qq / tb)


def _ellipse_nearest_small(u: list[float], v: list[float], hw: list[float], hl: list[float]
                           ) -> tuple[FloatArray, FloatArray] | None:
    """``_ellipse_nearest`` for a few points, one at a time in plain floats (see
    ``_ellipse_point``), or None when a point is left to the numpy path."""
    nus: list[float] = []
    nvs: list[float] = []
    for uu, vv, w, h in zip(u, v, hw, hl, strict=True):
        near = _ellipse_point(uu, vv, w, h)
        if near is None:
            return None
        nus.append(near[0])
        nvs.append(near[1])
    return np.array(nus), np.array(nvs)


def _ellipse_point(uu: float, vv: float, w: float, h: float) -> tuple[float, float] | None:
    """``_ellipse_nearest`` of one point in plain floats: the same steps (the point stops
    when its own Newton step is below the tolerance), or None for a degenerate ellipse (a
    zero or infinite half-axis) or a point not finite, which are left to the numpy path."""
    swap = w < h
    a, b, su, sv = (h, w, vv, uu) if swap else (w, h, uu, vv)
    if not (0 < b <= a < math.inf and math.isfinite(su) and math.isfinite(sv)):
        return None
    x, y = abs(su), abs(sv)
    xa, yb = x / a, y / b
    if xa * xa + yb * yb <= 1.0:
        ex, ey = x, y
    else:
        a2, b2 = a * a, b * b
        ax, by = a * x, b * y
        tol = 1e-13 * a2
        t = max(float(np.hypot(ax, by)) - a2, by - b2)  # numpy's hypot: the same bits
        for _ in range(ELLIPSE_NEWTON_STEPS):
            step = 0.0
            if t + a2 != 0 and t + b2 != 0:  # else numpy's step is not finite: no step
                f, df = _eberly(t, a2, b2, ax, by)
                if df < 0 and math.isfinite(f):
                    step = f / df
            t = t - step
            if not abs(step) > tol:
                break
        ta = t + a2
        ex = a2 * x / ta if ta != 0 else a
        if not math.isfinite(ex):
            ex = a
        denom = t + b2
        ey = b2 * y / denom if denom > 0 else 0.0
        ex = min(ex, a)
    ex *= -1.0 if su < 0 else 1.0
    ey *= -1.0 if sv < 0 else 1.0
    return (ey, ex) if swap else (ex, ey)
