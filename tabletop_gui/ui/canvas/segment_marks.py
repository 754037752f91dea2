"""The measured segment between two closest points: a line on a white halo, a dot at each
end and its length to 0.01" on a label. The Measure tool and the Ruling mode draw it with
this same code, so the two show the same points and the same segment."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

from tabletop_gui.ui.canvas.coords import to_scene

SEGMENT = QColor("#1a1a1a")  # the measured segment and its end points
HALO = QColor("white")
SEGMENT_WIDTH = 3.0  # pixels, whatever the zoom
HALO_WIDTH = 7.0
DOT_RADIUS = 4.5  # pixels
LABEL_GAP = 6.0  # pixels below the middle of the segment


def _pen(color: QColor, width: float) -> QPen:
    pen = QPen(color, width)
    pen.setCosmetic(True)
    return pen


class SegmentMarks:
    """Items under ``parent`` showing a segment between two table points (inches)."""

    def __init__(self, parent: QGraphicsItem, z: float = 0.0) -> None:
        self.halo = QGraphicsLineItem(parent)
        self.halo.setPen(_pen(HALO, HALO_WIDTH))
        self.halo.setZValue(z)
        self.line = QGraphicsLineItem(parent)
        self.line.setPen(_pen(SEGMENT, SEGMENT_WIDTH))
        self.line.setZValue(z + 0.1)
        self.dots: list[QGraphicsEllipseItem] = []
        for _ in range(2):
            dot = QGraphicsEllipseItem(QRectF(-DOT_RADIUS, -DOT_RADIUS, 2 * DOT_RADIUS,
                                              2 * DOT_RADIUS), parent)
            dot.setBrush(QBrush(SEGMENT))
            dot.setPen(_pen(HALO, 1.5))
            dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            dot.setZValue(z + 0.2)
            self.dots.append(dot)
        # the label hangs from an anchor of screen size at the middle of the segment
        self.anchor = QGraphicsPathItem(QPainterPath(), parent)
        self.anchor.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.anchor.setZValue(z + 0.3)
        self.backdrop = QGraphicsRectItem(self.anchor)
        self.backdrop.setBrush(QColor(255, 255, 255, 215))
        self.backdrop.setPen(QPen(QColor(0, 0, 0, 0)))
        self.label = QGraphicsSimpleTextItem(self.anchor)
        font = QFont()
        font.setPointSizeF(11)
        font.setBold(True)
        self.label.setFont(font)
        self.label.setBrush(SEGMENT)
        self.start: tuple[float, float] = (0.0, 0.0)
        self.end: tuple[float, float] = (0.0, 0.0)

    def show(self, start: tuple[float, float], end: tuple[float, float], text: str) -> None:
        self.start, self.end = start, end
        a, b = to_scene(*start), to_scene(*end)
        for item in (self.halo, self.line):
            item.setLine(a.x(), a.y(), b.x(), b.y())
        self.dots[0].setPos(a)
        self.dots[1].setPos(b)
        self.label.setText(text)
        box = self.label.boundingRect()
        self.label.setPos(-box.width() / 2, LABEL_GAP)
        self.backdrop.setRect(self.label.mapRectToParent(box).adjusted(-3, -1, 3, 1))
        self.anchor.setPos((a + b) / 2)

    def items(self) -> list[QGraphicsItem]:
        return [self.halo, self.line, *self.dots, self.anchor]

    def remove(self) -> None:
        for item in self.items():
            scene = item.scene()
            if scene is not None:
                scene.removeItem(item)
            else:
                item.setParentItem(None)
