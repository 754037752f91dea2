"""Help ▸ Keyboard shortcuts: every key of the window in aligned columns (key, what it
does, where): the shortcut of every action, the canvas keys and mouse gestures, the attack
keys."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

# the canvas's own keys and gestures (``BattlefieldView`` and its tools)
CANVAS_KEYS: tuple[tuple[str, str], ...] = (
    ("Arrows", "nudge the selection 0.1\u2033 (Shift: 1\u2033)"),
    ("[ ]", "rotate the selection 15\u00b0 (Shift: 1\u00b0)"),
    ("Esc", "cancel the tool (in the table view: back to the normal layout)"),
    ("Enter", "close the polygon being drawn"),
    ("Wheel", "zoom around the cursor"),
    ("Middle drag, Space+drag", "pan"),
)


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("\u2026.")


def menu_titles(window: QMainWindow) -> dict[QAction, str]:
    """The menu each action of the menu bar sits in ("File", "View", …)."""
    out: dict[QAction, str] = {}
    for top in window.menuBar().actions():
        menu = top.menu()
        if menu is not None:
            for a in menu.actions():
                out.setdefault(a, _plain(top.text()))
    return out


def action_rows(actions: Iterable[QAction], where_of: dict[QAction, str] | None = None,
                ) -> list[tuple[str, str, str]]:
    """(key, what, where) of every action with a shortcut, each key once, in menu order."""
    where_of = where_of or {}
    rows: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for a in actions:
        for seq in a.shortcuts():
            key = seq.toString(QKeySequence.SequenceFormat.NativeText)
            if not key or key in seen:
                continue
            seen.add(key)
            where = where_of.get(a, "Window")
            rows.append((key, _plain(a.text()), where))
    return rows


def window_actions(window: QMainWindow) -> list[QAction]:
    """The window's actions: those of its menus (in order), its toolbars, and any other
    action it owns."""
    out: list[QAction] = []

    def add(action: QAction) -> None:
        if action not in out:
            out.append(action)
        menu = action.menu()
        if menu is not None:
            for sub in menu.actions():
                add(sub)

    for action in window.menuBar().actions():
        add(action)
    for action in window.findChildren(QAction):
        add(action)
    return out


def shortcut_rows(window: QMainWindow,
                  attack_keys: Iterable[tuple[str, str]] = ()) -> list[tuple[str, str, str]]:
    rows = action_rows(window_actions(window), menu_titles(window))
    rows += [(key, what, "Canvas") for key, what in CANVAS_KEYS]
    rows += [(key, what, "Attack") for key, what in attack_keys]
    return rows


class ShortcutsDialog(QDialog):
    """The rows of ``shortcut_rows`` in a three-column table."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.rows = rows
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Key", "Does", "Where"])
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(620, 560)

    def keys(self) -> list[str]:
        return [self.table.item(r, 0).text() for r in range(self.table.rowCount())]
