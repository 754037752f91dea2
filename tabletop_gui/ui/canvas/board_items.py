"""Canvas items of the battlefield itself (table, inch grid, edge labels, Circle of Realms
spaces) and of terrain (obstacles and platforms with their heights)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tabletop_gui.scenario.entities import Battlefield, Obstacle, Platform
from tabletop_gui.ui.canvas.coords import INCH, Z_BOARD, Z_OBSTACLE, Z_PLATFORM, board_rect

TABLE = QColor("#e8e2cf")
GRID_MINOR = QColor("#cfc6ab")
GRID_MAJOR = QColor("#a89f84")
SPACES = QColor("#7f8c8d")
EDGE_LABEL_PX = 0.32 * INCH
LABEL_PIXELS = 11.0
TERRAIN_LABEL_PX = 0.24 * INCH
SQRT3 = math.sqrt(3.0)


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _num(v: float) -> str:
    return f"{v:g}"


def hex_centre(col: int, row: int, size: float) -> tuple[float, float]:
    """Centre (inches) of a pointy-top hex space: odd rows shifted right by half a space."""
    return (col + 0.5 + 0.5 * (row % 2)) * size, (row * SQRT3 / 2 + 0.5) * size


def grid_path(battlefield: Battlefield) -> QPainterPath:
    """The outlines of the Circle of Realms spaces, in scene units."""
    path = QPainterPath()
    grid = battlefield.grid
    if grid is None or grid.size <= 0:
        return path
    s, w, d = grid.size, battlefield.width, battlefield.depth
    if grid.kind == "square":
        cols, rows = int(w / s + 1e-9), int(d / s + 1e-9)
        for c in range(cols + 1):
            path.moveTo(c * s * INCH, 0)
            path.lineTo(c * s * INCH, -rows * s * INCH)
        for r in range(rows + 1):
            path.moveTo(0, -r * s * INCH)
            path.lineTo(cols * s * INCH, -r * s * INCH)
        return path
    radius = s / SQRT3  # centre to corner
    row = 0
    while hex_centre(0, row, s)[1] <= d + 1e-9:
        col = 0
        while hex_centre(col, row, s)[0] <= w + 1e-9:
            cx, cy = hex_centre(col, row, s)
            corners = [
                QPointF((cx + radius * math.cos(math.radians(90 + 60 * k))) * INCH,
                        -(cy + radius * math.sin(math.radians(90 + 60 * k))) * INCH)
                for k in range(6)
            ]
            path.addPolygon(QPolygonF([*corners, corners[0]]))
            col += 1
        row += 1
    return path


class BattlefieldItem(QGraphicsItem):
    """The table: its surface, a 1-inch grid (stronger every 6"), labelled edges, spaces."""

    def __init__(self, battlefield: Battlefield) -> None:
        super().__init__()
        self.setZValue(Z_BOARD)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._font = _font(EDGE_LABEL_PX)
        self.battlefield = battlefield
        self._spaces = QPainterPath()
        self.set_battlefield(battlefield)

    def set_battlefield(self, battlefield: Battlefield) -> None:
        self.prepareGeometryChange()
        self.battlefield = battlefield
        self._rect = board_rect(battlefield.width, battlefield.depth)
        m = 2.0 * INCH  # room for the edge labels (at most 0.6" tall, 3 digits wide)
        self._bounds = self._rect.adjusted(-m, -m, m, m)
        self._spaces = grid_path(battlefield)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        w, d = self.battlefield.width, self.battlefield.depth
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(TABLE)
        painter.drawRect(self._rect)
        minor = QPen(GRID_MINOR, 1)
        minor.setCosmetic(True)
        major = QPen(GRID_MAJOR, 1.5)
        major.setCosmetic(True)
        for i in range(int(math.floor(w)) + 1):
            painter.setPen(major if i % 6 == 0 else minor)
            painter.drawLine(QPointF(i * INCH, 0), QPointF(i * INCH, -d * INCH))
        for j in range(int(math.floor(d)) + 1):
            painter.setPen(major if j % 6 == 0 else minor)
            painter.drawLine(QPointF(0, -j * INCH), QPointF(w * INCH, -j * INCH))
        if not self._spaces.isEmpty():
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            sp = QPen(SPACES, 1.6)
            sp.setCosmetic(True)
            painter.setPen(sp)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.save()
            painter.setClipRect(self._rect)
            painter.drawPath(self._spaces)
            painter.restore()
        edge = QPen(QColor("#4d4636"), 2)
        edge.setCosmetic(True)
        painter.setPen(edge)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._rect)
        self._paint_labels(painter, w, d)

    def _paint_labels(self, painter: QPainter, w: float, d: float) -> None:
        """Edge labels about 11 px tall at any zoom (within 0.25" to 0.6"), every 1, 2,
        3, 6 or 12 inches so that they never crowd each other."""
        scale = max(painter.worldTransform().m11(), 1e-6)  # device pixels per scene unit
        px = min(max(LABEL_PIXELS / scale, 0.25 * INCH), 0.6 * INCH)
        font = QFont(self._font)
        font.setPixelSize(max(1, round(px)))
        painter.setFont(font)
        painter.setPen(QColor("#4d4636"))
        step = next((s for s in (1, 2, 3, 6, 12) if s * INCH >= 2.2 * px), 24)
        box, gap = 3.0 * px, 0.25 * px
        centre = Qt.AlignmentFlag.AlignCenter
        for i in range(0, int(math.floor(w)) + 1, step):
            x = i * INCH
            painter.drawText(QRectF(x - box / 2, gap, box, 1.3 * px), centre, str(i))
            painter.drawText(QRectF(x - box / 2, -d * INCH - gap - 1.3 * px, box, 1.3 * px),
                             centre, str(i))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for j in range(0, int(math.floor(d)) + 1, step):
            y = -j * INCH
            painter.drawText(QRectF(-box - gap, y - px, box, 2 * px), right, str(j))
            painter.drawText(QRectF(w * INCH + gap, y - px, box, 2 * px), left, str(j))


class TerrainItem(QGraphicsItem):
    """An obstacle (solid for hard cover, hatched for soft) or a platform (shaded by height),
    labelled with its name and height."""

    def __init__(self, entity_id: str) -> None:
        super().__init__()
        self.entity_id = entity_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self._terrain: Obstacle | Platform | None = None
        self._path = QPainterPath()
        self._bounds = QRectF()
        self._font = _font(TERRAIN_LABEL_PX, bold=True)

    @property
    def terrain(self) -> Obstacle | Platform:
        assert self._terrain is not None
        return self._terrain

    def set_terrain(self, terrain: Obstacle | Platform) -> None:
        if terrain is self._terrain:
            return
        self.setZValue(Z_PLATFORM if isinstance(terrain, Platform) else Z_OBSTACLE)
        self.prepareGeometryChange()
        self._terrain = terrain
        self.setPos(0, 0)
        poly = QPolygonF([QPointF(x * INCH, -y * INCH) for x, y in terrain.polygon])
        self._path = QPainterPath()
        self._path.addPolygon(poly)
        self._path.closeSubpath()
        m = 2.0 * INCH  # the label may be wider than the terrain
        self._bounds = self._path.boundingRect().adjusted(-m, -m, m, m)
        self.update()

    def label(self) -> str:
        t = self.terrain
        name = t.name or t.id
        thin = self._path.boundingRect().height() < 0.9 * INCH
        return f"{name}{' ' if thin else chr(10)}{_num(t.height)}\u2033"

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        t = self._terrain
        if t is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if isinstance(t, Platform):
            shade = max(60, 200 - int(25 * t.height))
            fill = QColor(shade, int(shade * 0.85), int(shade * 0.6), 200)
            pen = QPen(QColor("#5b4a2f"), 2.5)
            painter.setBrush(fill)
        else:
            pen = QPen(QColor("#2d2a26"), 2, Qt.PenStyle.SolidLine if t.blocks_sight
                       else Qt.PenStyle.DashLine)
            if t.cover == "soft":
                painter.setBrush(QColor(110, 150, 90, 90))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawPath(self._path)
                painter.setBrush(QBrush(QColor("#3d5a2a"), Qt.BrushStyle.BDiagPattern))
            else:
                painter.setBrush(QColor("#6b5d50") if t.blocks_sight else QColor(107, 93, 80,
                                                                                    120))
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPath(self._path)
        if self.isSelected():
            sel = QPen(QColor("#f1c40f"), 2.5, Qt.PenStyle.DashLine)
            sel.setCosmetic(True)
            painter.setPen(sel)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._path)
            painter.setBrush(QColor("#f1c40f"))
            for x, y in t.polygon:
                painter.drawRect(QRectF(x * INCH - 3, -y * INCH - 3, 6, 6))
        pixels = TERRAIN_LABEL_PX * painter.worldTransform().m11()
        painter.setFont(self._font)
        # labels stay between 8 and 13 pixels tall (up to 2.5 times their size in inches)
        k = min(2.5, 8.0 / pixels) if pixels < 8.0 else min(1.0, 13.0 / pixels)
        box = self._path.boundingRect()
        if isinstance(t, Platform):  # the label sits along the top, clear of models on it
            painter.translate(box.center().x(), box.top() + 0.05 * INCH)
            painter.scale(k, k)
            rect = QRectF(-box.width() / (2 * k), 0, box.width() / k, 0.7 * INCH)
            flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
            text = self.label().replace(chr(10), " ")
        else:
            painter.translate(box.center())
            painter.scale(k, k)
            rect = QRectF(-3 * INCH / k, -INCH, 6 * INCH / k, 2 * INCH)
            flags = Qt.AlignmentFlag.AlignCenter
            text = self.label()
        used = painter.boundingRect(rect, flags, text).adjusted(-3, -1, 3, 1)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 185))  # readable over any ground
        painter.drawRoundedRect(used, 3, 3)
        painter.setPen(QColor("#222222"))
        painter.drawText(rect, flags, text)
