"""Target marks drawn as shared pictures: one rendering per mark shape and zoom.

Every enemy of the attacker gets a mark (a ring around its base and a glyph). Drawn item
by item into a device cache each, a thousand new marks took 0.4 s to paint the first
time (a cache per item is a picture per item). The marks of one base shape, facing and
validity are the same picture moved: it is rendered once per zoom (``sprite``), and each
mark blits it where it goes (``draw``). Where the painter is not a plain zoom of the
screen (an export, a rotated painter), the mark is drawn as lines instead.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPixmap, QTransform

SPRITES = 64  # pictures kept (mark shapes x zooms)
HALO_PX = 3.0  # the white halo is this much wider than the mark's pen
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


def draw(painter: QPainter, key: object, path: QPainterPath, at: QPointF, pen: QPen) -> bool:
    """Blit the mark ``path`` (around the origin) moved to ``at`` (scene); False when the
    painter is not a plain, uniform zoom of the screen (then draw the lines)."""
    t = painter.worldTransform()
    scale = t.m11()
    if t.type().value > QTransform.TransformationType.TxScale.value or scale <= 0 \
            or not math.isclose(scale, t.m22(), rel_tol=1e-9):
        return False
    pixmap, corner = sprite(key, path, pen, scale)
    painter.drawPixmap(at + corner, pixmap)
    return True
