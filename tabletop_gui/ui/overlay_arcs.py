"""The arcs of a rank-and-file unit as overlay lines: from each boundary corner, outward at
135° to the two facings that meet there (45° to the unit's axes). Units on a round base
have a single 360° Front arc: no lines."""

from __future__ import annotations

import math

from PySide6.QtGui import QPainterPath

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.ui.overlay_shapes import line_path

ARC_LINE_IN = 8.0  # how far the arc boundaries are drawn from the corners


def arc_lines(geometry: BoardGeometry, body_id: str, length: float = ARC_LINE_IN
              ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Segments (table inches) bounding the four arcs of a unit; empty for other bodies."""
    try:
        body = geometry.board.body(body_id)
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


def arc_paths(geometry: BoardGeometry, body_id: str) -> list[QPainterPath]:
    return [line_path(a, b) for a, b in arc_lines(geometry, body_id)]
