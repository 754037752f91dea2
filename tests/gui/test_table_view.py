"""Issue 14, items 7 and 8, in the window as ``tabletop-gui`` builds it: icons and key
tooltips on every tool, the complete shortcuts dialog, A opening the library, light and
dark themes, and the table view (F11) with its way back (F11 or Esc)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QTableWidget, QToolBar

from tabletop_gui.model import recovery
from tabletop_gui.ui import theme
from tabletop_gui.ui.attack_flow import KEY_HELP
from tabletop_gui.ui.canvas.tools.add import AddTool
from tabletop_gui.ui.icons import icon
from tabletop_gui.ui.shortcuts_dialog import CANVAS_KEYS, ShortcutsDialog, window_actions
from tests.gui.attack_support import DEMOS, built_window

K = Qt.Key
NATIVE = QKeySequence.SequenceFormat.NativeText


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "recovery")
    return built_window(qtbot, str(DEMOS / "warcry.battle.json"), "warcry")


def test_every_tool_has_an_icon_text_and_a_tooltip_naming_its_key(window):
    bar = window.toolbox.toolbar
    assert bar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    actions = [a for a in bar.actions() if not a.isSeparator()]
    assert len(actions) >= 9  # seven tools, Snap, the table view
    for a in actions:
        assert not a.icon().isNull(), a.text()
        key = a.shortcut().toString(NATIVE)
        assert key, a.text()
        assert a.toolTip().splitlines()[0] == f"{a.text().replace('&', '')} ({key})"
    assert window.toolbox.actions["Measure"].toolTip().startswith("Measure (M)")


def test_icons_are_tinted_to_the_palette(qtbot):
    for colour in ("#000000", "#ffffff"):
        image = icon("measure", colour).pixmap(24, 24).toImage()
        inked = [QColor.fromRgba(image.pixel(x, y)) for x in range(24) for y in range(24)
                 if QColor.fromRgba(image.pixel(x, y)).alpha() == 255]
        assert inked, colour
        assert all(abs(c.lightness() - QColor(colour).lightness()) < 8 for c in inked)
    with pytest.raises(FileNotFoundError, match="no_such_icon.svg"):
        icon("no_such_icon")


def test_pressing_a_opens_the_library(window, qtbot):
    library = window.docks["Library"]
    assert library.visibleRegion().isEmpty()  # tabbed behind the Roster
    qtbot.keyClick(window.view, K.Key_A)
    assert isinstance(window.view.tool, AddTool)
    qtbot.waitUntil(lambda: not library.visibleRegion().isEmpty())
    assert library.isVisible()


def _all_shortcuts(window) -> set[str]:  # noqa: ANN001
    keys = set()
    for a in window.findChildren(QAction):
        for seq in a.shortcuts():
            if not seq.isEmpty():
                keys.add(seq.toString(NATIVE))
    return keys


def test_the_shortcuts_dialog_lists_every_key_in_aligned_columns(window, qtbot):
    help_action = next(a for a in window_actions(window)
                       if a.text().replace("&", "") == "Keyboard shortcuts")
    help_action.trigger()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None
    qtbot.addWidget(dialog)
    qtbot.waitUntil(dialog.isVisible)
    table = dialog.findChild(QTableWidget)
    assert table.columnCount() == 3
    listed = dialog.keys()
    expected = _all_shortcuts(window) | {k for k, _ in CANVAS_KEYS} | {k for k, _ in KEY_HELP}
    assert set(listed) == expected
    assert {"F11", "M", "A", "G", "R", "Ctrl+0"} <= set(listed)
    for row in range(table.rowCount()):  # every row filled: key, what, where
        assert all(table.item(row, c).text() for c in range(3)), row
    dialog.close()


def _layout(window):  # noqa: ANN001, ANN202
    return {title: (d.isVisible(), window.dockWidgetArea(d), d.isFloating())
            for title, d in window.docks.items()}


def test_f11_shows_the_table_view_and_f11_returns_exactly(window, qtbot):
    before, geometry = _layout(window), window.geometry()
    font, palette = window.font(), window.palette()
    bars = (window.menuBar().isVisible(), window.toolbox.toolbar.isVisible(),
            window.statusBar().isVisible())
    qtbot.keyClick(window.view, K.Key_F11)
    qtbot.waitUntil(lambda: bool(window.windowState() & Qt.WindowState.WindowFullScreen))
    assert window.table_view.active and window.table_view.action.isChecked()
    assert window.docks["Attack"].isVisible()
    for title in ("Roster", "Library", "Inspector", "Log"):
        assert not window.docks[title].isVisible(), title
    assert not window.menuBar().isVisible() and not window.toolbox.toolbar.isVisible()
    assert window.font().pointSizeF() >= 1.5 * font.pointSizeF()
    assert window.docks["Attack"].widget().font().pointSizeF() >= 1.5 * font.pointSizeF()
    assert window.palette().color(QPalette.ColorRole.Window) == QColor("#ffffff")
    assert window.palette().color(QPalette.ColorRole.WindowText) == QColor("#000000")
    assert window.palette().color(QPalette.ColorRole.Text) == QColor("#000000")
    # the tool keys still work with the bars hidden
    qtbot.keyClick(window.view, K.Key_M)
    assert type(window.view.tool).__name__ == "MeasureTool"
    qtbot.keyClick(window.view, K.Key_S)
    qtbot.keyClick(window.view, K.Key_F11)
    qtbot.waitUntil(lambda: not window.windowState() & Qt.WindowState.WindowFullScreen)
    assert not window.table_view.active and not window.table_view.action.isChecked()
    assert _layout(window) == before
    qtbot.waitUntil(lambda: window.geometry() == geometry)
    assert window.font() == font and window.palette() == palette
    assert window.styleSheet() == ""
    assert not window.testAttribute(Qt.WidgetAttribute.WA_SetFont)
    assert (window.menuBar().isVisible(), window.toolbox.toolbar.isVisible(),
            window.statusBar().isVisible()) == bars


def test_esc_leaves_the_table_view_without_clearing_anything_else(window, qtbot):
    before = _layout(window)
    window.table_view.action.trigger()
    qtbot.waitUntil(lambda: window.table_view.active)
    qtbot.keyClick(window.view, K.Key_Escape)
    qtbot.waitUntil(lambda: not window.table_view.active)
    assert not window.windowState() & Qt.WindowState.WindowFullScreen
    assert _layout(window) == before
    assert window.findChild(QToolBar).isVisible()
    assert all(isinstance(d, QDockWidget) for d in window.docks.values())


def test_dark_scheme_gives_a_dark_palette_and_light_icons(window, qtbot, monkeypatch):
    app = QApplication.instance()
    original = app.palette()
    follower = theme.follow_system_theme()
    assert follower is not None and theme.follow_system_theme() is follower  # one per app
    try:
        monkeypatch.setenv(theme.THEME_ENV, "dark")
        assert theme.wanted_scheme() == Qt.ColorScheme.Dark
        follower.apply()
        assert theme.is_dark(app.palette())
        qtbot.waitUntil(lambda: theme.is_dark(window.palette()))
        measure = window.toolbox.actions["Measure"].icon().pixmap(24, 24).toImage()
        inked = [QColor.fromRgba(measure.pixel(x, y)) for x in range(24) for y in range(24)
                 if QColor.fromRgba(measure.pixel(x, y)).alpha() == 255]
        assert inked and all(c.lightness() > 150 for c in inked)  # light ink on dark
        monkeypatch.setenv(theme.THEME_ENV, "light")
        follower.apply()
        assert not theme.is_dark(app.palette())
    finally:
        app.setPalette(original)
        follower.applied = None
