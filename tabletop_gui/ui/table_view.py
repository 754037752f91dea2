"""The table view (F11): full screen for a TV or projector at the table. The battlefield
large, the attack card kept beside it (its dock stays, the other panels, the toolbar, the
menu and status bars step aside), big type and a high-contrast palette. F11 or Esc returns
to the normal layout exactly as it was (docks, window state, fonts, palette)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication

from tabletop_gui.ui.theme import high_contrast_palette

if TYPE_CHECKING:
    from tabletop_gui.ui.window_host import WindowHost

BIG_TYPE = 1.5  # the table view's font, times the normal one
KEPT_PANELS = ("Attack", "Odds")  # shown over the battlefield (the attack card)
CARD_SHARE = 0.33  # of the screen's width


@dataclass
class _Saved:
    state: QByteArray
    geometry: QRect  # the frame's place and size (restoreGeometry would clamp it)
    window_state: Qt.WindowState
    own_font: QFont | None  # the window's own font, None when it inherited one
    own_palette: QPalette | None
    bars: dict[str, bool]
    lent: list[QAction]  # actions added to the window so that their keys work without bars


class TableView(QObject):
    """Enters and leaves the table view of ``window``; ``action`` is its F11 switch."""

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        self._saved: _Saved | None = None
        self.action = QAction("&Table view", window, checkable=True)
        self.action.setShortcut(QKeySequence(Qt.Key.Key_F11))
        self.action.setToolTip("Table view (F11)\nFull screen for a TV or projector: the "
                               "battlefield large, the attack card, big type, high contrast; "
                               "F11 or Esc returns")
        self.action.setStatusTip("Full screen for a TV or projector (F11 or Esc returns)")
        self.action.toggled.connect(self._toggled)

    @property
    def active(self) -> bool:
        return self._saved is not None

    def _toggled(self, on: bool) -> None:
        if on and not self.active:
            self.enter()
        elif not on and self.active:
            self.leave()

    def _bars(self) -> dict[str, object]:
        w = self.window
        return {"menu": w.menuBar(), "status": w.statusBar(), "tools": w.toolbox.toolbar}

    def enter(self) -> None:
        from tabletop_gui.ui.shortcuts_dialog import window_actions

        w = self.window
        own = set(w.actions())
        self._saved = _Saved(
            state=w.saveState(), geometry=w.geometry(), window_state=w.windowState(),
            own_font=QFont(w.font()) if w.testAttribute(Qt.WidgetAttribute.WA_SetFont)
            else None,
            own_palette=QPalette(w.palette())
            if w.testAttribute(Qt.WidgetAttribute.WA_SetPalette) else None,
            bars={name: bar.isVisible() for name, bar in self._bars().items()},  # type: ignore[attr-defined]
            lent=[a for a in window_actions(w)
                  if a not in own and not a.shortcut().isEmpty()],
        )
        w.addActions(self._saved.lent)  # the menu and tool bars hide: their keys stay
        for bar in self._bars().values():
            bar.hide()  # type: ignore[attr-defined]
        for title, dock in w.docks.items():
            if title not in KEPT_PANELS:
                dock.hide()
        font = QFont(w.font())
        size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        font.setPointSizeF(size * BIG_TYPE)
        w.setFont(font)
        w.setPalette(high_contrast_palette())
        card = w.docks.get("Attack")
        if card is not None:
            card.show()
            card.raise_()
        self.action.setChecked(True)
        w.showFullScreen()
        screen = w.screen()
        if screen is not None:  # without a window manager the request alone does nothing
            w.setGeometry(screen.geometry())
        if card is not None:
            width = screen.geometry().width() if screen is not None else w.width()
            w.resizeDocks([card], [int(width * CARD_SHARE)], Qt.Orientation.Horizontal)
        QApplication.instance().installEventFilter(self)  # type: ignore[union-attr]
        QTimer.singleShot(0, self._fit)  # once the layout has given the canvas its room

    def leave(self) -> None:
        saved, self._saved = self._saved, None
        if saved is None:
            return
        w = self.window
        QApplication.instance().removeEventFilter(self)  # type: ignore[union-attr]
        for action in saved.lent:
            w.removeAction(action)
        w.setFont(saved.own_font if saved.own_font is not None else QFont())
        w.setPalette(saved.own_palette if saved.own_palette is not None else QPalette())
        w.setWindowState(saved.window_state)
        if not saved.window_state & Qt.WindowState.WindowFullScreen:
            w.showNormal() if saved.window_state == Qt.WindowState.WindowNoState \
                else w.setWindowState(saved.window_state)
        for name, bar in self._bars().items():
            bar.setVisible(saved.bars[name])  # type: ignore[attr-defined]
        w.setGeometry(saved.geometry)
        w.restoreState(saved.state)
        self.action.setChecked(False)
        QTimer.singleShot(0, self._fit)

    def _fit(self) -> None:
        self.window.view.fit_to_window()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Esc leaves the table view (before the attack's Esc shortcut clears it)."""
        if event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) \
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape \
                and self.active:
            self.leave()
            event.accept()
            return True
        return False
