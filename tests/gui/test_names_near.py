"""Issue 17: a paint of the names layer (bars and labels) over a small area looks only
at the owners anchored near it (``labels._Near``), not at every one of thousands. What
it draws must be exactly what a paint looking at every owner draws: random owners,
moved, forgotten, re-labelled and re-placed, bars and labels reaching far from their
anchors, painted through random small areas at several zooms."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from tabletop_gui.ui.canvas.labels import NamesLayer


def _layer(rnd: random.Random, n: int) -> tuple[NamesLayer, list[object]]:
    layer = NamesLayer()
    owners = [object() for _ in range(n)]
    for k, owner in enumerate(owners):
        if k % 3:
            layer.move(owner, QPointF(rnd.uniform(-100, 2100), rnd.uniform(-2100, 100)))
        else:  # a crowd whose labels and bars overlap: the order they are drawn in shows
            layer.move(owner, QPointF(rnd.uniform(900, 1000), rnd.uniform(-1000, -900)))
        if rnd.random() < 0.8:
            w = rnd.uniform(20, 120)
            layer.set_bar(owner, QRectF(-w / 2, rnd.uniform(10, 60), w, 4), rnd.random())
        layer.set_label(owner, f"Fighter {k}", rnd.random() < 0.2,
                        QColor("#c0392b") if rnd.random() < 0.5 else None)
        if rnd.random() < 0.9:  # far from its anchor sometimes (a big unit's token)
            reach = 400 if rnd.random() < 0.05 else 40
            layer.place(owner, QPointF(rnd.uniform(-reach, reach), rnd.uniform(-reach, reach)))
        if rnd.random() < 0.1:
            layer.set_shown(owner, False)
    for owner in rnd.sample(owners, n // 5):  # a drag's steps, some far
        layer.move(owner, QPointF(rnd.uniform(-100, 2100), rnd.uniform(-2100, 100)))
    for owner in rnd.sample(owners, n // 20):
        layer.forget(owner)
    for owner in rnd.sample(owners, n // 20):  # back, after the others in the order
        layer.forget(owner)
        layer.move(owner, QPointF(rnd.uniform(0, 2000), rnd.uniform(-2000, 0)))
        layer.set_label(owner, "Back again", False, None)
        layer.place(owner, QPointF(-10, 12))
    return layer, owners


def _paint(layer: NamesLayer, area: QRectF, world: QTransform) -> QImage:
    image = QImage(640, 640, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setWorldTransform(world)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = area
    layer.paint(painter, option)
    painter.end()
    return image


@pytest.mark.parametrize("seed", range(4))
def test_a_paint_of_a_small_area_draws_what_a_paint_of_every_owner_draws(qapp, seed):
    rnd = random.Random(seed)
    layer, owners = _layer(rnd, 600)
    looked = []
    around = layer._near.around

    def spy(*args: float) -> list[list[object]] | None:
        found = around(*args)
        looked.append(found)
        return found

    for _ in range(12):
        zoom = rnd.choice((0.25, 0.3, 1.0, 2.5))
        x, y = (rnd.uniform(-100, 2100), rnd.uniform(-2100, 100)) if rnd.random() < 0.5 \
            else (rnd.uniform(850, 1000), rnd.uniform(-1050, -900))
        area = QRectF(x, y, rnd.uniform(5, 200), rnd.uniform(5, 200))
        world = QTransform.fromTranslate(-x * zoom + 50, -y * zoom + 50).scale(zoom, zoom)
        layer._near.around = spy  # type: ignore[method-assign]
        near = _paint(layer, area, world)
        layer._near.around = lambda *a: None  # type: ignore[method-assign]
        every = _paint(layer, area, world)
        assert near == every
    assert any(found is not None and len(found) < len(owners) // 2 for found in looked)


def test_a_rotated_or_vector_paint_looks_at_every_owner(qapp):
    layer, _ = _layer(random.Random(7), 50)
    calls = []
    layer._near.around = lambda *a: calls.append(a)  # type: ignore[method-assign]
    _paint(layer, QRectF(0, -500, 100, 100), QTransform().rotate(30))
    layer.set_vector(True)
    _paint(layer, QRectF(0, -500, 100, 100), QTransform())
    assert calls == []
