"""Canvas items of fighters (bases) and units (boundaries with their model grid).

An item holds a copy of its entity's data and repaints only when ``set_model`` gets
different data; it never writes to the document. A model's wounds bar and its name
are drawn by the scene's ``labels.NamesLayer`` above the attack overlays (a target ring
never hides them); the item tells the layer where they are and whether they show.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from tabletop_gui.geometry.formation import rank_counts
from tabletop_gui.model.health import Health, health_of
from tabletop_gui.scenario.entities import Fighter, Model, Unit
from tabletop_gui.ui.canvas.coords import INCH, Z_MODEL, to_scene
from tabletop_gui.ui.canvas.labels import Named
from tabletop_gui.ui.canvas.model_layer import ModelsLayer

HANDLE_GAP = 0.45 * INCH  # from the base edge to the rotate handle
HANDLE_RADIUS = 0.12 * INCH
BAR_HEIGHT = 0.09 * INCH
BAR_GAP = 0.03 * INCH  # between the base and its wounds bar
SELECTED = QColor("#f1c40f")
OUTLINE = QColor("#222222")
TAKEN_DOWN = QColor("#9e9e9e")


def unit_cells(unit: Unit) -> list[QRectF]:
    """The unit's models still on the table, as rectangles in its own frame (front along
    +x): whole models lost (``hp_lost // hp``) are taken from the rear rank first; an
    incomplete rear rank is centred."""
    d = unit.depth_in * INCH
    w = unit.width_in * INCH
    cw, cd = unit.base_mm[0] / 25.4 * INCH, unit.base_mm[1] / 25.4 * INCH
    files = max(1, unit.files)
    cells = []
    for r, n in enumerate(rank_counts(unit.models_left, files)):
        offset = (files - n) / 2 * cw
        x0 = d / 2 - (r + 1) * cd
        cells += [QRectF(x0, -w / 2 + offset + f * cw, cd, cw) for f in range(n)]
    return cells


class ModelItem(Named, QGraphicsRectItem):
    """A fighter's base or a unit's boundary, drawn to scale and rotated by its facing.

    Its bounds are the rectangle of a ``QGraphicsRectItem`` (no pen): Qt asks every
    item's bounds several times a repaint, and a bound answered in C++ costs no call into
    Python (thousands of models: milliseconds a frame). On the scene it hangs on the
    scene's ``ModelsLayer`` (``use_layer``), which draws it with the others from a
    picture its ``paint`` made; off a layer it paints itself."""

    label_group = "model"

    def __init__(self, entity_id: str, label_mode: str = "name",
                 on_layout: Callable[[bool], None] | None = None) -> None:
        super().__init__()
        self.entity_id = entity_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setZValue(Z_MODEL)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.layer: ModelsLayer | None = None  # draws it (the scene's), see ``use_layer``
        self.shown = True  # visible (kept here: the layer reads it at every paint)
        self.area = (0.0, 0.0, -1.0, -1.0)  # where it is drawn: left, top, right, bottom
        self.at = QPointF()  # its position (scene)
        self.sprite_key: object = None  # what it looks like (``ModelsLayer``)
        self._model: Model | None = None
        self._color = QColor("#808080")
        self._length = self._width = INCH
        self.setPen(Qt.PenStyle.NoPen)
        self._down = False
        self._health: Health | None = None
        self._cells: list[QRectF] = []
        self._token = QRectF()  # base and bar around the item's origin (token_rect)
        self._bar: QRectF | None = None  # around the item's origin
        self.label_mode = label_mode  # the scene's label layer changes it
        # told when the label's text or the token's place changed (the label layer)
        self.on_layout = on_layout

    # -- name and bar ----------------------------------------------------------------------
    def bar_rect(self) -> QRectF | None:
        """The wounds bar (scene units), None without wounds."""
        return self._bar.translated(self.pos()) if self._bar is not None else None

    def label_text(self) -> str:
        """The label in the current mode: the name (a unit's with its models left), the
        id, or nothing."""
        m = self._model
        mode = self.label_mode
        if m is None or mode == "none":
            return ""
        if mode == "id":
            return m.id
        if isinstance(m, Unit):
            return f"{m.name} ({m.models_left})"
        return m.name

    def label_spec(self) -> tuple[str, bool, QColor | None]:
        return self.label_text(), self._down, self._color

    def set_label_mode(self, mode: str) -> None:
        """Label with the name, the id or nothing (``LABEL_MODES``)."""
        self.label_mode = mode
        self.refresh_label()

    def refresh_label(self) -> None:
        if self.names is not None and self.names.label(self) is not None:
            text, greyed, stripe = self.label_spec()
            self.names.set_label(self, text, greyed, stripe)

    def token_rect(self) -> QRectF:
        """The base (its rotated extent) and its wounds bar, in scene units."""
        return self._token.translated(self.pos())

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
        if self.names is not None:
            self.names.touch(self)  # its token may have another place or shape
        if isinstance(model, Fighter):
            length, width = model.base.length_in * INCH, model.base.width_in * INCH
        else:
            length, width = model.depth_in * INCH, model.width_in * INCH
        pos = to_scene(model.x, model.y)
        before = self.area
        self.setPos(pos)
        self.at = pos
        if self.names is not None:
            self.names.move(self, pos)
        old = self._model
        if old is None or (length, width, _is_rect(model)) != (
            self._length, self._width, _is_rect(old)
        ):
            self.prepareGeometryChange()
            self._model = model
            self._length, self._width = length, width
            self._layout()
        down = self._down if down is None else down
        moved_only = old is not None and color == self._color and down == self._down and (
            replace(old, x=model.x, y=model.y) == model)
        self._model, self._color = model, QColor(color)
        if not moved_only:
            # read once per model value, not at every paint of thousands of bases
            self._down, self._health = down, health_of(model)
            self._cells = unit_cells(model) if isinstance(model, Unit) else []
            r = self.radius
            bw = max(self._width, 0.8 * INCH)
            bar = QRectF(-bw / 2, r + BAR_GAP, bw, BAR_HEIGHT)
            self._bar = bar if self._health is not None else None
            if self.names is not None:
                # a fighter flagged taken down has nothing left, whatever its wounds say
                left = self._health.fraction if self._health is not None and not \
                    self._down else 0.0
                self.names.set_bar(self, self._bar, left)
            self._token = self.shape().boundingRect()
            if self._bar is not None:
                self._token = self._token.united(bar)
            self.refresh_label()
            self._looks_changed()
        self._placed(before)
        if self.on_layout is not None:
            self.on_layout(moved_only)

    # -- drawn by the layer ------------------------------------------------------------
    def use_layer(self, layer: ModelsLayer | None) -> None:
        """Drawn by ``layer`` (the scene's) with the other models, or by itself (None)."""
        if self.layer is not None:
            self.layer.leave(self)
        self.layer = layer
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, layer is not None)
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache if layer is not None
                          else QGraphicsItem.CacheMode.DeviceCoordinateCache)
        if layer is not None:
            layer.join(self)

    def _looks_changed(self) -> None:
        """Its look changed (data, colour, selection): a new picture, redrawn."""
        m = self._model
        if m is not None:
            self.sprite_key = (
                isinstance(m, Unit) and not m.round_base, _is_rect(m), self._length,
                self._width, m.facing, self.fill_color.rgba(),
                tuple((c.x(), c.y(), c.width(), c.height()) for c in self._cells),
                self.isSelected())
        if self.layer is not None:
            self.layer.changed(self.area)
        else:
            self.update()

    def _placed(self, before: tuple[float, float, float, float]) -> None:
        """Where it is drawn, after a move or a new size: the layer redraws the place it
        left and the one it reached."""
        r = self.rect()
        x, y = self.at.x(), self.at.y()
        self.area = (x + r.left(), y + r.top(), x + r.right(), y + r.bottom())
        if self.layer is not None and self.area != before:
            self.layer.moved(self, before)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange,  # noqa: N802 - Qt
                   value: Any) -> Any:
        kind = QGraphicsItem.GraphicsItemChange
        if change == kind.ItemSelectedHasChanged:
            self._looks_changed()
        elif change == kind.ItemVisibleHasChanged:
            self.shown = bool(value)
            if self.layer is not None:
                self.layer.changed(self.area)
        return super().itemChange(change, value)

    def _layout(self) -> None:
        reach = self.radius + HANDLE_GAP + HANDLE_RADIUS + 2
        self.setRect(QRectF(-reach, -reach, 2 * reach, 2 * reach))

    @property
    def cells(self) -> list[QRectF]:
        """A unit's models drawn in its grid (``unit_cells``); none for a fighter."""
        return list(self._cells)

    @property
    def fill_color(self) -> QColor:
        """What the base is filled with: its side's colour, grey when taken down."""
        return QColor(TAKEN_DOWN if self._down else self._color)

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
    def _base_path(self) -> QPainterPath:
        path = QPainterPath()
        rect = QRectF(-self._length / 2, -self._width / 2, self._length, self._width)
        if self._is_rect():
            path.addRect(rect)
        else:
            path.addEllipse(rect)
        return path

    def shape(self) -> QPainterPath:
        return QTransform().rotate(-self.facing).map(self._base_path()) if self._model else (
            QPainterPath())

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self._model is None:
            return
        m = self._model
        fill = self.fill_color
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
        boundary = QRectF(-d / 2, -w / 2, d, w)
        light = QColor(fill)
        light.setAlpha(70)
        thin = QPen(OUTLINE, 0.8)
        thin.setCosmetic(True)
        painter.setPen(thin)
        painter.setBrush(light)
        painter.drawRect(boundary)
        painter.setBrush(fill)
        for cell in self._cells:
            painter.drawRect(cell)
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


def _is_rect(m: Model) -> bool:
    if isinstance(m, Unit):
        return not m.round_base
    return m.base.shape == "rect"
