"""The toolbar's icons: the project's own SVGs in ``resources/icons``, drawn with
``currentColor`` and tinted here to the palette's text colour, so that they read on light
and dark themes alike (``refresh`` again when the palette changes)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer


def _icons_folder() -> Path:
    """``tabletop_gui/resources/icons`` in an installed wheel, else the checkout's
    ``resources/icons`` (as ``scenario.resources`` finds the other shipped files, without
    importing the scenario layer before the first paint)."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package / "resources" / "icons", package.parent / "resources" / "icons"):
        if folder.is_dir():
            return folder
    return package.parent / "resources" / "icons"


ICONS_FOLDER = _icons_folder()
SIZES = (24, 48)  # the toolbar's size, and twice it for high-DPI screens (Qt scales)


def icon_path(name: str) -> Path:
    return ICONS_FOLDER / f"{name}.svg"


@cache
def _svg(name: str) -> str:
    return icon_path(name).read_text(encoding="utf-8")


def icon(name: str, color: QColor | str = "#202020") -> QIcon:
    """The icon ``name`` (a file ``resources/icons/<name>.svg``) in ``color``; a missing
    file raises ``FileNotFoundError`` naming it."""
    colour = QColor(color).name()
    data = QByteArray(_svg(name).replace("currentColor", colour).encode("utf-8"))
    renderer = QSvgRenderer(data)
    if not renderer.isValid():
        raise ValueError(f"{icon_path(name)}: not a valid SVG picture")
    out = QIcon()
    for size in SIZES:
        image = QImage(QSize(size, size), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        out.addPixmap(QPixmap.fromImage(image))
    return out
