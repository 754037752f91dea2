"""Export picture: the battlefield (with its labelled edges) as PNG or SVG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem

from tabletop_gui.ui.canvas.scene import BattlefieldScene

PNG_PIXELS_PER_INCH = 40


def _render(scene: BattlefieldScene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    selected = scene.selectedItems()
    tools = scene.tool_layer.isVisible()
    scene.tool_layer.setVisible(False)
    for item in selected:  # selection marks are not part of the picture
        item.setSelected(False)
    cached = [(i, i.cacheMode()) for i in scene.items()
              if i.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    for item, _ in cached:  # drawn as vectors, not as the screen's cached pixmaps
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        with scene.labels.placed_at(min(target.width() / source.width(),
                                        target.height() / source.height())):
            scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)
    finally:
        for item, mode in cached:
            item.setCacheMode(mode)
        for item in selected:
            item.setSelected(True)
        scene.tool_layer.setVisible(tools)


def export_scene(scene: BattlefieldScene, path: Path) -> bool:
    """Write the picture; the format follows the extension (``.svg``, else PNG)."""
    source = scene.sceneRect()
    with scene.selection_kept():  # the picture leaves the document's selection alone
        if path.suffix.lower() == ".svg":
            from PySide6.QtSvg import QSvgGenerator

            gen = QSvgGenerator()
            gen.setFileName(str(path))
            size = QSize(round(source.width()), round(source.height()))
            gen.setSize(size)
            gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
            gen.setTitle(scene.document.scenario.name or "Battlefield")
            painter = QPainter()
            if not painter.begin(gen):
                return False
            _render(scene, painter, QRectF(0, 0, size.width(), size.height()), source)
            painter.end()
            return path.exists()
        scale = PNG_PIXELS_PER_INCH / 40.0
        image = QImage(round(source.width() * scale), round(source.height() * scale),
                       QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        _render(scene, painter, QRectF(image.rect()), source)
        painter.end()
        return image.save(str(path))
