"""Target marks drawn as shared pictures: one rendering per mark shape and zoom.

Every enemy of the attacker gets a mark (a ring around its base and a glyph). Drawn item
by item into a device cache each, a thousand new marks took 0.4 s to paint the first
time (a cache per item is a picture per item). The marks of one base shape, facing and
validity are the same picture moved: it is rendered once per zoom (``sprite``), and each
mark blits it where it goes. Where the painter is not a plain zoom of a raster picture
(an SVG or PDF export, a rotated painter), the mark is drawn as lines instead.

A thousand mark items painted one by one cost Qt a Python call each at every repaint
(28 µs a mark: 11 ms a frame for 400 enemies). So the marks of an overlay hang on one
``MarksLayer``: each mark item draws nothing itself (``ItemHasNoContents``: Qt skips it
when painting, and still finds it under the pointer for its tooltip), and the layer
blits every shown mark in the repainted area in one paint call.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPaintEngine,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

SPRITES = 64  # pictures kept (mark shapes x zooms)
Z_MARKS = 1.0  # above the other overlays of the layer the marks hang on (zones, lines)
DIRTY_RECTS = 64  # more marks changed than this before a paint: one rectangle around all
HALO_PX = 3.0  # the white halo is this much wider than the mark's pen
NEAR_CELL = 160.0  # scene units (4"): the cells a paint finds the marks near it by
_cache: OrderedDict[tuple[object, ...], tuple[QPixmap, QPointF]] = OrderedDict()


def halo_pen(pen: QPen) -> QPen:
    """The white halo under a mark: it keeps it readable on bases of any colour."""
    halo = QPen(pen)
    halo.setColor(QColor("white"))
    halo.setWidthF(pen.widthF() + HALO_PX)
    halo.setStyle(Qt.PenStyle.SolidLine)
    return halo


def draw_lines(painter: QPainter, path: QPainterPath, pen: QPen) -> None:
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for p in (halo_pen(pen), pen):
        painter.setPen(p)
        painter.drawPath(path)


def sprite(key: object, path: QPainterPath, pen: QPen, scale: float
           ) -> tuple[QPixmap, QPointF]:
    """``path`` (around the origin, scene units) stroked with ``pen`` and its halo at
    ``scale`` device pixels per scene unit, and the picture's corner in scene units
    relative to the origin (the picture's pixel ratio is ``scale``: painted under that
    zoom, one picture pixel is one device pixel)."""
    cache_key = (key, round(scale, 9))
    found = _cache.get(cache_key)
    if found is not None:
        _cache.move_to_end(cache_key)
        return found
    device = QTransform.fromScale(scale, scale).map(path)
    margin = pen.widthF() + HALO_PX + 2.0
    box = device.boundingRect().adjusted(-margin, -margin, margin, margin)
    left, top = math.floor(box.left()), math.floor(box.top())
    pixmap = QPixmap(max(1, math.ceil(box.right()) - left), max(1, math.ceil(box.bottom()) - top))
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.translate(-left, -top)
    draw_lines(p, device, pen)
    p.end()
    pixmap.setDevicePixelRatio(scale)
    found = (pixmap, QPointF(left / scale, top / scale))
    _cache[cache_key] = found
    while len(_cache) > SPRITES:
        _cache.popitem(last=False)
    return found


def plain_zoom(painter: QPainter) -> float | None:
    """The painter's zoom (device pixels per scene unit) when it is a plain, uniform zoom
    of the screen (pictures can be blitted), else None."""
    t = painter.worldTransform()
    scale = t.m11()
    if t.type().value > QTransform.TransformationType.TxScale.value or scale <= 0 \
            or not math.isclose(scale, t.m22(), rel_tol=1e-9):
        return None
    return scale


def painted_area(painter: QPainter, option: QStyleOptionGraphicsItem
                 ) -> tuple[tuple[float, float, float, float], float | None]:
    """What a layer's paint draws: the exposed area (left, top, right, bottom, scene) and
    the zoom its pictures are blitted at: into the screen, a cache or an image; None into
    a vector file (SVG, PDF) or through a rotated painter, where it draws lines."""
    exposed = option.exposedRect  # type: ignore[attr-defined]
    area = (exposed.left(), exposed.top(), exposed.right(), exposed.bottom())
    raster = painter.paintEngine().type() == QPaintEngine.Type.Raster
    return area, plain_zoom(painter) if raster else None


def _cells_of(area: tuple[float, float, float, float]) -> list[tuple[int, int]]:
    """The ``NEAR_CELL`` cells an area (left, top, right, bottom) meets, edges too."""
    left, top, right, bottom = area
    return [(i, j) for i in range(math.floor(left / NEAR_CELL), math.floor(right / NEAR_CELL) + 1)
            for j in range(math.floor(top / NEAR_CELL), math.floor(bottom / NEAR_CELL) + 1)]


class Mark(Protocol):
    """What the layer reads of a mark hung on it (``canvas_overlays.TargetMarker``)."""

    shown: bool  # drawn (its own visibility, kept by the mark)
    area: tuple[float, float, float, float]  # left, top, right, bottom (scene), halo too
    sprite_key: object  # marks of one key are the same picture
    mark_path: QPainterPath  # around the origin
    at: QPointF  # where the origin goes (scene)

    def pen(self) -> QPen: ...
    def path(self) -> QPainterPath: ...  # where it is drawn (scene): an export's lines


class MarksLayer(QGraphicsItem):
    """Draws the marks hung on it (its children, which draw nothing themselves), through
    a device cache: a repaint of the view is one blit; a mark added, removed, shown or
    hidden redraws its area only (``changed``), and past ``DIRTY_RECTS`` of them before
    the next paint (a burst of new marks) the rectangle around them all."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(Z_MARKS)
        self._bounds = QRectF()
        self._marks: dict[int, Any] = {}  # id -> mark (a Mark), in the order added
        # the marks by the cells (``NEAR_CELL``) their areas meet, each with its place in
        # the order added (``_rank``): a paint of a small area (a move's) looks at the
        # marks near it, not at a thousand (``near``); a mark's area never changes
        self._cells: dict[tuple[int, int], dict[int, Any]] = {}
        self._rank: dict[int, int] = {}
        self._added = 0
        # id -> (zoom, where its picture goes, the picture): a repaint of a thousand
        # marks looks up no picture by its key and adds no points (``paint``)
        self._placed: dict[int, tuple[float, QPointF, QPixmap]] = {}
        self._dirty = 0  # areas to redraw asked for since the last paint
        self._area = QRectF()  # the union of those areas
        # while held: the areas to redraw once released (left, top, right, bottom)
        self._held: list[tuple[float, float, float, float]] | None = None

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._bounds

    @property
    def marks(self) -> list[Any]:
        return list(self._marks.values())

    def hold(self, held: bool) -> None:
        """While held, the marks that come, go, show or hide are repainted once, when it
        is released (a thousand marks drawn over several event-loop turns: one repaint of
        the view, not one a turn)."""
        if held and self._held is None:
            self._held = []
        elif not held and self._held is not None:
            areas, self._held = self._held, None
            if len(areas) > DIRTY_RECTS:  # as if they had not waited: past DIRTY_RECTS,
                # the rectangle around them all (made here: a thousand marks shown at
                # once cost no rectangle each)
                lefts, tops, rights, bottoms = zip(*areas, strict=True)
                areas = [(min(lefts), min(tops), max(rights), max(bottoms))]
            for area in areas:
                self._repaint(area)

    def changed(self, mark: Mark) -> None:
        """Repaint where ``mark`` is drawn (it came, went, showed or hid)."""
        if self._held is not None:
            self._held.append(mark.area)
        else:
            self._repaint(mark.area)

    def _repaint(self, area: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = area
        rect = QRectF(left, top, right - left, bottom - top)
        if not self._bounds.contains(rect):  # the table, at least: seldom grown
            scene = self.scene()
            table = scene.sceneRect() if scene is not None else QRectF()
            self.prepareGeometryChange()  # the cache is made again at the new size
            self._bounds = self._bounds.united(rect).united(table)
        self._update_area(rect)

    def _update_area(self, rect: QRectF) -> None:
        self._area = rect if self._dirty == 0 else self._area.united(rect)
        # past DIRTY_RECTS, the union of the areas (Qt would clip the cache's redraw to
        # thousands of rectangles): a burst of new marks near each other redraws that
        # part of the layer, not all of it
        self.update(rect if self._dirty < DIRTY_RECTS else self._area)
        self._dirty += 1

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange,  # noqa: N802 - Qt
                   value: Any) -> Any:
        kind = QGraphicsItem.GraphicsItemChange
        if change == kind.ItemChildAddedChange and hasattr(value, "sprite_key"):
            key = id(value)
            self._marks[key] = value
            self._rank[key] = self._added
            self._added += 1
            for cell in _cells_of(value.area):
                self._cells.setdefault(cell, {})[key] = value
            self.changed(value)
        elif change == kind.ItemChildRemovedChange and id(value) in self._marks:
            key = id(value)
            self._placed.pop(key, None)
            del self._rank[key]
            mark = self._marks.pop(key)
            for cell in _cells_of(mark.area):
                near = self._cells[cell]
                del near[key]
                if not near:
                    del self._cells[cell]
            self.changed(mark)
        return super().itemChange(change, value)

    def near(self, x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, Any]]:
        """The marks (id, mark), in the order added, whose areas may meet the area from
        (x0, y0) to (x1, y1) (scene): those in the cells it spans, or every mark when it
        spans more cells than it pays to look at."""
        i0, j0 = math.floor(x0 / NEAR_CELL), math.floor(y0 / NEAR_CELL)
        i1, j1 = math.floor(x1 / NEAR_CELL), math.floor(y1 / NEAR_CELL)
        if (i1 - i0 + 1) * (j1 - j0 + 1) * 4 > len(self._marks):
            return list(self._marks.items())
        found: dict[int, Any] = {}
        cells = self._cells
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                if (i, j) in cells:
                    found.update(cells[i, j])
        rank = self._rank
        return sorted(found.items(), key=lambda km: rank[km[0]])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self._dirty = 0
        (x0, y0, x1, y1), scale = painted_area(painter, option)
        pictures: dict[object, tuple[QPixmap, QPointF]] = {}  # by sprite key, this paint
        placed = self._placed
        zoom = round(scale, 9) if scale is not None else 0.0
        for key, mark in self.near(x0, y0, x1, y1):
            left, top, right, bottom = mark.area
            if not mark.shown or right < x0 or left > x1 or bottom < y0 or top > y1:
                continue
            if scale is None:
                draw_lines(painter, mark.path(), mark.pen())
                continue
            at = placed.get(key)
            if at is None or at[0] != zoom:  # a mark's picture and place, once per zoom
                found = pictures.get(mark.sprite_key)
                if found is None:
                    found = pictures[mark.sprite_key] = sprite(
                        mark.sprite_key, mark.mark_path, mark.pen(), scale)
                at = placed[key] = (zoom, mark.at + found[1], found[0])
            painter.drawPixmap(at[1], at[2])
