"""A ruling as a picture to share: PNG, SVG, a one-page PDF or Markdown with a PNG beside it.

The picture is the window's own battlefield scene (``BattlefieldScene``) with the
ruling's evidence on its overlay layer (``RulingOverlay``), rendered offscreen and zoomed
to the two models with some context around them; below it a caption: the verdict, the
measured numbers, the checks and the tipping points. Without a display the command sets
``QT_QPA_PLATFORM=offscreen`` before Qt starts.

``RulingPicture.pixel_of(x, y)`` maps table inches to the picture's pixels (what the
tests use to find the measured segment in a PNG).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)
from PySide6.QtWidgets import QGraphicsItem

from tabletop_gui.model.document import Document
from tabletop_gui.platform_check import display_problem
from tabletop_gui.rules.ruling import Ruling
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.ui.application import ensure_application
from tabletop_gui.ui.canvas.coords import INCH, to_scene
from tabletop_gui.ui.canvas.scene import BattlefieldScene
from tabletop_gui.ui.overlay_shapes import model_polygon
from tabletop_gui.ui.ruling_overlay import RulingOverlay

CONTEXT_IN = 2.0  # inches shown around the two models and the lines between them
MAX_PICTURE_PX = (1000, 700)
PIXELS_PER_INCH = (24.0, 160.0)  # the zoom stays within these
CAPTION_MIN_WIDTH = 640
CAPTION_PAD = 12
CAPTION_FONT_PX = 14


def ensure_gui_application() -> object:
    """The QApplication, created offscreen when there is no display to draw on."""
    if display_problem(os.environ) is not None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return ensure_application()


class RulingPicture:
    """The scene of ``scenario`` with ``ruling`` drawn on it, framed on the pair."""

    def __init__(self, scenario: Scenario, ruling: Ruling) -> None:
        ensure_gui_application()
        self.ruling = ruling
        self.document = Document(scenario)
        self.scene = BattlefieldScene(self.document)
        self.overlay = RulingOverlay(self.scene.overlay_layer)
        self.overlay.show(ruling, self.document.snapshot)
        self.source = self._frame(scenario)
        w_in, h_in = self.source.width() / INCH, self.source.height() / INCH
        ppi = min(MAX_PICTURE_PX[0] / w_in, MAX_PICTURE_PX[1] / h_in)
        self.ppi = max(PIXELS_PER_INCH[0], min(PIXELS_PER_INCH[1], ppi))
        if w_in * self.ppi < CAPTION_MIN_WIDTH:  # a tall pair: more table on both sides,
            grow = (CAPTION_MIN_WIDTH / self.ppi - w_in) * INCH / 2  # not a white margin
            self.source.adjust(-grow, 0.0, grow, 0.0)
            w_in = self.source.width() / INCH
        self.size = QSize(round(w_in * self.ppi), round(h_in * self.ppi))

    def _frame(self, scenario: Scenario) -> QRectF:
        """The scene rectangle around both models and every sample line, with context."""
        xs: list[float] = []
        ys: list[float] = []
        for mid in (self.ruling.attacker, self.ruling.target):
            model = scenario.model(mid)
            if model is not None:
                x0, y0, x1, y1 = model_polygon(model).bounds
                xs += [x0, x1]
                ys += [y0, y1]
        for line in self.ruling.lines:
            xs += [line.start[0], line.end[0]]
            ys += [line.start[1], line.end[1]]
        for p in self.ruling.closest_points:
            xs.append(p[0])
            ys.append(p[1])
        c = CONTEXT_IN
        top_left = to_scene(min(xs) - c, max(ys) + c)
        bottom_right = to_scene(max(xs) + c, min(ys) - c)
        return QRectF(top_left, bottom_right)

    def pixel_of(self, x: float, y: float) -> tuple[float, float]:
        """Where the table point (x, y) inches lands in the picture (pixels)."""
        p = to_scene(x, y)
        scale = self.ppi / INCH
        return (p.x() - self.source.left()) * scale, (p.y() - self.source.top()) * scale

    # -- drawing --------------------------------------------------------------------
    def render(self, painter: QPainter, target: QRectF) -> None:
        """The framed scene into ``target`` (same aspect ratio as ``self.source``)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.fillRect(target, QColor("white"))
        cached = self.scene.model_items()
        for item in cached:  # drawn as vectors, not as the screen's cached pixmaps
            item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        self.scene.render(painter, target, self.source, Qt.AspectRatioMode.IgnoreAspectRatio)

    def caption(self) -> list[tuple[str, bool]]:
        """The caption's paragraphs: (text, bold)."""
        r = self.ruling
        out = [(r.verdict(), True)]
        out += [(line, False) for line in r.numbers()]
        out += [(f"{'ok' if c.ok else 'NO'}: {c.text}", False) for c in r.checks]
        out += [(f"{t.rule}: {t.text}", False) for t in r.tipping_points]
        return out

    def _caption_layout(self, width: float) -> tuple[list[tuple[str, QFont, QRectF]], float]:
        flags = int(Qt.TextFlag.TextWordWrap)
        placed = []
        y = float(CAPTION_PAD)
        for text, bold in self.caption():
            font = QFont()
            font.setPixelSize(CAPTION_FONT_PX)
            font.setBold(bold)
            box = QFontMetricsF(font).boundingRect(
                QRectF(CAPTION_PAD, y, width - 2 * CAPTION_PAD, 10_000), flags, text)
            placed.append((text, font, QRectF(CAPTION_PAD, y, width - 2 * CAPTION_PAD,
                                              box.height())))
            y += box.height() + 4
        return placed, y + CAPTION_PAD

    def _draw_caption(self, painter: QPainter, placed: list[tuple[str, QFont, QRectF]],
                      dy: float) -> None:
        painter.setPen(QColor("black"))
        for text, font, box in placed:
            painter.setFont(font)
            painter.drawText(box.translated(0, dy), int(Qt.TextFlag.TextWordWrap), text)

    def image(self, caption: bool = True) -> QImage:
        """The picture (and its caption below it) as an image."""
        width = max(self.size.width(), CAPTION_MIN_WIDTH if caption else 0)
        placed, height = self._caption_layout(width) if caption else ([], 0.0)
        image = QImage(width, self.size.height() + round(height), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        try:
            self.render(painter, QRectF(0, 0, self.size.width(), self.size.height()))
            self._draw_caption(painter, placed, self.size.height())
        finally:
            painter.end()
        return image

    # -- files ------------------------------------------------------------------------
    def write_png(self, path: Path, caption: bool = True) -> bool:
        return bool(self.image(caption).save(str(path), "PNG"))  # type: ignore[call-overload]

    def write_svg(self, path: Path) -> bool:
        from PySide6.QtSvg import QSvgGenerator

        width = max(self.size.width(), CAPTION_MIN_WIDTH)
        placed, height = self._caption_layout(width)
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        total = QSize(width, self.size.height() + round(height))
        gen.setSize(total)
        gen.setViewBox(QRectF(0, 0, total.width(), total.height()))
        gen.setTitle(self.ruling.verdict())
        painter = QPainter()
        if not painter.begin(gen):
            return False
        try:
            painter.fillRect(QRectF(0, 0, total.width(), total.height()), QColor("white"))
            self.render(painter, QRectF(0, 0, self.size.width(), self.size.height()))
            self._draw_caption(painter, placed, self.size.height())
        finally:
            painter.end()
        return path.exists()

    def write_pdf(self, path: Path) -> bool:
        """One A4 page: the picture at the top (as vectors), the caption below it."""
        writer = QPdfWriter(str(path))
        writer.setTitle(self.ruling.verdict())
        writer.setCreator("tabletop-gui ruling")
        writer.setResolution(96)
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                         QPageLayout.Orientation.Portrait,
                                         QMarginsF(12, 12, 12, 12)))
        painter = QPainter()
        if not painter.begin(writer):
            return False
        try:
            page = QRectF(painter.viewport())
            placed, height = self._caption_layout(page.width())
            room_h = max(page.height() - height, page.height() * 0.3)
            scale = min(page.width() / self.size.width(), room_h / self.size.height())
            target = QRectF(QPointF(0, 0), QPointF(self.size.width() * scale,
                                                   self.size.height() * scale))
            self.render(painter, target)
            self._draw_caption(painter, placed, target.height())
        finally:
            painter.end()
        return path.exists()

    def write_markdown(self, path: Path) -> bool:
        """The ruling as text, with the picture written beside it as PNG and linked."""
        png = path.with_suffix(".png")
        if not self.write_png(png, caption=False):
            return False
        r = self.ruling
        weapon = f" with {r.weapon}" if r.weapon else ""
        lines = [f"# Ruling: {r.attacker} attacks {r.target}{weapon}", "",
                 f"**{r.verdict()}**", "", f"![the ruling on the battlefield]({png.name})", ""]
        lines += [f"- {line}" for line in r.numbers()]
        lines += ["", "## Checks", ""]
        for c in r.checks:
            margin = "" if c.margin is None else f" (margin {c.margin:.3f})"
            lines.append(f"- {'ok' if c.ok else '**NO**'}: {c.text}{margin}")
        lines += ["", "## Tipping points", ""]
        lines += [f"- {t.rule}: {t.text}" for t in r.tipping_points] or ["- none"]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return True

    def write(self, path: Path) -> bool:
        """By the extension: .png, .svg, .pdf or .md."""
        kind = path.suffix.lower()
        if kind == ".svg":
            return self.write_svg(path)
        if kind == ".pdf":
            return self.write_pdf(path)
        if kind == ".md":
            return self.write_markdown(path)
        return self.write_png(path)


def write_ruling(scenario: Scenario, ruling: Ruling, path: Path) -> bool:
    """Write the ruling's picture, PDF or Markdown to ``path`` (its extension decides)."""
    return RulingPicture(scenario, ruling).write(path)
