"""The evidence of a ruling drawn on the battlefield scene (the Ruling mode and the ruling
pictures use this same code).

Under a parent item (the scene's overlay layer): the limits around the attacker's base as
rings (range and minimum range, the 1" of engagement; for a 3D distance at this pair's
height difference), the sample sight lines of each plan path (solid blue when every
height is clear, dashed vermillion when none is, dash-dot when some are), the terrain
that blocks a line (vermillion, hatched), the terrain that gives cover (reddish purple,
hatched) with the part of the line of cover inside it and the ignored ½" around the
attacker, The Ninth Age's 135° arc lines of the target, and on top the segment between
the two closest points with its length to 0.01" (``segment_marks``, as the Measure tool).
Colours are Okabe-Ito; each mark also differs by line style.
"""

from __future__ import annotations

from collections import defaultdict

import shapely
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from tabletop_gui.geometry.cover import EXEMPT
from tabletop_gui.geometry.sight_lines import PATH_NAMES, SightLine
from tabletop_gui.model.measuring import Measurement
from tabletop_gui.rules.ruling import Ruling
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot
from tabletop_gui.ui.canvas.segment_marks import SegmentMarks
from tabletop_gui.ui.canvas_overlays import (
    ARC,
    BAND,
    COVER_TERRAIN,
    ENGAGE,
    INVALID,
    SIGHT_CLEAR,
    OverlayItem,
)
from tabletop_gui.ui.overlay_shapes import arc_lines, line_path, model_polygon, qpath

RING_COLORS = {"range": BAND.darker(130), "minimum_range": QColor("#0072B2"),
               "engaged": ENGAGE}
Z_LINES, Z_TERRAIN, Z_RINGS, Z_SEGMENT = 2.0, 1.0, 3.0, 10.0


def _pen(color: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width)
    pen.setCosmetic(True)
    pen.setStyle(style)
    return pen


class RulingOverlay:
    """Items showing one ruling; ``show`` replaces them, ``clear`` removes them."""

    def __init__(self, layer: QGraphicsItem) -> None:
        self.layer = layer
        self.items: list[OverlayItem] = []
        self.marks: SegmentMarks | None = None
        self.ruling: Ruling | None = None

    def of_kind(self, kind: str) -> list[OverlayItem]:
        return [i for i in self.items if i.kind == kind]

    def clear(self) -> None:
        for item in self.items:
            scene = item.scene()
            if scene is not None:
                scene.removeItem(item)
            else:
                item.setParentItem(None)
        self.items = []
        if self.marks is not None:
            self.marks.remove()
        self.marks = None
        self.ruling = None

    def _add(self, kind: str, key: str, path: QPainterPath, pen: QPen, z: float,
             brush: QBrush | None = None, tooltip: str = "", clear_count: int = 0,
             total: int = 0) -> OverlayItem:
        item = OverlayItem(kind, key, path, pen, brush, tooltip, parent=self.layer,
                           clear_count=clear_count, total=total)
        item.setZValue(z)
        self.items.append(item)
        return item

    def show(self, ruling: Ruling, snapshot: Snapshot) -> None:
        """``ruling`` drawn on the revision ``snapshot`` (its scenario and geometry)."""
        self.clear()
        self.ruling = ruling
        scenario = snapshot.scenario
        geometry = snapshot.geometry
        attacker = scenario.model(ruling.attacker)
        if attacker is not None:
            outline = model_polygon(attacker)
            for ring in ruling.rings:
                self._add("ring", ring.rule, qpath(outline.buffer(ring.radius, quad_segs=32)),
                          _pen(RING_COLORS.get(ring.rule, BAND), 1.5, Qt.PenStyle.DashLine),
                          Z_RINGS, tooltip=ring.text)
            if ruling.cover_spans and self._exempting(ruling):
                self._add("exemption", ruling.attacker,
                          qpath(outline.buffer(EXEMPT, quad_segs=32)),
                          _pen(COVER_TERRAIN, 1.0, Qt.PenStyle.DotLine), Z_RINGS,
                          tooltip='the ½" next to the attacker\'s base: an obstacle there '
                                  "gives no cover")
        self._terrain(ruling, scenario)
        self._sight(ruling)
        if ruling.terms.arcs:
            for a, b in arc_lines(geometry, ruling.target):
                self._add("arc", ruling.target, line_path(a, b),
                          _pen(ARC, 1.5, Qt.PenStyle.DashDotLine), Z_LINES,
                          tooltip="135° arc line of the target (a model on a line is in the "
                                  "flank)")
        f = ruling.facts
        (ax, ay, _), (bx, by, _) = ruling.closest_points
        self.marks = SegmentMarks(self.layer, Z_SEGMENT)
        self.marks.show((ax, ay), (bx, by), Measurement(
            (ax, ay), (bx, by), f.distance, f.horizontal_distance, f.vertical_distance,
            f.spaces).text())

    @staticmethod
    def _exempting(ruling: Ruling) -> bool:
        rule = ruling.terms.cover
        return rule is not None and (not rule.gate_1in or ruling.facts.distance > 1.0 + 1e-9)

    def _terrain(self, ruling: Ruling, scenario: Scenario) -> None:
        covering = set(ruling.facts.cover_by)
        for terrain_id in ruling.blocked_by:
            poly = _polygon(scenario, terrain_id)
            if poly is not None:
                self._add("blocker", terrain_id, qpath(poly), _pen(INVALID, 3.0), Z_TERRAIN,
                          QBrush(INVALID, Qt.BrushStyle.FDiagPattern),
                          f"{ruling.label(terrain_id)} blocks sample sight lines")
        for terrain_id in covering:
            poly = _polygon(scenario, terrain_id)
            if poly is not None:
                why = ruling.cover_why or "gives cover"
                self._add("cover_terrain", terrain_id, qpath(poly), _pen(COVER_TERRAIN, 3.0),
                          Z_TERRAIN, QBrush(COVER_TERRAIN, Qt.BrushStyle.BDiagPattern),
                          f"{ruling.label(terrain_id)}: {why}")
        (ax, ay, _), (bx, by, _) = ruling.closest_points
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        for span in ruling.cover_spans:
            if length <= 0:
                break
            s0, s1 = span.enters / length, span.leaves / length
            a = (ax + (bx - ax) * s0, ay + (by - ay) * s0)
            b = (ax + (bx - ax) * s1, ay + (by - ay) * s1)
            counts = span.terrain in covering
            self._add("cover_span", span.terrain, line_path(a, b),
                      _pen(COVER_TERRAIN, 6.0 if counts else 3.0,
                           Qt.PenStyle.SolidLine if counts else Qt.PenStyle.DotLine),
                      Z_LINES + 0.5,
                      tooltip=f"the line of cover inside {span.label}: "
                              f'{span.leaves_from_base:.2f}" from the attacker\'s base at '
                              "its far end")

    def _sight(self, ruling: Ruling) -> None:
        paths: dict[int, list[SightLine]] = defaultdict(list)
        for line in ruling.lines:
            paths[line.path].append(line)
        for path, lines in sorted(paths.items()):
            clear = sum(1 for s in lines if s.clear)
            blockers = sorted({t for s in lines for t in s.blocked_by})
            if clear == len(lines):
                pen = _pen(SIGHT_CLEAR, 1.5)
            elif clear == 0:
                pen = _pen(INVALID, 1.2, Qt.PenStyle.DashLine)
            else:
                pen = _pen(SIGHT_CLEAR, 1.5, Qt.PenStyle.DashDotLine)
            first = lines[0]
            tip = (f"sight line {PATH_NAMES[path]}: {clear} of {len(lines)} heights clear"
                   + (f"; blocked by {', '.join(ruling.label(t) for t in blockers)}"
                      if blockers else ""))
            self._add("sight_line", PATH_NAMES[path],
                      line_path(first.start[:2], first.end[:2]), pen, Z_LINES,
                      tooltip=tip, clear_count=clear, total=len(lines))


def _polygon(scenario: Scenario, terrain_id: str) -> shapely.Polygon | None:
    terrain = scenario.entity(terrain_id)
    points = getattr(terrain, "polygon", None)
    return shapely.Polygon(points) if points else None
