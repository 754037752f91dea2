"""The canvas tools as actions: a toolbar and the Tools menu (one key each, with tooltips),
plus the Edit menu's Delete, Duplicate and the snapping switch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QPalette
from PySide6.QtWidgets import QMenu, QToolBar

from tabletop_gui.model import edits
from tabletop_gui.ui.canvas.tools.add import AddTool
from tabletop_gui.ui.canvas.tools.base import Tool
from tabletop_gui.ui.canvas.tools.delete import DeleteTool
from tabletop_gui.ui.canvas.tools.draw import DrawObstacleTool, DrawPlatformTool
from tabletop_gui.ui.canvas.tools.measure import MeasureTool
from tabletop_gui.ui.canvas.tools.ruling import RulingTool
from tabletop_gui.ui.canvas.tools.select import SelectTool

if TYPE_CHECKING:
    from tabletop_gui.ui.window_host import WindowHost


def _tool_classes() -> list[type[Tool]]:
    return [SelectTool, AddTool, DrawObstacleTool, DrawPlatformTool, MeasureTool, RulingTool,
            DeleteTool]


def _std(key: QKeySequence.StandardKey) -> QKeySequence:
    return QKeySequence(key)


# the icon of each tool (resources/icons/<name>.svg), by the tool's class name
TOOL_ICONS = {"SelectTool": "select", "AddTool": "add", "DrawObstacleTool": "obstacle",
              "DrawPlatformTool": "platform", "MeasureTool": "measure", "RulingTool": "ruling",
              "DeleteTool": "delete"}


def key_tooltip(name: str, key: QKeySequence, what: str = "") -> str:
    """"Measure (M)", and what the tool does on the next line."""
    shown = key.toString(QKeySequence.SequenceFormat.NativeText)
    head = f"{name} ({shown})" if shown else name
    return f"{head}\n{what}" if what else head


def _without_key(text: str) -> str:
    """A tool's tooltip without its trailing "(M)": the key goes first."""
    head, sep, tail = text.rpartition(" (")
    return head if sep and tail.endswith(")") and len(tail) <= 3 else text


class _PaletteWatch(QObject):
    """Re-tints the toolbar's icons when the window's palette changes (light, dark, the
    table view's high contrast)."""

    def __init__(self, toolbox: Toolbox) -> None:
        super().__init__(toolbox.window)
        self.toolbox = toolbox

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self.toolbox.refresh_icons()
        return False


class Toolbox:
    """The window's tools; exactly one is active on the view."""

    def __init__(self, window: WindowHost) -> None:
        self.window = window
        view, doc = window.view, window.document
        self.tools: list[Tool] = [cls(view, doc) for cls in _tool_classes()]
        self.actions: dict[str, QAction] = {}
        group = QActionGroup(window)
        group.setExclusive(True)
        self.toolbar = QToolBar("Tools", window)
        self.toolbar.setObjectName("toolbar_tools")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)
        self.icon_names: dict[QAction, str] = {}
        for tool in self.tools:
            a = QAction(tool.name, window, checkable=True)
            a.setShortcut(QKeySequence(tool.key))
            a.setToolTip(key_tooltip(tool.name, a.shortcut(), _without_key(tool.tooltip)))
            self.icon_names[a] = TOOL_ICONS.get(type(tool).__name__, "select")
            a.setStatusTip(tool.tooltip)
            a.triggered.connect(lambda _=False, t=tool: self.activate(t))
            group.addAction(a)
            self.toolbar.addAction(a)
            self.actions[tool.name] = a
        self.toolbar.addSeparator()
        self.snap_action = QAction("Snap", window, checkable=True, checked=True)
        self.snap_action.setShortcut(QKeySequence("G"))
        self.snap_action.setToolTip(key_tooltip(
            "Snap", self.snap_action.shortcut(), 'Snap to 0.1" or to space centres on a grid'))
        self.icon_names[self.snap_action] = "snap"
        self.snap_action.toggled.connect(self.set_snapping)
        self.toolbar.addAction(self.snap_action)
        self.refresh_icons()
        self._palette_watch = _PaletteWatch(self)
        window.installEventFilter(self._palette_watch)
        self.activate(self.tools[0])
        self.menu: QMenu | None = None
        view.context_menu_requested.connect(window.errors.guarded("The context menu")(
            self.context_menu))

    def context_menu(self, scene_pos: QPointF, global_pos: QPoint) -> None:
        """Right-click on a model: the rulings it can start (``RulingTool``), in a menu
        that pops up without blocking (``menu`` until the next one)."""
        tool = self.tool(RulingTool)
        assert isinstance(tool, RulingTool)
        if self.menu is not None:
            self.menu.deleteLater()
        self.menu = tool.context_menu(scene_pos)
        if self.menu is not None:
            self.menu.popup(global_pos)

    def tool(self, cls: type[Tool]) -> Tool:
        return next(t for t in self.tools if isinstance(t, cls))

    def activate(self, tool: Tool) -> None:
        """Make ``tool`` the canvas's tool; the Add tool brings its Library panel to the
        front (it is tabbed behind the Roster), so that A opens the library."""
        self.actions[tool.name].setChecked(True)
        self.window.view.set_tool(tool)
        self.window.statusBar().showMessage(tool.tooltip, 3000)
        from tabletop_gui.ui.canvas.tools.add import AddTool

        if isinstance(tool, AddTool):
            self.window.show_panel("Library")

    def add_action(self, action: QAction, icon_name: str) -> None:
        """Another tool of the window on the toolbar (the table view), with its icon."""
        from tabletop_gui.ui.icons import icon

        self.icon_names[action] = icon_name
        self.toolbar.addAction(action)
        action.setIcon(icon(icon_name, self.window.palette().color(QPalette.ColorRole.WindowText)))

    def refresh_icons(self) -> None:
        """The icons, tinted to the window's text colour (again after a palette change)."""
        from tabletop_gui.ui.icons import icon

        colour = self.window.palette().color(QPalette.ColorRole.WindowText)
        for action, name in self.icon_names.items():
            action.setIcon(icon(name, colour))

    def set_snapping(self, on: bool) -> None:
        for t in self.tools:
            t.set_snapping(on)

    def populate_tools(self, menu: QMenu) -> None:
        menu.addActions(list(self.actions.values()))
        menu.addSeparator()
        menu.addAction(self.snap_action)

    def populate_edit(self, menu: QMenu) -> None:
        w = self.window
        delete = QAction("&Delete", w, shortcut=_std(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(self.delete_selection)
        duplicate = QAction("D&uplicate", w, shortcut=QKeySequence("Ctrl+D"))
        duplicate.triggered.connect(self.duplicate_selection)
        select_all = QAction("Select &all", w, shortcut=_std(QKeySequence.StandardKey.SelectAll))
        select_all.triggered.connect(lambda: w.document.set_selection(
            e.id for e in w.document.scenario.entities))
        menu.addActions([delete, duplicate, select_all])

    def delete_selection(self) -> None:
        doc = self.window.document
        if doc.selection:
            doc.edit(f"Delete {edits.describe(doc.scenario, doc.selection, 'items')}",
                     edits.delete(doc.scenario, doc.selection))

    def duplicate_selection(self) -> None:
        doc = self.window.document
        if doc.selection:
            new, ids = edits.duplicate(doc.scenario, doc.selection)
            doc.edit(f"Duplicate {edits.describe(doc.scenario, doc.selection, 'items')}", new)
            doc.set_selection(ids)
