"""Canvas items of the battlefield itself (table, inch grid, edge labels, Circle of Realms
spaces) and of terrain (obstacles and platforms with their heights)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tabletop_gui.scenario.background import decode_data_uri
from tabletop_gui.scenario.entities import Background, Battlefield, Obstacle, Platform
from tabletop_gui.ui.canvas.coords import INCH, Z_BOARD, Z_OBSTACLE, Z_PLATFORM, board_rect
from tabletop_gui.ui.canvas.labels import Named

TABLE = QColor("#e8e2cf")
GRID_MINOR = QColor("#cfc6ab")
GRID_MAJOR = QColor("#a89f84")
SPACES = QColor("#7f8c8d")
EDGE_LABEL_PX = 0.32 * INCH
LABEL_PIXELS = 11.0
SQRT3 = math.sqrt(3.0)
DIMMED_OPACITY = 0.35  # View > Dim background


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


MIN_SPACE_PIXELS = 4.0  # spaces smaller than this on screen are not drawn (a grey blur)
MAX_SPACES_DRAWN = 20_000  # at most this many spaces outlined in one paint
MIN_LINE_PIXELS = 8.0  # inch-grid lines closer than this on screen are thinned out
CACHED_UP_TO = 600.0  # inches: a table up to this size is painted whole into a cache
GRID_STEPS = (1, 6, 12, 60, 120, 600, 1200, 6000, 12000, 60000)  # inches; multiples of 6
LABEL_STEPS = (1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200, 2400, 6000, 12000, 24000, 60000)


def grid_path(battlefield: Battlefield, area: QRectF | None = None,
              limit: int = MAX_SPACES_DRAWN) -> QPainterPath:
    """The outlines of the Circle of Realms spaces that meet ``area`` (inches, y up; the
    whole table when None), in scene units; empty when more than ``limit`` spaces would be
    drawn. The cost follows what is drawn, never the size of the table."""
    path = QPainterPath()
    grid = battlefield.grid
    if grid is None or grid.size <= 0:
        return path
    s, w, d = grid.size, battlefield.width, battlefield.depth
    x0, y0, x1, y1 = 0.0, 0.0, w, d
    if area is not None:
        x0, y0 = max(x0, area.left()), max(y0, area.top())
        x1, y1 = min(x1, area.right()), min(y1, area.bottom())
        if x1 < x0 or y1 < y0:
            return path
    if grid.kind == "square":
        cols, rows = int(w / s + 1e-9), int(d / s + 1e-9)
        c0, c1 = max(0, int(x0 / s)), min(cols, int(math.ceil(x1 / s)))
        r0, r1 = max(0, int(y0 / s)), min(rows, int(math.ceil(y1 / s)))
        if (c1 - c0) * (r1 - r0) > limit:
            return path
        for c in range(c0, c1 + 1):
            path.moveTo(c * s * INCH, -r0 * s * INCH)
            path.lineTo(c * s * INCH, -r1 * s * INCH)
        for r in range(r0, r1 + 1):
            path.moveTo(c0 * s * INCH, -r * s * INCH)
            path.lineTo(c1 * s * INCH, -r * s * INCH)
        return path
    radius = s / SQRT3  # centre to corner
    row_step = s * SQRT3 / 2
    last_row = int(math.floor((d - 0.5 * s) / row_step + 1e-9))
    row0 = max(0, int(math.floor((y0 - radius - 0.5 * s) / row_step)))
    row1 = min(last_row, int(math.ceil((y1 + radius - 0.5 * s) / row_step)))
    col0 = max(0, int(math.floor((x0 - s) / s)))
    col1 = int(math.ceil((x1 + s) / s))
    if (row1 - row0 + 1) * (col1 - col0 + 1) > limit:
        return path
    offsets = [(radius * math.cos(math.radians(90 + 60 * k)),
                radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]
    for row in range(row0, row1 + 1):
        for col in range(col0, col1 + 1):
            cx, cy = hex_centre(col, row, s)
            if cx > w + 1e-9:
                break
            corners = [QPointF((cx + ox) * INCH, -(cy + oy) * INCH) for ox, oy in offsets]
            path.addPolygon(QPolygonF([*corners, corners[0]]))
    return path


def grid_step(pixels_per_inch: float) -> int:
    """The inch-grid spacing to draw at this zoom: 1", else the first multiple of 6" whose
    lines are at least MIN_LINE_PIXELS apart on screen."""
    return next((k for k in GRID_STEPS if k * pixels_per_inch >= MIN_LINE_PIXELS),
                GRID_STEPS[-1])


class BattlefieldItem(QGraphicsItem):
    """The table: its surface, a 1-inch grid (stronger every 6"), labelled edges, spaces."""

    def __init__(self, battlefield: Battlefield) -> None:
        super().__init__()
        self.setZValue(Z_BOARD)
        self._font = _font(EDGE_LABEL_PX)
        self.battlefield = battlefield
        self.background_opacity = 1.0
        self._picture: tuple[Background | None, QImage | None] = (None, None)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.set_battlefield(battlefield)

    def picture(self) -> QImage | None:
        """The background picture, decoded once per background (None when it has none or
        Qt cannot read it: the table is drawn plain)."""
        background = self.battlefield.background
        if self._picture[0] is not background:
            image = None
            if background is not None:
                _, data = decode_data_uri(background.image)
                loaded = QImage.fromData(data)
                image = None if loaded.isNull() else loaded
            self._picture = (background, image)
        return self._picture[1]

    def set_background_opacity(self, opacity: float) -> None:
        self.background_opacity = opacity
        self.update()

    def set_battlefield(self, battlefield: Battlefield) -> None:
        self.prepareGeometryChange()
        self.battlefield = battlefield
        self._rect = board_rect(battlefield.width, battlefield.depth)
        m = 2.0 * INCH  # room for the edge labels (at most 0.6" tall, 3 digits wide)
        self._bounds = self._rect.adjusted(-m, -m, m, m)
        # a table of a usual size is painted whole once per zoom and kept; a huge one is
        # painted only where it is exposed (the cache would paint all of it, and at a high
        # zoom that is millions of lines and spaces)
        small = max(battlefield.width, battlefield.depth) <= CACHED_UP_TO
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache if small
                          else QGraphicsItem.CacheMode.NoCache)
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
        picture = self.picture()
        if picture is not None:  # under the grid, over the plain table
            painter.save()
            painter.setOpacity(self.background_opacity)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            painter.drawImage(self._rect, picture)
            painter.restore()
        # only what is exposed is drawn (a huge table at a high zoom stays cheap)
        exposed = option.exposedRect.intersected(self._rect)  # type: ignore[attr-defined]
        pixels_per_inch = max(painter.worldTransform().m11(), 1e-9) * INCH
        # in inches, y up
        x0, x1 = exposed.left() / INCH, exposed.right() / INCH
        y0, y1 = -exposed.bottom() / INCH, -exposed.top() / INCH
        minor = QPen(GRID_MINOR, 1)
        minor.setCosmetic(True)
        major = QPen(GRID_MAJOR, 1.5)
        major.setCosmetic(True)
        step = grid_step(pixels_per_inch)
        for i in range(int(math.ceil(x0 / step)) * step, int(math.floor(min(x1, w))) + 1, step):
            painter.setPen(major if i % 6 == 0 else minor)
            painter.drawLine(QPointF(i * INCH, -y0 * INCH), QPointF(i * INCH, -y1 * INCH))
        for j in range(int(math.ceil(y0 / step)) * step, int(math.floor(min(y1, d))) + 1, step):
            painter.setPen(major if j % 6 == 0 else minor)
            painter.drawLine(QPointF(x0 * INCH, -j * INCH), QPointF(x1 * INCH, -j * INCH))
        grid = self.battlefield.grid
        if grid is not None and grid.size * pixels_per_inch >= MIN_SPACE_PIXELS:
            spaces = grid_path(self.battlefield, QRectF(x0, y0, x1 - x0, y1 - y0))
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            sp = QPen(SPACES, 1.6)
            sp.setCosmetic(True)
            painter.setPen(sp)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.save()
            painter.setClipRect(self._rect)
            painter.drawPath(spaces)
            painter.restore()
        edge = QPen(QColor("#4d4636"), 2)
        edge.setCosmetic(True)
        painter.setPen(edge)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._rect)
        self._paint_labels(painter, w, d, option.exposedRect)  # type: ignore[attr-defined]

    def _paint_labels(self, painter: QPainter, w: float, d: float, exposed: QRectF) -> None:
        """Edge labels about 11 px tall at any zoom (within 0.25" to 0.6"), every 1, 2,
        3, 6, 12, 24, 60... inches so that they never crowd each other; only those in the
        exposed area."""
        scale = max(painter.worldTransform().m11(), 1e-6)  # device pixels per scene unit
        px = min(max(LABEL_PIXELS / scale, 0.25 * INCH), 0.6 * INCH)
        font = QFont(self._font)
        font.setPixelSize(max(1, round(px)))
        painter.setFont(font)
        painter.setPen(QColor("#4d4636"))
        digits = max(1.0, len(str(int(max(w, d)))) / 3)  # wider labels need more room
        step = next((s for s in LABEL_STEPS if s * INCH >= 2.2 * px * digits),
                    LABEL_STEPS[-1])
        box, gap = 3.0 * px, 0.25 * px
        centre = Qt.AlignmentFlag.AlignCenter

        def visible(lo: float, hi: float, top: float) -> range:
            first = max(0, int(math.ceil((lo - box) / INCH / step))) * step
            return range(first, int(math.floor(min(top, (hi + box) / INCH))) + 1, step)

        for i in visible(exposed.left(), exposed.right(), w):
            x = i * INCH
            painter.drawText(QRectF(x - box / 2, gap, box, 1.3 * px), centre, str(i))
            painter.drawText(QRectF(x - box / 2, -d * INCH - gap - 1.3 * px, box, 1.3 * px),
                             centre, str(i))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for j in visible(-exposed.bottom(), -exposed.top(), d):
            y = -j * INCH
            painter.drawText(QRectF(-box - gap, y - px, box, 2 * px), right, str(j))
            painter.drawText(QRectF(w * INCH + gap, y - px, box, 2 * px), left, str(j))


class TerrainItem(Named, QGraphicsItem):
    """An obstacle (solid for hard cover, hatched for soft) or a platform (shaded by height),
    labelled with its name and height (drawn by the scene's ``NamesLayer`` above every
    model, placed by its label layer: never clipped, never under a token)."""

    label_group = "terrain"

    def __init__(self, entity_id: str) -> None:
        super().__init__()
        self.entity_id = entity_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        # drawn once per zoom: a drag's repaints over a wall or a forest are blits
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._terrain: Obstacle | Platform | None = None
        self._path = QPainterPath()
        self._bounds = QRectF()

    bold_label = True

    def label_spec(self) -> tuple[str, bool, QColor | None]:
        return (self.label(), False, None) if self._terrain is not None else ("", False, None)

    def terrain_rect(self) -> QRectF:
        """The terrain's extent, scene units."""
        return self._path.boundingRect()

    def label_anchor(self) -> QPointF:
        return self._path.boundingRect().center()

    @property
    def terrain(self) -> Obstacle | Platform:
        assert self._terrain is not None
        return self._terrain

    @property
    def terrain_or_none(self) -> Obstacle | Platform | None:
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
        m = 0.5 * INCH  # cosmetic pens and the selection's vertex marks
        self._bounds = self._path.boundingRect().adjusted(-m, -m, m, m)
        if self.names is not None and self.names.label(self) is not None:
            self.names.move(self, self.label_anchor())
            self.names.set_label(self, *self.label_spec(), bold=True)
        self.update()

    def label(self) -> str:
        t = self.terrain
        return f"{t.name or t.id} {_num(t.height)}\u2033"

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
