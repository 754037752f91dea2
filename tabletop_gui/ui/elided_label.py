"""A one-line label that never asks for more width than it gets: text too long for it is
cut with "…" and the whole text is in its tooltip (panels need no horizontal scrollbar)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget


class ElidedLabel(QWidget):
    """One line of plain text, elided on the right to the width it is given."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._tip = ""  # the tooltip given when the text fits (or "")
        self._color: QColor | None = None
        self._background: QColor | None = None
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.set_text(text)

    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.setAccessibleName(text)
            self.updateGeometry()
            self.update()

    def set_look(self, color: str | None = None, bold: bool = False,
                 background: str | None = None) -> None:
        """The text's colour (None: the palette's), weight and background (None: none)."""
        self._color = QColor(color) if color else None
        self._background = QColor(background) if background else None
        font = self.font()
        if font.bold() != bold:
            font.setBold(bold)
            self.setFont(font)
        self.update()

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt override
        self._tip = tip
        super().setToolTip(tip)

    def elided(self) -> str:
        """The text as shown at the current width."""
        return self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight,
                                             max(0, self.width()))

    def is_elided(self) -> bool:
        return self.elided() != self._text

    def sizeHint(self) -> QSize:  # noqa: N802
        fm = self.fontMetrics()
        return QSize(fm.horizontalAdvance(self._text) + 2, fm.height() + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(0, self.fontMetrics().height() + 2)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        if self._background is not None and self._text:
            painter.fillRect(self.rect(), self._background)
        painter.setPen(self._color or self.palette().windowText().color())
        painter.setFont(self.font())
        shown = self.elided()
        painter.drawText(self.rect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         shown)
        painter.end()
        full = self._text if shown != self._text else ""
        tip = "\n".join(t for t in (full, self._tip) if t)
        if super().toolTip() != tip:
            super().setToolTip(tip)
