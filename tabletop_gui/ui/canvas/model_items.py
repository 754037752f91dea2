"""Canvas items of fighters (bases) and units (boundaries with their model grid).

An item holds a copy of its entity's data and repaints only when ``set_model`` gets
different data; it never writes to the document.
"""

from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tabletop_gui.model.health import Health, health_of
from tabletop_gui.scenario.entities import Fighter, Model, Unit
from tabletop_gui.ui.canvas.coords import INCH, Z_MODEL, to_scene

LABEL_FONT_PX = 0.28 * INCH
MIN_LABEL_PIXELS = 6.0
MAX_LABEL_PIXELS = 13.0
HANDLE_GAP = 0.45 * INCH  # from the base edge to the rotate handle
HANDLE_RADIUS = 0.12 * INCH
BAR_HEIGHT = 0.09 * INCH
SELECTED = QColor("#f1c40f")
OUTLINE = QColor("#222222")
TAKEN_DOWN = QColor("#9e9e9e")


def label_font() -> QFont:
    f = QFont()
    f.setPixelSize(max(1, round(LABEL_FONT_PX)))
    return f


class ModelItem(QGraphicsItem):
    """A fighter's base or a unit's boundary, drawn to scale and rotated by its facing."""

    def __init__(self, entity_id: str) -> None:
        super().__init__()
        self.entity_id = entity_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setZValue(Z_MODEL)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._model: Model | None = None
        self._color = QColor("#808080")
        self._length = self._width = INCH
        self._label = ""
        self._label_rect = QRectF()
        self._bounds = QRectF()
        self._font = label_font()
        self._down = False
        self._health: Health | None = None

    # -- data ------------------------------------------------------------------------
    @property
    def model(self) -> Model:
        assert self._model is not None
        return self._model

    @property
    def down(self) -> bool:
        """The model is out of the game (as its scenario's ruleset says)."""
        return self._down

    def set_model(self, model: Model, color: QColor, down: bool | None = None) -> None:
        """Take new data (``down``: taken down; None: as before, a preview moving it);
        redraw only if something differs."""
        if model is self._model and color == self._color and down in (None, self._down):
            return
        if isinstance(model, Fighter):
            length, width = model.base.length_in * INCH, model.base.width_in * INCH
            label = model.name
        else:
            length, width = model.depth_in * INCH, model.width_in * INCH
            label = f"{model.name} ({model.models})"
        self.setPos(to_scene(model.x, model.y))
        old = self._model
        if old is None or (length, width, label, _is_rect(model)) != (
            self._length, self._width, self._label, _is_rect(old)
        ):
            self.prepareGeometryChange()
            self._model = model
            self._length, self._width, self._label = length, width, label
            self._layout()
        down = self._down if down is None else down
        moved_only = old is not None and color == self._color and down == self._down and (
            replace(old, x=model.x, y=model.y) == model)
        self._model, self._color = model, QColor(color)
        # read once per model value, not at every paint of thousands of bases
        self._down, self._health = down, health_of(model)
        if not moved_only:
            self.update()

    def _layout(self) -> None:
        r = self.radius
        fm = QFontMetricsF(self._font)
        tw, th = fm.horizontalAdvance(self._label), fm.height()
        top = r + BAR_HEIGHT + 0.06 * INCH
        self._label_rect = QRectF(-tw / 2 - 2, top, tw + 4, th + 2)
        reach = r + HANDLE_GAP + HANDLE_RADIUS + 2
        self._bounds = QRectF(-reach, -reach, 2 * reach, 2 * reach).united(self._label_rect)

    @property
    def radius(self) -> float:
        """Half the base's diagonal extent (scene units): anything rotated fits within."""
        return 0.5 * math.hypot(self._length, self._width) if self._is_rect() else 0.5 * max(
            self._length, self._width)

    def _is_rect(self) -> bool:
        return self._model is not None and _is_rect(self._model)

    @property
    def color(self) -> QColor:
        """The side's colour the item is drawn in."""
        return QColor(self._color)

    @property
    def facing(self) -> float:
        return self.model.facing

    def rotate_handle_pos(self) -> QPointF:
        """Scene position of the rotate handle (in front of the base)."""
        d = 0.5 * self._length + HANDLE_GAP
        a = math.radians(self.facing)
        return self.pos() + QPointF(d * math.cos(a), -d * math.sin(a))

    def hits_rotate_handle(self, scene_pos: QPointF, tolerance: float) -> bool:
        delta = scene_pos - self.rotate_handle_pos()
        return math.hypot(delta.x(), delta.y()) <= HANDLE_RADIUS + tolerance

    # -- Qt --------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def _base_path(self) -> QPainterPath:
        path = QPainterPath()
        rect = QRectF(-self._length / 2, -self._width / 2, self._length, self._width)
        if self._is_rect():
            path.addRect(rect)
        else:
            path.addEllipse(rect)
        return path

    def shape(self) -> QPainterPath:
        from PySide6.QtGui import QTransform

        return QTransform().rotate(-self.facing).map(self._base_path()) if self._model else (
            QPainterPath())

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self._model is None:
            return
        m = self._model
        down = self._down
        fill = TAKEN_DOWN if down else self._color
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.save()
        painter.rotate(-m.facing)
        if isinstance(m, Unit) and not m.round_base:
            self._paint_unit(painter, m, fill)
        else:
            pen = QPen(OUTLINE, 1.5)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(QBrush(fill))
            painter.drawPath(self._base_path())
            self._paint_facing_tick(painter)
        if self.isSelected():
            self._paint_selection(painter)
        painter.restore()
        self._paint_bar_and_label(painter, m, down)

    def _paint_facing_tick(self, painter: QPainter) -> None:
        half = self._length / 2
        pen = QPen(QColor("white"), max(1.5, 0.06 * INCH))
        painter.setPen(pen)
        painter.drawLine(QPointF(half * 0.35, 0), QPointF(half - 0.03 * INCH, 0))
        tip = 0.14 * INCH
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(OUTLINE)
        painter.drawPolygon([QPointF(half + tip, 0), QPointF(half, -tip * 0.7),
                             QPointF(half, tip * 0.7)])

    def _paint_unit(self, painter: QPainter, unit: Unit, fill: QColor) -> None:
        d, w = self._length, self._width
        cw, cd = unit.base_mm[0] / 25.4 * INCH, unit.base_mm[1] / 25.4 * INCH
        boundary = QRectF(-d / 2, -w / 2, d, w)
        light = QColor(fill)
        light.setAlpha(70)
        thin = QPen(OUTLINE, 0.8)
        thin.setCosmetic(True)
        painter.setPen(thin)
        painter.setBrush(light)
        painter.drawRect(boundary)
        painter.setBrush(fill)
        ranks, files = unit.ranks, max(1, unit.files)
        for r in range(ranks):
            n = files if r < ranks - 1 else unit.models - files * (ranks - 1)
            offset = (files - n) / 2 * cw  # an incomplete rear rank is centred
            x0 = d / 2 - (r + 1) * cd
            for f in range(n):
                painter.drawRect(QRectF(x0, -w / 2 + offset + f * cw, cd, cw))
        front = QPen(OUTLINE, max(2.5, 0.08 * INCH))
        painter.setPen(front)
        painter.drawLine(QPointF(d / 2, -w / 2), QPointF(d / 2, w / 2))
        self._paint_facing_tick(painter)

    def _paint_selection(self, painter: QPainter) -> None:
        pen = QPen(SELECTED, 2.5, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        pad = 0.06 * INCH
        r = QRectF(-self._length / 2 - pad, -self._width / 2 - pad,
                   self._length + 2 * pad, self._width + 2 * pad)
        if self._is_rect():
            painter.drawRect(r)
        else:
            painter.drawEllipse(r)
        half = self._length / 2
        painter.drawLine(QPointF(half + pad, 0), QPointF(half + HANDLE_GAP, 0))
        painter.setBrush(SELECTED)
        painter.drawEllipse(QPointF(half + HANDLE_GAP, 0), HANDLE_RADIUS, HANDLE_RADIUS)

    def _paint_bar_and_label(self, painter: QPainter, m: Model, down: bool) -> None:
        r = self.radius
        health = self._health
        if health is not None:
            bw = max(self._width, 0.8 * INCH)
            bar = QRectF(-bw / 2, r + 0.03 * INCH, bw, BAR_HEIGHT)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#5a1c1c"))
            painter.drawRect(bar)
            painter.setBrush(QColor("#2ecc40"))
            painter.drawRect(QRectF(bar.left(), bar.top(), bar.width() * health.fraction,
                                    bar.height()))
        pixels = LABEL_FONT_PX * painter.worldTransform().m11()
        if pixels < MIN_LABEL_PIXELS:
            return  # too small to read at this zoom: names are in the roster and tooltips
        painter.setFont(self._font)
        painter.setPen(TAKEN_DOWN.darker(150) if down else OUTLINE)
        k = min(1.0, MAX_LABEL_PIXELS / pixels)  # zoomed in: names stop growing
        top = self._label_rect.top()
        painter.translate(0.0, top)
        painter.scale(k, k)
        rect = QRectF(self._label_rect.left() / k, 0.0, self._label_rect.width() / k,
                      self._label_rect.height())
        painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                         self._label)


def _is_rect(m: Model) -> bool:
    if isinstance(m, Unit):
        return not m.round_base
    return m.base.shape == "rect"
