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

from typing import TYPE_CHECKING, Literal

import numpy as np

from tabletop_gui.geometry import ninth_age, outline
from tabletop_gui.geometry.board import Body, Point, Terrain
from tabletop_gui.geometry.facts import FacingCover
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry

SHOOTER_SAMPLES = 9
TARGET_SAMPLES = 64
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


def facing_cover(g: BoardGeometry, shooter: int, target: int,
                 threshold: Literal["more_than_half", "half_or_more"] = "more_than_half"
                 ) -> FacingCover:
    ba = g.bodies
    sb, tb = ba.bodies[shooter], ba.bodies[target]
    tc = (tb.footprint.x, tb.footprint.y)
    arc = ninth_age.arc_of_point(tb, ninth_age.reference_point(sb))
    t0, t1 = facing_edge(tb, arc, (sb.footprint.x, sb.footprint.y))
    s0, s1 = facing_edge(sb, "front", tc)
    fs = np.linspace(0.0, 1.0, SHOOTER_SAMPLES)
    ft = (np.arange(TARGET_SAMPLES) + 0.5) / TARGET_SAMPLES
    sp = np.array(s0)[None, :] + fs[:, None] * (np.array(s1) - np.array(s0))[None, :]
    tp = np.array(t0)[None, :] + ft[:, None] * (np.array(t1) - np.array(t0))[None, :]

    others = [b for k, b in enumerate(ba.bodies) if k not in (shooter, target) and b.active]
    obstructions = g.terrain.terrains + tuple(
        Terrain(b.id, "obstacle", tuple(map(tuple, outline.outline_points(b.footprint, 32))),
                1.0, b.id, True, "soft")
        for b in others
    )
    ts = TerrainSet.build(obstructions)
    n_obs = len(ts)
    best: tuple[tuple[int, float, float], FacingCover] | None = None
    for s in sp:
        if n_obs == 0:
            hidden = np.zeros((TARGET_SAMPLES, 0), dtype=bool)
        else:
            pi = np.repeat(np.arange(TARGET_SAMPLES), n_obs)
            oi = np.tile(np.arange(n_obs), TARGET_SAMPLES)
            p = np.column_stack([np.repeat(s[None, :], len(pi), axis=0), np.zeros(len(pi))])
            q = np.column_stack([tp[pi], np.zeros(len(pi))])
            hidden = blocked(p, q, oi.astype(np.intp), ts, use_z=False).reshape(
                TARGET_SAMPLES, n_obs)
        hard_frac = float(hidden[:, ts.hard].any(axis=1).mean()) if n_obs else 0.0
        total_frac = float(hidden.any(axis=1).mean()) if n_obs else 0.0
        kind: Literal["none", "soft", "hard"] = "none"
        if _over(hard_frac, threshold):
            kind = "hard"
        elif _over(total_frac, threshold):
            kind = "soft"
        by = tuple(obstructions[k].id for k in np.flatnonzero(hidden.any(axis=0)))
        key = (_KIND_ORDER[kind], total_frac, hard_frac)
        if best is None or key < best[0]:
            best = (key, FacingCover(kind, hard_frac, total_frac, by))
    assert best is not None
    return best[1]


def _over(fraction: float, threshold: str) -> bool:
    return fraction >= 0.5 if threshold == "half_or_more" else fraction > 0.5
