"""Shapes the attack overlays draw: base outlines as shapely polygons (from the same
``Footprint`` geometry and the rules read), offsets, grid spaces, the arcs of a unit, and
their conversion to Qt painter paths in scene units."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import GridSpec
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.unit_arcs import ARC_LINE_IN, Segment
from tabletop_gui.geometry.unit_arcs import arc_lines as unit_arc_lines
from tabletop_gui.rules.base import OverlayShape
from tabletop_gui.rules.fields import RangeSpec, RulesetInfo
from tabletop_gui.scenario.battle import body_of
from tabletop_gui.scenario.entities import Model
from tabletop_gui.scenario.problems import shown
from tabletop_gui.ui.canvas.coords import INCH, to_scene

SQRT3 = math.sqrt(3.0)


def model_polygon(model: Model) -> Polygon:
    """The outline of a base or unit boundary on the table (inches), as geometry draws it."""
    return outline.polygon(body_of(model).footprint, segments=64)


def _ring(path: QPainterPath, coords: np.ndarray) -> None:
    """One closed ring (table inches) added in scene units, converted in bulk."""
    if len(coords) < 3:
        return
    ring = pg.arrayToQPath(coords[:, 0] * INCH, coords[:, 1] * -INCH, connect="all",
                           finiteCheck=False)
    ring.closeSubpath()
    path.addPath(ring)


def qpath(geom: BaseGeometry) -> QPainterPath:
    """A painter path (scene units, odd-even fill: holes stay open) of polygons."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    polys = getattr(geom, "geoms", [geom])
    for poly in polys:
        if isinstance(poly, Polygon) and not poly.is_empty:
            _ring(path, shapely.get_coordinates(poly.exterior))
            for hole in poly.interiors:
                _ring(path, shapely.get_coordinates(hole))
    return path


def line_path(a: tuple[float, float], b: tuple[float, float]) -> QPainterPath:
    path = QPainterPath(to_scene(*a))
    path.lineTo(to_scene(*b))
    return path


class RangeProblem(ValueError):
    """A weapon range the overlays cannot draw; the message names the model and weapon."""


def weapon_range(info: RulesetInfo, model: Model, weapon: str | None) -> RangeSpec | int | None:
    """A weapon's range as the ruleset declares it: inches (``RangeSpec``) for a ``range``
    field, or whole spaces for an ``int`` range on a grid ruleset; None without one.
    RangeProblem when the weapon's range cannot be read."""
    spec = info.declaration.weapon_field("range")
    w = model.weapon(weapon) if weapon is not None else (model.weapons[0] if model.weapons
                                                         else None)
    if spec is None or w is None:
        return None
    grid = spec.kind == "int" and info.declaration.needs_grid
    if spec.kind != "range" and not grid:
        return None
    # the range as the loader read it (``Weapon.parsed``), or the declared default
    if "range" not in w.values:
        return spec.default if isinstance(spec.default, int) and grid else None
    typed = w.parsed.get("range")
    if isinstance(typed, int if grid else RangeSpec):
        return typed
    raise RangeProblem(f"No range band for {model.name} ({model.id}): weapon {w.name}, "
                       f"range {shown(w.get('range'))}: not read by the ruleset's field kinds")


def range_band(outline: Polygon, rng: RangeSpec) -> BaseGeometry:
    """The area within the maximum range and beyond the minimum, from the base edge."""
    outer = outline.buffer(rng.maximum, quad_segs=32)
    if rng.minimum:
        return outer.difference(outline.buffer(rng.minimum, quad_segs=32))
    return outer.difference(outline)


def cell_polygon(grid: GridSpec, centre: tuple[float, float]) -> Polygon:
    """One grid space around its centre: a square, or a pointy-top hexagon."""
    x, y = centre
    s = grid.size
    if grid.kind == "square":
        return shapely.box(x - s / 2, y - s / 2, x + s / 2, y + s / 2)
    r = s / SQRT3
    return Polygon([(x + r * math.cos(math.radians(90 + 60 * k)),
                     y + r * math.sin(math.radians(90 + 60 * k))) for k in range(6)])


def check_glyph(centre: QPointF, size: float) -> QPainterPath:
    """A check mark (valid) in scene units."""
    path = QPainterPath(QPointF(centre.x() - size * 0.5, centre.y()))
    path.lineTo(centre.x() - size * 0.1, centre.y() + size * 0.4)
    path.lineTo(centre.x() + size * 0.55, centre.y() - size * 0.45)
    return path


def cross_glyph(centre: QPointF, size: float) -> QPainterPath:
    """A cross (invalid) in scene units."""
    h = size * 0.45
    path = QPainterPath(QPointF(centre.x() - h, centre.y() - h))
    path.lineTo(centre.x() + h, centre.y() + h)
    path.moveTo(centre.x() + h, centre.y() - h)
    path.lineTo(centre.x() - h, centre.y() + h)
    return path


# -- the arcs of a rank-and-file unit ---------------------------------------------------


def arc_lines(geometry: BoardGeometry, body_id: str, length: float = ARC_LINE_IN
              ) -> list[Segment]:
    """The arc boundaries of a unit (``geometry.unit_arcs``)."""
    return unit_arc_lines(geometry.board, body_id, length)


def shape_path(shape: OverlayShape) -> QPainterPath:
    """A ruleset's shape (table inches) as a painter path in scene units: a circle, or a
    polyline (closed: a polygon's outline)."""
    if shape.center is not None:
        path = QPainterPath()
        r = shape.radius * INCH
        path.addEllipse(to_scene(*shape.center), r, r)
        return path
    path = QPainterPath()
    if not shape.points:
        return path
    path.moveTo(to_scene(*shape.points[0]))
    for p in shape.points[1:]:
        path.lineTo(to_scene(*p))
    if shape.closed:
        path.closeSubpath()
    return path
