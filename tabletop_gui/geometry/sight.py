"""Line of sight between model prisms, through terrain prisms.

Each model is the prism of its base outline from its elevation up to elevation +
height. Two models see each other when at least one *sample sight line* between them
is not blocked (``segments.blocked``) by any terrain that blocks sight (obstacles with
``blocks_sight``, every platform).

Samples (documented, deterministic): on each body, points in plan -- for a rectangle
its centre and four corners; for a round or oval base its centre and the outline points
farthest to the left, to the right and towards the other body, as seen along the line of
centres -- each at three heights (bottom, middle, top). A pair of round bases has
16 x 9 = 144 sample lines, of rectangles 25 x 9 = 225; all are considered (no random
sampling).

Evaluation order (same answers as testing all of them, only faster): the top-centre to
top-centre line first; then the 25 top-to-top lines; a plan path whose top-to-top line is
blocked by a terrain standing on the table at or below both bodies' bottoms is blocked
at every height (a lower line is below the higher one everywhere along the path), so
only the other paths are tried at the 8 other height pairs.

``blocked_by`` names the terrain that blocks the top-centre to top-centre line (never
empty when the models cannot see each other).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import corridor_candidates
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

N_PLAN = 5
HEIGHTS = (1.0, 0.5, 0.0)  # top, middle, bottom, as fractions of the height


@dataclass(frozen=True)
class SightResult:
    visible: BoolArray  # (m,)
    blocker_pair: IntArray  # pair index of each (pair, terrain) blocking the centre line
    blocker_terrain: IntArray

    def blockers_of(self, k: int) -> list[int]:
        return sorted(int(t) for t in self.blocker_terrain[self.blocker_pair == k])


def plan_samples(ba: BodyArrays, i: IntArray, j: IntArray) -> FloatArray:
    """Sample points in plan on body i[k] as seen from body j[k]: shape (m, 5, 2)."""
    m = len(i)
    cx, cy = ba.x[i], ba.y[i]
    dx, dy = ba.x[j] - cx, ba.y[j] - cy
    dist = np.hypot(dx, dy)
    ok = dist > 0
    ux = np.where(ok, dx / np.where(ok, dist, 1.0), 1.0)
    uy = np.where(ok, dy / np.where(ok, dist, 1.0), 0.0)
    dirs = np.stack(
        [np.stack([-uy, ux], 1), np.stack([uy, -ux], 1), np.stack([ux, uy], 1),
         np.stack([-ux, -uy], 1)], axis=1)  # (m, 4, 2): left, right, front, back
    out = np.empty((m, N_PLAN, 2))
    out[:, 0, 0] = cx
    out[:, 0, 1] = cy
    fwd = ba.forward[i]  # (m, 2)
    right = np.stack([fwd[:, 1], -fwd[:, 0]], axis=1)
    hl = ba.half_length[i][:, None]
    hw = ba.half_width[i][:, None]
    du = np.einsum("mkc,mc->mk", dirs, right)
    dv = np.einsum("mkc,mc->mk", dirs, fwd)
    shape = ba.shape[i][:, None]
    # ellipse (and circle) support points: u = hw^2 du / n, v = hl^2 dv / n
    norm = np.hypot(hw * du, hl * dv)
    norm = np.where(norm > 0, norm, 1.0)
    u_round, v_round = hw * hw * du / norm, hl * hl * dv / norm
    # rectangle corners: front-right, front-left, rear-left, rear-right
    u_rect = np.array([1.0, -1.0, -1.0, 1.0])[None, :] * hw
    v_rect = np.array([1.0, 1.0, -1.0, -1.0])[None, :] * hl
    is_rect = shape == outline.RECT
    u = np.where(is_rect, u_rect, u_round)
    v = np.where(is_rect, v_rect, v_round)
    out[:, 1:, 0] = cx[:, None] + u * right[:, None, 0] + v * fwd[:, None, 0]
    out[:, 1:, 1] = cy[:, None] + u * right[:, None, 1] + v * fwd[:, None, 1]
    return out


def sight_candidates(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                     pk: IntArray, tk: IntArray) -> tuple[IntArray, IntArray]:
    """Keep the (pair, terrain) candidates that block sight and can reach the lines' heights.

    Terrain whose top is at or below both bottoms, or whose base is above both tops,
    cannot block any sample line.
    """
    low = np.minimum(ba.elevation[i], ba.elevation[j])[pk]
    high = np.maximum(ba.top[i], ba.top[j])[pk]
    keep = ts.blocks_sight[tk] & (ts.top[tk] > low + 1e-9) & (ts.base[tk] <= high)
    return pk[keep], tk[keep]


def all_terrain(m: int, k: int) -> tuple[IntArray, IntArray]:
    """Every (pair, terrain) combination: no index (the reference path)."""
    return (np.repeat(np.arange(m, dtype=np.intp), k), np.tile(np.arange(k, dtype=np.intp), m))


def sight_pairs(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                exact_shapely: bool = False,
                candidates: tuple[IntArray, IntArray] | None = None) -> SightResult:
    """Line of sight for every pair (i[k], j[k]).

    ``candidates``: (pair, terrain) combinations that may block (``corridor``); by default
    found with ``corridor.corridor_candidates``.
    """
    m = len(i)
    visible = np.ones(m, dtype=bool)
    if candidates is None:
        candidates = corridor_candidates(ba, ts, i, j)
    pk, tk = sight_candidates(ba, ts, i, j, *candidates)
    if len(pk) == 0:
        return SightResult(visible, np.zeros(0, np.intp), np.zeros(0, np.intp))
    sa = plan_samples(ba, i, j)
    sb = plan_samples(ba, j, i)
    za = _heights(ba, i)  # (m, 3)
    zb = _heights(ba, j)

    # stage 1: top centre to top centre
    p = np.column_stack([sa[pk, 0], za[pk, 0]])
    q = np.column_stack([sb[pk, 0], zb[pk, 0]])
    hit = blocked(p, q, tk, ts, exact_shapely=exact_shapely)
    blocker_pair, blocker_terrain = pk[hit], tk[hit]
    pending = np.zeros(m, dtype=bool)
    pending[blocker_pair] = True
    if not pending.any():
        return SightResult(visible, blocker_pair, blocker_terrain)

    # stage 2: every plan path, top to top -- first against the terrain that blocked the
    # centre line, then the paths still open against the pair's other candidates
    n_paths = N_PLAN * N_PLAN
    a_idx = np.repeat(np.arange(N_PLAN), N_PLAN)
    b_idx = np.tile(np.arange(N_PLAN), N_PLAN)
    exists = _valid_plan(ba, i)[:, a_idx] & _valid_plan(ba, j)[:, b_idx]  # (m, paths)
    low = np.minimum(ba.elevation[i], ba.elevation[j])
    path_blocked = np.zeros(m * n_paths, dtype=bool)
    path_grounded = np.zeros(m * n_paths, dtype=bool)
    first = hit
    for sel in (pending[pk] & first, pending[pk] & ~first):
        pk2, tk2 = pk[sel], tk[sel]
        cp = np.repeat(pk2, n_paths)
        ct = np.repeat(tk2, n_paths)
        ca = np.tile(a_idx, len(pk2))
        cb = np.tile(b_idx, len(pk2))
        path = cp * n_paths + ca * N_PLAN + cb  # one id per (pair, plan path)
        used = exists.ravel()[path] & ~path_blocked[path]
        cp, ct, ca, cb, path = cp[used], ct[used], ca[used], cb[used], path[used]
        p = np.column_stack([sa[cp, ca], za[cp, 0]])
        q = np.column_stack([sb[cp, cb], zb[cp, 0]])
        hit2 = blocked(p, q, ct, ts, exact_shapely=exact_shapely)
        path_blocked[path[hit2]] = True
        path_grounded[path[hit2 & (ts.base[ct] <= low[cp] + 1e-9)]] = True
    pb = path_blocked.reshape(m, n_paths)
    clear_path = pending[:, None] & ~pb & exists
    visible = ~pending | clear_path.any(axis=1)

    # stage 3: other heights, only on plan paths without a grounded blocker
    todo = (~visible)[:, None] & ~path_grounded.reshape(m, n_paths) & exists
    if todo.any():
        rows, paths = np.nonzero(todo)
        visible[rows[_any_clear_lower(rows, paths, sa, sb, za, zb, pk, tk, ts,
                                      exact_shapely)]] = True
    return SightResult(visible, blocker_pair, blocker_terrain)


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
    pa_idx, pb_idx = paths // N_PLAN, paths % N_PLAN
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


def _valid_plan(ba: BodyArrays, i: IntArray) -> BoolArray:
    """Which of the five plan samples exist: all for rectangles, not the back point of rounds."""
    out = np.ones((len(i), N_PLAN), dtype=bool)
    out[:, 4] = ba.shape[i] == outline.RECT
    return out


def _heights(ba: BodyArrays, i: IntArray) -> FloatArray:
    bottom, top = ba.elevation[i], ba.top[i]
    return np.stack([bottom + f * (top - bottom) for f in HEIGHTS], axis=1)
