"""Cover by parameters (``CoverRule``): obstacles crossed by the line between closest
points, and platforms. A ruleset gives the parameters.

The line runs between the closest points of the two bases (in plan). It gives cover when
a part of it longer than ``segments.EPS_LENGTH`` lies strictly inside an obstacle after
dropping the part within ``EXEMPT`` (1/2") of the attacker's base: only when the bases
are more than ``GATE`` (1") apart with ``gate_1in=True``, always without it.
Because the distance to a convex base grows steadily along a line leaving it, the dropped
part is a prefix of the line: up to 0.5/L for a round attacker (the line is radial), found
by bisection for other outlines. When the bases touch or overlap the line has no length
and no obstacle gives cover.

Platform cover: the target stands on a platform and its elevation is at least
``platform_threshold`` above the attacker's (only when ``platform_applies``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.outline_distance import point_distance
from tabletop_gui.geometry.segments import EPS_LENGTH, blocked, convex_interior
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

EXEMPT = 0.5
GATE = 1.0


@dataclass(frozen=True)
class CoverRule:
    """The parameters of a cover test (see the module's text)."""

    gate_1in: bool
    platform_threshold: float
    platform_applies: bool = True


@dataclass(frozen=True)
class CoverResult:
    in_cover: BoolArray  # (m,)
    obstacle_pair: IntArray  # pair index of each (pair, obstacle) crossing
    obstacle: IntArray
    platform: IntArray  # (m,) terrain index of the platform giving cover, or -1

    def by_of(self, k: int) -> list[int]:
        out = sorted(int(t) for t in self.obstacle[self.obstacle_pair == k])
        if self.platform[k] >= 0:
            out.append(int(self.platform[k]))
        return out


def exempt_fraction(ba: BodyArrays, i: IntArray, pa: FloatArray, pb: FloatArray
                    ) -> FloatArray:
    """Fraction of each line pa->pb lying within 1/2" of attacker i's base (a prefix)."""
    d = pb - pa
    length = np.hypot(d[:, 0], d[:, 1])
    out = np.ones(len(i))
    ok = length > 0
    circ = ok & ba.circle[i]
    out[circ] = np.minimum(1.0, EXEMPT / length[circ])
    other = np.flatnonzero(ok & ~ba.circle[i])
    if len(other):
        out[other] = _exempt_by_rounds(ba, i[other], pa[other], d[other])
    return out


def _exempt_by_rounds(ba: BodyArrays, k: IntArray, pa: FloatArray, d: FloatArray
                      ) -> FloatArray:
    """Where the distance to base k first exceeds 1/2" along pa + t d (t in [0, 1]).

    The distance grows steadily along the line, so each round samples ``_PROBES`` points
    in the current bracket and keeps the sub-interval where it crosses 1/2"; four rounds
    narrow the answer to 33^-4 of the line (under 1e-6 of it).
    """
    m = len(k)
    lo = np.zeros(m)
    hi = np.ones(m)
    end, _, _ = point_distance(ba, k, pa[:, 0] + d[:, 0], pa[:, 1] + d[:, 1])
    far = end > EXEMPT
    steps = np.linspace(0.0, 1.0, _PROBES + 2)[1:-1]
    kk = np.repeat(k, _PROBES)
    for _ in range(4):
        t = lo[:, None] + (hi - lo)[:, None] * steps[None, :]
        x = pa[:, 0:1] + t * d[:, 0:1]
        y = pa[:, 1:2] + t * d[:, 1:2]
        dist = point_distance(ba, kk, x.ravel(), y.ravel())[0].reshape(m, _PROBES)
        near = dist <= EXEMPT
        count = near.sum(axis=1)  # probes still within the half inch (a prefix)
        new_lo = np.where(count > 0, t[np.arange(m), np.maximum(count - 1, 0)], lo)
        new_hi = np.where(count < _PROBES, t[np.arange(m), np.minimum(count, _PROBES - 1)], hi)
        lo, hi = new_lo, new_hi
    return np.where(far, hi, 1.0)


_PROBES = 32


def cover_pairs(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                pa: FloatArray, pb: FloatArray, distance: FloatArray, rule: CoverRule,
                candidates: tuple[IntArray, IntArray] | None = None) -> CoverResult:
    """Cover of target j[k] against attacker i[k]; pa/pb the closest points, distance 3D.

    ``candidates``: (pair, terrain) combinations that may meet the lines (e.g. from
    ``corridor``); by default every obstacle whose bounding box meets the line's.
    """
    m = len(i)
    pk, tk = _line_candidates(ts, pa, pb) if candidates is None else candidates
    keep = ts.is_obstacle[tk]
    pk, tk = pk[keep], tk[keep]
    exempt = distance > GATE + 1e-9 if rule.gate_1in else np.ones(m, dtype=bool)
    hit = np.zeros(len(pk), dtype=bool)
    # round attackers, and lines without exemption: the dropped prefix is known directly
    simple = ~exempt[pk] | ba.circle[i[pk]]
    s_idx = np.flatnonzero(simple)
    if len(s_idx):
        q_pk = pk[s_idx]
        t_from = np.where(exempt[q_pk], exempt_fraction(ba, i[q_pk], pa[q_pk], pb[q_pk]), 0.0)
        hit[s_idx] = _crosses(pa[q_pk], pb[q_pk], tk[s_idx], ts, t_from)
    # other attackers: the line must still be inside the obstacle beyond the half inch
    o_idx = np.flatnonzero(~simple)
    if len(o_idx):
        hit[o_idx] = _crosses_beyond(ba, ts, i[pk[o_idx]], pa[pk[o_idx]], pb[pk[o_idx]],
                                     tk[o_idx])
    return _result(ba, i, j, pk[hit], tk[hit], rule, m)


def cover_both_ways(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray,
                    pa: FloatArray, pb: FloatArray, distance: FloatArray, rule: CoverRule,
                    candidates: tuple[IntArray, IntArray] | None = None
                    ) -> tuple[CoverResult, CoverResult]:
    """Cover of j against i and of i against j, sharing the line between the closest points.

    For convex obstacles the inside interval (lo, hi) of the line pa -> pb is found once;
    against i the part from i's exempt half inch on counts, against j the part up to j's.
    Other obstacles go through ``cover_pairs`` one direction at a time.
    """
    pk, tk, hit_ij, hit_ji = _both_hits(ba, ts, i, j, pa, pb, distance, rule, candidates)
    m = len(i)
    return (_result(ba, i, j, pk[hit_ij], tk[hit_ij], rule, m),
            _result(ba, j, i, pk[hit_ji], tk[hit_ji], rule, m))


def cover_rows(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray, pa: FloatArray,
               pb: FloatArray, distance: FloatArray, rule: CoverRule,
               candidates: tuple[IntArray, IntArray] | None = None
               ) -> tuple[BoolArray, BoolArray, IntArray]:
    """``cover_both_ways`` as a pair table keeps it: whether j is in cover against i, and i
    against j, and the (attacker, target, terrain) rows giving it, laid out column by
    column (``pairs._by_columns``): j against i's obstacles (in the candidates' order),
    then its platforms (by pair), then the same of i against j. With the compiled loops
    the rows are written by ``jit_kernels.cover_rows`` from the hits, in the same order."""
    pk, tk, hit_ij, hit_ji = _both_hits(ba, ts, i, j, pa, pb, distance, rule, candidates)
    kernels = jit.loaded()
    if kernels is not None:
        in_ij: BoolArray
        in_ji: BoolArray
        columns: IntArray
        in_ij, in_ji, columns = kernels.cover_rows(
            np.ascontiguousarray(pk, dtype=np.intp), np.ascontiguousarray(tk, dtype=np.intp),
            hit_ij, hit_ji, np.ascontiguousarray(i, dtype=np.intp),
            np.ascontiguousarray(j, dtype=np.intp), ba.stands_on, ba.elevation,
            rule.platform_threshold - 1e-9, rule.platform_applies)
        return in_ij, in_ji, columns.T
    m = len(i)
    fwd = _result(ba, i, j, pk[hit_ij], tk[hit_ij], rule, m)
    back = _result(ba, j, i, pk[hit_ji], tk[hit_ji], rule, m)
    parts = []
    for res, att, tgt in ((fwd, i, j), (back, j, i)):
        plat = np.flatnonzero(res.platform >= 0)
        parts += [(att, tgt, res.obstacle_pair, res.obstacle),
                  (att, tgt, plat, res.platform[plat])]
    n = sum(len(k) for _, _, k, _ in parts)
    rows = np.empty((3, n), dtype=np.intp)
    s = 0
    for att, tgt, k, terrain in parts:
        e = s + len(k)
        rows[0, s:e] = att[k]
        rows[1, s:e] = tgt[k]
        rows[2, s:e] = terrain
        s = e
    return fwd.in_cover, back.in_cover, rows.T


def _both_hits(ba: BodyArrays, ts: TerrainSet, i: IntArray, j: IntArray, pa: FloatArray,
               pb: FloatArray, distance: FloatArray, rule: CoverRule,
               candidates: tuple[IntArray, IntArray] | None
               ) -> tuple[IntArray, IntArray, BoolArray, BoolArray]:
    """The (pair, obstacle) candidates of ``cover_both_ways`` and whether each covers j
    against i, and i against j (platforms apart)."""
    m = len(i)
    pk, tk = _line_candidates(ts, pa, pb) if candidates is None else candidates
    kernels = jit.loaded()
    if kernels is None:  # (the compiled loop passes over the other pieces itself)
        keep = ts.is_obstacle[tk]
        pk, tk = pk[keep], tk[keep]
    exempt = distance > GATE + 1e-9 if rule.gate_1in else np.ones(m, dtype=bool)
    d = pb - pa
    length = np.hypot(d[:, 0], d[:, 1])
    if kernels is None:
        hit_ij = np.zeros(len(pk), dtype=bool)
        hit_ji = np.zeros(len(pk), dtype=bool)
        c_idx, a, b = _convex_spans(ts, pk, tk, pa, d, length, ts.convex)
    else:  # polygons in the padded arrays by the compiled loop, large ones below
        hit_ij, hit_ji = _compiled_hits(kernels, ba, ts, i, j, pk, tk, pa, d, length, exempt)
        c_idx, a, b = _convex_spans(ts, pk, tk, pa, d, length,
                                    ts.convex & ts.large & ts.is_obstacle)
    if len(c_idx):
        _span_hits(ba, i, j, pk, c_idx, a, b, pa, d, length, exempt, hit_ij, hit_ji)
    n_idx = (np.zeros(0, dtype=np.intp) if ts.convex.all()
             else np.flatnonzero((~ts.convex & ts.is_obstacle)[tk] & (length[pk] > 0)))
    if len(n_idx):
        no_platform = CoverRule(rule.gate_1in, rule.platform_threshold, False)
        sub = (pk[n_idx], tk[n_idx])
        for (att, tgt, p0, p1), out in (((i, j, pa, pb), hit_ij), ((j, i, pb, pa), hit_ji)):
            r = cover_pairs(ba, ts, att, tgt, p0, p1, distance, no_platform, candidates=sub)
            found = set(zip(r.obstacle_pair.tolist(), r.obstacle.tolist(), strict=True))
            out[n_idx] = [(int(x), int(y)) in found for x, y in zip(*sub, strict=True)]
    return pk, tk, hit_ij, hit_ji


def _span_hits(ba: BodyArrays, i: IntArray, j: IntArray, pk: IntArray, c_idx: IntArray,
               a: FloatArray, b: FloatArray, pa: FloatArray, d: FloatArray,
               length: FloatArray, exempt: BoolArray, hit_ij: BoolArray,
               hit_ji: BoolArray) -> None:
    """Write the cover of candidates ``c_idx`` (their line's part [a, b] inside a convex
    obstacle) both ways: against i the part beyond i's exempt half inch, against j the
    part before j's."""
    q = pk[c_idx]
    lq = length[q]
    ex = exempt[q]
    e = np.where(ex, np.minimum(1.0, EXEMPT / lq), 0.0)  # the same both ways
    inside = (b > a) & ((b - a) * lq > EPS_LENGTH)
    asks = []  # (out, where, bodies, t) of both ways, measured in one ``_far`` call
    for attacker, out, forward in ((i[q], hit_ij, True), (j[q], hit_ji, False)):
        circ = ba.circle[attacker] | ~ex
        lo2 = np.maximum(a, e) if forward else a
        hi2 = b if forward else np.minimum(b, 1.0 - e)
        simple = (hi2 > lo2) & ((hi2 - lo2) * lq > EPS_LENGTH)
        out[c_idx] = np.where(circ, simple, False)
        other = np.flatnonzero(~circ & inside)
        if len(other):
            t_far = (b[other] - EPS_LENGTH / lq[other] if forward
                     else a[other] + EPS_LENGTH / lq[other])
            asks.append((out, c_idx[other], attacker[other], other, np.clip(t_far, 0.0, 1.0)))
    if asks:
        rows = q[np.concatenate([x[3] for x in asks])]
        far = _far(ba, np.concatenate([x[2] for x in asks]), pa[rows], d[rows],
                   np.concatenate([x[4] for x in asks]))
        start = 0
        for out, where, _, other, _ in asks:
            out[where] = far[start:start + len(other)]
            start += len(other)


def _far(ba: BodyArrays, k: IntArray, pa: FloatArray, d: FloatArray, t: FloatArray
         ) -> BoolArray:
    """Is the point pa + t d more than ``EXEMPT`` from body k's outline?"""
    dist = point_distance(ba, k, pa[:, 0] + t * d[:, 0], pa[:, 1] + t * d[:, 1])[0]
    return np.asarray(dist > EXEMPT, dtype=bool)


def _compiled_hits(kernels: ModuleType, ba: BodyArrays, ts: TerrainSet, i: IntArray,
                   j: IntArray, pk: IntArray, tk: IntArray, pa: FloatArray, d: FloatArray,
                   length: FloatArray, exempt: BoolArray) -> tuple[BoolArray, BoolArray]:
    """``_span_hits`` of the obstacles in the padded edge arrays by the compiled loop
    (``jit_kernels.cover_hits``, which measures the exempt ends from rectangles and ovals
    itself: an oval's nearest point as ``point_distance`` finds it point by point); the
    ends it asks about measured here."""
    hit_ij: BoolArray
    hit_ji: BoolArray
    ask_e: IntArray
    ask_fwd: BoolArray
    ask_t: FloatArray
    hit_ij, hit_ji, ask_e, ask_fwd, ask_t = kernels.cover_hits(
        np.ascontiguousarray(pk, dtype=np.intp), np.ascontiguousarray(tk, dtype=np.intp),
        np.ascontiguousarray(i, dtype=np.intp), np.ascontiguousarray(j, dtype=np.intp),
        np.ascontiguousarray(pa, dtype=float), np.ascontiguousarray(d, dtype=float),
        length, np.ascontiguousarray(exempt, dtype=bool), ba.circle, ba.x, ba.y, ba.shape,
        ba.half_width, ba.half_length, ba.forward, ts.convex & ~ts.large & ts.is_obstacle,
        ts.bounds, ts.edge_nx_t, ts.edge_ny_t, ts.edge_c_t, ts.edge_count)
    for forward, out in ((True, hit_ij), (False, hit_ji)):
        e = ask_e[ask_fwd == forward]
        if len(e):
            q = pk[e]
            out[e] = _far(ba, (i if forward else j)[q], pa[q], d[q], ask_t[ask_fwd == forward])
    return hit_ij, hit_ji


def _convex_spans(ts: TerrainSet, pk: IntArray, tk: IntArray, pa: FloatArray, d: FloatArray,
                  length: FloatArray, which: BoolArray) -> tuple[IntArray, FloatArray, FloatArray]:
    """The candidates (indices into pk/tk) whose obstacle tk is one of ``which`` (convex)
    and whose line pa -> pa + d of pair pk has a part longer than ``EPS_LENGTH`` inside it,
    with that part [a, b]: a line with no such part gives no cover either way (each way
    counts a part of [a, b])."""
    if not which.any():  # (the compiled loop's case: no large polygon)
        return np.zeros(0, dtype=np.intp), np.zeros(0), np.zeros(0)
    c_idx = np.flatnonzero(which[tk] & (length[pk] > 0))
    q = pk[c_idx]
    lo, hi = convex_interior(pa[q], d[q], tk[c_idx], ts)
    a = np.maximum(lo, 0.0)
    b = np.minimum(hi, 1.0)
    live = (b > a) & ((b - a) * length[q] > EPS_LENGTH)
    return c_idx[live], a[live], b[live]


def _result(ba: BodyArrays, i: IntArray, j: IntArray, pk: IntArray, tk: IntArray,
            rule: CoverRule, m: int) -> CoverResult:
    in_cover = np.zeros(m, dtype=bool)
    in_cover[pk] = True
    platform = np.full(m, -1, dtype=np.intp)
    if rule.platform_applies:
        stands = ba.stands_on[j]
        high = ba.elevation[j] - ba.elevation[i] >= rule.platform_threshold - 1e-9
        on = (stands >= 0) & high
        platform[on] = stands[on]
        in_cover |= on
    return CoverResult(in_cover, pk, tk, platform)


def _crosses(pa: FloatArray, pb: FloatArray, tk: IntArray, ts: TerrainSet,
             t_from: FloatArray) -> BoolArray:
    z = np.zeros((len(tk), 1))
    return blocked(np.hstack([pa, z]), np.hstack([pb, z]), tk, ts, use_z=False, t_from=t_from)


def _crosses_beyond(ba: BodyArrays, ts: TerrainSet, k: IntArray, pa: FloatArray,
                    pb: FloatArray, tk: IntArray) -> BoolArray:
    """Does pa->pb pass through obstacle tk somewhere more than 1/2" from base k?

    Convex obstacles: the line is inside on one interval; since the distance to the base
    grows along the line, it is enough that the interval's far end (less ``EPS_LENGTH``)
    is more than 1/2" away. Other obstacles: find the exempt prefix, then test the rest.
    """
    out = np.zeros(len(tk), dtype=bool)
    d = pb - pa
    length = np.hypot(d[:, 0], d[:, 1])
    conv = np.flatnonzero(ts.convex[tk] & (length > 0))
    if len(conv):
        lo, hi = convex_interior(pa[conv], d[conv], tk[conv], ts)
        a = np.maximum(lo, 0.0)
        b = np.minimum(hi, 1.0)
        inside = (b > a) & ((b - a) * length[conv] > EPS_LENGTH)
        t_far = np.clip(b - EPS_LENGTH / np.maximum(length[conv], 1e-300), 0.0, 1.0)
        far = point_distance(ba, k[conv], pa[conv, 0] + t_far * d[conv, 0],
                             pa[conv, 1] + t_far * d[conv, 1])[0] > EXEMPT
        out[conv] = inside & far
    rest = np.flatnonzero(~ts.convex[tk] & (length > 0))
    if len(rest):
        t_from = exempt_fraction(ba, k[rest], pa[rest], pb[rest])
        out[rest] = _crosses(pa[rest], pb[rest], tk[rest], ts, t_from)
    return out


def _line_candidates(ts: TerrainSet, pa: FloatArray, pb: FloatArray
                     ) -> tuple[IntArray, IntArray]:
    obst = np.flatnonzero(ts.is_obstacle)
    if len(obst) == 0 or len(pa) == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    a, b = pa, pb
    minx, maxx = np.minimum(a[:, 0], b[:, 0]), np.maximum(a[:, 0], b[:, 0])
    miny, maxy = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    bd = ts.bounds[obst]
    hit = ((minx[:, None] <= bd[None, :, 2]) & (maxx[:, None] >= bd[None, :, 0])
           & (miny[:, None] <= bd[None, :, 3]) & (maxy[:, None] >= bd[None, :, 1]))
    r, c = np.nonzero(hit)
    return r.astype(np.intp), obst[c].astype(np.intp)
