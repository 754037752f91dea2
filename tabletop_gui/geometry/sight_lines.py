"""Every sample sight line of one pair, and the smallest move that changes the verdict.

``sight.sight_pairs`` answers *whether* two models see each other and stops at the first
clear line; a ruling shows all the evidence: each of the 72 sample lines (8 plan paths x
3 heights on each model, see ``sight``) with the terrain that blocks it. The lines are
computed exactly as ``sight_pairs`` computes them (same samples, same pair order, same
``segments.blocked``), so the pair is visible exactly when at least one line is clear.

``sight_change`` looks for the smallest displacement of the target that turns the verdict
(opens a closed line of sight, or closes an open one). No formula gives it for prisms
seen through sample lines, so it is searched, within stated bounds: ``SEARCH_DIRECTIONS``
directions around the line between the two centres, steps of ``SEARCH_STEP`` up to
``SEARCH_LIMIT``, then bisection of the first step where a direction changes down to
``SEARCH_RESOLUTION``. Positions off the table, or where the base would stand inside an
obstacle, are skipped. A change that appears and disappears within one step can be missed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Body, Footprint
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import sight_blockers
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.sight import (
    HEIGHTS,
    N_PATHS,
    PATH_A,
    PATH_B,
    all_terrain,
    plan_samples,
    sight_pairs,
)

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

Point3 = tuple[float, float, float]

# the plan paths as the attacker sees them (sample on the attacker, sample on the target)
PATH_NAMES = (
    "centre to centre",
    "along the left side",
    "along the right side",
    "crossing, left to right",
    "crossing, right to left",
    "front to front",
    "front to centre",
    "centre to front",
)
HEIGHT_NAMES = ("top", "middle", "bottom")  # the order of ``sight.HEIGHTS``
# a path seen from the other end: the samples swap (left and right stay on their side)
_REVERSED = (0, 2, 1, 3, 4, 5, 7, 6)

SEARCH_DIRECTIONS = 8
SEARCH_STEP = 0.05
SEARCH_LIMIT = 6.0
SEARCH_RESOLUTION = 0.01


@dataclass(frozen=True)
class SightLine:
    """One sample line from the attacker to the target (inches; z is the height)."""

    path: int  # index into PATH_NAMES
    heights: tuple[int, int]  # indices into HEIGHT_NAMES: on the attacker, on the target
    start: Point3
    end: Point3
    blocked_by: tuple[str, ...]  # ids of the terrain it passes through

    @property
    def clear(self) -> bool:
        return not self.blocked_by

    @property
    def name(self) -> str:
        return (f"{PATH_NAMES[self.path]}, {HEIGHT_NAMES[self.heights[0]]} to "
                f"{HEIGHT_NAMES[self.heights[1]]}")


def sight_lines(g: BoardGeometry, attacker: str, target: str) -> tuple[SightLine, ...]:
    """The 72 sample lines between the two models, each with what blocks it."""
    i, j = g.index(attacker), g.index(target)
    lo, hi = min(i, j), max(i, j)  # the pair in board order, as ``sight_pairs`` takes it
    ba, ts = g.bodies, g.terrain
    samples = plan_samples(ba, np.array([lo, hi], dtype=np.intp),
                           np.array([hi, lo], dtype=np.intp))
    z_lo = [float(ba.elevation[lo] + f * (ba.top[lo] - ba.elevation[lo])) for f in HEIGHTS]
    z_hi = [float(ba.elevation[hi] + f * (ba.top[hi] - ba.elevation[hi])) for f in HEIGHTS]
    keys = [(path, ha, hb) for path in range(N_PATHS) for ha in range(3) for hb in range(3)]
    p = np.array([[*samples[0, PATH_A[w]], z_lo[ha]] for w, ha, _ in keys])
    q = np.array([[*samples[1, PATH_B[w]], z_hi[hb]] for w, _, hb in keys])
    pk, tk = all_terrain(1, len(ts))
    _, tk = sight_blockers(ba, ts, np.array([lo]), np.array([hi]), pk, tk)
    line = np.repeat(np.arange(len(keys)), len(tk))
    terr = np.tile(tk, len(keys)).astype(np.intp)
    hit = blocked(p[line], q[line], terr, ts)
    out = []
    for n, (path, ha, hb) in enumerate(keys):
        by = tuple(ts.terrains[int(t)].id for t in terr[(line == n) & hit])
        a_end: Point3 = (float(p[n, 0]), float(p[n, 1]), float(p[n, 2]))
        b_end: Point3 = (float(q[n, 0]), float(q[n, 1]), float(q[n, 2]))
        if lo == i:
            out.append(SightLine(path, (ha, hb), a_end, b_end, by))
        else:  # seen from the attacker: the ends, the samples and the heights swap
            out.append(SightLine(_REVERSED[path], (hb, ha), b_end, a_end, by))
    out.sort(key=lambda s: (s.path, s.heights))
    return tuple(out)


@dataclass(frozen=True)
class SightChange:
    """The smallest displacement of the target found to turn the sight verdict."""

    found: bool
    becomes_visible: bool  # what the verdict turns into
    distance: float  # inches: a displacement this long turns it (0 when not found)
    direction: float  # degrees from the attacker-to-target line, anticlockwise (0: away)
    directions: int = SEARCH_DIRECTIONS
    step: float = SEARCH_STEP
    limit: float = SEARCH_LIMIT
    resolution: float = SEARCH_RESOLUTION


def sight_change(g: BoardGeometry, attacker: str, target: str, visible: bool) -> SightChange:
    """Search the smallest displacement of ``target`` that turns ``visible`` (module doc)."""
    i, j = g.index(attacker), g.index(target)
    a_body, t_body = g.bodies.bodies[i], g.bodies.bodies[j]
    fa, ft = a_body.footprint, t_body.footprint
    base = math.atan2(ft.y - fa.y, ft.x - fa.x) if (ft.x, ft.y) != (fa.x, fa.y) else 0.0
    angles = [base + 2 * math.pi * k / SEARCH_DIRECTIONS for k in range(SEARCH_DIRECTIONS)]
    n_steps = round(SEARCH_LIMIT / SEARCH_STEP)
    moves = [(k * SEARCH_STEP, a) for k in range(1, n_steps + 1) for a in angles]
    turned = _turned(g, i, j, moves, visible)
    first = next((n for n, t in enumerate(turned) if t), None)
    if first is None:
        return SightChange(False, not visible, 0.0, 0.0)
    step_at = first // SEARCH_DIRECTIONS
    r_hi = (step_at + 1) * SEARCH_STEP
    r_lo = step_at * SEARCH_STEP
    candidates = [(angles[k], r_lo, r_hi) for k in range(SEARCH_DIRECTIONS)
                  if turned[step_at * SEARCH_DIRECTIONS + k]]
    width = r_hi - r_lo
    while width > SEARCH_RESOLUTION / 2:  # every bracket halves at each round
        mids = [(a, 0.5 * (lo + hi)) for a, lo, hi in candidates]
        now = _turned(g, i, j, [(r, a) for a, r in mids], visible)
        candidates = [(a, lo, r) if t else (a, r, hi)
                      for (a, lo, hi), (_, r), t in zip(candidates, mids, now, strict=True)]
        width /= 2
    angle, _, hi = min(candidates, key=lambda c: (c[2], c[0]))
    rel = math.degrees(angle - base) % 360.0
    return SightChange(True, not visible, hi, rel)


def _turned(g: BoardGeometry, i: int, j: int, moves: list[tuple[float, float]],
            visible: bool) -> list[bool]:
    """For each (distance, angle) move of body j: does the sight verdict with body i differ
    from ``visible``? Positions off the table or inside an obstacle count as unchanged."""
    a_body, t_body = g.bodies.bodies[i], g.bodies.bodies[j]
    fp = t_body.footprint
    ghosts = [_moved(t_body, n, fp.x + r * math.cos(a), fp.y + r * math.sin(a))
              for n, (r, a) in enumerate(moves)]
    allowed = _standable(g, [b.footprint for b in ghosts])
    # the pair order of the original pair (``sight_pairs`` takes pairs in board order)
    bodies = (a_body, *ghosts) if i < j else (*ghosts, a_body)
    ba = BodyArrays.build(tuple(bodies), g.terrain)
    ghost_idx = np.arange(1, len(bodies)) if i < j else np.arange(len(ghosts))
    own = np.full(len(ghosts), 0 if i < j else len(ghosts), dtype=np.intp)
    lo = np.minimum(own, ghost_idx).astype(np.intp)
    hi = np.maximum(own, ghost_idx).astype(np.intp)
    seen = sight_pairs(ba, g.terrain, lo, hi).visible
    return [bool(ok and s != visible) for ok, s in zip(allowed, seen, strict=True)]


def _moved(body: Body, n: int, x: float, y: float) -> Body:
    return replace(body, id=f"{body.id}~{n}", footprint=replace(body.footprint, x=x, y=y))


def _standable(g: BoardGeometry, footprints: list[Footprint]) -> list[bool]:
    """On the table, and not standing inside an obstacle (touching one is allowed). The
    footprints differ only in their centres: one outline is moved to each."""
    board, ts = g.board, g.terrain
    xy = np.array([(fp.x, fp.y) for fp in footprints], dtype=float).reshape(-1, 2)
    on_table = ((xy[:, 0] >= 0.0) & (xy[:, 0] <= board.width)
                & (xy[:, 1] >= 0.0) & (xy[:, 1] <= board.depth))
    walls = ts.polygons[ts.is_obstacle]
    if len(walls) == 0 or len(footprints) == 0:
        return [bool(x) for x in on_table]
    first = footprints[0]
    ring = outline.outline_points(first) - np.array([first.x, first.y])
    shapes = shapely.polygons(ring[None, :, :] + xy[:, None, :])
    tree = shapely.STRtree(walls)
    hits_shape, hits_wall = tree.query(shapes, predicate="intersects")
    inside = np.zeros(len(shapes), dtype=bool)
    if len(hits_shape):
        deep = shapely.relate_pattern(shapes[hits_shape], walls[hits_wall], "T********")
        inside[hits_shape[deep]] = True
    return [bool(x) for x in on_table & ~inside]
