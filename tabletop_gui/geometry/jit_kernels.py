"""Compiled (numba) loops of the bulk pair computation: the same arithmetic as the numpy
paths, one pair at a time, so that each pair stops at its first clear sight line and
meets only the terrain near it.

Imported only through ``jit.kernels()`` (numba is optional: without it the numpy paths
answer). Every loop does, operation for operation, what its numpy counterpart does
(named in each docstring), so the answers are the same; the tests compare them
(``tests/core/test_geometry_jit.py``).
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
# sight.PATH_A / PATH_B, the outer and inner paths, and the lower height pairs
_PATH_A = np.array([0, 1, 2, 1, 2, 3, 3, 0], dtype=np.intp)
_PATH_B = np.array([0, 2, 1, 1, 2, 3, 0, 3], dtype=np.intp)
_ROUNDS = np.array([1, 2, 0, 3, 4, 5, 6, 7], dtype=np.intp)  # outer paths, then inner
_LOWER_A = np.array([0, 0, 1, 1, 1, 2, 2, 2], dtype=np.intp)
_LOWER_B = np.array([1, 2, 0, 1, 2, 0, 1, 2], dtype=np.intp)
_HEIGHTS = np.array([1.0, 0.5, 0.0])  # sight.HEIGHTS
_RECT = 2  # outline.RECT


@njit(cache=True, nogil=True)
def segment_blocked(px: float, py: float, pz: float, qx: float, qy: float, qz: float,
                    t: int, base: FloatArray, top: FloatArray, enx: FloatArray,
                    eny: FloatArray, ec: FloatArray, ecount: IntArray) -> bool:
    """``segments.blocked`` (use_z, no t_from) of one segment against one convex polygon
    of the padded edge arrays."""
    dx = qx - px
    dy = qy - py
    dz = qz - pz
    length3 = math.sqrt(dx * dx + dy * dy + dz * dz)
    if abs(dz) <= 1e-12:  # segments._z_interval
        if pz >= base[t] - _EPS_Z and pz < top[t] - _EPS_Z:
            zlo, zhi = -np.inf, np.inf
        else:
            zlo, zhi = np.inf, -np.inf
    else:
        t1 = (base[t] - pz) / dz
        t2 = (top[t] - pz) / dz
        zlo, zhi = min(t1, t2), max(t1, t2)
    lo = max(0.0, zlo)
    hi = min(1.0, zhi)
    if not hi > lo:
        return False
    tol = 1e-12 * math.hypot(dx, dy)  # segments._clip
    ilo = -np.inf
    ihi = np.inf
    for v in range(ecount[t]):
        nx = enx[v, t]
        ny = eny[v, t]
        num = nx * px + ny * py - ec[v, t]
        den = nx * dx + ny * dy
        if den > tol:
            tt = -num / den
            if tt > ilo:
                ilo = tt
        elif den < -tol:
            tt = -num / den
            if tt < ihi:
                ihi = tt
        elif num <= _EPS_SIDE:
            return False  # outside along an edge: the interval is empty
    a = max(lo, ilo)
    b = min(hi, ihi)
    if not b > a:
        return False
    span = b - a
    return span > 0 and span * length3 > _EPS_LENGTH


@njit(cache=True, nogil=True)
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
        tol = 1e-12 * math.hypot(dx, dy)
        ilo = -np.inf
        ihi = np.inf
        outside = False
        for v in range(ecount[t]):
            nx = enx[v, t]
            ny = eny[v, t]
            num = nx * px + ny * py - ec[v, t]
            den = nx * dx + ny * dy
            if den > tol:
                tt = -num / den
                if tt > ilo:
                    ilo = tt
            elif den < -tol:
                tt = -num / den
                if tt < ihi:
                    ihi = tt
            elif num <= _EPS_SIDE:
                outside = True
        lo[k] = np.inf if outside else ilo
        hi[k] = ihi
    return lo, hi


@njit(cache=True, nogil=True)
def sight_centre(i: IntArray, j: IntArray, starts: IntArray, terr: IntArray,
                 x: FloatArray, y: FloatArray, body_top: FloatArray, base: FloatArray,
                 top: FloatArray, enx: FloatArray, eny: FloatArray, ec: FloatArray,
                 ecount: IntArray) -> BoolArray:
    """Stage 1 of ``sight.sight_pairs``: does each candidate (CSR ``starts``/``terr`` by
    pair) block the top-centre to top-centre line of its pair?"""
    hit = np.zeros(len(terr), dtype=np.bool_)
    for k in range(len(i)):
        a = i[k]
        b = j[k]
        for e in range(starts[k], starts[k + 1]):
            hit[e] = segment_blocked(x[a], y[a], body_top[a], x[b], y[b], body_top[b],
                                     terr[e], base, top, enx, eny, ec, ecount)
    return hit


@njit(cache=True, nogil=True)
def _line_clear(sa: FloatArray, sb: FloatArray, za: float, zb: float, pa: int, pb: int,
                lo: int, hi: int, terr: IntArray, base: FloatArray, top: FloatArray,
                enx: FloatArray, eny: FloatArray, ec: FloatArray, ecount: IntArray) -> bool:
    for e in range(lo, hi):
        if segment_blocked(sa[pa, 0], sa[pa, 1], za, sb[pb, 0], sb[pb, 1], zb, terr[e],
                           base, top, enx, eny, ec, ecount):
            return False
    return True


@njit(cache=True, nogil=True)
def plan_samples(a: int, b: int, x: FloatArray, y: FloatArray, shape: IntArray,
                 half_length: FloatArray, half_width: FloatArray, forward: FloatArray,
                 out: FloatArray) -> None:
    """``sight.plan_samples`` of body a as seen from body b, into ``out`` (4, 2)."""
    cx = x[a]
    cy = y[a]
    dx = x[b] - cx
    dy = y[b] - cy
    dist = math.hypot(dx, dy)
    if dist > 0:
        ux = dx / dist
        uy = dy / dist
    else:
        ux = 1.0
        uy = 0.0
    fx = forward[a, 0]
    fy = forward[a, 1]
    rx = fy
    ry = -fx
    hl = half_length[a]
    hw = half_width[a]
    out[0, 0] = cx
    out[0, 1] = cy
    for s in range(3):  # left, right, front
        if s == 0:
            ddx, ddy = -uy, ux
        elif s == 1:
            ddx, ddy = uy, -ux
        else:
            ddx, ddy = ux, uy
        du = ddx * rx + ddy * ry
        dv = ddx * fx + ddy * fy
        norm = math.hypot(hw * du, hl * dv)
        if not norm > 0:
            norm = 1.0
        u = hw * hw * du / norm
        v = hl * hl * dv / norm
        if shape[a] == _RECT:
            su = du if abs(du) > 1e-12 else ux * rx + uy * ry
            sv = dv if abs(dv) > 1e-12 else ux * fx + uy * fy
            u = (1.0 if su >= 0 else -1.0) * hw
            v = (1.0 if sv >= 0 else -1.0) * hl
        out[s + 1, 0] = cx + u * rx + v * fx
        out[s + 1, 1] = cy + u * ry + v * fy


@njit(cache=True, nogil=True)
def sight_samples(i: IntArray, j: IntArray, rows: IntArray, starts: IntArray,
                  terr: IntArray, hit: BoolArray, x: FloatArray, y: FloatArray,
                  shape: IntArray, half_length: FloatArray, half_width: FloatArray,
                  forward: FloatArray, elevation: FloatArray, body_top: FloatArray,
                  base: FloatArray, top: FloatArray, enx: FloatArray, eny: FloatArray,
                  ec: FloatArray, ecount: IntArray) -> BoolArray:
    """Stages 2 and 3 of ``sight.sight_pairs`` for the pairs ``rows`` (their top-centre
    line blocked): is some sample line clear?

    Stage 2 tries each plan path top to top, the outer ones first, against the terrain
    that blocked the centre line, then (when none of it blocks) the rest; a path blocked
    by a terrain at or below both bottoms in the round that blocked it is grounded.
    Stage 3 tries the lower heights of the paths that are not grounded.
    """
    out = np.zeros(len(rows), dtype=np.bool_)
    grounded = np.zeros(8, dtype=np.bool_)
    sa = np.empty((4, 2))
    sb = np.empty((4, 2))
    za = np.empty(3)
    zb = np.empty(3)
    for r in range(len(rows)):
        k = rows[r]
        a = i[k]
        b = j[k]
        s0 = starts[k]
        s1 = starts[k + 1]
        plan_samples(a, b, x, y, shape, half_length, half_width, forward, sa)
        plan_samples(b, a, x, y, shape, half_length, half_width, forward, sb)
        for h in range(3):  # sight._heights
            za[h] = elevation[a] + _HEIGHTS[h] * (body_top[a] - elevation[a])
            zb[h] = elevation[b] + _HEIGHTS[h] * (body_top[b] - elevation[b])
        low = min(elevation[a], elevation[b])
        clear = False
        for w in _ROUNDS:
            pa = _PATH_A[w]
            pb = _PATH_B[w]
            blocked_w = False
            ground_w = False
            for rnd in range(2):  # the centre line's blockers first, then the rest
                if blocked_w:
                    break
                first = rnd == 0
                for e in range(s0, s1):
                    if hit[e] != first:
                        continue
                    t = terr[e]
                    if segment_blocked(sa[pa, 0], sa[pa, 1], za[0], sb[pb, 0], sb[pb, 1],
                                       zb[0], t, base, top, enx, eny, ec, ecount):
                        blocked_w = True
                        if base[t] <= low + 1e-9:
                            ground_w = True
                            break
            grounded[w] = ground_w
            if not blocked_w:  # a clear path: visible (no other path is needed)
                clear = True
                break
        if not clear:
            for w in range(8):
                if grounded[w]:
                    continue
                for h in range(8):
                    if _line_clear(sa, sb, za[_LOWER_A[h]], zb[_LOWER_B[h]], _PATH_A[w],
                                   _PATH_B[w], s0, s1, terr, base, top, enx, eny, ec,
                                   ecount):
                        clear = True
                        break
                if clear:
                    break
        out[r] = clear
    return out


@njit(cache=True, nogil=True)
def corridor(i: IntArray, j: IntArray, x: FloatArray, y: FloatArray, circ: FloatArray,
             bounds: FloatArray, vx_t: FloatArray, vy_t: FloatArray, origin_x: float,
             origin_y: float, cell: float, cols: int, rows: int, cell_start: IntArray,
             cell_items: IntArray, margin: float) -> tuple[IntArray, IntArray]:
    """``corridor.corridor_candidates``: (pair, piece) of every piece passing the box, the
    circle and the two separating-axis tests of its pair, ordered by pair then piece.

    The pieces are looked up in a uniform grid (``cell_start``/``cell_items``: the pieces
    whose bounding-box circle meets each cell, row-major): for each pair, the cells that
    points within ``r + margin`` of its centre segment lie in, row by row. A piece passing
    the circle test has a point of its circle in one of them.
    """
    k_all = bounds.shape[0]
    stamp = np.full(k_all, -1, dtype=np.intp)
    found = np.empty(k_all, dtype=np.intp)
    cap = max(16, 4 * len(i))
    out_p = np.empty(cap, dtype=np.intp)
    out_t = np.empty(cap, dtype=np.intp)
    n_out = 0
    n_vert = vx_t.shape[0]
    for p in range(len(i)):
        a = i[p]
        b = j[p]
        r = max(circ[a], circ[b])
        x0 = x[a]
        y0 = y[a]
        x1 = x[b]
        y1 = y[b]
        lox = min(x0, x1) - r
        hix = max(x0, x1) + r
        loy = min(y0, y1) - r
        hiy = max(y0, y1) + r
        dx = x1 - x0
        dy = y1 - y0
        dd = dx * dx + dy * dy
        length = math.hypot(dx, dy)
        if length > 0:
            ux = dx / length
            uy = dy / length
        else:
            ux = 1.0
            uy = 0.0
        ax = -uy
        ay = ux
        reach = r + margin
        n_found = 0
        row0 = max(0, int(math.floor((min(y0, y1) - reach - origin_y) / cell)))
        row1 = min(rows - 1, int(math.floor((max(y0, y1) + reach - origin_y) / cell)))
        for row in range(row0, row1 + 1):
            band0 = origin_y + row * cell - reach
            band1 = origin_y + (row + 1) * cell + reach
            if dy == 0.0:
                xa = min(x0, x1)
                xb = max(x0, x1)
            else:
                ta = (band0 - y0) / dy
                tb = (band1 - y0) / dy
                if ta > tb:
                    ta, tb = tb, ta
                ta = max(ta, 0.0)
                tb = min(tb, 1.0)
                if ta > tb:
                    continue
                xa = x0 + ta * dx
                xb = x0 + tb * dx
                if xa > xb:
                    xa, xb = xb, xa
            col0 = max(0, int(math.floor((xa - reach - origin_x) / cell)))
            col1 = min(cols - 1, int(math.floor((xb + reach - origin_x) / cell)))
            for col in range(col0, col1 + 1):
                c = row * cols + col
                for e in range(cell_start[c], cell_start[c + 1]):
                    t = cell_items[e]
                    if stamp[t] == p:
                        continue
                    stamp[t] = p
                    # the box test
                    if not (lox <= bounds[t, 2] and hix >= bounds[t, 0]
                            and loy <= bounds[t, 3] and hiy >= bounds[t, 1]):
                        continue
                    # the circle test (corridor._circle_hit)
                    cx = 0.5 * (bounds[t, 0] + bounds[t, 2])
                    cy = 0.5 * (bounds[t, 1] + bounds[t, 3])
                    rad = 0.5 * math.hypot(bounds[t, 2] - bounds[t, 0],
                                           bounds[t, 3] - bounds[t, 1])
                    u = ((cx - x0) * dx + (cy - y0) * dy) / (dd if dd > 0 else 1.0)
                    u = min(max(u, 0.0), 1.0)
                    if not math.hypot(x0 + u * dx - cx, y0 + u * dy - cy) <= r + rad + 1e-9:
                        continue
                    # the separating axes (corridor._across_and_along)
                    a_min = np.inf
                    a_max = -np.inf
                    b_min = np.inf
                    b_max = -np.inf
                    for v in range(n_vert):
                        vx = vx_t[v, t] - x0
                        vy = vy_t[v, t] - y0
                        across = vx * ax + vy * ay
                        along = vx * ux + vy * uy
                        a_min = min(a_min, across)
                        a_max = max(a_max, across)
                        b_min = min(b_min, along)
                        b_max = max(b_max, along)
                    if a_min > r or a_max < -r or b_max < -r or b_min > length + r:
                        continue
                    found[n_found] = t
                    n_found += 1
        if n_out + n_found > cap:
            cap = max(2 * cap, n_out + n_found)
            grown_p = np.empty(cap, dtype=np.intp)
            grown_t = np.empty(cap, dtype=np.intp)
            grown_p[:n_out] = out_p[:n_out]
            grown_t[:n_out] = out_t[:n_out]
            out_p = grown_p
            out_t = grown_t
        for e in range(n_found):  # insertion sort: a handful of pieces
            t = found[e]
            f = n_out + e
            while f > n_out and out_t[f - 1] > t:
                out_t[f] = out_t[f - 1]
                f -= 1
            out_t[f] = t
            out_p[n_out + e] = p
        n_out += n_found
    return out_p[:n_out].copy(), out_t[:n_out].copy()
