"""The Ruling panel: the verdict, the measured numbers, every check with its margin and the
tipping points in words, with buttons to export the ruling and copy its picture."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.rules.ruling import Ruling

HINT = ("Ruling mode (Y): click the attacker, then the target; or right-click a model "
        "while an attacker is selected.")
OK_COLOR, NO_COLOR = "#009E73", "#D55E00"


class RulingPanel(QWidget):
    export_requested = Signal()
    copy_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdict = QLabel(HINT)
        self.verdict.setWordWrap(True)
        self.body = QTextBrowser()
        self.body.setOpenLinks(False)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the ruling as a PNG or SVG picture, a one-page "
                                      "PDF or Markdown with the picture beside it")
        self.copy_button = QPushButton("Copy picture")
        self.copy_button.setToolTip("Copy the ruling's picture to the clipboard")
        self.export_button.clicked.connect(self.export_requested)
        self.copy_button.clicked.connect(self.copy_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(self.body, 1)
        layout.addLayout(buttons)
        self.ruling: Ruling | None = None
        self.show_message(HINT)

    def show_message(self, text: str) -> None:
        """No ruling: a hint or what went wrong."""
        self.ruling = None
        self.verdict.setText(text)
        self.verdict.setStyleSheet("")
        self.body.clear()
        self.export_button.setEnabled(False)
        self.copy_button.setEnabled(False)

    def show_ruling(self, ruling: Ruling) -> None:
        self.ruling = ruling
        self.verdict.setText(ruling.verdict())
        color = OK_COLOR if ruling.valid else NO_COLOR
        self.verdict.setStyleSheet(f"font-weight: bold; color: {color};")
        parts = ["<p>" + "<br>".join(escape(line) for line in ruling.numbers()) + "</p>",
                 "<p><b>Checks</b></p><ul>"]
        for c in ruling.checks:
            mark = (f'<span style="color:{OK_COLOR}">✓</span>' if c.ok
                    else f'<span style="color:{NO_COLOR}">✗</span>')
            margin = "" if c.margin is None else (
                f" <i>(margin {c.margin})</i>" if isinstance(c.margin, int)
                else f" <i>(margin {c.margin:.3f})</i>")
            parts.append(f"<li>{mark} {escape(c.text)}{margin}</li>")
        parts.append("</ul><p><b>Tipping points</b></p><ul>")
        parts += [f"<li><b>{escape(t.rule)}</b>: {escape(t.text)}</li>"
                  for t in ruling.tipping_points] or ["<li>none</li>"]
        parts.append("</ul>")
        self.body.setHtml("".join(parts))
        self.export_button.setEnabled(True)
        self.copy_button.setEnabled(True)

    def text(self) -> str:
        """What the panel shows, as plain text (tests read it)."""
        return self.verdict.text() + "\n" + self.body.toPlainText()
