"""How far a pair is from a different answer, computed from the geometry.

- ``gap_for``: the gap on the table at which a distance measured in 3D reaches a limit
  (``sqrt(limit^2 - vertical^2)``). Moving one base straight towards or away from the
  other along the line between the closest points changes the gap by exactly the move
  (the bases are convex), so the difference is the move a player makes.
- ``cover_spans``: where each obstacle crosses the line between the closest points (the
  line of cover of ``cover``), from the attacker's end, and how far from the
  attacker's base the line leaves it -- the ½" next to the base that the exemption drops
  is measured from the base, not along the line.
- ``arc_turn``: how many degrees the target must turn about its centre before the point
  (the attacker's reference point) lies in another arc. The arc lines ``|v| - d = |u| - w``
  (``unit_arcs``) meet the circle through the point, in the target's own frame, at
  ``phi = 45° + asin((d - w) / (sqrt 2 · r))`` and its mirror images: turning the target
  by ``theta`` moves the point to ``phi0 - theta`` in that frame, so the turns are the
  angles between ``phi0`` and those four roots. A point on a line is in the flank (ties
  go to the flank), so from a front or rear arc the change happens *at* the root, from a
  flank just *past* it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import shapely

from tabletop_gui.geometry import outline, unit_arcs
from tabletop_gui.geometry.board import Body, Point
from tabletop_gui.geometry.facts import Arc
from tabletop_gui.geometry.outline_distance import point_distance

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry


def gap_for(limit: float, vertical: float) -> float | None:
    """The gap on the table at which sqrt(gap^2 + vertical^2) equals ``limit``; None when
    the vertical difference alone exceeds it."""
    if vertical > limit + 1e-12:
        return None
    return math.sqrt(max(0.0, limit * limit - vertical * vertical))


@dataclass(frozen=True)
class CoverSpan:
    """An obstacle on the line between the closest points (inches from the attacker's
    closest point along the line), and how far from the attacker's base the line leaves it."""

    terrain: str  # id
    label: str
    enters: float
    leaves: float
    leaves_from_base: float  # distance from the attacker's base to where the line leaves it


def cover_spans(g: BoardGeometry, attacker: str, target: str) -> list[CoverSpan]:
    """Every obstacle the closest-points line passes through (in plan), nearest first."""
    m = g.measure(attacker, target)
    a, b = m.point_a, m.point_b
    length = math.dist(a, b)
    if length <= 0.0:
        return []
    line = shapely.LineString([a, b])
    ts = g.terrain
    out = []
    for k in np.flatnonzero(ts.is_obstacle):
        inside = line.intersection(ts.polygons[k])
        pieces = [p for p in getattr(inside, "geoms", [inside])
                  if isinstance(p, shapely.LineString) and p.length > 1e-7
                  and ts.polygons[k].contains(p.interpolate(0.5, normalized=True))]
        if not pieces:
            continue
        ends = [line.project(shapely.Point(c)) for p in pieces for c in p.coords]
        t_out = max(ends)
        x = a[0] + (b[0] - a[0]) * t_out / length
        y = a[1] + (b[1] - a[1]) * t_out / length
        k_a = np.array([g.index(attacker)], dtype=np.intp)
        far, _, _ = point_distance(g.bodies, k_a, np.array([x]), np.array([y]))
        terrain = ts.terrains[int(k)]
        out.append(CoverSpan(terrain.id, terrain.label, min(ends), t_out, float(far[0])))
    out.sort(key=lambda s: (s.enters, s.terrain))
    return out


@dataclass(frozen=True)
class ArcTurn:
    """Turns of the target (degrees, about its centre) that put the point in another arc."""

    arc: Arc  # the arc the point is in now
    on_line: bool  # exactly on a 135° line (in the flank: ties go to the flank)
    clockwise: float | None  # None: no turn that way changes the arc (a round target...)
    clockwise_arc: Arc | None
    anticlockwise: float | None
    anticlockwise_arc: Arc | None


def arc_turn(target: Body, point: Point) -> ArcTurn:
    """See the module docstring. The turn from a flank is the angle of the line itself:
    any turn beyond it changes the arc."""
    now = unit_arcs.arc_of_point(target, point)
    fp = target.footprint
    if unit_arcs.is_round(target):
        return ArcTurn(now, False, None, None, None, None)
    u, v = outline.to_local(fp, point[0], point[1])
    w, d = 0.5 * fp.width, 0.5 * fp.length
    r = math.hypot(u, v)
    c = d - w
    if r <= 0.0 or abs(c) > r:  # the circle through the point meets no arc line
        return ArcTurn(now, False, None, None, None, None)
    phi0 = math.degrees(math.atan2(v, u))
    first = 45.0 + math.degrees(math.asin(max(-1.0, min(1.0, c / (math.sqrt(2.0) * r)))))
    roots = (first, 180.0 - first, 180.0 + first, 360.0 - first)
    # turning by theta (anticlockwise) moves the point to phi0 - theta in the target's frame
    tol = 1e-7
    turns = [(phi0 - root) % 360.0 for root in roots]
    turns = [0.0 if t > 360.0 - tol else t for t in turns]
    on_line = any(t < tol for t in turns)
    away = [t for t in turns if t >= tol]
    anti = min(away) if away else None
    clock = 360.0 - max(away) if away else None
    if on_line:  # one way the point leaves the flank at once, the other way it stays
        if _arc_after(target, point, 0.0, 1.0, now) != now:
            anti = 0.0
        else:
            clock = 0.0
    return ArcTurn(
        now, on_line,
        clock, _arc_after(target, point, clock, -1.0, now) if clock is not None else None,
        anti, _arc_after(target, point, anti, 1.0, now) if anti is not None else None,
    )


def _arc_after(target: Body, point: Point, turn: float, sign: float, now: Arc) -> Arc:
    """The arc holding the point once the target has turned ``turn`` degrees (``sign``:
    +1 anticlockwise, -1 clockwise): at the line itself when that already changes the arc
    (a front or rear arc becomes a flank), else just past it."""
    at = unit_arcs.arc_of_point(_turned(target, sign * turn), point)
    if at != now:
        return at
    return unit_arcs.arc_of_point(_turned(target, sign * (turn + 1e-4)), point)


def _turned(body: Body, turn: float) -> Body:
    fp = body.footprint
    return replace(body, footprint=replace(fp, facing=fp.facing + turn))
