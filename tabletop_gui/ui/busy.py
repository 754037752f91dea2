"""Progress of long work in the status bar: what is being done, and how far it is.

Work that runs on the worker thread or in slices of the event loop (opening a file,
judging the targets of an attacker, drawing their marks, building a large battlefield)
reports here under a key; the latest task still running is shown with a progress bar
(a busy bar when its size is not known). Tasks that end quickly never show: the
indicator appears only when work has been running for ``SHOW_AFTER_MS``, and then
follows the reports at most every ``REDRAW_MS`` (a progress bar repaints at once).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

SHOW_AFTER_MS = 150
REDRAW_MS = 100


class BusyIndicator(QWidget):
    """A label and a progress bar for the tasks under way (hidden when there are none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        self._tasks: dict[str, tuple[str, int, int]] = {}
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(SHOW_AFTER_MS)
        self._later.timeout.connect(self._show)
        self._shown: tuple[str, int, int] | None = None
        self.setVisible(False)

    def report(self, key: str, text: str, done: int = 0, total: int = 0) -> None:
        """Task ``key`` is under way: ``text``, ``done`` of ``total`` (0: size unknown)."""
        self._tasks.pop(key, None)
        self._tasks[key] = (text, done, total)  # the latest reported is shown
        if not self._later.isActive():
            self._later.start(REDRAW_MS if self.isVisible() else SHOW_AFTER_MS)

    def finish(self, key: str) -> None:
        if self._tasks.pop(key, None) is not None:
            if self._tasks:
                if self.isVisible():
                    self._show()
            else:
                self._later.stop()
                self.setVisible(False)

    def _show(self) -> None:
        if not self._tasks:
            self.setVisible(False)
            return
        shown = next(reversed(self._tasks.values()))
        if shown != self._shown or not self.isVisible():
            self._shown = shown
            text, done, total = shown
            self.label.setText(f"{text} {done}/{total}" if total else f"{text}\u2026")
            self.bar.setRange(0, max(total, 0))
            if total:
                self.bar.setValue(min(done, total))
            self.setToolTip("\n".join(t for t, _, _ in self._tasks.values()))
            self.setVisible(True)
