"""Table inches <-> scene units.

The scene keeps the table's origin (bottom-left corner) at (0, 0) and one inch as
``INCH`` scene units; the table's y axis points up, the scene's down, so y is negated.
Facing angles are counter-clockwise from +x on the table, hence clockwise on screen:
``painter.rotate(-facing)`` puts a model's facing along the painter's +x axis.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

INCH = 40.0

# z-order of the scene's layers
Z_BOARD = 0.0
Z_PLATFORM = 10.0
Z_OBSTACLE = 20.0
Z_MODEL = 30.0
Z_OVERLAY = 50.0  # canvas overlays (range bands, sight lines...): children of scene.overlay_layer
Z_LABEL = 55.0  # wounds bars, then names of models and terrain: above the overlays
Z_TOOL = 60.0  # tool feedback (rubber band, drawn polygon, measuring line)


def to_scene(x: float, y: float) -> QPointF:
    return QPointF(x * INCH, -y * INCH)


def to_table(p: QPointF) -> tuple[float, float]:
    return p.x() / INCH, -p.y() / INCH


def board_rect(width: float, depth: float) -> QRectF:
    """The battlefield's rectangle in scene units."""
    return QRectF(0.0, -depth * INCH, width * INCH, depth * INCH)
