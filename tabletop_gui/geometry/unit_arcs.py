"""The arc boundaries of a rank-and-file formation, as segments on the table."""

from __future__ import annotations

import math

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Board

ARC_LINE_IN = 8.0  # how far the arc boundaries are drawn from the corners

Segment = tuple[tuple[float, float], tuple[float, float]]


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
