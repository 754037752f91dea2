"""The Ninth Age's cover: how much of the Target Facing is hidden from the shooter.

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
(``obstructions``); a pair's lines are tested only against obstructions meeting the convex
hull of both facings, and each line only where its box and the obstruction's box meet and
the box is not wholly on one side of the line. After ``TABLE_AFTER`` single questions on one
geometry (a whole-battlefield scan such as `inspect`) every opposing pair is computed in one
go (``hidden_many``) and later questions are answered from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import fan, ninth_age, outline
from tabletop_gui.geometry.board import Body, Point, Terrain
from tabletop_gui.geometry.facts import FacingCover
from tabletop_gui.geometry.rings import ragged
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.float64]

SHOOTER_SAMPLES = 9
TARGET_SAMPLES = 64
TABLE_AFTER = 16  # single-pair questions before every opposing pair is computed at once
_FS = np.linspace(0.0, 1.0, SHOOTER_SAMPLES)  # along the shooter's facing, ends included
_FT = (np.arange(TARGET_SAMPLES) + 0.5) / TARGET_SAMPLES  # middles of equal parts
_KIND_ORDER = {"none": 0, "soft": 1, "hard": 2}


def facing_edge(body: Body, arc: str, towards: Point) -> tuple[Point, Point]:
    """The two ends of a body's facing in ``arc`` (a diameter across for round bodies)."""
    fp = body.footprint
    if ninth_age.is_round(body):
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
    with a spatial index; ``owner[b]`` is body b's index in it (-1: inactive). ``known``
    keeps what hides each pair's samples once every opposing pair has been computed."""

    ts: TerrainSet
    owner: IntArray
    tree: shapely.STRtree
    pieces: fan.Pieces
    known: dict[tuple[int, int], Hidden] = field(default_factory=dict)
    asked: list[int] = field(default_factory=lambda: [0])


@dataclass(frozen=True, eq=False)
class Hidden:
    """The samples of one (shooter, target) pair hidden from each shooter point."""

    hard: FloatArray  # (SHOOTER_SAMPLES,) fraction hidden by hard obstructions
    total: FloatArray  # (SHOOTER_SAMPLES,) fraction hidden by anything
    cand: IntArray  # obstructions that may hide a sample, ascending
    hides: NDArray[np.bool_]  # (SHOOTER_SAMPLES, len(cand)): hides some sample from the point


def obstructions(g: BoardGeometry) -> Obstructions:
    cached = g.facing_obstructions
    if cached is not None:
        return cached
    ba = g.bodies
    k0 = len(g.terrain)
    owner = np.full(len(ba.bodies), -1, dtype=np.intp)
    extra: list[Terrain] = []
    for n, b in enumerate(ba.bodies):
        if b.active:
            owner[n] = k0 + len(extra)
            extra.append(Terrain(b.id, "obstacle",
                                 tuple(map(tuple, outline.outline_points(b.footprint, 32))),
                                 1.0, b.id, True, "soft"))
    ts = TerrainSet.build(g.terrain.terrains + tuple(extra))
    shapely.prepare(ts.polygons)
    out = Obstructions(ts, owner, shapely.STRtree(ts.polygons),
                       fan.Pieces.build(ts.polygons, ts.convex, ~ts.large))
    g.facing_obstructions = out
    return out


def facing_cover(g: BoardGeometry, shooter: int, target: int,
                 threshold: Literal["more_than_half", "half_or_more"] = "more_than_half"
                 ) -> FacingCover:
    obs = obstructions(g)
    hid = obs.known.get((shooter, target))
    if hid is None:
        obs.asked[0] += 1
        if obs.asked[0] > TABLE_AFTER and not obs.known:
            # a whole-battlefield scan (inspect): every opposing pair in one go
            ba = g.bodies
            pairs = [(a, t) for a in range(len(ba)) for t in range(len(ba))
                     if ba.active[a] and ba.active[t] and ba.side[a] != ba.side[t]]
            obs.known.update(zip(pairs, hidden_many(g, pairs), strict=True))
            hid = obs.known.get((shooter, target))
        if hid is None:
            hid = hidden_many(g, [(shooter, target)])[0]
    return _choose(hid, obs.ts, threshold)


def _choose(hid: Hidden, ts: TerrainSet, threshold: str) -> FacingCover:
    """The shooter's best point: the least cover, then the smallest hidden fraction."""
    n_c = len(hid.cand)
    best: tuple[tuple[int, float, float], FacingCover] | None = None
    for s in range(SHOOTER_SAMPLES):
        hard_frac = float(hid.hard[s]) if n_c else 0.0
        total_frac = float(hid.total[s]) if n_c else 0.0
        kind: Literal["none", "soft", "hard"] = "none"
        if _over(hard_frac, threshold):
            kind = "hard"
        elif _over(total_frac, threshold):
            kind = "soft"
        key = (_KIND_ORDER[kind], total_frac, hard_frac)
        if best is None or key < best[0]:
            by = tuple(ts.terrains[k].id for k in hid.cand[hid.hides[s]])
            best = (key, FacingCover(kind, hard_frac, total_frac, by))
    assert best is not None
    return best[1]


def hidden_many(g: BoardGeometry, pairs: list[tuple[int, int]]) -> list[Hidden]:
    """What hides the samples of each (shooter, target) pair, every pair at once."""
    ba = g.bodies
    obs = obstructions(g)
    ts = obs.ts
    n_p = len(pairs)
    ends = np.empty((n_p, 4, 2))
    for n, (shooter, target) in enumerate(pairs):
        sb, tb = ba.bodies[shooter], ba.bodies[target]
        arc = ninth_age.arc_of_point(tb, ninth_age.reference_point(sb))
        ends[n, 2:] = facing_edge(tb, arc, (sb.footprint.x, sb.footprint.y))
        ends[n, :2] = facing_edge(sb, "front", (tb.footprint.x, tb.footprint.y))
    s0, s1, t0, t1 = ends[:, 0], ends[:, 1], ends[:, 2], ends[:, 3]
    sp = s0[:, None, :] + _FS[None, :, None] * (s1 - s0)[:, None, :]  # (pairs, 9, 2)
    tp = t0[:, None, :] + _FT[None, :, None] * (t1 - t0)[:, None, :]  # (pairs, 64, 2)
    pe, oe = _candidates(g, obs, pairs, ends)
    n_e = len(pe)
    # what each candidate hides from each shooter point: certainly, and possibly (masks of
    # the 64 samples), from its convex pieces (``fan``)
    es_p = np.repeat(pe, SHOOTER_SAMPLES)
    es_s = np.tile(np.arange(SHOOTER_SAMPLES), n_e)
    es_o = np.repeat(oe, SHOOTER_SAMPLES)
    pcs = obs.pieces
    counts = pcs.count[es_o]
    row, piece = ragged(pcs.first[es_o], counts)
    d = t1 - t0
    fans = fan.Fans(sp[es_p[row], es_s[row], 0], sp[es_p[row], es_s[row], 1],
                    t0[es_p[row], 0], t0[es_p[row], 1], d[es_p[row], 0], d[es_p[row], 1])
    poss_r, cert_r = fan.masks(pcs, piece, fans)
    poss = np.zeros(len(es_p), dtype=np.uint64)
    cert = np.zeros(len(es_p), dtype=np.uint64)
    has = np.flatnonzero(counts > 0)
    if len(row):
        starts = (np.cumsum(counts) - counts)[has]
        poss[has] = np.bitwise_or.reduceat(poss_r, starts)
        cert[has] = np.bitwise_or.reduceat(cert_r, starts)
    # samples hidden for certain from each (pair, shooter point), by anything and by hard
    ps = es_p * SHOOTER_SAMPLES + es_s
    total = np.zeros(n_p * SHOOTER_SAMPLES, dtype=np.uint64)
    hard = np.zeros_like(total)
    np.bitwise_or.at(total, ps, cert)
    is_hard = ts.hard[es_o]
    np.bitwise_or.at(hard, ps[is_hard], cert[is_hard])
    # the unsure samples are tested line by line, except where nothing can change: the
    # obstruction already certainly hides something from the point, and the sample is
    # already certainly hidden (by something hard, if the obstruction is hard)
    unsure = poss & ~cert
    settled = cert != 0
    need = np.where(settled, unsure & (~total[ps] | np.where(is_hard, ~hard[ps],
                                                              np.uint64(0))), unsure)
    hides = cert != 0
    rows = np.flatnonzero(need)
    if len(rows):
        bits = np.unpackbits(need[rows].view(np.uint8).reshape(-1, 8), axis=1,
                             bitorder="little")
        at, k = np.nonzero(bits)
        r = rows[at]
        zeros = np.zeros(len(r))
        p = np.column_stack([sp[es_p[r], es_s[r]], zeros])
        q = np.column_stack([tp[es_p[r], k], zeros])
        hit = blocked(p, q, es_o[r], ts, use_z=False)
        r, k = r[hit], k[hit]
        bit = np.left_shift(np.uint64(1), k.astype(np.uint64))
        np.bitwise_or.at(total, ps[r], bit)
        h = ts.hard[es_o[r]]
        np.bitwise_or.at(hard, ps[r][h], bit[h])
        hides[r] = True
    hard_fracs = (np.bitwise_count(hard) / TARGET_SAMPLES).reshape(n_p, SHOOTER_SAMPLES)
    total_fracs = (np.bitwise_count(total) / TARGET_SAMPLES).reshape(n_p, SHOOTER_SAMPLES)
    hides2 = hides.reshape(n_e, SHOOTER_SAMPLES)
    bounds = np.searchsorted(pe, np.arange(n_p + 1))
    return [Hidden(hard_fracs[n], total_fracs[n], oe[bounds[n]:bounds[n + 1]],
                   hides2[bounds[n]:bounds[n + 1]].T)
            for n in range(n_p)]


def _candidates(g: BoardGeometry, obs: Obstructions, pairs: list[tuple[int, int]],
                ends: FloatArray) -> tuple[IntArray, IntArray]:
    """(pair, obstruction) of the obstructions that may hide some sample of each pair, by
    pair then obstruction: every sample line lies in the convex hull of both facings, so
    an obstruction that does not meet it cannot hide any sample; the shooter and the target
    never hide, nor does a platform either stands on."""
    ba = g.bodies
    ts = obs.ts
    hulls = shapely.convex_hull(shapely.multipoints(ends))
    pe, oe = obs.tree.query(hulls, predicate="intersects")
    order = np.lexsort((oe, pe))
    pe, oe = pe[order].astype(np.intp), oe[order].astype(np.intp)
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


def _over(fraction: float, threshold: str) -> bool:
    return fraction >= 0.5 if threshold == "half_or_more" else fraction > 0.5
