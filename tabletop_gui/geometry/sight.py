"""Line of sight between model prisms, through terrain prisms.

Each model is the prism of its base outline from its elevation up to elevation +
height. Two models see each other when at least one *sample sight line* between them
is not blocked (``segments.blocked``) by any terrain that blocks sight (obstacles with
``blocks_sight``, every platform).

Samples (documented, deterministic): on each body four points in plan, as seen along
the line of centres -- its centre, the outline points farthest to the left and to the
right, and the outline point farthest towards the other body (the exact support points
of the circle, ellipse or rectangle; a rectangle's corner, ties going towards the other
body). Eight *plan paths* join them: centre-centre, the two outer paths along the same
side (left to right-as-seen-back, and vice versa), the two crossing paths, front-front,
front-centre and centre-front. Each path is tried at the 9 pairs of heights (bottom,
middle, top of each model): 72 sample lines per pair, all considered.

Evaluation order (same answers as testing all of them, only faster): the top-centre to
top-centre line first; then the top-to-top lines of the two outer paths, and of the six
others only for pairs still without a clear line; a plan path whose top-to-top line is
blocked by a terrain standing on the table at or below both bodies' bottoms is blocked
at every height (a lower line is below the higher one everywhere along the path), so
only the other paths are tried at the 8 other height pairs.

``blocked_by`` names the terrain that blocks the top-centre to top-centre line (never
empty when the models cannot see each other).

Where numba is installed (``jit``), the pairs whose candidates are all convex polygons of
the padded edge arrays are answered by one compiled loop that follows the same order pair
by pair and stops at a pair's first clear path (``jit_kernels.sight``): each pair's
centre line against its candidates (passing over pieces no higher than both of its ends,
which cannot block it), then, while those candidates are at hand, its samples; the same
answers and blocker rows, without arrays of every candidate line or numpy steps between
two loops. There, a pair whose centre line is blocked by a piece standing at or below
both bottoms that cuts the corridor of the samples (every sample lies within its body's
reach of its centre: a rectangle's half diagonal, an oval's larger half axis; the
corridor is the convex hull of the two discs of those reaches, narrower towards the
smaller body) and rises above every top line where they cross it (above both tops, or
above the highest a line can be over the piece's extent along the centres' line) is
hidden at once: that piece blocks and grounds every plan path, as a proof shows
(``jit_kernels.hides_pair``, ``crosses_corridor``), so the eight paths need not be
tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit, outline
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import corridor_candidates, sight_blockers
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

N_PLAN = 4  # centre, left, right, front
# plan paths as (sample on a, sample on b); b's left is on a's right side
PATH_A = np.array([0, 1, 2, 1, 2, 3, 3, 0], dtype=np.intp)
PATH_B = np.array([0, 2, 1, 1, 2, 3, 0, 3], dtype=np.intp)
N_PATHS = len(PATH_A)
_OUTER = np.array([1, 2], dtype=np.intp)  # the two outer paths
_INNER = np.array([0, 3, 4, 5, 6, 7], dtype=np.intp)
_ALL = np.arange(N_PATHS, dtype=np.intp)
HEIGHTS = (1.0, 0.5, 0.0)  # top, middle, bottom, as fractions of the height
MERGE_BELOW = 2000  # pairs: below, each stage-2 round is one ``blocked`` call
ONE_CALL_LINES = 2400  # stage 2's lines of every path, up to which they are one call


@dataclass(frozen=True)
class SightResult:
    visible: BoolArray  # (m,)
    blocker_pair: IntArray  # pair index of each (pair, terrain) blocking the centre line
    blocker_terrain: IntArray

    def blockers_of(self, k: int) -> list[int]:
        return sorted(int(t) for t in self.blocker_terrain[self.blocker_pair == k])


def towards(ba: BodyArrays, i: IntArray, j: IntArray
            ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Centre of body i[k] and the unit vector from it towards body j[k] ((1, 0) when the
    centres coincide)."""
    cx, cy = ba.x[i], ba.y[i]
    dx, dy = ba.x[j] - cx, ba.y[j] - cy
    dist = np.hypot(dx, dy)
    ok = dist > 0
    ux = np.where(ok, dx / np.where(ok, dist, 1.0), 1.0)
    uy = np.where(ok, dy / np.where(ok, dist, 1.0), 0.0)
    return cx, cy, ux, uy


def support(hw: FloatArray, hl: FloatArray, du: FloatArray, dv: FloatArray
            ) -> tuple[FloatArray, FloatArray]:
    """The support point (u, v) of ellipses of half-axes hw (across) and hl (along) in
    the directions (du, dv) of their frames: u = hw^2 du / n, v = hl^2 dv / n."""
    norm = np.hypot(hw * du, hl * dv)
    norm = np.where(norm > 0, norm, 1.0)
    return hw * hw * du / norm, hl * hl * dv / norm


def plan_samples(ba: BodyArrays, i: IntArray, j: IntArray) -> FloatArray:
    """Sample points in plan on body i[k] as seen from body j[k]: shape (m, 4, 2).

    The three directions (left, right, front) are rows of (3, m) arrays, every operand a
    contiguous row or vector (numpy then needs no buffered iteration: a drag step's few
    dozen points cost a fraction of the strided (m, 3) layout's time, the same values)."""
    m = len(i)
    cx, cy, ux, uy = towards(ba, i, j)
    ex = np.empty((3, m))  # the directions' x and y: left, right, front
    ey = np.empty((3, m))
    ex[0] = -uy
    ey[0] = ex[2] = ux
    ex[1] = ey[2] = uy
    ey[1] = -ux
    fx, fy = ba.forward[i, 0], ba.forward[i, 1]
    rx, ry = fy, -fx  # right of the facing
    hl = ba.half_length[i]
    hw = ba.half_width[i]
    du = ex * rx + ey * ry
    dv = ex * fx + ey * fy
    u, v = support(hw, hl, du, dv)
    rect = np.flatnonzero(ba.shape[i] == outline.RECT)
    if len(rect):
        # corners; a tie (an edge square to the direction) goes towards the other body
        tu = (ux * rx + uy * ry)[rect]
        tv = (ux * fx + uy * fy)[rect]
        su = np.where(np.abs(du[:, rect]) > 1e-12, du[:, rect], tu)
        sv = np.where(np.abs(dv[:, rect]) > 1e-12, dv[:, rect], tv)
        u[:, rect] = np.where(su >= 0, 1.0, -1.0) * hw[rect]
        v[:, rect] = np.where(sv >= 0, 1.0, -1.0) * hl[rect]
    out = np.empty((m, N_PLAN, 2))
    out[:, 0, 0] = cx
    out[:, 0, 1] = cy
    out[:, 1:, 0] = (cx + u * rx + v * fx).T
    out[:, 1:, 1] = (cy + u * ry + v * fy).T
    return out


def all_terrain(m: int, k: int) -> tuple[IntArray, IntArray]:
    """Every (pair, terrain) combination: no index (the reference path)."""
    return (np.repeat(np.arange(m, dtype=np.intp), k), np.tile(np.arange(k, dtype=np.intp), m))


def sight_pairs(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                exact_shapely: bool = False,
                candidates: tuple[IntArray, IntArray] | None = None,
                blockers: tuple[IntArray, IntArray] | None = None) -> SightResult:
    """Line of sight for every pair (i[k], j[k]).

    ``candidates``: (pair, terrain) combinations that may block (``corridor``); by default
    found with ``corridor.corridor_candidates``. ``blockers``: those of them that
    ``corridor.sight_blockers`` keeps, if known (``corridor.corridor_and_sight``).
    """
    m = len(i)
    visible = np.ones(m, dtype=bool)
    if blockers is not None:
        pk, tk = blockers
    else:
        if candidates is None:
            candidates = corridor_candidates(ba, ts, i, j)
        pk, tk = sight_blockers(ba, ts, i, j, *candidates)
    if len(pk) == 0:
        return SightResult(visible, np.zeros(0, np.intp), np.zeros(0, np.intp))
    kernels = None if exact_shapely else jit.kernels(m)
    if kernels is not None:
        return _compiled_or_split(kernels, ba, ts, i, j, pk, tk)
    return _sight_numpy(ba, ts, i, j, pk, tk, exact_shapely)


def _sight_numpy(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray, pk: IntArray,
                 tk: IntArray, exact_shapely: bool) -> SightResult:
    """``sight_pairs`` in numpy, from the (pair, terrain) candidates that may block."""
    m = len(i)
    visible = np.ones(m, dtype=bool)
    # stage 1: top centre to top centre
    ai, bj = i[pk], j[pk]
    p = np.column_stack([ba.x[ai], ba.y[ai], ba.top[ai]])
    q = np.column_stack([ba.x[bj], ba.y[bj], ba.top[bj]])
    hit = blocked(p, q, tk, ts, exact_shapely=exact_shapely)
    blocker_pair, blocker_terrain = pk[hit], tk[hit]
    pending = np.zeros(m, dtype=bool)
    pending[blocker_pair] = True
    if not pending.any():
        return SightResult(visible, blocker_pair, blocker_terrain)
    # samples only where the centre line is blocked
    rows = np.flatnonzero(pending)
    sa = np.empty((m, N_PLAN, 2))
    sb = np.empty((m, N_PLAN, 2))
    both = plan_samples(ba, np.concatenate([i[rows], j[rows]]),
                        np.concatenate([j[rows], i[rows]]))  # per pair: one call for a and b
    sa[rows] = both[:len(rows)]
    sb[rows] = both[len(rows):]
    za = _heights(ba, i)  # (m, 3)
    zb = _heights(ba, j)

    # stage 2: the plan paths, top to top -- the two outer paths first (the likeliest to
    # see past an obstacle), the other six only for pairs still without a clear path; in
    # each round first against the terrain that blocked the centre line, then the rest.
    # Few lines (``ONE_CALL_LINES``): all eight paths in one call (the six others of a pair
    # an outer path sees past are tested for nothing: fewer calls pay more)
    low = np.minimum(ba.elevation[i], ba.elevation[j])
    path_blocked = np.zeros(m * N_PATHS, dtype=bool)
    path_grounded = np.zeros(m * N_PATHS, dtype=bool)
    still = pending.copy()
    live = still[pk]
    one_call = np.count_nonzero(live) * N_PATHS <= ONE_CALL_LINES
    if one_call:
        _all_paths(live, hit, pk, tk, sa, sb, za, zb, low, ts, path_blocked, path_grounded,
                   exact_shapely)
        still &= path_blocked.reshape(m, N_PATHS).all(axis=1)
    else:
        for paths in (_OUTER, _INNER):
            if m < MERGE_BELOW:
                _both_rounds(paths, still[pk], hit, pk, tk, sa, sb, za, zb, low, ts,
                             path_blocked, path_grounded, exact_shapely)
                pb = path_blocked.reshape(m, N_PATHS)
                still &= ~(~pb[:, paths]).any(axis=1)
                continue
            for sel in (still[pk] & hit, still[pk] & ~hit):
                pk2, tk2 = pk[sel], tk[sel]
                cp = np.repeat(pk2, len(paths))
                ct = np.repeat(tk2, len(paths))
                cw = np.tile(paths, len(pk2))
                path = cp * N_PATHS + cw  # one id per (pair, plan path)
                used = ~path_blocked[path]
                cp, ct, cw, path = cp[used], ct[used], cw[used], path[used]
                p = np.column_stack([sa[cp, PATH_A[cw]], za[cp, 0]])
                q = np.column_stack([sb[cp, PATH_B[cw]], zb[cp, 0]])
                hit2 = blocked(p, q, ct, ts, exact_shapely=exact_shapely)
                path_blocked[path[hit2]] = True
                path_grounded[path[hit2 & (ts.base[ct] <= low[cp] + 1e-9)]] = True
            pb = path_blocked.reshape(m, N_PATHS)
            still &= ~(~pb[:, paths]).any(axis=1)
    visible = ~still

    # stage 3: other heights, only on plan paths without a grounded blocker
    todo = (~visible)[:, None] & ~path_grounded.reshape(m, N_PATHS)
    if todo.any():
        rows, paths = np.nonzero(todo)
        visible[rows[_any_clear_lower(rows, paths, sa, sb, za, zb, pk, tk, ts,
                                      exact_shapely)]] = True
    return SightResult(visible, blocker_pair, blocker_terrain)


def _compiled_or_split(kernels: ModuleType, ba: BodyArrays, ts: TerrainSet, i: IntArray,
                       j: IntArray, pk: IntArray, tk: IntArray) -> SightResult:
    """``_sight_numpy``'s answers by the compiled loops (``jit_kernels``) for the pairs
    whose candidates are all convex polygons in the padded edge arrays; the other pairs
    (a candidate not convex, or with many vertices) through numpy."""
    if not (pk[1:] >= pk[:-1]).all():  # by pair (as ``corridor`` gives them)
        order = np.argsort(pk, kind="stable")
        pk, tk = pk[order], tk[order]
    odd_piece = ~(ts.convex & ~ts.large)
    if not odd_piece.any():  # (no gather over the candidates to say so)
        return _sight_compiled(kernels, ba, ts, i, j, pk, tk)
    odd = odd_piece[tk]
    if not odd.any():
        return _sight_compiled(kernels, ba, ts, i, j, pk, tk)
    m = len(i)
    slow = np.zeros(m, dtype=bool)
    slow[pk[odd]] = True
    fast_rows = np.flatnonzero(~slow).astype(np.intp)
    slow_rows = np.flatnonzero(slow).astype(np.intp)
    visible = np.ones(m, dtype=bool)
    bp, bt = [], []
    for rows, compiled in ((fast_rows, True), (slow_rows, False)):
        renum = np.full(m, -1, dtype=np.intp)
        renum[rows] = np.arange(len(rows))
        sel = renum[pk] >= 0
        sub_pk, sub_tk = renum[pk[sel]], tk[sel]
        res = (_sight_compiled(kernels, ba, ts, i[rows], j[rows], sub_pk, sub_tk) if compiled
               else _sight_numpy(ba, ts, i[rows], j[rows], sub_pk, sub_tk, False))
        visible[rows] = res.visible
        bp.append(rows[res.blocker_pair])
        bt.append(res.blocker_terrain)
    pairs, terrain = np.concatenate(bp), np.concatenate(bt)
    by = np.lexsort((terrain, pairs))
    return SightResult(visible, pairs[by], terrain[by])


def _sight_compiled(kernels: ModuleType, ba: BodyArrays, ts: TerrainSet, i: IntArray,
                    j: IntArray, pk: IntArray, tk: IntArray) -> SightResult:
    """``_sight_numpy`` by the compiled loop (``jit_kernels.sight``: each pair's centre
    line, then its samples while its candidates are at hand, and the blocker rows); every
    candidate convex and not large, the candidates ordered by pair."""
    edges = (ts.base, ts.top, ts.bounds, ts.edge_nx_t, ts.edge_ny_t, ts.edge_c_t,
             ts.edge_count)
    visible, blocker_pair, blocker_terrain = kernels.sight(
        np.ascontiguousarray(i, dtype=np.intp), np.ascontiguousarray(j, dtype=np.intp),
        np.ascontiguousarray(pk, dtype=np.intp), np.ascontiguousarray(tk, dtype=np.intp),
        ba.x, ba.y, ba.shape, ba.half_length, ba.half_width, ba.forward, ba.elevation,
        ba.top, *edges, ts.vertex_x, ts.vertex_y)
    return SightResult(visible, blocker_pair, blocker_terrain)


def _both_rounds(paths: IntArray, live: BoolArray, hit: BoolArray, pk: IntArray,
                 tk: IntArray, sa: FloatArray, sb: FloatArray, za: FloatArray, zb: FloatArray,
                 low: FloatArray, ts: TerrainSet, path_blocked: BoolArray,
                 path_grounded: BoolArray, exact_shapely: bool) -> None:
    """Stage 2's two rounds for ``paths`` in one ``blocked`` call (small batches: fewer
    calls pay more than the lines the second round would skip).

    Records exactly what the two rounds record: the second round's lines count only on
    paths the first round left clear (the rounds would not have tested the others).
    """
    pk2, tk2, first = pk[live], tk[live], hit[live]
    n_p = len(paths)
    cp = np.repeat(pk2, n_p)
    ct = np.repeat(tk2, n_p)
    cw = np.tile(paths, len(pk2))
    in_first = np.repeat(first, n_p)
    path = cp * N_PATHS + cw
    used = ~path_blocked[path]
    cp, ct, cw, path, in_first = cp[used], ct[used], cw[used], path[used], in_first[used]
    p = np.column_stack([sa[cp, PATH_A[cw]], za[cp, 0]])
    q = np.column_stack([sb[cp, PATH_B[cw]], zb[cp, 0]])
    hit2 = blocked(p, q, ct, ts, exact_shapely=exact_shapely)
    first_hit = hit2 & in_first
    by_first = np.zeros(len(path_blocked), dtype=bool)
    by_first[path[first_hit]] = True
    counted = first_hit | (hit2 & ~in_first & ~by_first[path])
    path_blocked[path[counted]] = True
    path_grounded[path[counted & (ts.base[ct] <= low[cp] + 1e-9)]] = True


def _all_paths(live: BoolArray, hit: BoolArray, pk: IntArray, tk: IntArray, sa: FloatArray,
               sb: FloatArray, za: FloatArray, zb: FloatArray, low: FloatArray,
               ts: TerrainSet, path_blocked: BoolArray, path_grounded: BoolArray,
               exact_shapely: bool) -> None:
    """``_both_rounds`` of every path at once, on (candidate, path) arrays: the same
    records, built with fewer numpy calls. A piece whose top is at or below both ends of
    the pair's top lines blocks none of them (no part of a line is below its top: the
    height interval of ``segments.blocked`` is empty), so its lines are not built."""
    c = np.flatnonzero(live)
    c = c[ts.top[tk[c]] > np.minimum(za[pk[c], 0], zb[pk[c], 0])]
    pk2, tk2, first = pk[c], tk[c], hit[c][:, None]
    n2 = len(pk2)
    p = np.empty((n2, N_PATHS, 3))
    q = np.empty((n2, N_PATHS, 3))
    p[:, :, :2] = sa[pk2][:, PATH_A]
    p[:, :, 2] = za[pk2, 0][:, None]
    q[:, :, :2] = sb[pk2][:, PATH_B]
    q[:, :, 2] = zb[pk2, 0][:, None]
    hit2 = blocked(p.reshape(-1, 3), q.reshape(-1, 3), np.repeat(tk2, N_PATHS), ts,
                   exact_shapely=exact_shapely).reshape(n2, N_PATHS)
    path = (pk2 * N_PATHS)[:, None] + _ALL  # one id per (pair, plan path)
    first_hit = hit2 & first
    by_first = np.zeros(len(path_blocked), dtype=bool)
    by_first[path[first_hit]] = True
    counted = first_hit | (hit2 & ~first & ~by_first[path])
    path_blocked[path[counted]] = True
    grounded = (ts.base[tk2] <= low[pk2] + 1e-9)[:, None]
    path_grounded[path[counted & grounded]] = True


def _any_clear_lower(rows: IntArray, paths: IntArray, sa: FloatArray, sb: FloatArray,
                     za: FloatArray, zb: FloatArray, pk: IntArray, tk: IntArray,
                     ts: TerrainSet, exact_shapely: bool) -> IntArray:
    """Indices into ``rows`` of plan paths that have a clear line at some other height pair."""
    order = np.argsort(pk, kind="stable")
    pk_sorted, tk_sorted = pk[order], tk[order]
    starts = np.searchsorted(pk_sorted, rows, side="left")
    ends = np.searchsorted(pk_sorted, rows, side="right")
    counts = ends - starts
    hz = [(ha, hb) for ha in range(3) for hb in range(3) if (ha, hb) != (0, 0)]
    path_ids = np.repeat(np.arange(len(rows)), counts)
    terr = tk_sorted[np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)])
                     ] if len(rows) else np.zeros(0, np.intp)
    pa_idx, pb_idx = PATH_A[paths], PATH_B[paths]
    clear_any = np.zeros(len(rows), dtype=bool)
    for ha, hb in hz:
        r = rows[path_ids]
        p = np.column_stack([sa[r, pa_idx[path_ids]], za[r, ha]])
        q = np.column_stack([sb[r, pb_idx[path_ids]], zb[r, hb]])
        hit = blocked(p, q, terr.astype(np.intp), ts, exact_shapely=exact_shapely)
        blocked_path = np.zeros(len(rows), dtype=bool)
        blocked_path[path_ids[hit]] = True
        clear_any |= ~blocked_path
    return np.flatnonzero(clear_any)


def _heights(ba: BodyArrays, i: IntArray) -> FloatArray:
    bottom = ba.elevation[i]
    span = ba.top[i] - bottom
    out = np.empty((len(i), len(HEIGHTS)))
    for c, f in enumerate(HEIGHTS):
        out[:, c] = bottom + f * span
    return out
