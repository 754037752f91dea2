"""Arcs, facings, reference points and base contact of a rank-and-file formation (a
unit's boundary of ranks and files of bases), the primitives a ruleset of units reads.

A rectangular body (a unit's boundary) has four arcs bounded by lines leaving each
corner at 135 degrees to the two facings meeting there. In the body's own frame
(u across, right positive; v along the facing, front positive; half-width w, half-depth
d) a point lies in the Front or Rear arc when ``|v| - d > |u| - w`` and in a Flank arc
otherwise -- so a point exactly on a corner line counts as Flank. The partition holds
for every point outside the boundary (points inside get the same formula's answer).

A round body (a unit on a round base, a round fighter) has a single 360 degree Front arc.

Reference point ("Located in"): the centre of the Front Facing of a rectangular unit;
the centre of anything else.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Board, Body, Point
from tabletop_gui.geometry.facts import Arc
from tabletop_gui.geometry.formation import model_centres

CONTACT = 0.01  # boundaries this close (inches) are in base contact
TIE = 1e-9  # relative tolerance of a point on a corner line (it counts as Flank)
ARC_LINE_IN = 8.0  # how far the arc boundaries are drawn from the corners

Segment = tuple[tuple[float, float], tuple[float, float]]


def is_round(body: Body) -> bool:
    if body.formation is not None and body.formation.round_base:
        return True
    return body.footprint.shape != "rect"


def reference_point(body: Body) -> Point:
    fp = body.footprint
    if body.formation is not None and not is_round(body):
        return outline.to_world(fp, 0.0, 0.5 * fp.length)
    return fp.x, fp.y


def arc_of_point(body: Body, point: Point) -> Arc:
    """The arc of ``body`` holding ``point`` (ties on a corner line go to the Flank)."""
    if is_round(body):
        return "front"
    fp = body.footprint
    u, v = outline.to_local(fp, point[0], point[1])
    w, d = 0.5 * fp.width, 0.5 * fp.length
    scale = max(1.0, abs(u), abs(v)) * TIE
    if abs(v) - d > abs(u) - w + scale:
        return "front" if v > 0 else "rear"
    return "right_flank" if u >= 0 else "left_flank"


def engaged_facing(target: Body, attacker: Body, contact: Point) -> Arc:
    """The facing of ``target`` touched at ``contact`` (a point on its boundary).

    On one facing's edge: that facing. At a corner (within 0.01" of two facings): the
    facing whose arc holds the attacker's reference point.
    """
    if is_round(target):
        return "front"
    fp = target.footprint
    u, v = outline.to_local(fp, contact[0], contact[1])
    w, d = 0.5 * fp.width, 0.5 * fp.length
    tol = CONTACT + 1e-9
    near: list[Arc] = []
    if abs(v - d) <= tol:
        near.append("front")
    if abs(v + d) <= tol:
        near.append("rear")
    if abs(u - w) <= tol:
        near.append("right_flank")
    if abs(u + w) <= tol:
        near.append("left_flank")
    if len(near) == 1:
        return near[0]
    return arc_of_point(target, reference_point(attacker))


def front_rank_bases(body: Body) -> list[shapely.Polygon]:
    """The bases of a unit's front-rank models (one outline for a body without formation)."""
    return list(_front_rank_bases(body))


def _front_rank_bases(body: Body) -> NDArray[np.object_]:
    """``front_rank_bases`` as an array of polygons, made in one call: each corner is
    ``outline.to_world`` of the base's corner, in the same arithmetic."""
    f = body.formation
    fp = body.footprint
    if f is None or f.round_base or f.models == 0:
        return np.array([outline.polygon(fp)], dtype=object)
    centres = model_centres(f)
    front_v = max(v for _, v in centres)
    front = np.array([(u, v) for u, v in centres if abs(v - front_v) <= 1e-9], dtype=float)
    hw, hd = 0.5 * f.base_width, 0.5 * f.base_depth
    corner = np.array(((1, 1), (-1, 1), (-1, -1), (1, -1)), dtype=float)
    u = front[:, 0:1] + corner[None, :, 0] * hw  # (bases, 4)
    v = front[:, 1:2] + corner[None, :, 1] * hd
    (fx, fy), (rx, ry) = outline.axes(fp.facing)
    return np.asarray(shapely.polygons(np.stack([fp.x + u * rx + v * fx,
                                                 fp.y + u * ry + v * fy], axis=2)))


def contact_models(attacker: Body, target: Body) -> int:
    """Front-rank models of ``attacker`` whose bases are within 0.01" of ``target``."""
    tfp = target.footprint
    bases = _front_rank_bases(attacker)
    if outline.is_circle(tfp):
        r = 0.5 * tfp.length
        gap = shapely.distance(bases, shapely.Point(tfp.x, tfp.y)) - r
    else:
        gap = shapely.distance(bases, outline.polygon(tfp))
    return int(np.count_nonzero(gap <= CONTACT))


def contact_models_many(pairs: list[tuple[Body, Body]]) -> list[int]:
    """``contact_models`` of each (attacker, target) pair: each attacker's front-rank
    bases made once, every base measured to its target in one call (the same distances:
    a base to the target's outline, or to a round target's centre less its radius)."""
    if not pairs:
        return []
    made: dict[int, NDArray[np.object_]] = {}
    bases: list[NDArray[np.object_]] = []
    others: list[shapely.Geometry] = []
    radius: list[float] = []  # a round target's radius (its centre is measured to)
    round_: list[bool] = []
    for attacker, target in pairs:
        own = made.get(id(attacker))
        if own is None:
            own = made[id(attacker)] = _front_rank_bases(attacker)
        bases.append(own)
        tfp = target.footprint
        circle = outline.is_circle(tfp)
        others.append(shapely.Point(tfp.x, tfp.y) if circle else outline.polygon(tfp))
        radius.append(0.5 * tfp.length if circle else 0.0)
        round_.append(circle)
    counts = np.array([len(b) for b in bases], dtype=np.intp)
    at = np.repeat(np.arange(len(pairs)), counts)
    geoms = np.empty(len(others), dtype=object)
    geoms[:] = others
    gap = shapely.distance(np.concatenate(bases), geoms[at])
    gap = np.where(np.array(round_, dtype=bool)[at], gap - np.array(radius)[at], gap)
    out: list[int] = np.bincount(at[gap <= CONTACT], minlength=len(pairs)).tolist()
    return out


def arc_lines(board: Board, body_id: str, length: float = ARC_LINE_IN) -> list[Segment]:
    """Segments (table inches) bounding the four arcs of a rank-and-file unit: from each
    boundary corner, outward at 135° to the two facings that meet there (45° to the
    unit's axes). Other bodies, and units on a round base (one 360° arc): none."""
    try:
        body = board.body(body_id)
    except KeyError:
        return []
    fp = body.footprint
    if body.formation is None or fp.shape != "rect":
        return []
    out = []
    s = length / math.sqrt(2.0)
    hl, hw = 0.5 * fp.length, 0.5 * fp.width
    for u, v in ((hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl)):
        start = outline.to_world(fp, u, v)
        end = outline.to_world(fp, u + math.copysign(s, u), v + math.copysign(s, v))
        out.append((start, end))
    return out
