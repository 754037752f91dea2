"""Which terrain pieces can meet the sight lines or cover line of a pair of bodies.

Every sample sight line and the closest-points line of a pair lie in the *corridor*: the
set of points within R of the segment joining the two centres, R being the larger
circumradius of the two bases. A terrain piece is a candidate unless a bounding-box test,
the circle around its bounding box, or one of two separating axes (across and along that
segment) shows it lies outside the corridor. The test never drops a piece that touches
the corridor; it may keep a few that do not (the exact segment tests decide).

Many pairs against many pieces (``ANGULAR_AFTER`` combinations or more) are not tested
all against all: seen from one end of a pair (its *apex*: the end found in more of the
pairs, such as the dragged body of a drag's pairs), a piece can meet the corridor only
if the direction of the other body lies within the angle the piece's circle (grown by
the largest circumradius) subtends, and the piece is not beyond the other body. Those
angles are binned (``BINS`` bins around each first body), so a pair looks only at the
pieces of its direction's bin (and at the pieces around its first body), then applies
the same tests as above: the candidates are exactly the same, found in a time that grows
with the pieces near each line rather than with all of them. Where numba is installed
(``jit``) a compiled loop does the same one apex at a time (``jit_kernels.corridor``),
its bins those of pseudo-angles (no trigonometry), with the same answer; it also lists
the candidates that may block sight (``sight_blockers``) as it goes, so that a pair
table's sight needs no pass over its millions of candidates (``corridor_and_sight``).
"""

from __future__ import annotations

import weakref
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_CHUNK = 1 << 18
ANGULAR_AFTER = 1 << 16  # pairs x pieces from which the angular bins are used
BINS = 128  # angular bins around each first body
_MARGIN = 1e-6  # inches (and radians) added to the bins' circles and angles
_AT_ONCE = 8192  # (vertices x candidates) of the separating axes taken as one array


def corridor_candidates(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                        angular: bool | None = None) -> tuple[IntArray, IntArray]:
    """(pair index, terrain index) of every terrain that may touch pair k's corridor,
    ordered by pair then terrain. ``angular``: use the angular bins (default: from
    ``ANGULAR_AFTER`` pairs x pieces on, or the compiled loop, ``jit_kernels``,
    when numba is there); the answer is the same either way."""
    if len(ts) == 0 or len(i) == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    kernels = jit.kernels(len(i)) if angular is None else None
    if kernels is not None:
        return _compiled(kernels, ba, ts, i, j)[0]
    return _numpy_candidates(ba, ts, i, j, angular)


def corridor_and_sight(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray
                       ) -> tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]:
    """``corridor_candidates`` and those of them that may block sight
    (``sight_blockers``), both ordered by pair then terrain: found together by the
    compiled loop when numba is there."""
    if len(ts) == 0 or len(i) == 0:
        none = np.zeros(0, np.intp), np.zeros(0, np.intp)
        return none, none
    kernels = jit.kernels(len(i))
    if kernels is not None:
        return _compiled(kernels, ba, ts, i, j)
    pk, tk = _numpy_candidates(ba, ts, i, j, None)
    return (pk, tk), sight_blockers(ba, ts, i, j, pk, tk)


def sight_blockers(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                   pk: IntArray, tk: IntArray) -> tuple[IntArray, IntArray]:
    """The (pair, terrain) candidates that block sight and can reach the lines' heights:
    terrain whose top is at or below both bottoms, or whose base is above both tops,
    cannot block any sample line."""
    low = np.minimum(ba.elevation[i], ba.elevation[j])[pk]
    high = np.maximum(ba.top[i], ba.top[j])[pk]
    keep = ts.blocks_sight[tk] & (ts.top[tk] > low + 1e-9) & (ts.base[tk] <= high)
    return pk[keep], tk[keep]


def _compiled(kernels: ModuleType, ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray
              ) -> tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]:
    """``corridor_and_sight`` by ``jit_kernels.corridor``."""
    ii = np.ascontiguousarray(i, dtype=np.intp)
    jj = np.ascontiguousarray(j, dtype=np.intp)
    seen = np.bincount(np.concatenate([ii, jj]), minlength=len(ba))
    apex = np.where(seen[ii] >= seen[jj], ii, jj)  # the end found in more pairs
    order = (np.arange(len(ii), dtype=np.intp) if (apex[1:] >= apex[:-1]).all()
             else np.argsort(apex, kind="stable"))
    scale = 1.0 + float(np.max(np.abs(ts.bounds), initial=0.0))
    pk, tk, spk, stk = kernels.corridor(
        ii, jj, apex, order, ba.x, ba.y, ba.circumradius, ba.elevation, ba.top, ts.bounds,
        ts.vertex_x, ts.vertex_y, ts.blocks_sight, ts.base, ts.top, BINS, _MARGIN * scale)
    return (pk, tk), (spk, stk)


def _numpy_candidates(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                      angular: bool | None) -> tuple[IntArray, IntArray]:
    """``corridor_candidates`` in numpy (``angular`` as there)."""
    r = np.maximum(ba.circumradius[i], ba.circumradius[j])
    x0, y0, x1, y1 = ba.x[i], ba.y[i], ba.x[j], ba.y[j]
    lox, hix = np.minimum(x0, x1) - r, np.maximum(x0, x1) + r
    loy, hiy = np.minimum(y0, y1) - r, np.maximum(y0, y1) + r
    bd = ts.bounds
    if angular if angular is not None else len(i) * len(ts) >= ANGULAR_AFTER:
        pk, tk, split = _angular(ba, ts, i, j, r)
        first = np.arange(len(pk)) < split  # the first of the runs to merge in the end
        # the circle test first: it drops most of what the bins let through
        near = _circle_hit(ba, ts, i, j, r, pk, tk)
        pk, tk, first = pk[near], tk[near], first[near]
        box_hit = ((lox[pk] <= bd[tk, 2]) & (hix[pk] >= bd[tk, 0])
                   & (loy[pk] <= bd[tk, 3]) & (hiy[pk] >= bd[tk, 1]))
        pk, tk, first = pk[box_hit], tk[box_hit], first[box_hit]
    else:
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
        near = _circle_hit(ba, ts, i, j, r, pk, tk)
        pk, tk = pk[near], tk[near]
        first = np.ones(len(pk), dtype=bool)
    if len(pk) == 0:
        return pk, tk
    keep = np.concatenate([_across_and_along(ba, ts, i, j, r, pk[s:s + _CHUNK],
                                             tk[s:s + _CHUNK])
                           for s in range(0, len(pk), _CHUNK)])
    return _merge(pk[keep], tk[keep], int(first[keep].sum()), len(ts))


def _circle_hit(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray, r: FloatArray,
                pk: IntArray, tk: IntArray) -> NDArray[np.bool_]:
    """The circle around each terrain's bounding box against the centre segment."""
    bcx, bcy, brad = _box_circles(ts)
    cx, cy, rad = bcx[tk], bcy[tk], brad[tk]
    ai, bj = i[pk], j[pk]
    ax, ay = ba.x[ai], ba.y[ai]
    dx, dy = ba.x[bj] - ax, ba.y[bj] - ay
    dd = dx * dx + dy * dy
    u = np.clip(((cx - ax) * dx + (cy - ay) * dy) / np.where(dd > 0, dd, 1.0), 0.0, 1.0)
    return np.asarray(np.hypot(ax + u * dx - cx, ay + u * dy - cy) <= r[pk] + rad + 1e-9,
                      dtype=bool)


def _box_circles(ts: TerrainSet) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Centre x, y and radius of the circle around each piece's bounding box (kept per
    terrain set: a drag step asks for them every time)."""
    known = _BOX_CIRCLES.get(ts)
    if known is None:
        bd = ts.bounds
        known = (0.5 * (bd[:, 0] + bd[:, 2]), 0.5 * (bd[:, 1] + bd[:, 3]),
                 0.5 * np.hypot(bd[:, 2] - bd[:, 0], bd[:, 3] - bd[:, 1]))
        _BOX_CIRCLES[ts] = known
    return known


_BOX_CIRCLES: weakref.WeakKeyDictionary[TerrainSet, tuple[FloatArray, FloatArray, FloatArray]] \
    = weakref.WeakKeyDictionary()


def _angular(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray, r: FloatArray
             ) -> tuple[IntArray, IntArray, int]:
    """Every (pair, piece) whose piece's circle comes within ``r`` of the pair's centre
    segment (and some that do not), as two runs each ordered by pair then piece: the
    pieces found in the bins, then (from the third value on) those around the apexes
    (module doc)."""
    bd = ts.bounds
    cx = 0.5 * (bd[:, 0] + bd[:, 2])
    cy = 0.5 * (bd[:, 1] + bd[:, 3])
    reach = 0.5 * np.hypot(bd[:, 2] - bd[:, 0], bd[:, 3] - bd[:, 1]) + float(r.max()) + _MARGIN
    # each pair's apex: the end found in more pairs (the first when as many)
    seen = np.bincount(np.concatenate([i, j]), minlength=len(ba))
    from_i = seen[i] >= seen[j]
    i, j = np.where(from_i, i, j), np.where(from_i, j, i)
    apex, ai = np.unique(i, return_inverse=True)
    ai = ai.astype(np.intp).ravel()
    vx = cx[None, :] - ba.x[apex][:, None]
    vy = cy[None, :] - ba.y[apex][:, None]
    far = np.hypot(vx, vy)  # (apex, piece): centre distances
    near = far <= reach[None, :]  # the piece's grown circle holds the apex: every direction
    width = 2 * np.pi / BINS
    a_idx, t_idx = np.nonzero(~near)
    far_e = far[a_idx, t_idx]
    half = np.arcsin(np.minimum(1.0, reach[t_idx] / far_e)) + _MARGIN
    phi = np.arctan2(vy[a_idx, t_idx], vx[a_idx, t_idx])
    lo = np.floor((phi - half + np.pi) / width).astype(np.intp)
    count = np.floor((phi + half + np.pi) / width).astype(np.intp) - lo + 1
    rep = np.repeat(np.arange(len(a_idx), dtype=np.intp), count)
    bins = (lo[rep] + _within(count)) % BINS
    key = a_idx[rep] * BINS + bins
    order = np.argsort(key, kind="stable")  # by key, then piece (t_idx ascends per apex)
    entry = rep[order]
    starts = np.zeros(len(apex) * BINS + 1, dtype=np.intp)
    np.cumsum(np.bincount(key, minlength=len(apex) * BINS), out=starts[1:])
    # each pair's bin around its first body, the pieces not beyond the other body
    theta = np.arctan2(ba.y[j] - ba.y[i], ba.x[j] - ba.x[i])
    pkey = ai * BINS + np.floor((theta + np.pi) / width).astype(np.intp) % BINS
    pk1, pos = _expand(starts, pkey)
    e1 = entry[pos]
    length = np.hypot(ba.x[j] - ba.x[i], ba.y[j] - ba.y[i])
    tk1 = t_idx[e1]
    keep = far_e[e1] <= length[pk1] + reach[tk1]
    # the pieces around each apex, for every pair from it
    near_starts = np.zeros(len(apex) + 1, dtype=np.intp)
    np.cumsum(near.sum(axis=1), out=near_starts[1:])
    pk2, pos2 = _expand(near_starts, ai)
    tk2 = np.nonzero(near)[1].astype(np.intp)[pos2]
    pk1, tk1 = pk1[keep], tk1[keep]
    return np.concatenate([pk1, pk2]), np.concatenate([tk1, tk2]), len(pk1)


def _within(count: IntArray) -> IntArray:
    """0, 1, ..., count[n] - 1 for each n, one after the other."""
    return (np.arange(int(count.sum()), dtype=np.intp)
            - np.repeat(np.cumsum(count) - count, count))


def _expand(starts: IntArray, keys: IntArray) -> tuple[IntArray, IntArray]:
    """(row, position) of every position listed under each row's key (CSR ``starts``)."""
    first = starts[keys]
    count = starts[keys + 1] - first
    return (np.repeat(np.arange(len(keys), dtype=np.intp), count),
            _within(count) + np.repeat(first, count))


def _merge(pk: IntArray, tk: IntArray, split: int, k: int) -> tuple[IntArray, IntArray]:
    """Two runs ordered by (pair, piece), ``[:split]`` and ``[split:]``, without a common
    entry, merged into one order."""
    if split == 0 or split == len(pk):
        return pk, tk
    key = pk.astype(np.int64) * k + tk
    second = np.searchsorted(key[:split], key[split:]) + np.arange(len(pk) - split)
    order = np.empty(len(pk), dtype=np.intp)
    taken = np.zeros(len(pk), dtype=bool)
    taken[second] = True
    order[second] = np.arange(split, len(pk))
    order[~taken] = np.arange(split)
    return pk[order], tk[order]


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
    if ts.vertex_x.shape[0] * len(pk) <= _AT_ONCE:  # every vertex in one (v, n) array
        vx = ts.vertex_x[:, tk] - x0
        vy = ts.vertex_y[:, tk] - y0
        across = vx * ax + vy * ay
        along = vx * bx + vy * by
        a_min = np.minimum.reduce(across, axis=0, initial=np.inf)
        a_max = np.maximum.reduce(across, axis=0, initial=-np.inf)
        b_min = np.minimum.reduce(along, axis=0, initial=np.inf)
        b_max = np.maximum.reduce(along, axis=0, initial=-np.inf)
    else:  # vertex by vertex (less memory): the same extremes
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
