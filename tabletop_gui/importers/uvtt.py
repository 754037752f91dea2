"""Universal VTT maps (``.dd2vtt``, ``.uvtt``, ``.df2vtt``) become the battlefield.

- ``resolution.map_size`` (grid cells) times ``inches_per_cell`` (1 unless told) is the
  battlefield's size; ``map_origin`` is its top-left corner in grid units, y down (the
  battlefield's y goes up: it is flipped).
- ``line_of_sight`` polylines are walls: each is split at its corners (a turn over
  ``CORNER_DEGREES``) into straight-ish runs, and every run becomes a thin obstacle
  (``WALL_THICKNESS``); a closed loop is split into at least two walls so a room never
  becomes one solid block. ``objects_line_of_sight`` are objects: a closed one becomes a
  solid obstacle, an open one walls.
- ``portals``: a closed door is a thin obstacle across its bounds, an open one cuts a
  gap through any wall it crosses.
- ``image`` (base64 PNG, JPEG or WebP) becomes the battlefield's background picture.
Obstacle heights are ``wall_height(ruleset)``; they can be changed afterwards.
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon

from tabletop_gui.importers.sources import ImportRefused, located
from tabletop_gui.scenario.background import data_uri
from tabletop_gui.scenario.entities import Background
from tabletop_gui.scenario.load import MAX_ENTITIES
from tabletop_gui.scenario.load_terrain import MAX_VERTICES
from tabletop_gui.scenario.problems import shown

WALL_THICKNESS = 0.2  # inches
CORNER_DEGREES = 30.0
MAX_CELLS = 2000.0  # a map side longer than this many cells is refused
WALL_HEIGHTS = {"ninth-age": 5.0}  # above the tallest models the ruleset knows
DEFAULT_WALL_HEIGHT = 3.0


def wall_height(ruleset: str) -> float:
    return WALL_HEIGHTS.get(ruleset, DEFAULT_WALL_HEIGHT)


def is_uvtt(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("resolution"), dict) and (
        "line_of_sight" in document or "image" in document or "portals" in document)


@dataclass
class MapData:
    width: float
    depth: float
    walls: list[tuple[str, tuple[tuple[float, float], ...]]] = field(default_factory=list)
    background: Background | None = None
    warnings: list[str] = field(default_factory=list)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.errors: list[str] = []

    def fail(self, place: str, message: str) -> None:
        self.errors.append(located(self.source, place, message))

    def number(self, value: Any, place: str) -> float | None:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(float(value)):
            self.fail(place, f"must be a number, not {shown(value)}")
            return None
        return float(value)

    def point(self, value: Any, place: str) -> tuple[float, float] | None:
        if not isinstance(value, dict):
            self.fail(place, f'must be {{"x": .., "y": ..}}, not {shown(value)}')
            return None
        x = self.number(value.get("x"), f"{place}.x")
        y = self.number(value.get("y"), f"{place}.y")
        if x is None or y is None:
            return None
        if abs(x) > 1e6 or abs(y) > 1e6:
            self.fail(place, "is too far away")
            return None
        return x, y

    def polylines(self, value: Any, place: str) -> list[list[tuple[float, float]]]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(place, "must be a list of polylines")
            return []
        out = []
        for i, line in enumerate(value):
            if not isinstance(line, list):
                self.fail(f"{place}[{i}]", "must be a list of points")
                continue
            pts = [self.point(p, f"{place}[{i}][{j}]") for j, p in enumerate(line)]
            if all(p is not None for p in pts):
                out.append([p for p in pts if p is not None])
        return out


def map_from_json(document: Any, source: str, ruleset: str,
                  inches_per_cell: float = 1.0) -> MapData:
    r = _Reader(source)
    res = document.get("resolution")
    if not isinstance(res, dict):
        raise ImportRefused([located(source, "resolution", "missing: not a Universal VTT map")])
    origin = r.point(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin")
    size = r.point(res.get("map_size"), "resolution.map_size")
    if r.errors or origin is None or size is None:
        raise ImportRefused(r.errors)
    cols, rows = size
    if not (0 < cols <= MAX_CELLS and 0 < rows <= MAX_CELLS):
        raise ImportRefused([located(source, "resolution.map_size",
                                     f"must be from 1 to {MAX_CELLS:g} cells each way, not "
                                     f"{cols:g} × {rows:g}")])
    scale = inches_per_cell
    ox, oy = origin

    def table(p: tuple[float, float]) -> tuple[float, float]:
        return round((p[0] - ox) * scale, 6), round((oy + rows - p[1]) * scale, 6)

    walls = [[table(p) for p in line] for line in r.polylines(
        document.get("line_of_sight"), "line_of_sight")]
    objects = [[table(p) for p in line] for line in r.polylines(
        document.get("objects_line_of_sight"), "objects_line_of_sight")]
    doors, gaps = _portals(r, document.get("portals"), table)
    if r.errors:
        raise ImportRefused(r.errors)
    out = MapData(width=cols * scale, depth=rows * scale)
    gap_zone = shapely.union_all([g.buffer(WALL_THICKNESS, cap_style="flat")
                                  for g in gaps]) if gaps else None
    pieces: list[tuple[str, LineString]] = []
    solids: list[Polygon] = []
    for line in walls:
        pieces += [("Wall", run) for run in _runs(line)]
    for line in objects:
        closed = len(line) > 3 and line[0] == line[-1]
        poly = Polygon(line) if closed else None
        if poly is not None and poly.is_valid and poly.area > 0:
            solids.append(poly)
        else:
            pieces += [("Object", run) for run in _runs(line)]
    pieces += [("Door", d) for d in doors]
    for name, run in pieces:
        kept = run.difference(gap_zone) if gap_zone is not None and name != "Door" else run
        parts = kept.geoms if isinstance(kept, MultiLineString) else [kept]
        for part in parts:
            if isinstance(part, LineString) and part.length > 1e-6:
                poly = part.buffer(WALL_THICKNESS / 2, cap_style="flat", join_style="mitre",
                                   mitre_limit=3.0)
                _keep(out, name, poly)
    for solid in solids:
        _keep(out, "Object", solid)
    if len(out.walls) > MAX_ENTITIES:
        raise ImportRefused([located(source, "line_of_sight",
                                     f"makes {len(out.walls)} obstacles (at most "
                                     f"{MAX_ENTITIES})")])
    out.background = _image(document.get("image"), source, out)
    unused = sorted(k for k in document if k not in (
        "format", "resolution", "line_of_sight", "objects_line_of_sight", "portals",
        "image", "software", "creator"))
    if unused:
        out.warnings.append(located(source, "", f"read but not used: {', '.join(unused)}"))
    return out


def _keep(out: MapData, name: str, poly: Any) -> None:
    """A simple polygon (the largest part of anything else) as one obstacle."""
    if not isinstance(poly, Polygon):
        polys = [g for g in getattr(poly, "geoms", []) if isinstance(g, Polygon)]
        if not polys:
            return
        poly = max(polys, key=lambda g: g.area)
    poly = shapely.set_precision(poly.simplify(0.001), 1e-6)
    if not isinstance(poly, Polygon) or poly.is_empty or poly.area <= 0 or not poly.is_valid:
        return
    ring = list(poly.exterior.coords)[:-1]
    if 3 <= len(ring) <= MAX_VERTICES:
        out.walls.append((name, tuple((round(x, 6), round(y, 6)) for x, y in ring)))


def _turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    h1 = math.atan2(b[1] - a[1], b[0] - a[0])
    h2 = math.atan2(c[1] - b[1], c[0] - b[0])
    d = abs(math.degrees(h2 - h1)) % 360
    return min(d, 360 - d)


def _runs(points: list[tuple[float, float]]) -> list[LineString]:
    """A polyline split at its corners; a closed loop into at least two walls."""
    pts = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(pts) < 2:
        return []
    closed = len(pts) > 2 and pts[0] == pts[-1]
    if closed:
        ring = pts[:-1]
        n = len(ring)
        corners = [i for i in range(n)
                   if _turn(ring[i - 1], ring[i], ring[(i + 1) % n]) > CORNER_DEGREES]
        if len(corners) < 2:
            corners = sorted({0, n // 2} | set(corners))
        start = corners[0]
        pts = ring[start:] + ring[:start] + [ring[start]]
        cuts = [(c - start) % n for c in corners] + [n]
    else:
        cuts = [0] + [i for i in range(1, len(pts) - 1)
                      if _turn(pts[i - 1], pts[i], pts[i + 1]) > CORNER_DEGREES] + [len(pts) - 1]
    runs = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if b > a:
            runs.append(LineString(pts[a:b + 1]))
    return runs


def _portals(r: _Reader, value: Any, table: Any) -> tuple[list[LineString], list[LineString]]:
    doors: list[LineString] = []
    gaps: list[LineString] = []
    if value is None:
        return doors, gaps
    if not isinstance(value, list):
        r.fail("portals", "must be a list")
        return doors, gaps
    for i, portal in enumerate(value):
        place = f"portals[{i}]"
        if not isinstance(portal, dict):
            r.fail(place, "must be an object")
            continue
        bounds = portal.get("bounds")
        if not isinstance(bounds, list) or len(bounds) != 2:
            r.fail(f"{place}.bounds", "must be two points")
            continue
        ends = [r.point(p, f"{place}.bounds[{j}]") for j, p in enumerate(bounds)]
        if ends[0] is None or ends[1] is None or ends[0] == ends[1]:
            continue
        line = LineString([table(ends[0]), table(ends[1])])
        (doors if portal.get("closed") is True else gaps).append(line)
    return doors, gaps


def _image(value: Any, source: str, out: MapData) -> Background | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ImportRefused([located(source, "image", f"must be base64 text, not "
                                                      f"{shown(value)}")])
    try:
        data = base64.b64decode(value.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ImportRefused([located(source, "image", "the base64 data is damaged")]) from None
    try:
        return Background(data_uri(data))
    except ValueError as e:
        out.warnings.append(located(source, "image", f"not used: {e}"))
        return None
