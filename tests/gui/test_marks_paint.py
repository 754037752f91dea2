"""Issue 17: the marks layer keeps each mark's picture and place per zoom (a thousand
marks repainted look up no picture and add no points). What it paints must be what
blitting every shown mark's picture where it goes paints, pixel for pixel: at several
zooms, back to an earlier one, and after marks were hidden, removed and added."""

from __future__ import annotations

import random
from collections.abc import Callable

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


class _Marks:
    """Random marks on a layer of their own scene (``place()``: where the next goes, and
    the sizes they are drawn in), shown, hidden, removed and added (``shuffle``)."""

    def __init__(self, rng: random.Random, place: Callable[[], QPointF],
                 sizes: tuple[float, ...]) -> None:
        self.rng, self.place, self.sizes = rng, place, sizes
        self.scene = QGraphicsScene()
        self.layer = mark_sprites.MarksLayer()
        self.scene.addItem(self.layer)
        self.marks: list[TargetMarker] = []

    def add(self, n: int) -> None:
        for _ in range(n):
            valid = self.rng.random() < 0.5
            self.marks.append(TargetMarker(
                TargetStatus(f"t{len(self.marks)}", valid, (), None, None),
                _shape(valid, self.rng.choice(self.sizes)), self.place(), layer=self.layer))

    def shuffle(self, added: int) -> None:
        for m in self.rng.sample(self.marks, 10):
            m.set_shown(not m.shown)
        for m in self.rng.sample(self.marks, 5):
            self.marks.remove(m)
            self.scene.removeItem(m)
        self.add(added)


def test_marks_painted_from_kept_places_equal_each_mark_blitted(qtbot) -> None:  # noqa: ANN001
    rng = random.Random(5)
    made = _Marks(rng, lambda: QPointF(rng.uniform(10, 390), rng.uniform(10, 290)),
                  (6.0, 9.5))
    made.scene.setSceneRect(AREA)
    layer, marks = made.layer, made.marks
    made.add(60)
    for zoom in (1.0, 2.5, 1.0, 1.7):
        assert _layer_paint(layer, zoom) == _each_mark(marks, zoom)
        made.shuffle(8)
        assert _layer_paint(layer, zoom) == _each_mark(marks, zoom)


def test_a_paint_of_a_small_area_looks_only_at_the_marks_near_it(qtbot) -> None:  # noqa: ANN001
    """A paint of a small area (a move's) finds the marks near it by the cells their
    areas meet (``MarksLayer.near``), not by a walk over every mark (issue 17: a
    thousand marks looked at for one moved mark); it paints exactly what looking at
    every mark paints, marks shown, hidden, removed and added in between, overlapping
    ones in the order they came."""
    rng = random.Random(11)

    def place() -> QPointF:  # a crowd of overlapping marks (their order shows), and others
        if rng.random() < 0.3:
            return QPointF(rng.uniform(300, 360), rng.uniform(200, 260))
        return QPointF(rng.uniform(-900, 2900), rng.uniform(-900, 1900))

    made = _Marks(rng, place, (6.0, 30.0))
    layer, marks = made.layer, made.marks
    made.add(400)
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
        made.shuffle(5)
    layer.near = near  # type: ignore[method-assign]
    away = looked[0::2]  # the areas away from the crowd: the few marks near each
    assert max(away) < len(marks) // 10
    assert min(looked[1::2]) > 50  # the crowd's: overlapping marks, drawn in their order
