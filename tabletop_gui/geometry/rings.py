"""Segments against polygons with many edges, or not convex, through an index of edge chains.

Each indexed polygon's ring is cut into *chains* of ``CHAIN`` consecutive edges and the
chains into *groups* of ``GROUP`` chains, each with its bounding box. A segment is tested
only against the edges of the chains whose box it may meet (the box overlaps the segment's
box and does not lie wholly on one side of its line, margins far above rounding), found
group by group: the work follows the edges near the segment, not the whole ring.

Each remaining (segment, edge) pair is *clearly apart* (both ends of one strictly on one
side of the other's line, by more than a tolerance far above rounding), *clearly crossing*
(each strictly across the other's line), or *unsure* (an end on or near the other's line).
A segment without an unsure edge touches the boundary only where it clearly crosses it, so:

- ``interior_meets`` (the exact test for polygons that are not convex, ``relate``
  "interior meets interior"): a clear crossing means yes; without any crossing the segment
  lies wholly inside or wholly outside, and its start decides;
- ``convex_span`` (Cyrus-Beck for convex polygons with many edges): the entering and
  leaving parameters of the edges near the segment are those of all edges (the extreme
  ones are the edges crossed, which are near); without any crossing the start decides
  whether the segment is wholly inside or wholly outside.

Segments with an unsure edge are reported so that the caller answers them the slow, exact
way (shapely ``relate``, or every edge of the ring).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

CHAIN = 16  # edges per chain
GROUP = 16  # chains per group
EPS_SIDE = 1e-9  # Cyrus-Beck: a point this close to an edge line counts as on the edge
TOL = 1e-9  # relative tolerance of "on or near a line" (rounding is about 1e-16)
_ROWS = 1 << 20  # (segment, group or chain or edge) rows handled at once (bounds memory)


@dataclass(frozen=True, eq=False)
class RingIndex:
    """The exterior rings of some polygons of a TerrainSet as edge chains (see the module)."""

    x0: FloatArray  # (E,) edge starts, ring order, the closing edge included
    y0: FloatArray
    x1: FloatArray  # (E,) edge ends
    y1: FloatArray
    nx: FloatArray  # (E,) inward unit normal x (counter-clockwise ring; 0 for zero length)
    ny: FloatArray
    c: FloatArray  # (E,) n . start (-1 for zero length: never constrains)
    chain_lo: IntArray  # (C,) first edge of each chain
    chain_n: IntArray  # (C,) edges in each chain
    chain_box: FloatArray  # (C, 4) minx, miny, maxx, maxy
    group_lo: IntArray  # (G,) first chain of each group
    group_n: IntArray  # (G,) chains in each group
    group_box: FloatArray  # (G, 4)
    poly_group_lo: IntArray  # (k,) first group of each polygon of the TerrainSet
    poly_group_n: IntArray  # (k,) groups of each polygon (0: not indexed)
    poly_edge_lo: IntArray  # (k,) first edge of each polygon
    poly_edge_n: IntArray  # (k,) edges of each polygon (0: not indexed)
    scale: FloatArray  # (k,) 1 + the largest absolute coordinate of each polygon

    @staticmethod
    def empty(k: int) -> RingIndex:
        """The index of none of k polygons (what ``build`` makes when it keeps none)."""
        f = np.zeros(0)
        i = np.zeros(0, dtype=np.intp)
        box = np.zeros((0, 4))
        none = np.zeros(k, dtype=np.intp)
        return RingIndex(x0=f, y0=f.copy(), x1=f.copy(), y1=f.copy(), nx=f.copy(),
                         ny=f.copy(), c=f.copy(), chain_lo=i, chain_n=i.copy(),
                         chain_box=box, group_lo=i.copy(), group_n=i.copy(),
                         group_box=box.copy(), poly_group_lo=none, poly_group_n=none.copy(),
                         poly_edge_lo=none.copy(), poly_edge_n=none.copy(), scale=np.ones(k))

    @staticmethod
    def build(polys: NDArray[np.object_], keep: BoolArray) -> RingIndex:
        """Index the exterior rings of ``polys[keep]`` (oriented counter-clockwise)."""
        k = len(polys)
        sel = np.flatnonzero(keep)
        if len(sel) == 0:
            return RingIndex.empty(k)
        coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(polys[sel]),
                                                return_index=True)
        coords = np.asarray(coords, dtype=float)
        last = np.ones(len(owner), dtype=bool)
        last[:-1] = owner[1:] != owner[:-1]  # each ring's closing point starts no edge
        start = np.flatnonzero(~last)
        a, b = coords[start], coords[start + 1]
        e_owner = sel[owner[start]].astype(np.intp)
        n_e = np.bincount(e_owner, minlength=k).astype(np.intp)
        e_lo = (np.cumsum(n_e) - n_e).astype(np.intp)
        # edge normals exactly as ``terrain._edges`` computes them
        d = b - a
        length = np.hypot(d[:, 0], d[:, 1])
        ok = length > 0
        nx = np.where(ok, -d[:, 1] / np.where(ok, length, 1.0), 0.0)
        ny = np.where(ok, d[:, 0] / np.where(ok, length, 1.0), 0.0)
        en = np.stack([nx, ny], axis=1)
        c = np.where(ok, np.einsum("vc,vc->v", en, a), -1.0)
        # chains: CHAIN consecutive edges of one ring; groups: GROUP consecutive chains
        n_c = -(-n_e // CHAIN)
        chain_lo, chain_end = _runs(e_lo, n_e, n_c, CHAIN)
        chain_box = _boxes(np.minimum(a, b), np.maximum(a, b), chain_lo)
        c_lo = (np.cumsum(n_c) - n_c).astype(np.intp)
        n_g = -(-n_c // GROUP)
        group_lo, group_end = _runs(c_lo, n_c, n_g, GROUP)
        group_box = _boxes(chain_box[:, :2], chain_box[:, 2:], group_lo)
        scale = np.ones(k)
        if len(coords):
            big = np.abs(coords).max(axis=1)
            np.maximum.at(scale, sel[owner], 1.0 + big)
        return RingIndex(
            x0=a[:, 0].copy(), y0=a[:, 1].copy(), x1=b[:, 0].copy(), y1=b[:, 1].copy(),
            nx=nx, ny=ny, c=c,
            chain_lo=chain_lo, chain_n=chain_end - chain_lo, chain_box=chain_box,
            group_lo=group_lo, group_n=group_end - group_lo, group_box=group_box,
            poly_group_lo=(np.cumsum(n_g) - n_g).astype(np.intp), poly_group_n=n_g,
            poly_edge_lo=e_lo, poly_edge_n=n_e, scale=scale,
        )


def _runs(first: IntArray, size: IntArray, runs: IntArray, length: int
          ) -> tuple[IntArray, IntArray]:
    """Starts and ends of the runs of ``length`` items cutting each polygon's ``size`` items
    (from ``first``), ``runs`` of them per polygon, the last one shorter."""
    poly, k = ragged(np.zeros(len(runs), dtype=np.intp), runs)
    lo = (first[poly] + length * k).astype(np.intp)
    return lo, np.minimum(lo + length, first[poly] + size[poly]).astype(np.intp)


def _boxes(lo: FloatArray, hi: FloatArray, starts: IntArray) -> FloatArray:
    """(n, 4) boxes of consecutive runs of items beginning at ``starts``."""
    if len(starts) == 0:
        return np.zeros((0, 4))
    return np.column_stack([np.minimum.reduceat(lo[:, 0], starts),
                            np.minimum.reduceat(lo[:, 1], starts),
                            np.maximum.reduceat(hi[:, 0], starts),
                            np.maximum.reduceat(hi[:, 1], starts)])


def ragged(starts: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """(row, item) for items starts[row] .. starts[row] + counts[row] - 1 of every row."""
    rows = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    return rows, (np.repeat(starts, counts) + (np.arange(len(rows)) - first)).astype(np.intp)


@dataclass(frozen=True)
class _Segments:
    """Segments a -> b with their margins: ``m`` (length) and ``tl`` (cross products)."""

    ax: FloatArray
    ay: FloatArray
    bx: FloatArray
    by: FloatArray
    dx: FloatArray
    dy: FloatArray
    m: FloatArray
    tl: FloatArray
    tid: IntArray


def _segments(ri: RingIndex, a: FloatArray, b: FloatArray, tid: IntArray) -> _Segments:
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    dx, dy = bx - ax, by - ay
    scale = np.maximum(ri.scale[tid], 1.0 + np.maximum(np.maximum(np.abs(ax), np.abs(ay)),
                                                       np.maximum(np.abs(bx), np.abs(by))))
    m = TOL * scale
    return _Segments(ax, ay, bx, by, dx, dy, m, m * (np.abs(dx) + np.abs(dy)), tid)


def _may_meet(s: _Segments, row: IntArray, box: FloatArray) -> BoolArray:
    """May segment ``row`` meet the box (each row its own box, or ``row`` a column (n, 1)
    against boxes (1, g, 4) broadcast)? Never False when it does."""
    m, tl = s.m[row], s.tl[row]
    ax, ay, bx, by = s.ax[row], s.ay[row], s.bx[row], s.by[row]
    x0, y0, x1, y1 = box[..., 0], box[..., 1], box[..., 2], box[..., 3]
    live = ((np.minimum(ax, bx) - m <= x1) & (np.maximum(ax, bx) + m >= x0)
            & (np.minimum(ay, by) - m <= y1) & (np.maximum(ay, by) + m >= y0))
    dx, dy = s.dx[row], s.dy[row]
    c1 = dx * (y0 - ay) - dy * (x0 - ax)
    c2 = dx * (y0 - ay) - dy * (x1 - ax)
    c3 = dx * (y1 - ay) - dy * (x0 - ax)
    c4 = dx * (y1 - ay) - dy * (x1 - ax)
    live &= np.minimum(np.minimum(c1, c2), np.minimum(c3, c4)) <= tl
    live &= np.maximum(np.maximum(c1, c2), np.maximum(c3, c4)) >= -tl
    return live


def _near_groups(ri: RingIndex, s: _Segments, rows: IntArray) -> tuple[IntArray, IntArray]:
    """(segment, group) for the groups that segments ``rows`` may meet, by segment (each
    polygon's segments against all its group boxes at once)."""
    tids = s.tid[rows]
    found_s, found_g = [], []
    for k in np.unique(tids).tolist():
        mine = rows[tids == k]
        lo, n = int(ri.poly_group_lo[k]), int(ri.poly_group_n[k])
        step = max(1, _ROWS // max(1, n))
        for c in range(0, len(mine), step):
            part = mine[c:c + step]
            at, g = np.nonzero(_may_meet(s, part[:, None], ri.group_box[None, lo:lo + n]))
            found_s.append(part[at])
            found_g.append(g + lo)
    if not found_s:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    seg = np.concatenate(found_s).astype(np.intp)
    grp = np.concatenate(found_g).astype(np.intp)
    order = np.argsort(seg, kind="stable")
    return seg[order], grp[order]


def _near_chains(ri: RingIndex, s: _Segments, seg: IntArray, grp: IntArray
                 ) -> tuple[IntArray, IntArray]:
    """(segment, chain) for the chains of groups ``grp`` that segments ``seg`` may meet."""
    at, ch = ragged(ri.group_lo[grp], ri.group_n[grp])
    seg = seg[at]
    keep = _may_meet(s, seg, ri.chain_box[ch])
    return seg[keep], ch[keep]


def _ranks(seg: IntArray) -> IntArray:
    """The position of each row among the rows of its segment (rows grouped by segment)."""
    if len(seg) == 0:
        return seg
    first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    return np.arange(len(seg)) - np.repeat(first, np.diff(np.r_[first, len(seg)]))


def _edges_of(ri: RingIndex, seg: IntArray, ch: IntArray
              ) -> Iterator[tuple[IntArray, IntArray]]:
    """(segment, edge) for the edges of chains ``ch``, in pieces of at most ``_ROWS``."""
    step = _ROWS // CHAIN
    for k in range(0, len(seg), step):
        at, edge = ragged(ri.chain_lo[ch[k:k + step]], ri.chain_n[ch[k:k + step]])
        yield seg[k:k + step][at], edge


def _classify(ri: RingIndex, s: _Segments, seg: IntArray, edge: IntArray
              ) -> tuple[BoolArray, BoolArray]:
    """(clearly crossing, unsure) for each (segment, edge) pair."""
    ax, ay, dx, dy, tl = s.ax[seg], s.ay[seg], s.dx[seg], s.dy[seg], s.tl[seg]
    x0, y0, x1, y1 = ri.x0[edge], ri.y0[edge], ri.x1[edge], ri.y1[edge]
    o1 = dx * (y0 - ay) - dy * (x0 - ax)  # the edge's ends against the segment's line
    o2 = dx * (y1 - ay) - dy * (x1 - ax)
    ex, ey = x1 - x0, y1 - y0
    te = s.m[seg] * (np.abs(ex) + np.abs(ey))
    o3 = ex * (ay - y0) - ey * (ax - x0)  # the segment's ends against the edge's line
    o4 = ex * (s.by[seg] - y0) - ey * (s.bx[seg] - x0)
    apart = (((o1 > tl) & (o2 > tl)) | ((o1 < -tl) & (o2 < -tl))
             | ((o3 > te) & (o4 > te)) | ((o3 < -te) & (o4 < -te)))
    across = ((((o1 > tl) & (o2 < -tl)) | ((o1 < -tl) & (o2 > tl)))
              & (((o3 > te) & (o4 < -te)) | ((o3 < -te) & (o4 > te))))
    return across, ~apart & ~across


_FIRST_ROUNDS = 3  # chains tried one at a time per segment before all the others at once


def _crossings(ri: RingIndex, s: _Segments, n: int, keep_near: bool = False
               ) -> tuple[BoolArray, BoolArray, list[tuple[IntArray, IntArray]]]:
    """Per segment: crosses some edge clearly, has an unsure edge; and (``keep_near``)
    the near edges.

    Without ``keep_near`` a segment is done at its first clear crossing: its near groups
    are taken one at a time (the chains of the first one at a time for ``_FIRST_ROUNDS``
    rounds: a line through a jagged outline crosses the first chain it meets), and only the
    segments not yet crossed go on to the next. Unsure edges are reported for the segments
    never crossed (the others need no more)."""
    crossed = np.zeros(n, dtype=bool)
    unsure = np.zeros(n, dtype=bool)
    near: list[tuple[IntArray, IntArray]] = []

    def test(seg: IntArray, ch: IntArray) -> None:
        sel = ~crossed[seg]
        for sg, edge in _edges_of(ri, seg[sel], ch[sel]):
            across, amb = _classify(ri, s, sg, edge)
            crossed[sg[across]] = True
            unsure[sg[amb]] = True
            if keep_near:
                near.append((sg, edge))

    ends = np.cumsum(ri.poly_group_n[s.tid])  # (segment, group) rows up to each segment
    start = 0
    while start < n:  # chunks of at most _ROWS / 2 (segment, group) rows
        done = int(ends[start - 1]) if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, done + _ROWS // 2, side="right")))
        seg, grp = _near_groups(ri, s, np.arange(start, min(stop, n), dtype=np.intp))
        start = stop
        if keep_near:
            test(*_near_chains(ri, s, seg, grp))
            continue
        # the segments' groups one rank at a time: a segment crossed in one goes no further
        group_rank = _ranks(seg)
        for r in range(int(group_rank.max()) + 1 if len(seg) else 0):
            at = (group_rank == r) & ~crossed[seg]
            sc, ch = _near_chains(ri, s, seg[at], grp[at])
            if r == 0:  # the first group's chains one at a time, then the rest together
                rank = _ranks(sc)
                for q in range(_FIRST_ROUNDS):
                    test(sc[rank == q], ch[rank == q])
                test(sc[rank >= _FIRST_ROUNDS], ch[rank >= _FIRST_ROUNDS])
            else:
                test(sc, ch)
    return crossed, unsure, near


def interior_meets(ri: RingIndex, polys: NDArray[np.object_], a: FloatArray, b: FloatArray,
                   tid: IntArray) -> tuple[BoolArray, BoolArray]:
    """Does the inside of segment a[i] -> b[i] meet the inside of polygon tid[i]?

    Returns (answer, unsure); the answer is exact where ``unsure`` is False. Segments
    must have length (zero-length ones are points: ask shapely)."""
    n = len(tid)
    s = _segments(ri, a, b, tid)
    crossed, unsure, _ = _crossings(ri, s, n)
    unsure &= ~crossed
    answer = crossed.copy()
    ask = np.flatnonzero(~crossed & ~unsure)
    if len(ask):  # wholly inside or wholly outside: the start decides
        answer[ask] = shapely.intersects_xy(polys[tid[ask]], a[ask, 0], a[ask, 1])
    return answer, unsure


def convex_span(ri: RingIndex, polys: NDArray[np.object_], p: FloatArray, d: FloatArray,
                tid: IntArray) -> tuple[FloatArray, FloatArray, BoolArray]:
    """``segments.convex_interior`` for convex polygons with many edges: (lo, hi, unsure).

    Where ``unsure`` is False, lo and hi equal the values of clipping by every edge once
    clamped to [0, 1] (an empty range stays empty)."""
    n = len(tid)
    q = p + d
    s = _segments(ri, p, q, tid)
    crossed, unsure, near = _crossings(ri, s, n, keep_near=True)
    clip = _Clip.of(d)
    for seg, edge in near:
        clip.add(ri, p, d, seg, edge)
    lo, hi, outside = clip.lo, clip.hi, clip.outside
    ask = np.flatnonzero(~crossed & ~unsure)
    if len(ask):  # no crossing: wholly inside or wholly outside, the start decides
        inside = shapely.intersects_xy(polys[tid[ask]], p[ask, 0], p[ask, 1])
        outside[ask[~inside]] = True
    lo[outside] = np.inf
    return lo, hi, unsure & ~crossed


def clip_ring(ri: RingIndex, p: FloatArray, d: FloatArray, tid: IntArray
              ) -> tuple[FloatArray, FloatArray]:
    """Cyrus-Beck against every edge of indexed convex polygons (the values of
    ``segments._clip``: lo is the largest entering t, hi the smallest leaving t)."""
    n = len(tid)
    clip = _Clip.of(d)
    rows_per = max(1, (1 << 20) // max(1, int(ri.poly_edge_n[tid].max())))
    for k in range(0, n, rows_per):
        part = np.arange(k, min(n, k + rows_per))
        row, edge = ragged(ri.poly_edge_lo[tid[part]], ri.poly_edge_n[tid[part]])
        clip.add(ri, p, d, part[row], edge)
    return np.where(clip.outside, np.inf, clip.lo), clip.hi


@dataclass(frozen=True)
class _Clip:
    """Cyrus-Beck of segments p + t d, edge by edge as ``segments._clip`` does: lo is the
    largest entering t, hi the smallest leaving t; ``outside`` where a parallel edge has
    the line on or beyond it."""

    lo: FloatArray
    hi: FloatArray
    outside: BoolArray
    tol: FloatArray

    @staticmethod
    def of(d: FloatArray) -> _Clip:
        n = len(d)
        return _Clip(np.full(n, -np.inf), np.full(n, np.inf), np.zeros(n, dtype=bool),
                     1e-12 * np.hypot(d[:, 0], d[:, 1]))

    def add(self, ri: RingIndex, p: FloatArray, d: FloatArray, row: IntArray,
            edge: IntArray) -> None:
        """Clip segment row[i] by edge edge[i]."""
        num = ri.nx[edge] * p[row, 0] + ri.ny[edge] * p[row, 1] - ri.c[edge]
        den = ri.nx[edge] * d[row, 0] + ri.ny[edge] * d[row, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = -num / den
        enter = den > self.tol[row]
        leave = den < -self.tol[row]
        np.fmax.at(self.lo, row[enter], t[enter])
        np.fmin.at(self.hi, row[leave], t[leave])
        self.outside[row[~enter & ~leave & (num <= EPS_SIDE)]] = True
