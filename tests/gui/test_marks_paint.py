"""Issue 17: the marks layer keeps each mark's picture and place per zoom (a thousand
marks repainted look up no picture and add no points). What it paints must be what
blitting every shown mark's picture where it goes paints, pixel for pixel: at several
zooms, back to an earlier one, and after marks were hidden, removed and added."""

from __future__ import annotations

import random

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsScene, QStyleOptionGraphicsItem

from tabletop_gui.model.target_scan import TargetStatus
from tabletop_gui.ui import mark_sprites
from tabletop_gui.ui.canvas_overlays import TargetMarker

AREA = QRectF(0, 0, 400, 300)


def _shape(valid: bool, size: float) -> tuple[object, QPainterPath]:
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), size, size)
    path.moveTo(-size, 0)
    path.lineTo(size, size / 2)
    return (("ring", valid, size), path)


def _image(zoom: float, paint) -> QImage:  # noqa: ANN001
    image = QImage(int(AREA.width() * zoom), int(AREA.height() * zoom),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.scale(zoom, zoom)
    paint(painter)
    painter.end()
    return image


def _layer_paint(layer: mark_sprites.MarksLayer, zoom: float) -> QImage:
    option = QStyleOptionGraphicsItem()
    option.exposedRect = AREA
    return _image(zoom, lambda p: layer.paint(p, option, None))


def _each_mark(marks: list[TargetMarker], zoom: float) -> QImage:
    """The obvious way: every shown mark's picture, in the order they came."""
    def paint(painter: QPainter) -> None:
        for m in marks:
            if m.shown:
                pixmap, corner = mark_sprites.sprite(m.sprite_key, m.mark_path, m.pen(), zoom)
                painter.drawPixmap(m.at + corner, pixmap)
    return _image(zoom, paint)


def test_marks_painted_from_kept_places_equal_each_mark_blitted(qtbot) -> None:  # noqa: ANN001
    rng = random.Random(5)
    scene = QGraphicsScene()
    scene.setSceneRect(AREA)
    layer = mark_sprites.MarksLayer()
    scene.addItem(layer)
    marks: list[TargetMarker] = []

    def add(n: int) -> None:
        for _ in range(n):
            valid = rng.random() < 0.5
            marks.append(TargetMarker(
                TargetStatus(f"t{len(marks)}", valid, (), None, None),
                _shape(valid, rng.choice([6.0, 9.5])),
                QPointF(rng.uniform(10, 390), rng.uniform(10, 290)), layer=layer))

    add(60)
    for zoom in (1.0, 2.5, 1.0, 1.7):
        assert _layer_paint(layer, zoom) == _each_mark(marks, zoom)
        for m in rng.sample(marks, 10):
            m.set_shown(not m.shown)
        for m in rng.sample(marks, 5):
            marks.remove(m)
            scene.removeItem(m)
        add(8)
        assert _layer_paint(layer, zoom) == _each_mark(marks, zoom)


def test_a_paint_of_a_small_area_looks_only_at_the_marks_near_it(qtbot) -> None:  # noqa: ANN001
    """A paint of a small area (a move's) finds the marks near it by the cells their
    areas meet (``MarksLayer.near``), not by a walk over every mark (issue 17: a
    thousand marks looked at for one moved mark); it paints exactly what looking at
    every mark paints, marks shown, hidden, removed and added in between, overlapping
    ones in the order they came."""
    rng = random.Random(11)
    scene = QGraphicsScene()
    layer = mark_sprites.MarksLayer()
    scene.addItem(layer)
    marks: list[TargetMarker] = []

    def add(n: int) -> None:
        for _ in range(n):
            valid = rng.random() < 0.5
            crowd = rng.random() < 0.3  # overlapping marks: their order shows
            at = QPointF(rng.uniform(300, 360), rng.uniform(200, 260)) if crowd \
                else QPointF(rng.uniform(-900, 2900), rng.uniform(-900, 1900))
            marks.append(TargetMarker(TargetStatus(f"t{len(marks)}", valid, (), None, None),
                                      _shape(valid, rng.choice([6.0, 30.0])), at,
                                      layer=layer))

    add(400)
    looked: list[int] = []
    near = layer.near

    def spy(*area: float) -> list[tuple[int, object]]:
        found = near(*area)
        looked.append(len(found))
        return found

    for step in range(16):
        zoom = rng.choice((0.5, 1.0, 2.5))
        x, y = (rng.uniform(280, 360), rng.uniform(180, 260)) if step % 2 \
            else (rng.uniform(-900, 2900), rng.uniform(-900, 1900))
        exposed = QRectF(x, y, rng.uniform(5, 150), rng.uniform(5, 150))

        def paint(painter: QPainter, exposed: QRectF = exposed) -> None:
            painter.translate(-exposed.left(), -exposed.top())
            option = QStyleOptionGraphicsItem()
            option.exposedRect = exposed
            layer.paint(painter, option, None)

        layer.near = spy  # type: ignore[method-assign]
        found = _image(zoom, paint)
        layer.near = lambda *a: list(layer._marks.items())  # type: ignore[method-assign]
        every = _image(zoom, paint)
        assert found == every
        for m in rng.sample(marks, 10):
            m.set_shown(not m.shown)
        for m in rng.sample(marks, 5):
            marks.remove(m)
            scene.removeItem(m)
        add(5)
    layer.near = near  # type: ignore[method-assign]
    away = looked[0::2]  # the areas away from the crowd: the few marks near each
    assert max(away) < len(marks) // 10
    assert min(looked[1::2]) > 50  # the crowd's: overlapping marks, drawn in their order
