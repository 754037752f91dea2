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
(soft; the shooter and target themselves never hide).

For each shooter point: hard cover when the hard fraction is more than half (or half or
more with ``threshold="half_or_more"``); else soft cover when the fraction hidden by
everything is; else none. The shooter uses its best point: the least cover, then the
smallest hidden fraction. ``by`` names what hides part of the facing from that point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import ninth_age, outline
from tabletop_gui.geometry.board import Body, Point, Terrain
from tabletop_gui.geometry.facts import FacingCover
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry

IntArray = NDArray[np.intp]

SHOOTER_SAMPLES = 9
TARGET_SAMPLES = 64
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
    with a spatial index; ``owner[b]`` is body b's index in it (-1: inactive)."""

    ts: TerrainSet
    owner: IntArray
    tree: shapely.STRtree


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
    out = Obstructions(ts, owner, shapely.STRtree(ts.polygons))
    g.facing_obstructions = out
    return out


def facing_cover(g: BoardGeometry, shooter: int, target: int,
                 threshold: Literal["more_than_half", "half_or_more"] = "more_than_half"
                 ) -> FacingCover:
    ba = g.bodies
    sb, tb = ba.bodies[shooter], ba.bodies[target]
    tc = (tb.footprint.x, tb.footprint.y)
    arc = ninth_age.arc_of_point(tb, ninth_age.reference_point(sb))
    t0, t1 = facing_edge(tb, arc, (sb.footprint.x, sb.footprint.y))
    s0, s1 = facing_edge(sb, "front", tc)
    fs, ft = _FS, _FT
    sp = np.array(s0)[None, :] + fs[:, None] * (np.array(s1) - np.array(s0))[None, :]
    tp = np.array(t0)[None, :] + ft[:, None] * (np.array(t1) - np.array(t0))[None, :]

    obs = obstructions(g)
    ts = obs.ts
    # candidates: every sample line lies in the convex hull of both facings; an obstruction
    # that does not meet it cannot hide any sample (the shooter and the target never hide)
    hull = shapely.convex_hull(shapely.multipoints(np.array([s0, s1, t0, t1])))
    cand = np.sort(obs.tree.query(hull, predicate="intersects")).astype(np.intp)
    cand = cand[(cand != obs.owner[shooter]) & (cand != obs.owner[target])]
    bd = ts.bounds
    n_c = len(cand)
    ns = len(sp)
    hidden_all = np.zeros((ns, TARGET_SAMPLES, n_c), dtype=bool)
    if n_c:
        # (shooter point, target point, candidate) as one broadcast array: a line whose
        # box misses the candidate's box cannot pass through it, nor can a line with the
        # whole box strictly on one side of it (margin far above rounding)
        ax, ay = sp[:, 0][:, None, None], sp[:, 1][:, None, None]
        bx, by = tp[:, 0][None, :, None], tp[:, 1][None, :, None]
        cb = bd[cand]
        x0, y0, x1, y1 = cb[:, 0], cb[:, 1], cb[:, 2], cb[:, 3]
        live_mask = ((np.minimum(ax, bx) <= x1) & (np.maximum(ax, bx) >= x0)
                     & (np.minimum(ay, by) <= y1) & (np.maximum(ay, by) >= y0))
        nx, ny = ay - by, bx - ax
        off = nx * ax + ny * ay
        c1 = nx * x0 + ny * y0 - off
        c2 = nx * x1 + ny * y0 - off
        c3 = nx * x0 + ny * y1 - off
        c4 = nx * x1 + ny * y1 - off
        scale = 1.0 + max(float(np.abs(cb).max()), float(np.abs(sp).max()),
                          float(np.abs(tp).max()))
        margin = 1e-9 * scale * (np.abs(nx) + np.abs(ny))
        live_mask &= np.minimum(np.minimum(c1, c2), np.minimum(c3, c4)) <= margin
        live_mask &= np.maximum(np.maximum(c1, c2), np.maximum(c3, c4)) >= -margin
        si, pi, ci = np.nonzero(live_mask)
        zeros = np.zeros(len(si))
        p = np.column_stack([sp[si], zeros])
        q = np.column_stack([tp[pi], zeros])
        hidden_all[si, pi, ci] = blocked(p, q, cand[ci], ts, use_z=False)
    hard = ts.hard[cand]
    hard_fracs = hidden_all[:, :, hard].any(axis=2).mean(axis=1)
    total_fracs = hidden_all.any(axis=2).mean(axis=1)
    hides: NDArray[np.bool_] = np.asarray(hidden_all.any(axis=1))  # (point, candidate)
    best: tuple[tuple[int, float, float], FacingCover] | None = None
    for s in range(ns):
        hard_frac = float(hard_fracs[s]) if n_c else 0.0
        total_frac = float(total_fracs[s]) if n_c else 0.0
        kind: Literal["none", "soft", "hard"] = "none"
        if _over(hard_frac, threshold):
            kind = "hard"
        elif _over(total_frac, threshold):
            kind = "soft"
        key = (_KIND_ORDER[kind], total_frac, hard_frac)
        if best is None or key < best[0]:
            by = tuple(ts.terrains[k].id for k in cand[hides[s]])
            best = (key, FacingCover(kind, hard_frac, total_frac, by))
    assert best is not None
    return best[1]


def _over(fraction: float, threshold: str) -> bool:
    return fraction >= 0.5 if threshold == "half_or_more" else fraction > 0.5
