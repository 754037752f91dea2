"""Cover of a facing: how much of the Target Facing is hidden from the shooter.

Target Facing: the side of the target's boundary matching the arc of the target in which
the shooter is Located (front/rear/left/right edge). Shooter's Front Facing: the front
edge of its boundary. A round body's facing (either role) is its diameter across the line
between the two centres.

Sampling (documented): ``SHOOTER_SAMPLES`` points spread evenly along the shooter's
facing, ends included, and ``TARGET_SAMPLES`` points at the middles of equal parts of the
Target Facing, so a fraction is (hidden samples) / ``TARGET_SAMPLES``. A sample is hidden
when the straight line (in plan, heights ignored) passes through an obstruction:
terrain (hard or soft as the terrain says; platforms are hard) or another active body
(soft; the shooter and target themselves never hide, nor does a platform under the centre
of either: a unit on a hill is on top of it, not behind it).

For each shooter point: hard cover when the hard fraction is more than half (or half or
more with ``threshold="half_or_more"``); else soft cover when the fraction hidden by
everything is; else none. The shooter uses its best point: the least cover, then the
smallest hidden fraction. ``by`` names what hides part of the facing from that point.

Computing (same answers, only faster): the obstructions are prepared once per geometry
(``obstructions``: one TerrainSet, an STRtree, convex pieces covering each obstruction).
A pair's candidates are the obstructions whose box meets the box of a slab of the convex
hull of both facings and does not lie beyond one of the hull's two longest edges (every
sample line lies in that hull). For each candidate and shooter point, ``fan.masks`` tells
from the pieces' geometry which of the 64 lines it certainly hides and which it may hide;
only the lines in between (near an outline's silhouette, a piece around the shooter
point) are tested one by one (``segments.blocked``), and not even those where the answer
is already settled. After ``TABLE_AFTER`` single questions on one geometry (a
whole-battlefield scan such as `inspect`) every opposing pair is computed in one go
(``hidden_many``) and later questions are answered from it; ``facing_covers`` chooses
for all pairs at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import fan, outline, unit_arcs
from tabletop_gui.geometry.board import Body, Point, Terrain
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.facts import Arc, FacingCover
from tabletop_gui.geometry.rings import ragged
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.float64]

SHOOTER_SAMPLES = 9
TARGET_SAMPLES = 64
TABLE_AFTER = 4  # single-pair questions before every opposing pair is computed at once
_FS = np.linspace(0.0, 1.0, SHOOTER_SAMPLES)  # along the shooter's facing, ends included
_FT = (np.arange(TARGET_SAMPLES) + 0.5) / TARGET_SAMPLES  # middles of equal parts
_KINDS: tuple[Literal["none", "soft", "hard"], ...] = ("none", "soft", "hard")


def facing_edge(body: Body, arc: str, towards: Point) -> tuple[Point, Point]:
    """The two ends of a body's facing in ``arc`` (a diameter across for round bodies)."""
    fp = body.footprint
    if unit_arcs.is_round(body):
        dx, dy = towards[0] - fp.x, towards[1] - fp.y
        d = float(np.hypot(dx, dy)) or 1.0
        nx, ny = -dy / d, dx / d
        r = 0.5 * max(fp.length, fp.width)
        return (fp.x + r * nx, fp.y + r * ny), (fp.x - r * nx, fp.y - r * ny)
    w, d2 = 0.5 * fp.width, 0.5 * fp.length
    ends = {
        "front": ((w, d2), (-w, d2)),
        "rear": ((-w, -d2), (w, -d2)),
        "left_flank": ((-w, d2), (-w, -d2)),
        "right_flank": ((w, -d2), (w, d2)),
    }[arc]
    return outline.to_world(fp, *ends[0]), outline.to_world(fp, *ends[1])


@dataclass(frozen=True, eq=False)
class Obstructions:
    """Everything that can hide a sample, prepared once per geometry: the board's terrain
    then every active body's outline (soft, 32 segments for round ones), as one TerrainSet
    with a spatial index and convex pieces (``fan.Pieces``); ``owner[b]`` is body b's index
    in it (-1: inactive). Once every opposing pair has been computed, ``scanned`` holds
    their table and ``known`` each pair's row in it."""

    ba: BodyArrays  # the bodies they were prepared for
    ts: TerrainSet
    owner: IntArray
    tree: shapely.STRtree
    pieces: fan.Pieces
    ids: NDArray[np.object_]  # the id of each obstruction
    bodies: _BodyFrames
    known: dict[tuple[int, int], int] = field(default_factory=dict)
    asked: list[int] = field(default_factory=lambda: [0])
    scanned: list[Hidden] = field(default_factory=list)  # the table of every pair, once


@dataclass(frozen=True, eq=False)
class Hidden:
    """The samples of some (shooter, target) pairs hidden from each shooter point."""

    hard: FloatArray  # (pairs, SHOOTER_SAMPLES): fraction hidden by hard obstructions
    total: FloatArray  # (pairs, SHOOTER_SAMPLES): fraction hidden by anything
    bounds: IntArray  # (pairs + 1,): the candidates of pair n are bounds[n]:bounds[n + 1]
    cand: IntArray  # obstructions that may hide a sample of a pair, ascending per pair
    hides: NDArray[np.bool_]  # (candidates, SHOOTER_SAMPLES): hides some sample from the point
    arcs: list[Arc]  # [pair]: the arc of the target holding the shooter's reference point


@dataclass(frozen=True, eq=False)
class _BodyFrames:
    """What ``_ends`` needs of every body (from the same Python arithmetic as
    ``facing_edge`` and ``unit_arcs``)."""

    round: NDArray[np.bool_]
    x: FloatArray
    y: FloatArray
    half: FloatArray  # half the larger side: the radius of a round body
    w: FloatArray  # half width
    d: FloatArray  # half length
    ref: FloatArray  # (n, 2) reference points
    fx: FloatArray  # forward and right unit vectors
    fy: FloatArray
    rx: FloatArray
    ry: FloatArray
    edges: FloatArray  # (n, 4, 2, 2): the facings of rectangular bodies, in ``_ARCS`` order

    @staticmethod
    def of(bodies: tuple[Body, ...]) -> _BodyFrames:
        n = len(bodies)
        rnd = np.array([unit_arcs.is_round(b) for b in bodies], dtype=bool)
        frame = np.array([outline.axes(b.footprint.facing) for b in bodies],
                         dtype=float).reshape(n, 2, 2)
        edges = np.zeros((n, 4, 2, 2))
        for k in np.flatnonzero(~rnd):
            for m, arc in enumerate(_ARCS):
                edges[k, m] = facing_edge(bodies[k], arc, (0.0, 0.0))
        return _BodyFrames(
            rnd,
            np.array([b.footprint.x for b in bodies], dtype=float),
            np.array([b.footprint.y for b in bodies], dtype=float),
            np.array([0.5 * max(b.footprint.length, b.footprint.width) for b in bodies]),
            np.array([0.5 * b.footprint.width for b in bodies]),
            np.array([0.5 * b.footprint.length for b in bodies]),
            np.array([unit_arcs.reference_point(b) for b in bodies], dtype=float).reshape(n, 2),
            frame[:, 0, 0], frame[:, 0, 1], frame[:, 1, 0], frame[:, 1, 1], edges)


def obstructions(ba: BodyArrays, terrain: TerrainSet) -> Obstructions:
    """The obstructions of a board (its geometry keeps them: ``BoardGeometry.obstructions``)."""
    k0 = len(terrain)
    owner = np.full(len(ba.bodies), -1, dtype=np.intp)
    active = [b for b in ba.bodies if b.active]
    extra = [Terrain(b.id, "obstacle", ring, 1.0, b.id, True, "soft")
             for b, ring in zip(active, _outlines(active), strict=True)]
    owner[np.flatnonzero([b.active for b in ba.bodies])] = k0 + np.arange(len(extra))
    ts = TerrainSet.build(terrain.terrains + tuple(extra))
    shapely.prepare(ts.polygons)
    return Obstructions(ba, ts, owner, shapely.STRtree(ts.polygons),
                       fan.Pieces.build(ts.polygons, ts.convex, ~ts.large),
                       np.array([t.id for t in ts.terrains], dtype=object),
                       _BodyFrames.of(ba.bodies))


def _outlines(bodies: list[Body]) -> list[tuple[Point, ...]]:
    """``outline.outline_points(b.footprint, 32)`` of each body, as tuples: the corners of
    the rectangles made together in numpy in the same arithmetic (x + u r + v f, from the
    same axes), which are counter-clockwise already when their area is far above rounding;
    the others one by one."""
    fps = [b.footprint for b in bodies]
    out: list[tuple[Point, ...] | None] = [None] * len(fps)
    rect = [k for k, fp in enumerate(fps) if fp.shape == "rect"
            and fp.length * fp.width > 1e-9 * (1.0 + abs(fp.x) + abs(fp.y) + fp.length
                                               + fp.width) ** 2]
    if rect:
        frame = np.array([outline.axes(fps[k].facing) for k in rect], dtype=float)
        fx, fy, rx, ry = frame[:, 0, 0], frame[:, 0, 1], frame[:, 1, 0], frame[:, 1, 1]
        hw = np.array([0.5 * fps[k].width for k in rect])[:, None]
        hl = np.array([0.5 * fps[k].length for k in rect])[:, None]
        u, v = hw * _CORNER_U, hl * _CORNER_V
        x = np.array([fps[k].x for k in rect])[:, None] + u * rx[:, None] + v * fx[:, None]
        y = np.array([fps[k].y for k in rect])[:, None] + u * ry[:, None] + v * fy[:, None]
        for k, xs, ys in zip(rect, x.tolist(), y.tolist(), strict=True):
            out[k] = tuple(zip(xs, ys, strict=True))
    return [ring if ring is not None else tuple(map(tuple, outline.outline_points(fp, 32)))
            for ring, fp in zip(out, fps, strict=True)]


_CORNER_U = np.array([1.0, -1.0, -1.0, 1.0])  # outline_points' rectangle corners (u, v) / half
_CORNER_V = np.array([1.0, 1.0, -1.0, -1.0])


def facing_cover(obs: Obstructions, shooter: int, target: int,
                 threshold: Literal["more_than_half", "half_or_more"] = "more_than_half"
                 ) -> FacingCover:
    row = obs.known.get((shooter, target))
    if row is None:
        obs.asked[0] += 1
        if obs.asked[0] > TABLE_AFTER and not obs.known:
            # a whole-battlefield scan (inspect): every opposing pair in one go
            _scan(obs)
            row = obs.known.get((shooter, target))
        if row is None:
            return _choose(hidden_many(obs, [(shooter, target)]), 0, obs.ids, threshold)
    return _choose(obs.scanned[0], row, obs.ids, threshold)


def _scan(obs: Obstructions) -> tuple[list[tuple[int, int]], Hidden]:
    """Every ordered pair of active bodies on different sides, computed at once and kept
    in ``obs.known`` (once per geometry)."""
    ba = obs.ba
    a, t = np.nonzero((ba.side[:, None] != ba.side[None, :]) & ba.active[:, None]
                      & ba.active[None, :])
    pairs = list(zip(a.tolist(), t.tolist(), strict=True))
    if obs.scanned:
        return pairs, obs.scanned[0]
    table = hidden_many(obs, pairs)
    obs.known.update(zip(pairs, range(len(pairs)), strict=True))
    obs.scanned.append(table)
    return pairs, table


def facing_covers(obs: Obstructions, threshold: Literal["more_than_half", "half_or_more"]
                  ) -> dict[tuple[int, int], FacingCover]:
    """``facing_cover`` of every ordered pair of active bodies on different sides."""
    pairs, kinds, hard, total, by = facing_choices(obs, threshold)
    return {pair: FacingCover(kinds[n], hard[n], total[n], by[n])
            for n, pair in enumerate(pairs)}


def facing_choices(obs: Obstructions, threshold: Literal["more_than_half", "half_or_more"]
                   ) -> tuple[list[tuple[int, int]], list[Literal["none", "soft", "hard"]],
                              list[float], list[float], list[tuple[str, ...]]]:
    """The fields of ``facing_covers`` (pairs, kinds, hard and total fractions, by) as
    lists: the choice of ``_choose`` made for all pairs in numpy (fractions are multiples
    of 1/64, so the key (kind, total, hard) orders as kind * 10^6 + 64000 total + 64 hard)."""
    pairs, table = _scan(obs)
    hard, total = table.hard, table.total
    if threshold == "half_or_more":
        kind = np.where(hard >= 0.5, 2, np.where(total >= 0.5, 1, 0))
    else:
        kind = np.where(hard > 0.5, 2, np.where(total > 0.5, 1, 0))
    best = np.argmin(kind * 1e6 + total * 64000.0 + hard * 64.0, axis=1)  # the first least
    per_pair = np.diff(table.bounds)
    pair_of = np.repeat(np.arange(len(pairs)), per_pair)
    chosen = table.hides[np.arange(len(pair_of)), best[pair_of]]
    ids = obs.ids[table.cand[chosen]].tolist()
    ends = np.concatenate([[0], np.cumsum(np.bincount(pair_of[chosen], minlength=len(pairs)))])
    at = np.arange(len(pairs))
    ends_l = ends.tolist()
    return (pairs, [_KINDS[k] for k in kind[at, best].tolist()], hard[at, best].tolist(),
            total[at, best].tolist(),
            [tuple(ids[ends_l[n]:ends_l[n + 1]]) for n in range(len(pairs))])


def facing_arcs(obs: Obstructions) -> list[Arc]:
    """The arc of each pair of ``facing_choices`` (``Hidden.arcs`` of the scan)."""
    return _scan(obs)[1].arcs


def _choose(hid: Hidden, n: int, ids: NDArray[np.object_], threshold: str) -> FacingCover:
    """The shooter's best point: the least cover, then the smallest hidden fraction."""
    hard, total = hid.hard[n].tolist(), hid.total[n].tolist()
    half = threshold == "half_or_more"
    best: tuple[int, float, float] | None = None
    at = 0
    for s in range(SHOOTER_SAMPLES):
        h, t = hard[s], total[s]
        kind = (2 if (h >= 0.5 if half else h > 0.5) else
                1 if (t >= 0.5 if half else t > 0.5) else 0)
        key = (kind, t, h)
        if best is None or key < best:
            best, at = key, s
    assert best is not None
    rows = slice(int(hid.bounds[n]), int(hid.bounds[n + 1]))
    by = tuple(ids[hid.cand[rows][hid.hides[rows, at]]])
    return FacingCover(_KINDS[best[0]], best[2], best[1], by)


def hidden_many(obs: Obstructions, pairs: list[tuple[int, int]]) -> Hidden:
    """What hides the samples of each (shooter, target) pair, every pair at once."""
    ts = obs.ts
    n_p = len(pairs)
    ends, arcs = _ends(obs, pairs)
    s0, s1, t0, t1 = ends[:, 0], ends[:, 1], ends[:, 2], ends[:, 3]
    pe, oe = _candidates(obs, pairs, ends)
    n_e = len(pe)
    # what each candidate hides from each shooter point: certainly, and possibly (masks of
    # the 64 samples), from its convex pieces (``fan``)
    pcs = obs.pieces
    counts = pcs.count[oe]
    row, piece = ragged(pcs.first[oe], counts)
    rp = pe[row]
    d = t1 - t0
    fans = fan.Fans(s0[rp, 0], s0[rp, 1], s1[rp, 0] - s0[rp, 0], s1[rp, 1] - s0[rp, 1],
                    t0[rp, 0], t0[rp, 1], d[rp, 0], d[rp, 1])
    poss_r, cert_r = fan.masks(pcs, piece, fans, _FS)
    poss = np.zeros((n_e, SHOOTER_SAMPLES), dtype=np.uint64)
    cert = np.zeros((n_e, SHOOTER_SAMPLES), dtype=np.uint64)
    has = np.flatnonzero(counts > 0)
    if len(row):
        # the masks of an obstruction's pieces (consecutive rows, mostly one) or-ed together
        starts = (np.cumsum(counts) - counts)[has]
        poss[has] = _or_segments(poss_r, starts)
        cert[has] = _or_segments(cert_r, starts)
    # samples hidden for certain from each (pair, shooter point), by anything and by hard:
    # the candidates of a pair are consecutive rows, or-ed together
    by_pair = np.zeros((2, n_p, SHOOTER_SAMPLES), dtype=np.uint64)
    if n_e:
        first = np.flatnonzero(np.r_[True, pe[1:] != pe[:-1]])
        by_pair[0, pe[first]] = np.bitwise_or.reduceat(cert, first, axis=0)
        by_pair[1, pe[first]] = np.bitwise_or.reduceat(
            np.where(ts.hard[oe][:, None], cert, np.uint64(0)), first, axis=0)
    total, hard = by_pair[0].ravel(), by_pair[1].ravel()
    poss_f, cert_f = poss.ravel(), cert.ravel()
    hides = cert_f != 0
    # the unsure samples (possibly but not certainly hidden: few) are tested line by line,
    # except where nothing can change: the obstruction already certainly hides something
    # from the point, and the sample is already certainly hidden (by something hard, if
    # the obstruction is hard); rows r of (candidate, shooter point) r // SHOOTER_SAMPLES,
    # r % SHOOTER_SAMPLES
    rows = np.flatnonzero(poss_f & ~cert_f)
    unsure = poss_f[rows] & ~cert_f[rows]
    es_e, es_s = np.divmod(rows, SHOOTER_SAMPLES)
    es_p, es_o = pe[es_e], oe[es_e]
    ps = es_p * SHOOTER_SAMPLES + es_s
    need = np.where(hides[rows], unsure & (~total[ps] | np.where(ts.hard[es_o], ~hard[ps],
                                                                  np.uint64(0))), unsure)
    keep = np.flatnonzero(need)
    rows, need, es_p, es_s, es_o, ps = (x[keep] for x in (rows, need, es_p, es_s, es_o, ps))
    if len(rows):
        bits = np.unpackbits(need.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        at, k = np.nonzero(bits)
        zeros = np.zeros(len(at))
        # the sample points, as s0 + f (s1 - s0) and t0 + u (t1 - t0) of each pair
        pr = es_p[at]
        fs, ft = _FS[es_s[at]][:, None], _FT[k][:, None]
        p = np.column_stack([s0[pr] + fs * (s1[pr] - s0[pr]), zeros])
        q = np.column_stack([t0[pr] + ft * (t1[pr] - t0[pr]), zeros])
        hit = blocked(p, q, es_o[at], ts, use_z=False)
        at, k = at[hit], k[hit]
        bit = np.left_shift(np.uint64(1), k.astype(np.uint64))
        np.bitwise_or.at(total, ps[at], bit)
        h = ts.hard[es_o[at]]
        np.bitwise_or.at(hard, ps[at][h], bit[h])
        hides[rows[at]] = True
    hard_fracs = np.bitwise_count(hard) / TARGET_SAMPLES
    total_fracs = np.bitwise_count(total) / TARGET_SAMPLES
    return Hidden(hard_fracs.reshape(n_p, SHOOTER_SAMPLES),
                  total_fracs.reshape(n_p, SHOOTER_SAMPLES),
                  np.searchsorted(pe, np.arange(n_p + 1)), oe,
                  hides.reshape(n_e, SHOOTER_SAMPLES), arcs)


def _or_segments(x: NDArray[np.uint64], starts: IntArray) -> NDArray[np.uint64]:
    """``np.bitwise_or.reduceat(x, starts, axis=0)`` for strictly increasing ``starts``
    (from 0): each segment's first row, then its second, third, ... or-ed in for the
    segments that long (faster than ``reduceat`` along the rows when most segments are one
    or two rows, as an obstruction's pieces are; slower for long ones)."""
    counts = np.diff(np.append(starts, len(x)))
    out = x[starts]
    at = np.flatnonzero(counts > 1)
    k = 1
    while len(at):
        out[at] |= x[starts[at] + k]
        k += 1
        at = at[counts[at] > k]
    return out


_ARCS: tuple[Arc, ...] = ("front", "rear", "left_flank", "right_flank")


def _ends(obs: Obstructions, pairs: list[tuple[int, int]]) -> tuple[FloatArray, list[Arc]]:
    """(pairs, 4, 2): the ends of the shooter's front facing and of the Target Facing,
    ``facing_edge`` of each pair with the arc of ``unit_arcs.arc_of_point``, in numpy with
    the same arithmetic (the sines and cosines come from the same per-body values); and
    that arc of each pair."""
    f = obs.bodies
    pr = np.array(pairs, dtype=np.intp).reshape(-1, 2)
    a, t = pr[:, 0], pr[:, 1]
    # the arc of the target holding the shooter's reference point (``arc_of_point``)
    dx, dy = f.ref[a, 0] - f.x[t], f.ref[a, 1] - f.y[t]
    u = dx * f.rx[t] + dy * f.ry[t]
    v = dx * f.fx[t] + dy * f.fy[t]
    tie = np.maximum(np.maximum(1.0, np.abs(u)), np.abs(v)) * unit_arcs.TIE
    ahead = np.abs(v) - f.d[t] > np.abs(u) - f.w[t] + tie
    arc_k = np.where(ahead, np.where(v > 0, 0, 1), np.where(u >= 0, 3, 2))
    out = np.empty((len(pr), 4, 2))
    for (body, other, which), cols in (((a, t, np.zeros(len(pr), np.intp)), slice(0, 2)),
                                       ((t, a, arc_k), slice(2, 4))):
        out[:, cols] = f.edges[body, which]
        r = np.flatnonzero(f.round[body])
        if len(r):  # a diameter across the line towards the other body's centre
            b, o = body[r], other[r]
            ex, ey = f.x[o] - f.x[b], f.y[o] - f.y[b]
            dist = np.hypot(ex, ey)
            dist = np.where(dist == 0, 1.0, dist)
            nx, ny = -ey / dist, ex / dist
            rr = f.half[b]
            out[r, cols.start] = np.stack([f.x[b] + rr * nx, f.y[b] + rr * ny], axis=1)
            out[r, cols.start + 1] = np.stack([f.x[b] - rr * nx, f.y[b] - rr * ny], axis=1)
    arcs = [_ARCS[k] for k in np.where(f.round[t], 0, arc_k).tolist()]
    return out, arcs


def _candidates(obs: Obstructions, pairs: list[tuple[int, int]],
                ends: FloatArray) -> tuple[IntArray, IntArray]:
    """(pair, obstruction) of the obstructions that may hide some sample of each pair, by
    pair then obstruction: every sample line lies in the convex hull of both facings, so
    an obstruction whose box misses the boxes of the hull's slabs (``_slab_boxes``), or
    lies beyond one of its edges, cannot hide any sample; the shooter and the target never
    hide, nor does a platform either stands on."""
    ba = obs.ba
    ts = obs.ts
    boxes = _slab_boxes(ends).reshape(-1, 4)
    live = np.flatnonzero(boxes[:, 0] <= boxes[:, 2])
    at, oe = _boxes_meeting(obs, boxes[live])
    keys = np.sort((live[at] // _SLABS) * len(ts) + oe)  # by pair, then obstruction
    keys = keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys
    pe, oe = (keys // len(ts)).astype(np.intp), (keys % len(ts)).astype(np.intp)
    near = ~_outside_hull(ends, pe, ts.bounds[oe])
    pe, oe = pe[near], oe[near]
    own = np.array(pairs, dtype=np.intp).reshape(-1, 2)
    mine = (oe == obs.owner[own[pe, 0]]) | (oe == obs.owner[own[pe, 1]])
    # a platform the shooter or the target stands on (its centre inside) hides nothing
    # of that pair: the unit is on top of it, not behind it
    plat = np.flatnonzero(~mine & (oe < len(ts.is_obstacle)))
    plat = plat[~ts.is_obstacle[oe[plat]]]
    if len(plat):
        polys = ts.polygons[oe[plat]]
        for end in (0, 1):
            k = own[pe[plat], end]
            mine[plat] |= shapely.intersects_xy(polys, ba.x[k], ba.y[k])
    return pe[~mine], oe[~mine]


_OVERLAP_AT_ONCE = 1 << 20  # (box, obstruction) pairs compared in numpy at most


def _boxes_meeting(obs: Obstructions, boxes: FloatArray) -> tuple[IntArray, IntArray]:
    """(box, obstruction) of every box (minx, miny, maxx, maxy) and obstruction whose
    boxes meet (edges touching count), in any order: what ``obs.tree.query`` finds for
    the boxes as polygons. A few boxes and obstructions are compared all at once in
    numpy (no polygon made per box); many go through the tree."""
    bd = obs.ts.bounds
    if len(boxes) * len(bd) > _OVERLAP_AT_ONCE:
        at, oe = obs.tree.query(shapely.box(*boxes.T))
        return at.astype(np.intp), oe.astype(np.intp)
    meet = ((boxes[:, None, 0] <= bd[None, :, 2]) & (boxes[:, None, 2] >= bd[None, :, 0])
            & (boxes[:, None, 1] <= bd[None, :, 3]) & (boxes[:, None, 3] >= bd[None, :, 1]))
    at, oe = np.nonzero(meet)
    return at.astype(np.intp), oe.astype(np.intp)


_SLABS = 4  # slabs across the line between the facings, each with its own box


def _slab_boxes(ends: FloatArray) -> FloatArray:
    """(pairs, _SLABS, 4): boxes holding the convex hull of each pair's four points cut in
    slabs across the line between the middles of the two facings (a long pair at an angle
    has a much smaller box per slab than for the whole hull). The hull's part in a slab is
    the convex polygon whose corners are the four points in it and where the hull's edges
    (among the 6 lines between the points) cross the slab's two limits, so its box is
    theirs, widened by far more than rounding; a slab holding none is empty (min > max:
    inf, -inf)."""
    n_p = len(ends)
    axis = 0.5 * (ends[:, 2] + ends[:, 3]) - 0.5 * (ends[:, 0] + ends[:, 1])
    start = 0.5 * (ends[:, 0] + ends[:, 1])
    size = np.einsum("pc,pc->p", axis, axis)
    flat = size <= 0
    size = np.where(flat, 1.0, size)
    tau = np.einsum("pmc,pc->pm", ends - start[:, None, :], axis) / size[:, None]  # (p, 4)
    tau[flat] = 0.0
    cuts = np.linspace(tau.min(axis=1), tau.max(axis=1), _SLABS + 1, axis=1)  # (p, S+1)
    # where each of the 6 lines crosses each cut: (p, 6, S+1), none where it does not
    a, b = _LINES[:, 0], _LINES[:, 1]
    ta, tb = tau[:, a, None], tau[:, b, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (cuts[:, None, :] - ta) / (tb - ta)
    ok = (w >= 0) & (w <= 1) & (ta != tb)
    w = np.where(ok, w, 0.0)
    lo_c, hi_c = [], []  # (p, S+1) least and largest x and y of the crossings at each cut
    for c in (0, 1):
        ea, eb = ends[:, a, c][:, :, None], ends[:, b, c][:, :, None]  # (p, 6, 1)
        x = ea + w * (eb - ea)
        lo_c.append(np.where(ok, x, np.inf).min(axis=1))
        hi_c.append(np.where(ok, x, -np.inf).max(axis=1))
    scale = 1.0 + np.abs(ends).max(axis=(1, 2))
    tol = 1e-9 * (1.0 + np.abs(tau).max(axis=1))
    out = np.empty((n_p, _SLABS, 4))
    for k in range(_SLABS):
        lo_t = np.where(k == 0, -np.inf, cuts[:, k] - tol)[:, None]
        hi_t = np.where(k == _SLABS - 1, np.inf, cuts[:, k + 1] + tol)[:, None]
        with np.errstate(invalid="ignore"):
            inside = (tau >= lo_t) & (tau <= hi_t)  # the four points in the slab
        for c in (0, 1):
            e = ends[:, :, c]
            out[:, k, c] = np.minimum(np.where(inside, e, np.inf).min(axis=1),
                                      np.minimum(lo_c[c][:, k], lo_c[c][:, k + 1]))
            out[:, k, 2 + c] = np.maximum(np.where(inside, e, -np.inf).max(axis=1),
                                          np.maximum(hi_c[c][:, k], hi_c[c][:, k + 1]))
    margin = 1e-9 * scale[:, None, None]
    out[:, :, :2] -= margin
    out[:, :, 2:] += margin
    return out


_LINES = np.array(((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)), dtype=np.intp)


def _outside_hull(ends: FloatArray, pe: IntArray, boxes: FloatArray) -> NDArray[np.bool_]:
    """Is box k (minx, miny, maxx, maxy) wholly beyond one of the two longest edges of the
    convex hull of the four points ``ends[pe[k]]`` (by more than rounding)?"""
    n_p = len(ends)
    nx = np.zeros((n_p, 6))
    ny = np.zeros((n_p, 6))
    off = np.full((n_p, 6), np.inf)  # not a hull edge: nothing is beyond it
    size = np.full((n_p, 6), -1.0)
    scale = 1.0 + np.abs(ends).max(axis=(1, 2))
    for e, (a, b) in enumerate(((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))):
        c, d = (m for m in range(4) if m not in (a, b))
        pa = ends[:, a]
        dx, dy = ends[:, b, 0] - pa[:, 0], ends[:, b, 1] - pa[:, 1]
        s1, s2 = (dx * (ends[:, m, 1] - pa[:, 1]) - dy * (ends[:, m, 0] - pa[:, 0])
                  for m in (c, d))
        left = (s1 >= 0) & (s2 >= 0) & ((s1 > 0) | (s2 > 0))
        right = (s1 <= 0) & (s2 <= 0) & ((s1 < 0) | (s2 < 0))
        # the outward normal of a hull edge (the hull on its left: the right normal)
        nx[:, e] = np.where(left, dy, np.where(right, -dy, 0.0))
        ny[:, e] = np.where(left, -dx, np.where(right, dx, 0.0))
        tol = 1e-9 * scale * (np.abs(dx) + np.abs(dy))
        off[:, e] = np.where(left | right, nx[:, e] * pa[:, 0] + ny[:, e] * pa[:, 1] + tol,
                             np.inf)
        size[:, e] = np.where(left | right, np.abs(dx) + np.abs(dy), -1.0)
    top = np.argsort(-size, axis=1)[:, :2]  # the two longest hull edges of each pair
    nx, ny, off = (np.take_along_axis(x, top, axis=1)[pe] for x in (nx, ny, off))
    near = (nx * np.where(nx > 0, boxes[:, 0:1], boxes[:, 2:3])
            + ny * np.where(ny > 0, boxes[:, 1:2], boxes[:, 3:4]))
    return np.asarray((near > off).any(axis=1), dtype=bool)
