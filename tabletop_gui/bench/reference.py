"""The benchmark's reference: the facts of every opposing pair, computed pair by pair.

No vectorisation across pairs and no spatial index: for each pair, shapely polygons of
the two bases (64 segments for round bases), shapely distances, the line between their
closest points cut by the attacker's half-inch buffer and tested against every obstacle
with shapely, the sight samples of ``geometry.sight`` tested against every terrain piece
with shapely, and flanking by looping over the fighters. Same definitions as
``geometry.pairs``; only the way of computing differs, so the results must agree (up to
the 64-gon approximation of round bases, ~0.001").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.sight import all_terrain, sight_pairs
from tabletop_gui.geometry.terrain import TerrainSet

SEGMENTS = 64
NEAR = 0.05  # inches: how far the 64-gon answers can move


@dataclass(frozen=True)
class ReferenceFacts:
    ids: tuple[str, ...]
    distance: dict[tuple[int, int], float]
    visible: dict[tuple[int, int], bool]
    cover: dict[tuple[int, int], bool]
    flanked: dict[tuple[int, int], bool]
    # pairs whose answer may legitimately differ from the exact one: the 64-gon line passes
    # within ``NEAR`` of an obstacle without crossing it, or crosses it less than ``NEAR``
    # deep or for less than 2 ``NEAR``, or a distance is within ``NEAR`` of 1" (flanking)
    sensitive: frozenset[tuple[int, int]]


def reference_facts(board: Board, rule: CoverRule,
                    pairs: list[tuple[int, int]] | None = None) -> ReferenceFacts:
    """Facts of the ordered opposing pairs (all, or the given (attacker, target) indices)."""
    ts = TerrainSet.build(board.terrains)
    ba = BodyArrays.build(board.bodies, ts)
    n = len(board.bodies)
    polys = [outline.polygon(b.footprint, SEGMENTS) for b in board.bodies]
    active = [b.active for b in board.bodies]
    side = [b.side for b in board.bodies]
    elev = [float(e) for e in ba.elevation]
    if pairs is None:
        pairs = [(a, t) for a in range(n) for t in range(n)
                 if active[a] and active[t] and side[a] != side[t]]
    obstacles = [(k, ts.polygons[k]) for k in range(len(ts)) if ts.is_obstacle[k]]
    dist: dict[tuple[int, int], float] = {}

    def distance(a: int, t: int) -> float:
        key = (min(a, t), max(a, t))
        if key not in dist:
            h = float(shapely.distance(polys[a], polys[t]))
            dist[key] = math.hypot(h, elev[a] - elev[t])
        return dist[key]

    out_d, out_v, out_c, out_f = {}, {}, {}, {}
    sensitive: set[tuple[int, int]] = set()
    sight_cache: dict[tuple[int, int], bool] = {}
    for a, t in pairs:
        d = distance(a, t)
        out_d[(a, t)] = d
        key = (min(a, t), max(a, t))
        if key not in sight_cache:
            one_i, one_j = np.array([key[0]]), np.array([key[1]])
            res = sight_pairs(ba, ts, one_i, one_j, exact_shapely=True,
                              candidates=all_terrain(1, len(ts)))
            sight_cache[key] = bool(res.visible[0])
        out_v[(a, t)] = sight_cache[key]
        out_c[(a, t)], near = _cover(polys[a], polys[t], d, obstacles, rule, ba, a, t)
        out_f[(a, t)] = _flanked(a, t, n, active, side, distance)
        if near or _near_one(a, t, n, active, distance):
            sensitive.add((a, t))
    return ReferenceFacts(tuple(b.id for b in board.bodies), out_d, out_v, out_c, out_f,
                          frozenset(sensitive))


def _near_one(a: int, t: int, n: int, active: list[bool], distance: object) -> bool:
    """Is any distance that flanking or the 1" gate reads within NEAR of 1"?"""
    dist = distance
    for f in (a, t):
        for e in range(n):
            if e != f and active[e] and abs(dist(f, e) - 1.0) <= NEAR:  # type: ignore[operator]
                return True
    return False


def _cover(pa: shapely.Polygon, pt: shapely.Polygon, d: float,
           obstacles: list[tuple[int, shapely.Polygon]], rule: CoverRule, ba: BodyArrays,
           a: int, t: int) -> tuple[bool, bool]:
    """(in cover, near a decision boundary)."""
    full = shapely.shortest_line(pa, pt)
    line = full
    if rule.gate_1in is False or d > 1.0 + 1e-9:
        line = full.difference(pa.buffer(0.5, quad_segs=64))
    crossed = False
    near = False
    for _, poly in obstacles:
        if full.distance(poly) > NEAR:
            continue
        part = line.intersection(poly) if not line.is_empty else line
        inside = (not line.is_empty and line.length > 0
                  and bool(shapely.relate_pattern(line, poly, "T********")))
        crossed |= inside
        if not inside or part.length < 2 * NEAR or _depth(part, poly) < NEAR:
            near = True
    if crossed:
        return True, near
    if rule.platform_applies and ba.stands_on[t] >= 0:
        return bool(ba.elevation[t] - ba.elevation[a] >= rule.platform_threshold - 1e-9), near
    return False, near


def _depth(part: shapely.Geometry, poly: shapely.Polygon) -> float:
    """How far inside the polygon the crossing part gets (sampled at 17 points per piece).

    The 64-gon's closest points can sit a few hundredths of an inch along the outline from
    the exact ones, shifting the whole line sideways by that much: a crossing shallower
    than ``NEAR`` may go either way.
    """
    pieces = getattr(part, "geoms", [part])
    best = 0.0
    for piece in pieces:
        if piece.is_empty or piece.length == 0:
            continue
        pts = shapely.line_interpolate_point(piece, np.linspace(0.0, 1.0, 17), normalized=True)
        best = max(best, float(np.max(shapely.distance(poly.exterior, pts))))
    return best


def _flanked(a: int, t: int, n: int, active: list[bool], side: list[str],
             distance: object) -> bool:
    dist = distance  # (i, j) -> 3D distance
    for f in range(n):
        if f in (a, t) or not active[f] or side[f] != side[a]:
            continue
        if dist(f, t) > 1.0 + 1e-9:  # type: ignore[operator]
            continue
        busy = any(active[e] and side[e] != side[f] and e != t
                   and dist(f, e) <= 1.0 + 1e-9  # type: ignore[operator]
                   for e in range(n))
        if not busy:
            return True
    return False
