"""Compiled (numba) loops of the bulk pair computation: the same arithmetic as the numpy
paths, one pair at a time, so that each pair stops at its first clear sight line and
meets only the terrain near it.

Imported only through ``jit.kernels()`` (numba is optional: without it the numpy paths
answer). Every loop does, operation for operation, what its numpy counterpart does
(named in each docstring), so the answers are the same; the tests compare them
(``tests/core/test_geometry_jit.py``). They follow numpy's error model too: a division
by zero gives inf or nan rather than raising (the line tests compute every step and
choose among them without branching, and never choose such a value).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

_EPS_LENGTH = 1e-7  # segments.EPS_LENGTH
_EPS_SIDE = 1e-9  # segments._EPS_SIDE
_EPS_Z = 1e-9  # segments._EPS_Z
_EXEMPT = 0.5  # cover.EXEMPT
# sight.PATH_A / PATH_B, the outer and inner paths, and the lower height pairs
_PATH_A = np.array([0, 1, 2, 1, 2, 3, 3, 0], dtype=np.intp)
_PATH_B = np.array([0, 2, 1, 1, 2, 3, 0, 3], dtype=np.intp)
_ROUNDS = np.array([1, 2, 0, 3, 4, 5, 6, 7], dtype=np.intp)  # outer paths, then inner
_LOWER_A = np.array([0, 0, 1, 1, 1, 2, 2, 2], dtype=np.intp)
_LOWER_B = np.array([1, 2, 0, 1, 2, 0, 1, 2], dtype=np.intp)
_HEIGHTS = np.array([1.0, 0.5, 0.0])  # sight.HEIGHTS
_ELLIPSE = 1  # outline.ELLIPSE
_RECT = 2  # outline.RECT
_ELLIPSE_NEWTON_STEPS = 12  # outline_distance.ELLIPSE_NEWTON_STEPS


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _clip_one(px: float, py: float, dx: float, dy: float, tol: float, t: int,
              enx: FloatArray, eny: FloatArray, ec: FloatArray, ecount: IntArray
              ) -> tuple[float, float]:
    """``segments._clip`` of one line p + t d against convex polygon t of the padded edge
    arrays (``tol``: 1e-12 times the plan length of d): the t-range strictly inside, lo
    the largest entering t (inf when the line runs outside along an edge), hi the smallest
    leaving t."""
    ilo = -np.inf
    ihi = np.inf
    outside = False
    for v in range(ecount[t]):
        nx = enx[v, t]
        ny = eny[v, t]
        num = nx * px + ny * py - ec[v, t]
        den = nx * dx + ny * dy
        # every value computed, then chosen (no branch: the outcomes are a coin toss for
        # the processor, whose wrong guesses cost more than the arithmetic); a division by
        # a zero den gives inf or nan, never chosen
        tt = -num / den
        enter = den > tol
        leave = den < -tol
        ilo = max(ilo, tt) if enter else ilo
        ihi = min(ihi, tt) if leave else ihi
        outside = outside | ((not enter) & (not leave) & (num <= _EPS_SIDE))
    return (np.inf if outside else ilo), ihi


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _blocked(px: float, py: float, pz: float, qx: float, qy: float, dx: float, dy: float,
             dz: float, length3: float, tol: float, t: int, base: FloatArray,
             top: FloatArray, bounds: FloatArray, enx: FloatArray, eny: FloatArray,
             ec: FloatArray, ecount: IntArray) -> bool:
    """``segments.blocked`` (use_z, no t_from) of the segment p -> q = p + d against one
    convex polygon of the padded edge arrays; ``length3`` is the segment's length in 3D and
    ``tol`` 1e-12 times its length in plan (computed once per segment, as numpy does)."""
    # a segment whose box lies wholly beyond a side of the polygon's box has no part
    # inside it (along an edge, the clipping below says so too). Every step is computed
    # and the answer combined without a branch, as in ``_clip_one`` (a division by a zero
    # dz gives inf or nan, then not chosen)
    miss = ((max(px, qx) < bounds[t, 0]) | (min(px, qx) > bounds[t, 2])
            | (max(py, qy) < bounds[t, 1]) | (min(py, qy) > bounds[t, 3]))
    flat = abs(dz) <= 1e-12  # segments._z_interval
    level_in = (pz >= base[t] - _EPS_Z) & (pz < top[t] - _EPS_Z)
    t1 = (base[t] - pz) / dz
    t2 = (top[t] - pz) / dz
    zlo = (-np.inf if level_in else np.inf) if flat else min(t1, t2)
    zhi = (np.inf if level_in else -np.inf) if flat else max(t1, t2)
    lo = max(0.0, zlo)
    hi = min(1.0, zhi)
    ilo, ihi = _clip_one(px, py, dx, dy, tol, t, enx, eny, ec, ecount)
    a = max(lo, ilo)
    b = min(hi, ihi)
    span = b - a
    return (not miss) & (hi > lo) & (b > a) & (span > 0) & (span * length3 > _EPS_LENGTH)


@njit(cache=True, nogil=True, error_model="numpy")
def clip(p: FloatArray, d: FloatArray, tid: IntArray, enx: FloatArray, eny: FloatArray,
         ec: FloatArray, ecount: IntArray) -> tuple[FloatArray, FloatArray]:
    """``segments._clip``: the t-range where p + t d is strictly inside convex polygon
    ``tid`` (lo = inf when the line runs outside along an edge)."""
    n = len(tid)
    lo = np.empty(n)
    hi = np.empty(n)
    for k in range(n):
        px = p[k, 0]
        py = p[k, 1]
        dx = d[k, 0]
        dy = d[k, 1]
        t = tid[k]
        lo[k], hi[k] = _clip_one(px, py, dx, dy, 1e-12 * math.hypot(dx, dy), t, enx, eny, ec,
                                 ecount)
    return lo, hi


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _ellipse_point(uu: float, vv: float, w: float, h: float) -> tuple[float, float, bool]:
    """``outline_distance._ellipse_point``: the nearest point of the ellipse region
    (u/w)^2 + (v/h)^2 <= 1 to (uu, vv), and False where that function gives None (a
    degenerate ellipse or a point not finite: left to numpy)."""
    swap = w < h
    if swap:
        a, b, su, sv = h, w, vv, uu
    else:
        a, b, su, sv = w, h, uu, vv
    if not (0 < b <= a < np.inf and math.isfinite(su) and math.isfinite(sv)):
        return 0.0, 0.0, False
    x = abs(su)
    y = abs(sv)
    xa = x / a
    yb = y / b
    if xa * xa + yb * yb <= 1.0:
        ex = x
        ey = y
    else:
        a2 = a * a
        b2 = b * b
        ax = a * x
        by = b * y
        tol = 1e-13 * a2
        t = max(math.hypot(ax, by) - a2, by - b2)
        for _ in range(_ELLIPSE_NEWTON_STEPS):
            step = 0.0
            if t + a2 != 0 and t + b2 != 0:
                ta = t + a2
                tb = t + b2
                p = ax / ta
                q = by / tb
                pp = p * p
                qq = q * q
                f = pp + qq - 1.0
                df = -2.0 * (pp / ta + qq / tb)
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
    if su < 0:
        ex = -ex
    if sv < 0:
        ey = -ey
    if swap:
        return ey, ex, True
    return ex, ey, True


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _frame(k: int, forward: FloatArray, half_width: FloatArray, half_length: FloatArray
           ) -> tuple[float, float, float, float, float, float]:
    """Body k's frame: its forward unit vector (fx, fy), right-hand normal (rx, ry) =
    (fy, -fx), half-width and half-length."""
    fx = forward[k, 0]
    fy = forward[k, 1]
    return fx, fy, fy, -fx, half_width[k], half_length[k]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _nearest(k: int, px: float, py: float, x: FloatArray, y: FloatArray, shape: IntArray,
             half_width: FloatArray, half_length: FloatArray, forward: FloatArray
             ) -> tuple[float, float, float, bool]:
    """``outline_distance.point_distance`` from (px, py) to the outline of body k when it
    is a rectangle or an oval (an oval's nearest point as ``_ellipse_point``): the
    distance, the nearest point, and whether it was measured (not: another outline, or an
    oval left to numpy)."""
    fx, fy, rx, ry, hw, hl = _frame(k, forward, half_width, half_length)
    dx = px - x[k]
    dy = py - y[k]
    u = dx * rx + dy * ry
    v = dx * fx + dy * fy
    if shape[k] == _RECT:
        nu = min(max(u, -hw), hw)
        nv = min(max(v, -hl), hl)
    elif shape[k] == _ELLIPSE:
        nu, nv, ok = _ellipse_point(u, v, hw, hl)
        if not ok:
            return 0.0, 0.0, 0.0, False
    else:
        return 0.0, 0.0, 0.0, False
    return (math.hypot(u - nu, v - nv), x[k] + nu * rx + nv * fx, y[k] + nu * ry + nv * fy,
            True)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _beyond_reach(k: int, px: float, py: float, x: FloatArray, y: FloatArray,
                  shape: IntArray, half_width: FloatArray, half_length: FloatArray) -> bool:
    """Is (px, py) surely more than ``_EXEMPT`` from the outline of body k, a rectangle or
    an oval, by its distance from k's centre alone? ``_nearest`` puts the nearest point
    (nu, nv) within |nu| <= half-width and |nv| <= half-length of the centre (clamped, or
    on the oval), so the distance it measures is at least the centre's distance less
    hypot(half-width, half-length); the margin covers the rounding of both. Most far ends
    of a cover line are many inches away: an oval's Newton steps are then not needed, and
    the answer (``dist > _EXEMPT``) is the same."""
    hw = half_width[k]
    hl = half_length[k]
    if not ((shape[k] == _RECT or shape[k] == _ELLIPSE)
            and 0.0 < hw < np.inf and 0.0 < hl < np.inf):
        return False
    ex = px - x[k]
    ey = py - y[k]
    reach = _EXEMPT + math.sqrt(hw * hw + hl * hl) + 1e-6 + 1e-12 * (abs(ex) + abs(ey))
    return bool(ex * ex + ey * ey > reach * reach)


@njit(cache=True, nogil=True, error_model="numpy")
def cover_rows(pk: IntArray, tk: IntArray, hit_ij: BoolArray, hit_ji: BoolArray, i: IntArray,
               j: IntArray, stands_on: IntArray, elevation: FloatArray, threshold: float,
               platforms: bool) -> tuple[BoolArray, BoolArray, IntArray]:
    """``cover.cover_rows`` from the hits of ``cover_both_ways``'s candidates (pair pk[e],
    obstacle tk[e]): whether j is in cover against i (``cover._result``: an obstacle hit,
    or j on a platform at least ``threshold`` -- the rule's less 1e-9 -- above i, when
    ``platforms``) and i against j, and the rows (attacker, target, terrain) as columns
    (3, n): j against i's obstacles in the candidates' order, its platforms by pair, then
    the same of i against j."""
    m = len(i)
    in_ij = np.zeros(m, dtype=np.bool_)
    in_ji = np.zeros(m, dtype=np.bool_)
    on_ij = np.full(m, -1, dtype=np.intp)  # the platform giving j cover against i, or -1
    on_ji = np.full(m, -1, dtype=np.intp)
    n_ij = 0
    n_ji = 0
    for e in range(len(pk)):
        n_ij += hit_ij[e]
        n_ji += hit_ji[e]
    p_ij = 0
    p_ji = 0
    if platforms:
        for k in range(m):
            a = i[k]
            b = j[k]
            if stands_on[b] >= 0 and elevation[b] - elevation[a] >= threshold:
                on_ij[k] = stands_on[b]
                p_ij += 1
            if stands_on[a] >= 0 and elevation[a] - elevation[b] >= threshold:
                on_ji[k] = stands_on[a]
                p_ji += 1
    size = n_ij + p_ij + n_ji + p_ji
    rows = np.empty((3, size + 1), dtype=np.intp)  # (one more: see below)
    s = 0
    for ahead in (True, False):  # j against i, then i against j
        hits = hit_ij if ahead else hit_ji
        att = i if ahead else j
        tgt = j if ahead else i
        out = in_ij if ahead else in_ji
        for e in range(len(pk)):
            # every candidate written at the next place, which only a hit keeps (no
            # branch: a hit is a coin toss for the processor, whose wrong guesses cost
            # more than the writes; the last place is written over or is the spare one)
            q = pk[e]
            hit = hits[e]
            rows[0, s] = att[q]
            rows[1, s] = tgt[q]
            rows[2, s] = tk[e]
            out[q] |= hit
            s += hit
        on = on_ij if ahead else on_ji
        if (p_ij if ahead else p_ji) > 0:
            for k in range(m):
                if on[k] >= 0:
                    rows[0, s] = att[k]
                    rows[1, s] = tgt[k]
                    rows[2, s] = on[k]
                    out[k] = True
                    s += 1
    return in_ij, in_ji, rows[:, :size]


@njit(cache=True, nogil=True, error_model="numpy")
def cover_hits(pk: IntArray, tk: IntArray, i: IntArray, j: IntArray, pa: FloatArray,
               d: FloatArray, length: FloatArray, exempt: BoolArray, circle: BoolArray,
               x: FloatArray, y: FloatArray, shape: IntArray, half_width: FloatArray,
               half_length: FloatArray, forward: FloatArray, padded: BoolArray,
               bounds: FloatArray, enx: FloatArray, eny: FloatArray, ec: FloatArray,
               ecount: IntArray
               ) -> tuple[BoolArray, BoolArray, IntArray, BoolArray, FloatArray]:
    """``cover.cover_both_ways`` for the candidates e whose obstacle is a convex polygon of
    the padded edge arrays (``padded``): the part [a, b] of pair pk[e]'s line pa -> pa + d
    inside it (``_convex_spans``; ``length`` is np.hypot of each pair's d), then whether it
    covers j against i (``hit_ij``: the part beyond i's exempt half inch) and i against j
    (``hit_ji``), as ``_span_hits`` decides.

    Where that attacker is not round and exempt, the answer needs the distance from its
    outline of the span's far end (``_beyond_reach``, else ``_nearest``); those it cannot
    measure are returned as (candidate e, whether i is the attacker, t of the end on the
    line) for ``outline_distance.point_distance``.
    """
    n = len(pk)
    hit_ij = np.zeros(n, dtype=np.bool_)
    hit_ji = np.zeros(n, dtype=np.bool_)
    ask_e = np.empty(2 * n, dtype=np.intp)
    ask_fwd = np.empty(2 * n, dtype=np.bool_)
    ask_t = np.empty(2 * n)
    n_ask = 0
    for e in range(n):
        t = tk[e]
        q = pk[e]
        lq = length[q]
        if not padded[t] or not lq > 0:
            continue
        px = pa[q, 0]
        py = pa[q, 1]
        dx = d[q, 0]
        dy = d[q, 1]
        qx = px + dx
        qy = py + dy
        # the line's box wholly beyond a side of the polygon's: no part inside
        if (max(px, qx) < bounds[t, 0] or min(px, qx) > bounds[t, 2]
                or max(py, qy) < bounds[t, 1] or min(py, qy) > bounds[t, 3]):
            continue
        # (the tolerance from the line's length, np.hypot(d) as ``segments._clip`` takes
        # it: the same value, and a libm hypot per candidate cost a fifth of the loop)
        ilo, ihi = _clip_one(px, py, dx, dy, 1e-12 * lq, t, enx, eny, ec, ecount)
        a = max(ilo, 0.0)
        b = min(ihi, 1.0)
        if not (b > a and (b - a) * lq > _EPS_LENGTH):
            continue
        ex = exempt[q]
        cut = min(1.0, _EXEMPT / lq) if ex else 0.0
        for ahead in (True, False):  # i the attacker, then j
            attacker = i[q] if ahead else j[q]
            if circle[attacker] or not ex:
                lo2 = max(a, cut) if ahead else a
                hi2 = b if ahead else min(b, 1.0 - cut)
                hit = hi2 > lo2 and (hi2 - lo2) * lq > _EPS_LENGTH
                if ahead:
                    hit_ij[e] = hit
                else:
                    hit_ji[e] = hit
            else:
                t_far = b - _EPS_LENGTH / lq if ahead else a + _EPS_LENGTH / lq
                t_far = min(max(t_far, 0.0), 1.0)
                fx = px + t_far * dx
                fy = py + t_far * dy
                if _beyond_reach(attacker, fx, fy, x, y, shape, half_width, half_length):
                    if ahead:
                        hit_ij[e] = True
                    else:
                        hit_ji[e] = True
                    continue
                dist, _, _, ok = _nearest(attacker, fx, fy, x, y, shape, half_width,
                                          half_length, forward)
                if ok:
                    if ahead:
                        hit_ij[e] = dist > _EXEMPT
                    else:
                        hit_ji[e] = dist > _EXEMPT
                    continue
                ask_e[n_ask] = e
                ask_fwd[n_ask] = ahead
                ask_t[n_ask] = t_far
                n_ask += 1
    return (hit_ij, hit_ji, ask_e[:n_ask].copy(), ask_fwd[:n_ask].copy(),
            ask_t[:n_ask].copy())


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _line_clear(px: float, py: float, za: float, qx: float, qy: float, zb: float, tol: float,
                lo: int, hi: int, terr: IntArray, base: FloatArray, top: FloatArray,
                bounds: FloatArray, enx: FloatArray, eny: FloatArray, ec: FloatArray,
                ecount: IntArray) -> bool:
    """Is the line from (px, py) at height za to (qx, qy) at zb blocked by none of
    ``terr[lo:hi]``? ``tol`` is 1e-12 times its plan length (``_blocked``), the same at
    every height of a plan path, so computed once per path."""
    dx = qx - px
    dy = qy - py
    dz = zb - za
    length3 = math.sqrt(dx * dx + dy * dy + dz * dz)
    for e in range(lo, hi):
        if _blocked(px, py, za, qx, qy, dx, dy, dz, length3, tol, terr[e], base, top, bounds,
                    enx, eny, ec, ecount):
            return False
    return True


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def plan_samples(a: int, ux: float, uy: float, x: FloatArray, y: FloatArray,
                 shape: IntArray, half_length: FloatArray, half_width: FloatArray,
                 forward: FloatArray, out: FloatArray) -> None:
    """``sight.plan_samples`` of body a as seen along the unit vector (ux, uy) towards the
    other body (``sight.towards``), into ``out`` (4, 2).

    The right direction is the left one negated, so its (du, dv) are the left ones
    negated exactly and its ellipse norm is the left one's (``hypot`` ignores signs):
    computed once. A rectangle's samples are its corners, chosen by the signs alone (no
    norm)."""
    cx = x[a]
    cy = y[a]
    fx, fy, rx, ry, hw, hl = _frame(a, forward, half_width, half_length)
    rect = shape[a] == _RECT
    out[0, 0] = cx
    out[0, 1] = cy
    norm = 1.0
    for s in range(3):  # left, right, front
        if s == 0:
            ddx, ddy = -uy, ux
        elif s == 1:
            ddx, ddy = uy, -ux
        else:
            ddx, ddy = ux, uy
        du = ddx * rx + ddy * ry
        dv = ddx * fx + ddy * fy
        if rect:
            su = du if abs(du) > 1e-12 else ux * rx + uy * ry
            sv = dv if abs(dv) > 1e-12 else ux * fx + uy * fy
            u = (1.0 if su >= 0 else -1.0) * hw
            v = (1.0 if sv >= 0 else -1.0) * hl
        else:
            if s != 1:  # (the right norm is the left one)
                norm = math.hypot(hw * du, hl * dv)
                if not norm > 0:
                    norm = 1.0
            u = hw * hw * du / norm
            v = hl * hl * dv / norm
        out[s + 1, 0] = cx + u * rx + v * fx
        out[s + 1, 1] = cy + u * ry + v * fy


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _reach(a: int, shape: IntArray, half_length: FloatArray, half_width: FloatArray
           ) -> float:
    """How far from body a's centre its plan samples (``plan_samples``) can lie: a
    rectangle's corners, or points of the ellipse of its half axes."""
    if shape[a] == _RECT:
        return math.hypot(half_width[a], half_length[a])
    return float(max(half_width[a], half_length[a]))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def crosses_corridor(ax: float, ay: float, bx: float, by: float, ra: float, rb: float,
                     t: int, enx: FloatArray, eny: FloatArray, ec: FloatArray,
                     ecount: IntArray) -> bool:
    """Does convex polygon t, which the segment between a (x, y) and b crosses, cut the
    corridor of the discs of radii ra about a and rb about b (their convex hull): does
    every segment from a point of the one disc to a point of the other pass through a
    point deeper than a margin ``deep`` inside t, and farther than ``deep`` from both
    ends?

    Sufficient test (True proves it; False says nothing). The corridor lies in the
    region W between the discs' two outer tangents, each moved ``deep`` outwards: the
    lines at distance ra + deep from a whose normals n are tilted from the axis's normal
    towards b so that n . (b - a) = ra - rb (each line then at distance rb + deep from b;
    parallel lines, a strip, when ra = rb; else W is the wedge of the two lines' halves
    that meet at its apex). The test: each disc lies beyond one of the polygon's edges
    by more than ``deep`` (so outside it), and both boundary halves of W meet the polygon
    shrunk by 2 ``deep``. Proof: a point X of the one half and a point Y of the other in
    the shrunk polygon; the chord XY lies in it (convex) and joins W's two boundary
    halves, dividing W in two parts, and crosses the axis, a ray of W through a and b,
    at a point inside the polygon. The segment ab meets the polygon between a and b
    (neither inside); the polygon meets the ray in an interval holding both points, so
    a and b lie on either side of the chord, in different parts, and each disc (in W,
    outside the polygon, connected) wholly in a's or b's part. A segment from disc to
    disc stays in W (convex), so crosses XY, at a point deeper than ``deep`` inside the
    polygon and farther than ``deep`` from its ends (outside it).

    ``deep`` is 1e-6 of the sizes and coordinates involved: far above the rounding of
    these tests and of the line tests (relative 1e-15 or so), and above the line tests'
    tolerances (``_EPS_LENGTH``, ``_EPS_SIDE``, 1e-12 of the plan length for an edge
    along the line): the part of each such line inside t is at least 2 ``deep`` long.
    Each boundary half is kept ``deep`` inside the other line (before the apex).
    """
    dx = bx - ax
    dy = by - ay
    length = math.sqrt(dx * dx + dy * dy)
    # (length 0: nan; not chosen)
    return _cuts_corridor(ax, ay, bx, by, length, dx / length, dy / length, ra, rb, t, enx,
                          eny, ec, ecount)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _cuts_corridor(ax: float, ay: float, bx: float, by: float, length: float, ux: float,
                   uy: float, ra: float, rb: float, t: int, enx: FloatArray, eny: FloatArray,
                   ec: FloatArray, ecount: IntArray) -> bool:
    """``crosses_corridor`` with the distance ab and the unit vector u from a towards b
    given (any accurate values: the test's margins are far above their rounding)."""
    deep = 1e-6 * (1.0 + abs(ax) + abs(ay) + abs(bx) + abs(by) + ra + rb)
    reach = ra + deep
    # the tangents' tilt: normals (cos) (-uy, ux) + (sin) u and -(cos) (-uy, ux) + (sin) u,
    # the lines a + reach n + s d, d = (cos) u -+ (sin) (-uy, ux); |sin| < 1 whenever
    # length > ra + rb (else not chosen)
    sin = (ra - rb) / length
    cos = math.sqrt(max(0.0, 1.0 - sin * sin))
    lnx = -cos * uy + sin * ux  # the left line's normal and direction
    lny = cos * ux + sin * uy
    ldx = cos * ux + sin * uy
    ldy = cos * uy - sin * ux
    rnx = cos * uy + sin * ux  # the right line's
    rny = -cos * ux + sin * uy
    rdx = cos * ux - sin * uy
    rdy = cos * uy + sin * ux
    # on either line, the other line's side: (sin) s <= reach (cos) (the apex where
    # equal), kept deep inside it; sin = 0: no bound (inf or nan, not chosen)
    apex = (reach * cos - deep) / sin
    lo_l = apex if sin < 0 else -np.inf  # the left line's s-range in the shrunk polygon
    hi_l = apex if sin > 0 else np.inf
    lo_r = lo_l  # the right one's
    hi_r = hi_l
    # per edge, with num = n . a - c - 2 deep: a's distance beyond the edge is -num -
    # 2 deep, b's that less length (n . u); a line a + reach m + s d is inside the shrunk
    # edge where num + reach (n . m) + s (n . d) > 0. Every value computed and chosen
    # without a branch (a division by a zero n . d gives inf or nan, never chosen)
    beyond_a = -np.inf
    beyond_b = -np.inf
    outside = False
    for v in range(ecount[t]):
        nx = enx[v, t]
        ny = eny[v, t]
        num = nx * ax + ny * ay - ec[v, t] - 2.0 * deep
        along = nx * ux + ny * uy
        beyond_a = max(beyond_a, -num)
        beyond_b = max(beyond_b, -num - length * along)
        off_l = num + reach * (nx * lnx + ny * lny)
        off_r = num + reach * (nx * rnx + ny * rny)
        al = nx * ldx + ny * ldy
        ar = nx * rdx + ny * rdy
        tl = -off_l / al
        tr = -off_r / ar
        lo_l = max(lo_l, tl) if al > 0 else lo_l
        hi_l = min(hi_l, tl) if al < 0 else hi_l
        lo_r = max(lo_r, tr) if ar > 0 else lo_r
        hi_r = min(hi_r, tr) if ar < 0 else hi_r
        outside = outside | ((al == 0) & (off_l <= 0)) | ((ar == 0) & (off_r <= 0))
    # (beyond by more than ra + deep once the 2 deep of num are added back)
    return ((length > ra + rb) & (beyond_a > ra + 3.0 * deep) & (beyond_b > rb + 3.0 * deep)
            & (hi_l > lo_l) & (hi_r > lo_r) & (not outside))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def hides_pair(ax: float, ay: float, bx: float, by: float, length: float, ux: float,
               uy: float, ra: float, rb: float, za: float, zb: float, low: float, t: int,
               base: FloatArray, top: FloatArray, vx_t: FloatArray, vy_t: FloatArray,
               enx: FloatArray, eny: FloatArray, ec: FloatArray, ecount: IntArray) -> bool:
    """Is the pair of bodies centred at a and b, of reaches ra and rb (``_reach``), top
    heights za and zb and lower bottom ``low``, proven hidden by piece t, which blocks
    its top-centre line: does t block and ground each plan path's top line?

    Sufficient test (True proves it). t stands at or below both bottoms (grounded, as
    stage 2 says it) and more than a margin ``z_deep`` below both tops, and cuts the
    corridor of the samples (``crosses_corridor``): every top line, from a point of a's
    disc at za to one of b's at zb, passes through a point C deeper than ``deep`` inside
    t in plan. Its height there is at least min(za, zb), so above t's base; t rises above
    it when t rises above both tops, or above the highest such a line can be at C: C
    lies within t's extent [lo, hi] along the axis u from a (its vertices'), the line's
    ends within ra of a and rb of b along it, so the line has gone a fraction s of its
    way at C, (hi + ra) / (L - ra - rb) at most and (lo - ra) / (L + ra + rb) at least,
    L = |ab|. Kept ``z_deep`` (1 + |zb - za| / (L - ra - rb)) below t's top, each line
    stays within t's heights over at least 1e-6 of its plan length either side of C: a
    part inside t far above the line tests' tolerances. Stage 2 then finds each path's
    top line blocked, by t among the centre line's blockers, and grounded: no path is
    tried at other heights, and the pair is hidden.
    """
    z_lo = min(za, zb)
    z_hi = max(za, zb)
    z_deep = 1e-6 * (1.0 + abs(z_lo) + abs(z_hi))  # the heights' margin
    if not ((base[t] <= low + 1e-9) & (base[t] < z_lo - z_deep) & (top[t] > z_lo + z_deep)):
        return False
    if top[t] <= z_hi + z_deep:  # not above both tops: how high the lines cross t
        span = length - ra - rb
        if not span > 0:
            return False
        lo = np.inf
        hi = -np.inf
        for v in range(vx_t.shape[0]):  # (padding repeats a vertex)
            along = (vx_t[v, t] - ax) * ux + (vy_t[v, t] - ay) * uy
            lo = min(lo, along)
            hi = max(hi, along)
        if zb >= za:
            z_cross = za + min(1.0, (hi + ra) / span) * (zb - za)
        else:
            z_cross = za - max(0.0, (lo - ra) / (length + ra + rb)) * (za - zb)
        if not top[t] > z_cross + z_deep * (1.0 + abs(zb - za) / span):
            return False
    return _cuts_corridor(ax, ay, bx, by, length, ux, uy, ra, rb, t, enx, eny, ec, ecount)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _samples_clear(a: int, b: int, s0: int, s1: int, ux: float, uy: float, vx: float,
                   vy: float, terr: IntArray, hit: BoolArray, x: FloatArray, y: FloatArray,
                   shape: IntArray, half_length: FloatArray, half_width: FloatArray,
                   forward: FloatArray, za: FloatArray, zb: FloatArray, low: float,
                   base: FloatArray, top: FloatArray, bounds: FloatArray, enx: FloatArray,
                   eny: FloatArray, ec: FloatArray, ecount: IntArray, samples: FloatArray,
                   grounded: BoolArray, tols: FloatArray) -> bool:
    """Stages 2 and 3 of ``sight.sight_pairs`` for the pair (a, b) whose candidates are
    ``terr[s0:s1]`` (``hit``: those blocking its top-centre line): is some sample line
    clear? (ux, uy): the unit vector from a towards b, (vx, vy) from b towards a;
    ``samples`` receives a's and b's samples.

    Stage 2 tries each plan path top to top, the outer ones first, against the terrain
    that blocked the centre line, then (when none of it blocks) the rest; a path blocked
    by a terrain at or below both bottoms in the round that blocked it is grounded.
    Stage 3 tries the lower heights of the paths that are not grounded (every path was
    tried in stage 2: its plan length's tolerance is kept). Stage 2 passes over the
    pieces no higher than both top ends (they block no top line)."""
    sa = samples[0]
    sb = samples[1]
    plan_samples(a, ux, uy, x, y, shape, half_length, half_width, forward, sa)
    plan_samples(b, vx, vy, x, y, shape, half_length, half_width, forward, sb)
    z_lo = min(za[0], zb[0])
    for w in _ROUNDS:
        pa = _PATH_A[w]
        pb = _PATH_B[w]
        blocked_w = False
        ground_w = False
        px = sa[pa, 0]
        py = sa[pa, 1]
        qx = sb[pb, 0]
        qy = sb[pb, 1]
        dx = qx - px
        dy = qy - py
        dz = zb[0] - za[0]
        length3 = math.sqrt(dx * dx + dy * dy + dz * dz)
        tol = 1e-12 * math.hypot(dx, dy)
        tols[w] = tol
        for rnd in range(2):  # the centre line's blockers first, then the rest
            if blocked_w:
                break
            first = rnd == 0
            for e in range(s0, s1):
                t = terr[e]
                # a piece whose top is at or below both ends blocks no top line
                # (``_blocked``'s height range is empty: rounding keeps the order)
                if (hit[e] != first) | (top[t] <= z_lo):
                    continue
                if _blocked(px, py, za[0], qx, qy, dx, dy, dz, length3, tol, t, base, top,
                            bounds, enx, eny, ec, ecount):
                    blocked_w = True
                    if base[t] <= low + 1e-9:
                        ground_w = True
                        break
        grounded[w] = ground_w
        if not blocked_w:  # a clear path: visible (no other path is needed)
            return True
    for w in range(8):
        if grounded[w]:
            continue
        pa = _PATH_A[w]
        pb = _PATH_B[w]
        for h in range(8):
            if _line_clear(sa[pa, 0], sa[pa, 1], za[_LOWER_A[h]], sb[pb, 0], sb[pb, 1],
                           zb[_LOWER_B[h]], tols[w], s0, s1, terr, base, top, bounds, enx,
                           eny, ec, ecount):
                return True
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def sight(i: IntArray, j: IntArray, pk: IntArray, terr: IntArray, x: FloatArray,
          y: FloatArray, shape: IntArray, half_length: FloatArray, half_width: FloatArray,
          forward: FloatArray, elevation: FloatArray, body_top: FloatArray,
          base: FloatArray, top: FloatArray, bounds: FloatArray, enx: FloatArray,
          eny: FloatArray, ec: FloatArray, ecount: IntArray, vx_t: FloatArray,
          vy_t: FloatArray) -> tuple[BoolArray, IntArray, IntArray]:
    """``sight.sight_pairs`` of the pairs (i[k], j[k]) from their candidates (pair
    ``pk``, ordered by pair, and terrain ``terr``), in one pass over each pair: its
    visibility, and the (pair, terrain) rows of the candidates blocking its top-centre
    line, in candidate order (``pk[hit]``, ``terr[hit]``).

    Stage 1 tests the top-centre line against each candidate, passing over the pieces
    no higher than both of its ends (``_blocked``'s height range is empty there:
    rounding keeps the order, so they would not block). A pair whose centre line is
    clear is visible. A pair is hidden at once when a terrain that blocks its centre
    line stands at or below both bottoms (grounded), cuts the corridor of the two
    bodies' samples and rises above every top line where it crosses them
    (``hides_pair``): it then blocks each plan path's top line, in the first round, and
    grounds it; every path grounded, stages 2 and 3 would find no clear line. One test
    instead of eight lines and the samples. The other pairs are decided by
    ``_samples_clear`` while their candidates are at hand.
    """
    m = len(i)
    n = len(terr)
    visible = np.ones(m, dtype=np.bool_)
    hit = np.zeros(n, dtype=np.bool_)
    bp = np.empty(n, dtype=np.intp)
    bt = np.empty(n, dtype=np.intp)
    nb = 0
    grounded = np.zeros(8, dtype=np.bool_)
    tols = np.empty(8)
    samples = np.empty((2, 4, 2))  # a's and b's
    za = np.empty(3)
    zb = np.empty(3)
    s1 = 0
    while s1 < n:
        s0 = s1
        k = pk[s0]
        while s1 < n and pk[s1] == k:
            s1 += 1
        a = i[k]
        b = j[k]
        dx = x[b] - x[a]
        dy = y[b] - y[a]
        dz = body_top[b] - body_top[a]
        length3 = math.sqrt(dx * dx + dy * dy + dz * dz)
        dist = math.hypot(dx, dy)
        tol = 1e-12 * dist
        z_min = min(body_top[a], body_top[b])
        first = nb
        for e in range(s0, s1):
            t = terr[e]
            if top[t] <= z_min:
                continue
            # (written without a branch on the answer, whose outcome the processor
            # guesses badly: the row is kept by counting it)
            blocks = _blocked(x[a], y[a], body_top[a], x[b], y[b], dx, dy, dz, length3, tol,
                              t, base, top, bounds, enx, eny, ec, ecount)
            hit[e] = blocks
            bp[nb] = k
            bt[nb] = t
            nb += blocks
        if nb == first:  # the centre line is clear: visible
            continue
        for h in range(3):  # sight._heights
            za[h] = elevation[a] + _HEIGHTS[h] * (body_top[a] - elevation[a])
            zb[h] = elevation[b] + _HEIGHTS[h] * (body_top[b] - elevation[b])
        low = min(elevation[a], elevation[b])
        # sight.towards both ways: from b, x[a] - x[b] is -(x[b] - x[a]) exactly and the
        # distance the same, so the direction is this one negated
        apart = dist > 0
        ux = dx / dist if apart else 1.0
        uy = dy / dist if apart else 0.0
        ra = _reach(a, shape, half_length, half_width)
        rb = _reach(b, shape, half_length, half_width)
        hidden = False
        for r in range(first, nb):  # the pieces blocking the centre line
            if hides_pair(x[a], y[a], x[b], y[b], dist, ux, uy, ra, rb, za[0], zb[0], low,
                          bt[r], base, top, vx_t, vy_t, enx, eny, ec, ecount):
                hidden = True
                break
        if hidden:
            visible[k] = False
            continue
        vx = -ux if apart else 1.0
        vy = -uy if apart else 0.0
        visible[k] = _samples_clear(a, b, s0, s1, ux, uy, vx, vy, terr, hit, x, y, shape,
                                    half_length, half_width, forward, za, zb, low, base,
                                    top, bounds, enx, eny, ec, ecount, samples, grounded,
                                    tols)
    return visible, bp[:nb].copy(), bt[:nb].copy()


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _within_hypot(ex: float, ey: float, limit: float) -> bool:
    """``math.hypot(ex, ey) <= limit``, the same answer: decided from the squares where
    they are more than a part in 10^12 apart (their rounding is a few parts in 10^16;
    only where the squares are normal floats, far from overflow), else by ``hypot``
    itself (a call into libm, a good part of a corridor test)."""
    q = ex * ex + ey * ey
    lim2 = limit * limit
    normal = (1e-280 < lim2) & (lim2 < 1e280) & (limit > 0.0)
    above = q > lim2 * (1.0 + 1e-12)
    below = q < lim2 * (1.0 - 1e-12)
    if normal & (above | below):
        return below
    return math.hypot(ex, ey) <= limit


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _in_corridor(t: int, x0: float, y0: float, dx: float, dy: float, dd: float,
                 length: float, ux: float, uy: float, r: float, piece: FloatArray
                 ) -> bool:
    """The box, circle and separating-axis tests of ``corridor.corridor_candidates`` for
    piece t and the pair whose first centre is (x0, y0), the other (x0 + dx, y0 + dy):
    dd = dx^2 + dy^2, its length and unit direction (ux, uy) as the numpy tests compute
    them. piece[t]: its bounds, its box's centre and half diagonal, then its vertices'
    x and y, one vertex after the other (all of a piece's data side by side)."""
    x1 = x0 + dx
    y1 = y0 + dy
    box = ((min(x0, x1) - r <= piece[t, 2]) & (max(x0, x1) + r >= piece[t, 0])
           & (min(y0, y1) - r <= piece[t, 3]) & (max(y0, y1) + r >= piece[t, 1]))
    cx = piece[t, 4]
    cy = piece[t, 5]
    u = ((cx - x0) * dx + (cy - y0) * dy) / (dd if dd > 0 else 1.0)  # _circle_hit
    u = min(max(u, 0.0), 1.0)
    ring = _within_hypot(x0 + u * dx - cx, y0 + u * dy - cy, r + piece[t, 6] + 1e-9)
    ax = -uy  # corridor._across_and_along
    ay = ux
    a_min = np.inf
    a_max = -np.inf
    b_min = np.inf
    b_max = -np.inf
    for v in range(7, piece.shape[1], 2):
        vx = piece[t, v] - x0
        vy = piece[t, v + 1] - y0
        across = vx * ax + vy * ay
        along = vx * ux + vy * uy
        a_min = min(a_min, across)
        a_max = max(a_max, across)
        b_min = min(b_min, along)
        b_max = max(b_max, along)
    apart = (a_min > r) | (a_max < -r) | (b_max < -r) | (b_min > length + r)
    return bool(box & ring & (not apart))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _pseudo_angle(x: float, y: float) -> float:
    """The direction of (x, y) as a number in [0, 4] growing with its angle (counter-
    clockwise from the x axis, 1 a quarter turn): y / (|x| + |y|), shifted by quadrant.
    No trigonometry; it changes between half and once as fast as the angle (the
    derivative in the first quadrant is 1 / (cos + sin)^2), the same for any length
    of (x, y); 0 for (0, 0)."""
    s = abs(x) + abs(y)
    if not s > 0:
        return 0.0
    p = y / s
    if x < 0:
        return 2.0 - p
    if y < 0:
        return 4.0 + p
    return p


@njit(cache=True, nogil=True, error_model="numpy")
def corridor(i: IntArray, j: IntArray, apex: IntArray, order: IntArray, x: FloatArray,
             y: FloatArray, circ: FloatArray, elevation: FloatArray, body_top: FloatArray,
             bounds: FloatArray, vx_t: FloatArray, vy_t: FloatArray, blocks: BoolArray,
             base: FloatArray, top: FloatArray, bins: int, margin: float
             ) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """``corridor.corridor_candidates``: (pair, piece) of every piece passing the box, the
    circle and the two separating-axis tests of its pair, ordered by pair then piece; and
    those of them ``corridor.sight_blockers`` keeps (they block sight and reach the
    heights of the pair's lines), in the same order.

    The pairs are taken by apex (``apex[k]``: i[k] or j[k]; ``order`` groups the pairs of
    each apex). Around each apex a piece's circle, grown by the largest circumradius and
    ``margin`` (its *reach*), subtends an angle; the pieces are binned by that angle in
    ``bins`` bins of pseudo-angle (``_pseudo_angle``: 4 / ``bins`` each), every bin for
    a piece whose grown circle holds the apex (the *near* pieces, tested by every pair).
    A pair tests the pieces of its direction's bin that pass two tests, then the full
    tests. A piece beyond the other end of the longest pair from the apex is binned
    nowhere (no angles computed): every pair's test would drop it.

    No piece passing the full tests is dropped, although no angle is computed with
    trigonometry. With C the piece's box centre, v = C - apex (length ``far``), R its
    reach and u the pair's unit direction from the apex (length L): a piece passing the
    circle test has C within r + rad + 1e-9 of the segment (r: the pair's circumradius,
    rad: the box's half diagonal), so (1) within that of the line through the apex along
    u: |u x v| <= rad + r + ``margin``, the first test of the bin's pieces; (2) no
    farther than L + rad + r + ``margin`` from the apex, the second; (3) if the piece is
    not near (far > R), u lies in the cone from the apex tangent to the circle of radius
    R about C, of half angle asin(R / far) < 90 degrees: between its two edges, v turned
    by -/+ that angle, (v_x q + v_y R, v_y q - v_x R) and (v_x q - v_y R, v_y q + v_x R)
    with q = sqrt(far^2 - R^2) (both of length far^2, which no pseudo-angle depends on).
    The pseudo-angle grows with the angle, and floor(pseudo-angle x bins / 4) with it, so
    the bin of u lies between the bins of the two edges: the piece's bins (the range
    passes 4 = 0 when the cone holds the x axis's direction). ``margin`` (1e-6 of the
    coordinates at least: ``corridor._MARGIN``) and the pseudo-angles' ``_PSEUDO_MARGIN``
    (1e-9 of a quarter turn, more than 5e-10 radians) are far above the rounding of these
    few operations (a few parts in 10^16 of the coordinates and of a turn), and of ``far``
    from a square root rather than ``hypot``."""
    m = len(i)
    k_all = bounds.shape[0]
    rmax = 0.0
    for k in range(m):
        rmax = max(rmax, circ[i[k]], circ[j[k]])
    cx = np.empty(k_all)
    cy = np.empty(k_all)
    rad = np.empty(k_all)
    reach = np.empty(k_all)
    piece = np.empty((k_all, 7 + 2 * vx_t.shape[0]))  # _in_corridor's data of each piece
    grow = np.empty(k_all)  # rad + margin: a pair's reach less its circumradius
    for t in range(k_all):
        cx[t] = 0.5 * (bounds[t, 0] + bounds[t, 2])
        cy[t] = 0.5 * (bounds[t, 1] + bounds[t, 3])
        rad[t] = 0.5 * math.hypot(bounds[t, 2] - bounds[t, 0], bounds[t, 3] - bounds[t, 1])
        grow[t] = rad[t] + margin
        reach[t] = rad[t] + rmax + margin
        piece[t, :4] = bounds[t]
        piece[t, 4] = cx[t]
        piece[t, 5] = cy[t]
        piece[t, 6] = rad[t]
        for v in range(vx_t.shape[0]):
            piece[t, 7 + 2 * v] = vx_t[v, t]
            piece[t, 8 + 2 * v] = vy_t[v, t]
    per = bins / 4.0
    far = np.empty(k_all)  # box centres from the apex: distance, x and y
    vx_a = np.empty(k_all)
    vy_a = np.empty(k_all)
    lo_bin = np.empty(k_all, dtype=np.intp)
    n_bin = np.empty(k_all, dtype=np.intp)
    bin_start = np.empty(bins + 1, dtype=np.intp)
    bin_fill = np.empty(bins, dtype=np.intp)
    bin_items = np.empty(k_all * bins, dtype=np.intp)
    bin_data = np.empty((k_all * bins, 4))  # the pieces' vx_a, vy_a, far and grow, bin
    # by bin, side by side (a pair reads its bin's in one sweep)
    near = np.empty(k_all, dtype=np.intp)
    found = np.empty(k_all, dtype=np.intp)
    maybe = np.empty(k_all, dtype=np.intp)  # a pair's pieces passing the bin's two tests
    length_h = np.empty(m)  # each pair's length and direction from its apex, by position
    ux_h = np.empty(m)  # in ``order``
    uy_h = np.empty(m)
    bin_h = np.empty(m, dtype=np.intp)
    cap = max(16, 4 * m)
    tmp = np.empty(cap, dtype=np.intp)
    off = np.zeros(m, dtype=np.intp)
    cnt = np.zeros(m, dtype=np.intp)
    n_tmp = 0
    g = 0
    while g < m:
        a = apex[order[g]]
        g_end = g
        lmax = 0.0  # the longest pair from a
        while g_end < m and apex[order[g_end]] == a:
            p = order[g_end]
            b = j[p] if i[p] == a else i[p]
            ddx = x[b] - x[a]
            ddy = y[b] - y[a]
            length = math.hypot(ddx, ddy)
            length_h[g_end] = length
            if length > 0:
                ux_h[g_end] = ddx / length
                uy_h[g_end] = ddy / length
            else:  # only near pieces can be candidates (any direction will do)
                ux_h[g_end] = 1.0
                uy_h[g_end] = 0.0
            e = int(_pseudo_angle(ddx, ddy) * per)
            bin_h[g_end] = e - bins if e >= bins else e
            lmax = max(lmax, length)
            g_end += 1
        # the bins around apex a
        n_near = 0
        bin_start[:] = 0
        for t in range(k_all):
            vx = cx[t] - x[a]
            vy = cy[t] - y[a]
            vx_a[t] = vx
            vy_a[t] = vy
            f = math.sqrt(vx * vx + vy * vy)  # (a pre-filter: no need of hypot's last bit)
            far[t] = f
            n_bin[t] = 0
            if f <= reach[t]:
                near[n_near] = t
                n_near += 1
                continue
            if f > lmax + reach[t]:  # beyond the other end of every pair from a
                continue  # (the test below, with the longest length: no angles)
            rr = reach[t]
            q = math.sqrt((f - rr) * (f + rr))
            lo = _pseudo_angle(vx * q + vy * rr, vy * q - vx * rr) - _PSEUDO_MARGIN
            hi = _pseudo_angle(vx * q - vy * rr, vy * q + vx * rr) + _PSEUDO_MARGIN
            if hi < lo:  # the cone spans the direction of the x axis
                hi += 4.0
            first = int(math.floor(lo * per))
            n = min(int(math.floor(hi * per)) - first + 1, bins)
            if first < 0:
                first += bins
            lo_bin[t] = first
            n_bin[t] = n
            for c in range(first, first + n):
                bin_start[(c - bins if c >= bins else c) + 1] += 1
        for c in range(bins):
            bin_start[c + 1] += bin_start[c]
        bin_fill[:] = bin_start[:bins]
        for t in range(k_all):  # pieces ascend within each bin
            first = lo_bin[t]
            for c in range(first, first + n_bin[t]):
                e = c - bins if c >= bins else c
                w = bin_fill[e]
                bin_items[w] = t
                bin_data[w, 0] = vx_a[t]
                bin_data[w, 1] = vy_a[t]
                bin_data[w, 2] = far[t]
                bin_data[w, 3] = grow[t]
                bin_fill[e] = w + 1
        for h in range(g, g_end):
            p = order[h]
            length = length_h[h]
            uxa = ux_h[h]
            uya = uy_h[h]
            e = bin_h[h]
            x0 = x[i[p]]  # the pair as given (the tests' arithmetic)
            y0 = y[i[p]]
            dx = x[j[p]] - x0
            dy = y[j[p]] - y0
            dd = dx * dx + dy * dy
            span = length  # hypot(dx, dy): (dx, dy) is (ddx, ddy) or exactly its opposite
            if span > 0:
                ux = dx / span
                uy = dy / span
            else:
                ux = 1.0
                uy = 0.0
            r = max(circ[i[p]], circ[j[p]])
            n_found = 0
            n_maybe = 0  # the bin's pieces kept without a branch (a branch would be
            for q in range(bin_start[e], bin_start[e + 1]):  # mispredicted)
                limit = bin_data[q, 3] + r
                maybe[n_maybe] = bin_items[q]
                n_maybe += ((abs(uxa * bin_data[q, 1] - uya * bin_data[q, 0]) <= limit)
                            & (bin_data[q, 2] <= length + limit))
            for q in range(n_maybe):
                t = maybe[q]
                found[n_found] = t
                n_found += _in_corridor(t, x0, y0, dx, dy, dd, span, ux, uy, r,
                                        piece)
            for q in range(n_near):
                t = near[q]
                found[n_found] = t
                n_found += _in_corridor(t, x0, y0, dx, dy, dd, span, ux, uy, r,
                                        piece)
            if n_tmp + n_found > cap:
                cap = max(2 * cap, n_tmp + n_found)
                grown = np.empty(cap, dtype=np.intp)
                grown[:n_tmp] = tmp[:n_tmp]
                tmp = grown
            for q in range(n_found):  # insertion sort: a handful of pieces
                t = found[q]
                f = n_tmp + q
                while f > n_tmp and tmp[f - 1] > t:
                    tmp[f] = tmp[f - 1]
                    f -= 1
                tmp[f] = t
            off[p] = n_tmp
            cnt[p] = n_found
            n_tmp += n_found
        g = g_end
    out_p = np.empty(n_tmp, dtype=np.intp)
    out_t = np.empty(n_tmp, dtype=np.intp)
    sight_p = np.empty(n_tmp, dtype=np.intp)
    sight_t = np.empty(n_tmp, dtype=np.intp)
    n_out = 0
    n_sight = 0
    for p in range(m):
        low = min(elevation[i[p]], elevation[j[p]]) + 1e-9  # corridor.sight_blockers
        high = max(body_top[i[p]], body_top[j[p]])
        for q in range(cnt[p]):
            t = tmp[off[p] + q]
            out_p[n_out] = p
            out_t[n_out] = t
            n_out += 1
            sight_p[n_sight] = p
            sight_t[n_sight] = t
            n_sight += blocks[t] & (top[t] > low) & (base[t] <= high)
    return out_p, out_t, sight_p[:n_sight], sight_t[:n_sight]


_PSEUDO_MARGIN = 1e-9  # pseudo-angle added either side of a piece's cone (``corridor``)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _put_pair(pa: FloatArray, pb: FloatArray, k: int, in_order: bool, ux: float, uy: float,
              vx: float, vy: float) -> None:
    """Pair k's closest points: (u, v) into (pa, pb) in order, else (v, u)."""
    if in_order:
        pa[k, 0] = ux
        pa[k, 1] = uy
        pb[k, 0] = vx
        pb[k, 1] = vy
    else:
        pa[k, 0] = vx
        pa[k, 1] = vy
        pb[k, 0] = ux
        pb[k, 1] = uy


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _no_answers(m: int) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """What a gap loop returns for m pairs before it answers any: gaps 0, closest points
    (0, 0), none answered."""
    return np.zeros(m), np.zeros((m, 2)), np.zeros((m, 2)), np.zeros(m, dtype=np.bool_)


@njit(cache=True, nogil=True, error_model="numpy")
def round_gaps(i: IntArray, j: IntArray, x: FloatArray, y: FloatArray, radius: FloatArray,
               circle: BoolArray, shape: IntArray, half_width: FloatArray,
               half_length: FloatArray, forward: FloatArray
               ) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """``gaps.gaps`` of the pairs (i[k], j[k]) of which at least one base is round (the
    others are skipped): two round bases as ``gaps._circle_gaps``, a round base against
    another outline as ``gaps._circle_shape_gaps`` (the nearest outline point as
    ``outline_distance.point_distance`` finds it, an oval's point by point). Returns the
    gaps, the closest points and which pairs were answered (not: no round base, or an
    oval that ``_ellipse_point`` leaves to numpy)."""
    m = len(i)
    gap, pa, pb, done = _no_answers(m)
    for k in range(m):
        a = i[k]
        b = j[k]
        if circle[a] and circle[b]:
            dx = x[b] - x[a]
            dy = y[b] - y[a]
            dist = math.hypot(dx, dy)
            ux = dx / dist if dist > 0 else 1.0
            uy = dy / dist if dist > 0 else 0.0
            ri = radius[a]
            rj = radius[b]
            raw = dist - ri - rj
            gap[k] = max(raw, 0.0)
            ta = ri if raw >= 0 else 0.5 * (ri + dist - rj)
            tb = dist - rj if raw >= 0 else ta
            pa[k, 0] = x[a] + ta * ux
            pa[k, 1] = y[a] + ta * uy
            pb[k, 0] = x[a] + tb * ux
            pb[k, 1] = y[a] + tb * uy
            done[k] = True
            continue
        if not (circle[a] or circle[b]):
            continue
        c, s = (a, b) if circle[a] else (b, a)  # the round base, the other outline
        d, nx, ny, ok = _nearest(s, x[c], y[c], x, y, shape, half_width, half_length,
                                 forward)
        if not ok:
            continue
        r = radius[c]
        raw = d - r
        safe = d if d > 0 else 1.0
        cux = (nx - x[c]) / safe
        cuy = (ny - y[c]) / safe
        if raw <= 0:
            ox = nx
            oy = ny
        else:
            ox = x[c] + r * cux
            oy = y[c] + r * cuy
        gap[k] = max(raw, 0.0)
        _put_pair(pa, pb, k, circle[a], ox, oy, nx, ny)
        done[k] = True
    return gap, pa, pb, done


_OVAL_NEWTON_STEPS = 12  # oval_gap.NEWTON_STEPS


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _on_oval(k: int, t: float, x: FloatArray, y: FloatArray, half_width: FloatArray,
             half_length: FloatArray, forward: FloatArray) -> tuple[float, float]:
    """``oval_gap._ellipse_pairs.points``: the point of body k's ellipse at angle t."""
    fx = forward[k, 0]
    fy = forward[k, 1]
    cw = half_width[k] * math.cos(t)
    sl = half_length[k] * math.sin(t)
    return x[k] + cw * fy + sl * fx, y[k] + cw * -fx + sl * fy


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _oval_angle(k: int, px: float, py: float, x: FloatArray, y: FloatArray,
                half_width: FloatArray, half_length: FloatArray, forward: FloatArray
                ) -> float:
    """``oval_gap._angle`` of the point (px, py) on body k's ellipse."""
    fx = forward[k, 0]
    fy = forward[k, 1]
    dx = px - x[k]
    dy = py - y[k]
    return math.atan2((dx * fx + dy * fy) / half_length[k],
                      (dx * fy + dy * -fx) / half_width[k])


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _half_sq(a: int, b: int, ta: float, tb: float, x: FloatArray, y: FloatArray,
             half_width: FloatArray, half_length: FloatArray, forward: FloatArray) -> float:
    """``oval_gap._ellipse_pairs.half_sq``: half the squared distance of the points."""
    ax, ay = _on_oval(a, ta, x, y, half_width, half_length, forward)
    bx, by = _on_oval(b, tb, x, y, half_width, half_length, forward)
    dx = ax - bx
    dy = ay - by
    return 0.5 * (dx * dx + dy * dy)


@njit(cache=True, nogil=True, error_model="numpy")
def _oval_pairs(ks: IntArray, i: IntArray, j: IntArray, pa: FloatArray, pb: FloatArray,
                x: FloatArray, y: FloatArray, half_width: FloatArray,
                half_length: FloatArray, forward: FloatArray, gap: FloatArray,
                out_a: FloatArray, out_b: FloatArray) -> None:
    """``oval_gap._ellipse_pairs`` of the pairs ks (two ovals) into gap, out_a, out_b:
    Newton's method on the two angles, step by step over every pair as numpy takes them
    (all pairs go on until every pair's step is below 1e-13)."""
    n = len(ks)
    ta = np.empty(n)
    tb = np.empty(n)
    for r in range(n):
        k = ks[r]
        ta[r] = _oval_angle(i[k], pa[k, 0], pa[k, 1], x, y, half_width, half_length,
                            forward)
        tb[r] = _oval_angle(j[k], pb[k, 0], pb[k, 1], x, y, half_width, half_length,
                            forward)
    for _ in range(_OVAL_NEWTON_STEPS):
        settled = True
        for r in range(n):
            k = ks[r]
            a = i[k]
            b = j[k]
            fax = forward[a, 0]
            fay = forward[a, 1]
            fbx = forward[b, 0]
            fby = forward[b, 1]
            wa = half_width[a]
            la = half_length[a]
            wb = half_width[b]
            lb = half_length[b]
            ca = math.cos(ta[r])
            sa = math.sin(ta[r])
            cb = math.cos(tb[r])
            sb = math.sin(tb[r])
            # right = (f_y, -f_x); the points as ``points`` and their derivatives
            ax = x[a] + wa * ca * fay + la * sa * fax
            ay = y[a] + wa * ca * -fax + la * sa * fay
            bx = x[b] + wb * cb * fby + lb * sb * fbx
            by = y[b] + wb * cb * -fbx + lb * sb * fby
            dx = ax - bx
            dy = ay - by
            dax = -wa * sa * fay + la * ca * fax
            day = -wa * sa * -fax + la * ca * fay
            dbx = -wb * sb * fby + lb * cb * fbx
            dby = -wb * sb * -fbx + lb * cb * fby
            g1 = dx * dax + dy * day
            g2 = -(dx * dbx + dy * dby)
            h11 = (dax * dax + day * day) - (dx * (ax - x[a]) + dy * (ay - y[a]))
            h22 = (dbx * dbx + dby * dby) + (dx * (bx - x[b]) + dy * (by - y[b]))
            h12 = -(dax * dbx + day * dby)
            det = h11 * h22 - h12 * h12
            if det > 1e-14 and h11 > 0:
                s1 = -(h22 * g1 - h12 * g2) / det
                s2 = -(h11 * g2 - h12 * g1) / det
            else:  # np.maximum: nan stays nan
                s1 = -g1 / (h11 if h11 > 1.0 or h11 != h11 else 1.0)
                s2 = -g2 / (h22 if h22 > 1.0 or h22 != h22 else 1.0)
            now = 0.5 * (dx * dx + dy * dy)  # ``half_sq`` of the points just computed
            scale = 1.0
            for _ in range(8):  # halve a step that does not decrease the distance
                if not (_half_sq(a, b, ta[r] + scale * s1, tb[r] + scale * s2, x, y,
                                 half_width, half_length, forward)
                        > now * (1 + 1e-12) + 1e-18):
                    break
                scale = 0.5 * scale
            ta[r] = ta[r] + scale * s1
            tb[r] = tb[r] + scale * s2
            if not (abs(scale * s1) + abs(scale * s2) < 1e-13):
                settled = False
        if settled:
            break
    for r in range(n):
        k = ks[r]
        ax, ay = _on_oval(i[k], ta[r], x, y, half_width, half_length, forward)
        bx, by = _on_oval(j[k], tb[r], x, y, half_width, half_length, forward)
        gap[k] = math.hypot(ax - bx, ay - by)
        _put_pair(out_a, out_b, k, True, ax, ay, bx, by)


@njit(cache=True, nogil=True, error_model="numpy")
def oval_gaps(i: IntArray, j: IntArray, pa: FloatArray, pb: FloatArray, x: FloatArray,
              y: FloatArray, shape: IntArray, half_width: FloatArray,
              half_length: FloatArray, forward: FloatArray
              ) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """``oval_gap.refine_gaps`` of separated pairs (i[k], j[k]), at least one an oval,
    from their approximate closest points pa, pb: two ovals as ``_ellipse_pairs``, an oval
    against a rectangle as ``_ellipse_rect`` (a corner's nearest oval point as
    ``_nearest``). Returns the gaps, the closest points and which pairs were answered
    (not: an oval's corner point that ``_ellipse_point`` leaves to numpy)."""
    m = len(i)
    gap = np.empty(m)
    out_a = np.empty((m, 2))
    out_b = np.empty((m, 2))
    done = np.ones(m, dtype=np.bool_)
    both = np.empty(m, dtype=np.intp)
    n_both = 0
    cand = np.empty(12)
    on_e = np.empty((12, 2))
    on_q = np.empty((12, 2))
    cu = np.empty(5)
    cv = np.empty(5)
    for k in range(m):
        if shape[i[k]] == _ELLIPSE and shape[j[k]] == _ELLIPSE:
            both[n_both] = k
            n_both += 1
            continue
        first = shape[i[k]] == _ELLIPSE
        e = i[k] if first else j[k]
        q = j[k] if first else i[k]
        fqx = forward[q, 0]
        fqy = forward[q, 1]
        hw = half_width[q]
        hl = half_length[q]
        ok = True
        for c in range(4):  # corners (-1, -1), (1, -1), (1, 1), (-1, 1)
            su = -1.0 if c == 0 or c == 3 else 1.0
            sv = -1.0 if c < 2 else 1.0
            px = x[q] + su * hw * fqy + sv * hl * fqx
            py = y[q] + su * hw * -fqx + sv * hl * fqy
            cu[c] = px
            cv[c] = py
            d, nx, ny, measured = _nearest(e, px, py, x, y, shape, half_width, half_length,
                                           forward)
            if not measured:
                ok = False
                break
            cand[c] = d
            on_e[c, 0] = nx
            on_e[c, 1] = ny
            on_q[c, 0] = px
            on_q[c, 1] = py
        if not ok:
            done[k] = False
            continue
        cu[4] = cu[0]
        cv[4] = cv[0]
        fex, fey, rex, rey, we, le = _frame(e, forward, half_width, half_length)
        for c in range(4):  # edge c (corner c to c + 1) against the support points
            ex = cu[c + 1] - cu[c]
            ey = cv[c + 1] - cv[c]
            length = math.hypot(ex, ey)
            ux = ex / length
            uy = ey / length
            for side in range(2):  # the normal, then its opposite
                sign = 1.0 if side == 0 else -1.0
                dirx = sign * uy
                diry = sign * -ux
                du = dirx * rex + diry * rey
                dv = dirx * fex + diry * fey
                wdu = we * du
                ldv = le * dv
                norm = math.sqrt(wdu * wdu + ldv * ldv)
                cw = we * we * du / norm
                cl = le * le * dv / norm
                sx = x[e] + cw * rex + cl * fex
                sy = y[e] + cw * rey + cl * fey
                along = (sx - cu[c]) * ux + (sy - cv[c]) * uy
                footx = cu[c] + along * ux
                footy = cv[c] + along * uy
                slot = 4 + 2 * c + side
                if along >= 0 and along <= length:
                    cand[slot] = math.hypot(sx - footx, sy - footy)
                else:
                    cand[slot] = np.inf
                on_e[slot, 0] = sx
                on_e[slot, 1] = sy
                on_q[slot, 0] = footx
                on_q[slot, 1] = footy
        # the first least candidate (np.argmin; one not finite never counts)
        pick = 0
        best = np.inf if np.isnan(cand[0]) else cand[0]
        for c in range(1, 12):
            v = cand[c]
            if v < best:
                best = v
                pick = c
        gap[k] = best
        if best < np.inf:
            ex_, ey_ = on_e[pick, 0], on_e[pick, 1]
            qx_, qy_ = on_q[pick, 0], on_q[pick, 1]
        else:
            ex_ = ey_ = qx_ = qy_ = 0.0
        _put_pair(out_a, out_b, k, first, ex_, ey_, qx_, qy_)
    if n_both:
        _oval_pairs(both[:n_both], i, j, pa, pb, x, y, half_width, half_length, forward, gap,
                    out_a, out_b)
    return gap, out_a, out_b, done


@njit(cache=True, nogil=True, error_model="numpy")
def counting_order(col: IntArray) -> tuple[IntArray, IntArray, bool]:
    """``triples._order``: ``np.argsort(col, kind="stable")`` and the sorted values, by
    counting (stable) when the values lie in [0, max(2^16, 4 len)); with False (and
    nothing) when they do not. No sort when they ascend already."""
    n = len(col)
    low = col[0] if n else 0
    high = low
    ascending = True
    for r in range(1, n):
        v = col[r]
        ascending &= v >= col[r - 1]
        low = min(low, v)
        high = max(high, v)
    if ascending:
        return np.arange(n), col.copy(), True
    if low < 0 or high >= max(1 << 16, 4 * n):
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp), False
    keys = high + 1
    count = np.zeros(keys + 1, dtype=np.intp)
    for v in col:
        count[v + 1] += 1
    for k in range(keys):
        count[k + 1] += count[k]
    ordered = np.empty(n, dtype=np.intp)
    for k in range(keys):  # the sorted values in one pass (count[k]: where k's start)
        ordered[count[k]:count[k + 1]] = k
    order = np.empty(n, dtype=np.intp)
    for r in range(n):
        v = col[r]
        order[count[v]] = r
        count[v] += 1
    return order, ordered, True


@njit(cache=True, nogil=True, error_model="numpy")
def counted_scatter(col: IntArray, start: IntArray, order: IntArray, first: int) -> None:
    """One block's part of ``counting_order`` of a column made of blocks: the rows of
    ``col`` (rows ``first`` .. of the whole column) put in ``order`` after the earlier
    blocks' rows of each value (``start[v]``: where this block's rows of value v begin;
    advanced). Blocks written so, in any order and by any thread, give the whole column's
    stable order (``pairs._ordered_rows``)."""
    for r in range(len(col)):
        v = col[r]
        order[start[v]] = first + r
        start[v] += 1


def warm() -> None:
    """Call every loop once on empty arrays of the types the computations pass: numba
    loads a loop's compiled code from its cache at its first call (tens of milliseconds
    each), so ``jit`` does it here, with the import, rather than in the first computation."""
    none = np.zeros(0, dtype=np.intp)
    f = np.zeros(0)
    b = np.zeros(0, dtype=np.bool_)
    f2 = np.zeros((0, 2))
    bounds = np.zeros((0, 4))
    e = np.zeros((4, 0))
    clip(f2, f2, none, e, e, e, none)
    cover_rows(none, none, b, b, none, none, none, f, 3.0, True)
    cover_hits(none, none, none, none, f2, f2, f, b, b, f, f, none, f, f, f2, b, bounds, e, e,
               e, none)
    sight(none, none, none, none, f, f, none, f, f, f2, f, f, f, f, bounds, e, e, e, none, e,
          e)
    corridor(none, none, none, none, f, f, f, f, f, bounds, e, e, b, f, f, 128, 1e-6)
    round_gaps(none, none, f, f, f, b, none, f, f, f2)
    oval_gaps(none, none, f2, f2, f, f, none, f, f, f2)
    counting_order(none)
    counted_scatter(none, none, none, 0)
    warm_shapes()


_APART = 1e-6  # gaps._APART
_SURE = 1e-10  # gaps._SURE
_GUESS_STEPS = 3  # gaps._GUESS_STEPS


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _support(k: int, ux: float, uy: float, x: FloatArray, y: FloatArray,
             half_width: FloatArray, half_length: FloatArray, forward: FloatArray
             ) -> tuple[float, float, float]:
    """``gaps._support``: the point of oval k farthest along (ux, uy) (unit), and how far
    along it lies beyond the centre."""
    fx, fy, _, _, w, h = _frame(k, forward, half_width, half_length)
    du = ux * fy - uy * fx
    dv = ux * fx + uy * fy
    norm = math.hypot(w * du, h * dv)
    safe = norm if norm > 0 else 1.0
    su = w * w * du / safe
    sv = h * h * dv / safe
    return x[k] + su * fy + sv * fx, y[k] - su * fx + sv * fy, norm


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _ovals_parted(a: int, b: int, x: FloatArray, y: FloatArray, half_width: FloatArray,
                  half_length: FloatArray, forward: FloatArray) -> bool:
    """``gaps._ovals_parted`` of ovals a and b."""
    dx = x[b] - x[a]
    dy = y[b] - y[a]
    dist = math.hypot(dx, dy)
    ok = dist > 0
    ux = dx / (dist if ok else 1.0)
    uy = dy / (dist if ok else 1.0)
    reach_a = _support(a, ux, uy, x, y, half_width, half_length, forward)[2]
    reach_b = _support(b, -ux, -uy, x, y, half_width, half_length, forward)[2]
    return ok and dist - reach_a - reach_b > _APART


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _support_guess(a: int, b: int, x: FloatArray, y: FloatArray, half_width: FloatArray,
                   half_length: FloatArray, forward: FloatArray
                   ) -> tuple[float, float, float, float]:
    """``gaps._support_guess`` of ovals a and b: (ax, ay, bx, by)."""
    ux = x[b] - x[a]
    uy = y[b] - y[a]
    ax = ay = bx = by = 0.0
    for _ in range(_GUESS_STEPS):
        length = math.hypot(ux, uy)
        ux = ux / length
        uy = uy / length
        ax, ay, _ = _support(a, ux, uy, x, y, half_width, half_length, forward)
        bx, by, _ = _support(b, -ux, -uy, x, y, half_width, half_length, forward)
        ux = bx - ax
        uy = by - ay
    return ax, ay, bx, by


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _parted(e: int, q: int, tx: float, ty: float, x: FloatArray, y: FloatArray,
            half_width: FloatArray, half_length: FloatArray, forward: FloatArray) -> bool:
    """``gaps._parted``: does the line square to (tx, ty) (from oval e towards rectangle
    q) leave more than ``_APART`` between the ellipse's support and the rectangle's
    nearest corner?"""
    length = math.hypot(tx, ty)
    ok = length > 0
    ux = tx / (length if ok else 1.0)
    uy = ty / (length if ok else 1.0)
    fex, fey, rex, rey, we, le = _frame(e, forward, half_width, half_length)
    fqx, fqy, rqx, rqy, wq, lq = _frame(q, forward, half_width, half_length)
    oval_far = (x[e] * ux + y[e] * uy
                + math.hypot(we * abs(rex * ux + rey * uy), le * abs(fex * ux + fey * uy)))
    rect_near = (x[q] * ux + y[q] * uy
                 - wq * abs(rqx * ux + rqy * uy) - lq * abs(fqx * ux + fqy * uy))
    return ok and rect_near - oval_far > _APART


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _closest(a: int, b: int, gap: float, ax: float, ay: float, bx: float, by: float,
             x: FloatArray, y: FloatArray, half_width: FloatArray, half_length: FloatArray,
             forward: FloatArray) -> bool:
    """``gaps._closest``: are (ax, ay) on oval a and (bx, by) on oval b, ``gap`` apart,
    the closest points (the supporting lines square to them ``gap`` apart)?"""
    ok = gap > 0
    ux = (bx - ax) / (gap if ok else 1.0)
    uy = (by - ay) / (gap if ok else 1.0)
    reach_a = _support(a, ux, uy, x, y, half_width, half_length, forward)[2]
    reach_b = _support(b, -ux, -uy, x, y, half_width, half_length, forward)[2]
    parted = ((x[b] - x[a]) * ux + (y[b] - y[a]) * uy) - reach_a - reach_b
    return ok and abs(gap - parted) <= _SURE


@njit(cache=True, nogil=True, error_model="numpy")
def shape_gaps(i: IntArray, j: IntArray, x: FloatArray, y: FloatArray, radius: FloatArray,
               circle: BoolArray, shape: IntArray, half_width: FloatArray,
               half_length: FloatArray, forward: FloatArray
               ) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """``gaps._shape_gaps`` (the batch path) of non-round pairs, what it measures without
    shapely: an oval against a rectangle (refined as ``oval_gaps``), kept where
    ``_parted`` holds; two ovals parted along their centres' line, refined from their
    support guess in one batch (``_oval_pairs``, the pairs in the batch path's order),
    kept where ``_closest`` holds; each finished as ``gaps._finish``. Returns the gaps,
    the closest points and which pairs were answered (not: two rectangles, outlines that
    meet, a pair not sure or that ``oval_gaps`` leaves: shapely's polygons measure
    those)."""
    m = len(i)
    gap, pa, pb, done = _no_answers(m)
    sel = np.empty(m, dtype=np.intp)
    n = 0
    for k in range(m):  # the ovals against rectangles first, then the parted ovals
        if (shape[i[k]] == _ELLIPSE) != (shape[j[k]] == _ELLIPSE):
            sel[n] = k
            n += 1
    mixed = n
    for k in range(m):
        if (shape[i[k]] == _ELLIPSE and shape[j[k]] == _ELLIPSE
                and _ovals_parted(i[k], j[k], x, y, half_width, half_length, forward)):
            sel[n] = k
            n += 1
    ii = np.empty(n, dtype=np.intp)
    jj = np.empty(n, dtype=np.intp)
    guess_a = np.zeros((n, 2))
    guess_b = np.zeros((n, 2))
    for r in range(n):
        ii[r] = i[sel[r]]
        jj[r] = j[sel[r]]
        if r >= mixed:
            guess_a[r, 0], guess_a[r, 1], guess_b[r, 0], guess_b[r, 1] = _support_guess(
                ii[r], jj[r], x, y, half_width, half_length, forward)
    d, out_a, out_b, measured = oval_gaps(ii, jj, guess_a, guess_b, x, y, shape, half_width,
                                          half_length, forward)
    for r in range(n):
        if not measured[r]:
            continue
        a = ii[r]
        b = jj[r]
        ax = out_a[r, 0]
        ay = out_a[r, 1]
        bx = out_b[r, 0]
        by = out_b[r, 1]
        if r < mixed:
            if shape[a] == _ELLIPSE:
                sure = _parted(a, b, bx - ax, by - ay, x, y, half_width, half_length, forward)
            else:
                sure = _parted(b, a, ax - bx, ay - by, x, y, half_width, half_length, forward)
        else:
            sure = _closest(a, b, d[r], ax, ay, bx, by, x, y, half_width, half_length,
                            forward)
        if not sure:
            continue
        k = sel[r]
        # ``gaps._finish``
        dist = d[r]
        raw = dist - radius[a] - radius[b]
        scale = dist if dist > 0 else 1.0
        ux = (bx - ax) / scale
        uy = (by - ay) / scale
        if raw <= 0:  # overlapping: one point of the overlap
            px, py = (bx, by) if circle[a] else (ax, ay)
            _put_pair(pa, pb, k, True, px, py, px, py)
        else:
            _put_pair(pa, pb, k, True, ax + ux * radius[a], ay + uy * radius[a],
                      bx - ux * radius[b], by - uy * radius[b])
        gap[k] = max(raw, 0.0)
        done[k] = True
    return gap, pa, pb, done


def warm_shapes() -> None:
    """``warm`` for the loops above (their first call loads their compiled code)."""
    none = np.zeros(0, dtype=np.intp)
    f = np.zeros(0)
    shape_gaps(none, none, f, f, f, np.zeros(0, dtype=np.bool_), none, f, f, np.zeros((0, 2)))
