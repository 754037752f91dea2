"""Every model's base drawn by one layer item, from shared pictures.

A repaint of the view drew each of the model items (bases) on its own: Qt walked to
every item, asked its bounds and blitted its own cache, about 6 µs a model (5 ms a
repaint of 800 models, twice a drag step). So the model items draw nothing themselves
(``ItemHasNoContents``: Qt passes them over when painting, and still finds them under
the pointer, selects them and asks their shape); they hang on one ``ModelsLayer`` at the
models' height, which draws every shown model of the repainted area in one paint call,
in the order they joined (the scene's order, as the items were stacked), into its own
device cache: a repaint of the view is one blit, and a model moved redraws only the
places it left and reached.

A model is drawn from a picture of its look (``ModelItem.sprite_key``: base, size,
facing, colour, cells, selection) rendered once per zoom by the item's own ``paint``;
models that look the same share it. Where the painter is not a plain zoom of a raster
picture (an SVG or PDF export, a rotated painter), each model is painted as vectors.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tabletop_gui.ui.canvas.coords import Z_MODEL
from tabletop_gui.ui.mark_sprites import painted_area

DIRTY_RECTS = 64  # more places changed than this before a paint: one rectangle around all
CELL = 160.0  # scene units (4"): the grid that finds the models in a repainted place
SPRITE_BYTES = 48 * 2**20  # pictures kept (least recently used dropped past this)


class Drawn(Protocol):
    """What the layer reads of a model item hanging on it (``ModelItem``)."""

    shown: bool  # drawn (its own visibility, kept by the item)
    area: tuple[float, float, float, float]  # left, top, right, bottom (scene)
    at: QPointF  # the item's position (scene)
    sprite_key: object  # items of one key look the same

    def rect(self) -> QRectF: ...  # what it paints, around its position
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None: ...


class ModelsLayer(QGraphicsItem):
    """Draws the model items that joined it (``join``), through a device cache."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_MODEL)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._bounds = QRectF()
        self._items: dict[int, Any] = {}  # id -> item (a Drawn), in the order joined
        self._order: dict[int, int] = {}  # id -> when it joined (the drawing order)
        self._joined = 0
        self._cells: dict[tuple[int, int], set[int]] = {}  # grid cell -> ids there
        self._spans: dict[int, tuple[int, int, int, int]] = {}  # id -> its cells
        self._dirty = 0  # places to redraw asked for since the last paint
        self._area = QRectF()  # the union of those places
        self._sprites: OrderedDict[tuple[object, float], tuple[QPixmap, QPointF]] = (
            OrderedDict())
        self._sprite_bytes = 0
        self.sprites_drawn = 0  # pictures rendered so far (tests)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._bounds

    def set_bounds(self, rect: QRectF) -> None:
        """At least ``rect`` (the table and its margin): the layer grows for a model
        outside it."""
        if not self._bounds.contains(rect):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(rect)

    @property
    def items(self) -> list[Any]:
        return list(self._items.values())

    def join(self, item: Drawn) -> None:
        key = id(item)
        self._items[key] = item
        self._order[key] = self._joined
        self._joined += 1
        self._index(key, item.area)
        self.changed(item.area)

    def leave(self, item: Drawn) -> None:
        key = id(item)
        if self._items.pop(key, None) is not None:
            self._order.pop(key, None)
            self._index(key, None)
            self.changed(item.area)

    def moved(self, item: Drawn, before: tuple[float, float, float, float]) -> None:
        """``item`` is drawn elsewhere now (``item.area``), no longer at ``before``."""
        if id(item) in self._items:
            self._index(id(item), item.area)
        self.changed(before)
        self.changed(item.area)

    @staticmethod
    def _span(area: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        left, top, right, bottom = area
        return (math.floor(left / CELL), math.floor(top / CELL), math.floor(right / CELL),
                math.floor(bottom / CELL))

    def _index(self, key: int, area: tuple[float, float, float, float] | None) -> None:
        """The grid knows ``key`` where ``area`` is (None: nowhere)."""
        span = self._span(area) if area is not None and area[2] >= area[0] else None
        old = self._spans.get(key)
        if span == old:
            return
        if old is not None:
            for cell in _cells(old):
                here = self._cells.get(cell)
                if here is not None:
                    here.discard(key)
                    if not here:
                        del self._cells[cell]
            del self._spans[key]
        if span is not None:
            self._spans[key] = span
            for cell in _cells(span):
                self._cells.setdefault(cell, set()).add(key)

    def _at(self, x0: float, y0: float, x1: float, y1: float) -> list[Any]:
        """The items that may be drawn in the rectangle, in the drawing order: those of
        its grid cells when it spans few, else all."""
        span = self._span((x0, y0, x1, y1))
        if (span[2] - span[0] + 1) * (span[3] - span[1] + 1) * 4 > len(self._items):
            return list(self._items.values())
        keys: set[int] = set()
        for cell in _cells(span):
            keys.update(self._cells.get(cell, ()))
        return [self._items[k] for k in sorted(keys, key=self._order.__getitem__)]

    def changed(self, area: tuple[float, float, float, float]) -> None:
        """Redraw ``area`` (left, top, right, bottom, scene): a model came, went, moved,
        showed, hid or looks otherwise. Past ``DIRTY_RECTS`` places before the next
        paint (a battlefield being built), the rectangle around them all: Qt would clip
        the cache's redraw to thousands of rectangles."""
        left, top, right, bottom = area
        if right < left:
            return
        rect = QRectF(left, top, right - left, bottom - top)
        if not self._bounds.contains(rect):
            self.set_bounds(rect)
        self._area = rect if self._dirty == 0 else self._area.united(rect)
        self.update(rect if self._dirty < DIRTY_RECTS else self._area)
        self._dirty += 1

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self._dirty = 0
        (x0, y0, x1, y1), scale = painted_area(painter, option)
        for item in self._at(x0, y0, x1, y1):
            left, top, right, bottom = item.area
            if not item.shown or right < x0 or left > x1 or bottom < y0 or top > y1:
                continue
            if scale is None:
                painter.save()
                painter.translate(item.at)
                item.paint(painter, option, widget)
                painter.restore()
                continue
            pixmap, corner = self._sprite(item, scale)
            painter.drawPixmap(item.at + corner, pixmap)

    def _sprite(self, item: Drawn, scale: float) -> tuple[QPixmap, QPointF]:
        """The item's look at ``scale`` device pixels per scene unit, and the picture's
        corner (scene units) from the item's position."""
        key = (item.sprite_key, round(scale, 9))
        found = self._sprites.get(key)
        if found is not None:
            self._sprites.move_to_end(key)
            return found
        r = item.rect()
        left, top = math.floor(r.left() * scale), math.floor(r.top() * scale)
        width = max(1, math.ceil(r.right() * scale) - left)
        height = max(1, math.ceil(r.bottom() * scale) - top)
        pixmap = QPixmap(width, height)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.translate(-left, -top)
        p.scale(scale, scale)
        item.paint(p, QStyleOptionGraphicsItem(), None)
        p.end()
        pixmap.setDevicePixelRatio(scale)
        found = (pixmap, QPointF(left / scale, top / scale))
        self._sprites[key] = found
        self._sprite_bytes += width * height * 4
        self.sprites_drawn += 1
        while self._sprite_bytes > SPRITE_BYTES and len(self._sprites) > 1:
            _, (old, _) = self._sprites.popitem(last=False)
            self._sprite_bytes -= old.width() * old.height() * 4
        return found


def _cells(span: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    i0, j0, i1, j1 = span
    return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]
