"""The main window: the battlefield canvas in the centre, dockable panels around it,
menus and a toolbar of tools.

Its collaborators that are not its own widgets (the document, the settings, the engine's
worker thread, the recovery file) are made by ``app.build_window`` and passed in; the
defaults (settings of the application, a worker of its own, no recovery) serve tests.

Other panels plug in with ``add_panel(title, widget)``: the Attack and Log panels have
reserved places (``PANEL_AREAS``).

The first size and the dock layout come from the screen's available area
(``first_geometry``, ``dock_sizes``): the whole of a laptop's screen, the canvas with most
of the room, the side panels as tall as the window (the Log only under the canvas). A
saved window that no longer fits the screen is placed afresh; the panels are laid out
for the window's size once the attack flow is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import QDockWidget, QLabel, QMessageBox, QWidget

from tabletop_gui.model import heap
from tabletop_gui.model.document import Change, Document
from tabletop_gui.model.engine_thread import EngineThread
from tabletop_gui.model.notices import traceback_text
from tabletop_gui.model.recovery import Recovery, battlefield_words, describe
from tabletop_gui.scenario.problems import ScenarioError
from tabletop_gui.ui.busy import BusyIndicator
from tabletop_gui.ui.canvas.board_items import DIMMED_OPACITY
from tabletop_gui.ui.canvas.scene import BattlefieldScene
from tabletop_gui.ui.canvas.view import BattlefieldView
from tabletop_gui.ui.errors import ErrorReporter, write_error_text
from tabletop_gui.ui.file_actions import FileActions
from tabletop_gui.ui.import_actions import ImportActions, local_files
from tabletop_gui.ui.inspector import InspectorPanel
from tabletop_gui.ui.library_panel import LibraryPanel
from tabletop_gui.ui.roster_panel import RosterPanel
from tabletop_gui.ui.toolbox import Toolbox
from tabletop_gui.ui.window_host import WindowHost

if TYPE_CHECKING:
    from tabletop_gui.scenario.entities import Model
    from tabletop_gui.ui.attack_flow import AttackFlow

APP_TITLE = "Tabletop GUI"
Area = Qt.DockWidgetArea
PANEL_AREAS: dict[str, Qt.DockWidgetArea] = {
    "Roster": Area.LeftDockWidgetArea,
    "Library": Area.LeftDockWidgetArea,
    "Inspector": Area.LeftDockWidgetArea,
    "Attack": Area.RightDockWidgetArea,
    "Odds": Area.RightDockWidgetArea,
    "Log": Area.BottomDockWidgetArea,
}
# panels shown as tabs of an earlier one (the rest of an area is split top to bottom)
TABBED_WITH = {"Library": "Roster"}
BIG_SCREEN = (1920, 1200)  # up to this, the window takes the whole available area
BIG_SHARE = 0.85  # of a bigger screen, centred
RIGHT_SHARE, RIGHT_RANGE = 0.30, (340, 480)  # the attack card's width: share, bounds (px)
LEFT_SHARE, LEFT_RANGE = 0.16, (180, 320)  # roster and inspector
LOG_SHARE, LOG_RANGE = 0.13, (80, 180)  # the log's height
SETTLE_MS = 100  # quiet time after work before the heap is settled (``model.heap``)
SETTLE_BUSY_MS = 1000  # and how often while the worker runs (a long target scan)


def _std(key: QKeySequence.StandardKey) -> QKeySequence:
    return QKeySequence(key)


def _clamp(value: float, bounds: tuple[int, int]) -> int:
    return int(min(max(round(value), bounds[0]), bounds[1]))


def first_geometry(available: QRect) -> QRect:
    """The window's first place on a screen whose available area is ``available``: all
    of it up to ``BIG_SCREEN`` (a laptop, a desktop), else ``BIG_SHARE`` of it, centred."""
    if available.width() <= BIG_SCREEN[0] and available.height() <= BIG_SCREEN[1]:
        return QRect(available)
    w, h = int(available.width() * BIG_SHARE), int(available.height() * BIG_SHARE)
    return QRect(available.x() + (available.width() - w) // 2,
                 available.y() + (available.height() - h) // 2, w, h)


def dock_sizes(width: int, height: int) -> tuple[int, int, int]:
    """(left panels' width, attack card's width, log's height) for a window this big."""
    return (_clamp(width * LEFT_SHARE, LEFT_RANGE), _clamp(width * RIGHT_SHARE, RIGHT_RANGE),
            _clamp(height * LOG_SHARE, LOG_RANGE))


class MainWindow(WindowHost):
    """One document shown in a canvas with panels; ``settings`` keeps geometry and recents."""

    files: FileActions
    imports: ImportActions
    toolbox: Toolbox
    library_panel: LibraryPanel

    def __init__(self, document: Document, settings: QSettings | None = None,
                 worker: EngineThread | None = None, recovery: Recovery | None = None,
                 parent: QWidget | None = None) -> None:
        from tabletop_gui.ui.theme import follow_system_theme

        # before the window is made: it starts in the scheme's palette, and its toolbar's
        # icons are drawn once, in that ink (a palette change reaches a window later)
        follow_system_theme()
        super().__init__(parent)
        self.document = document
        self.settings = settings if settings is not None else QSettings()
        self.errors = ErrorReporter(self)
        # the rules engine and the file reader run there; it lives as long as the window
        self.worker = worker if worker is not None else EngineThread()
        self.worker.setParent(self)
        self.scene = BattlefieldScene(document)
        self.view = BattlefieldView(self.scene, self)
        # a drag's frame has the interpreter lock to itself: the worker waits meanwhile
        self.view.drag_step.connect(self.worker.frame_started)
        self.view.drag_ended.connect(self.worker.frame_done)
        self.setCentralWidget(self.view)
        self.docks: dict[str, QDockWidget] = {}
        self.keep_state = True  # save window state and geometry when closed
        self.attack_flow: AttackFlow | None = None  # installed after the first paint
        self.setDockNestingEnabled(True)
        # the side panels take the full height; the log sits under the canvas only
        self.setCorner(Qt.Corner.BottomLeftCorner, Area.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Area.RightDockWidgetArea)
        self._coords = QLabel()
        self.busy = BusyIndicator()
        self.statusBar().addPermanentWidget(self.busy)
        self.statusBar().addPermanentWidget(self._coords)
        self.view.status_message.connect(lambda text: self.statusBar().showMessage(text, 4000))

        self.files = FileActions(self)
        self.imports = ImportActions(self)
        self.setAcceptDrops(True)
        self.toolbox = Toolbox(self)
        from tabletop_gui.ui.table_view import TableView

        self.table_view = TableView(self)
        self.addAction(self.table_view.action)  # F11 works with the menu bar hidden
        self.toolbox.add_action(self.table_view.action, "table_view")
        self._build_menus()
        self.roster_panel = RosterPanel(document)
        self.add_panel("Roster", self.roster_panel)
        self.inspector = InspectorPanel(document)
        self.add_panel("Inspector", self.inspector)
        self.library_panel = LibraryPanel(document, self._library_picked, self.errors.problem)
        self.add_panel("Library", self.library_panel)
        # once work is over, what it made is long-lived: the collector no longer walks it
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._settle_heap)
        self._settle_busy = QTimer(self)
        self._settle_busy.setInterval(SETTLE_BUSY_MS)
        self._settle_busy.timeout.connect(self._settle_heap)
        self.worker.busy_changed.connect(self._worker_busy)
        self.scene.built.connect(self._settle_heap)  # a file opened: all of it long-lived
        self._settle.start()
        document.undo_stack.cleanChanged.connect(self._on_clean_changed)
        document.path_changed.connect(self._update_title)
        document.changed.connect(self._on_changed)
        self._update_title()
        self.place_on(self._available())
        self._restore_state()
        if recovery is not None:
            self.use_recovery(recovery)

    # -- panels ----------------------------------------------------------------------
    def add_panel(self, title: str, widget: QWidget,
                  area: Qt.DockWidgetArea | None = None) -> QDockWidget:
        """Dock ``widget`` as a panel: the reserved titles (Roster, Library, Inspector on
        the left; Attack and Odds tabbed on the right; Log at the bottom) go to their
        places, others to ``area`` (default: the right)."""
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{title.lower()}")
        dock.setWidget(widget)
        where = area if area is not None else PANEL_AREAS.get(title, Area.RightDockWidgetArea)
        self.addDockWidget(where, dock)
        first = self.docks.get(TABBED_WITH.get(title, ""))
        if first is not None and self.dockWidgetArea(first) == where:
            self.tabifyDockWidget(first, dock)
            first.raise_()
        self.docks[title] = dock
        self._view_menu.addAction(dock.toggleViewAction())
        return dock

    def show_panel(self, title: str) -> None:
        """Bring a panel to the front (shown, and its tab raised)."""
        dock = self.docks.get(title)
        if dock is not None:
            dock.show()
            dock.raise_()

    def _library_picked(self, profile: Model | None, side: str | None) -> None:
        """A profile picked in the Library: the Add tool places it (for ``side``)."""
        from tabletop_gui.ui.canvas.tools.add import AddTool

        add_tool = self.toolbox.tool(AddTool)
        assert isinstance(add_tool, AddTool)
        add_tool.set_template(profile, side)
        if profile is not None:
            self.toolbox.activate(add_tool)

    def install_attack_flow(self) -> AttackFlow:
        """Dock the Attack, Odds and Log panels and their canvas overlays (loaded after
        the first paint: they bring the rules engines and plotting)."""
        if self.attack_flow is not None:
            return self.attack_flow
        from tabletop_gui.ui.attack_flow import AttackFlow

        flow = AttackFlow(self, self.document, self.scene, self.errors, self.worker,
                          self.busy)
        for title, widget in flow.panels():
            self.add_panel(title, widget)
        for dock in self.findChildren(QDockWidget):
            flow.watch_keys_of(dock)
        # a scan complete (its thousand full reports in) is work over: what it made is
        # long-lived until the next edit, settled now rather than on the quiet timer
        # (which the next click may beat: its collections would walk the reports)
        flow.scan_finished.connect(self._settle_heap)
        self.attack_flow = flow
        self.lay_out_docks()
        return flow

    # -- size ------------------------------------------------------------------------
    def _available(self) -> QRect:
        screen = self.screen()
        return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)

    def place_on(self, available: QRect) -> None:
        """Size and place the window for a screen whose available area is ``available``
        (its frame included, once the window manager has drawn one), and lay the panels
        out for that size."""
        frame = self.frameGeometry()
        inner = self.geometry()
        margins = (inner.left() - frame.left(), inner.top() - frame.top(),
                   frame.right() - inner.right(), frame.bottom() - inner.bottom())
        geo = first_geometry(available).adjusted(margins[0], margins[1],
                                                 -margins[2], -margins[3])
        self.setGeometry(geo)
        self.lay_out_docks()

    def lay_out_docks(self) -> None:
        """The panels' sizes for the window's size (``dock_sizes``)."""
        left, right, log = dock_sizes(self.width(), self.height())
        horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        sides = [(self.docks.get(name), size) for name, size in
                 (("Roster", left), ("Attack", right))]
        shown = [(d, size) for d, size in sides if d is not None and not d.isFloating()]
        if shown:
            self.resizeDocks([d for d, _ in shown], [size for _, size in shown], horizontal)
        if "Log" in self.docks:
            self.resizeDocks([self.docks["Log"]], [log], vertical)

    def fit_to(self, available: QRect) -> None:
        """A restored window that is not wholly on the available area (another screen, a
        smaller one) is placed afresh. (The panels are laid out afresh for the window's
        size once the attack flow is installed, ``lay_out_docks``.)"""
        if not available.contains(self.frameGeometry()):
            self.place_on(available)

    # -- menus -----------------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.files.populate(bar.addMenu("&File"))
        edit = bar.addMenu("&Edit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit.addActions([undo, redo])
        self.undo_action, self.redo_action = undo, redo
        edit.addSeparator()
        self.toolbox.populate_edit(edit)
        view = bar.addMenu("&View")
        fit = QAction("Zoom to &fit", self, shortcut=QKeySequence("Ctrl+0"))
        fit.triggered.connect(self.view.fit_to_window)
        zoom_in = QAction("Zoom &in", self, shortcut=_std(QKeySequence.StandardKey.ZoomIn))
        zoom_in.triggered.connect(lambda: self.view.zoom_by(1.25))
        zoom_out = QAction("Zoom &out", self, shortcut=_std(QKeySequence.StandardKey.ZoomOut))
        zoom_out.triggered.connect(lambda: self.view.zoom_by(0.8))
        grid = QAction("&Grid", self, checkable=True, checked=True)
        grid.toggled.connect(self.scene.board_item.setVisible)
        down = QAction("Show &taken-down models", self, checkable=True, checked=True)
        down.toggled.connect(self.scene.set_show_taken_down)
        overlays = QAction("&Overlays", self, checkable=True, checked=True)
        overlays.toggled.connect(self.scene.overlay_layer.setVisible)
        self.dim_background_action = QAction("&Dim background", self, checkable=True)
        self.dim_background_action.setToolTip("Fade the battlefield's picture (a map)")
        self.dim_background_action.toggled.connect(
            lambda on: self.scene.board_item.set_background_opacity(
                DIMMED_OPACITY if on else 1.0))
        view.addActions([fit, zoom_in, zoom_out])
        view.addSeparator()
        view.addActions([grid, down, overlays, self.dim_background_action])
        from tabletop_gui.ui.canvas.labels import label_menu

        self.labels_menu = label_menu(self, self.scene.labels, self.settings)
        view.addMenu(self.labels_menu)
        view.addSeparator()
        view.addAction(self.table_view.action)
        view.addSeparator()
        self._view_menu = view
        self.toolbox.populate_tools(bar.addMenu("&Tools"))
        library = bar.addMenu("&Library")
        self.load_fighter_data_action = QAction("Load &fighter data\u2026", self)
        self.load_fighter_data_action.setToolTip(
            "Warcry fighter data and base sizes (JSON), kept for imports and the Library panel")
        self.load_fighter_data_action.triggered.connect(
            lambda: self.imports.load_fighter_data())
        library.addAction(self.load_fighter_data_action)
        help_menu = bar.addMenu("&Help")
        keys = QAction("&Keyboard shortcuts", self)
        keys.triggered.connect(self._show_shortcuts)
        about = QAction("&About", self)
        about.triggered.connect(lambda: QMessageBox.about(
            self, f"About {APP_TITLE}",
            "A desktop assistant for tabletop wargames: distances, sight, cover and exact "
            "attack odds."))
        help_menu.addActions([keys, about])

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        """Every key of the window: (key, what it does, where), for Help ▸ Keyboard
        shortcuts: the actions' shortcuts, the canvas keys, the attack keys."""
        from tabletop_gui.ui.shortcuts_dialog import shortcut_rows

        attack_keys: tuple[tuple[str, str], ...] = ()
        if "Attack" in self.docks:  # the attack flow is installed (after the first paint)
            from tabletop_gui.ui.attack_flow import KEY_HELP  # lazy: see above

            attack_keys = KEY_HELP
        return shortcut_rows(self, attack_keys)

    def shortcuts_text(self) -> str:
        return "\n".join(f"{key}\t{what} ({where})" for key, what, where in self.shortcut_rows())

    def _show_shortcuts(self) -> None:
        from tabletop_gui.ui.shortcuts_dialog import ShortcutsDialog

        self.shortcuts_dialog = ShortcutsDialog(self.shortcut_rows(), self)
        self.shortcuts_dialog.open()

    # -- dropped files -----------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if local_files(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        if local_files(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = local_files(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.imports.drop(paths)

    def _worker_busy(self, busy: bool) -> None:
        if busy:  # not quiet any more: the settling after the last work waits for this
            self._settle.stop()  # one (a collection in the middle of a click's work)
            self._settle_busy.start()
        else:
            self._settle_busy.stop()
            self._settle.start()

    def _settle_heap(self) -> None:
        if self.scene.building:
            self._settle.start()
        else:
            heap.settle()

    # -- title and state -------------------------------------------------------------
    def _on_changed(self, change: Change) -> None:
        if change.structural:
            self._update_title()

    def _on_clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)  # never asks the stack: it may be going away

    def _update_title(self) -> None:
        doc = self.document
        name = doc.path.name if doc.path else (doc.scenario.name or "Untitled")
        self.setWindowTitle(f"{name}[*] \u2014 {APP_TITLE}")
        self.setWindowModified(doc.modified)

    def _restore_state(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        self.fit_to(self._available())

    def save_state(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def leave_settings_alone(self) -> None:
        """Closing saves no window state or geometry (a measurement, not a session)."""
        self.keep_state = False

    # -- recovery --------------------------------------------------------------------
    def start_recovery(self, folder: Path | None = None) -> Recovery:
        """Autosave edits to a recovery file in ``folder`` (default: the user's data)."""
        return self.use_recovery(Recovery(self.document, folder))

    def use_recovery(self, recovery: Recovery) -> Recovery:
        """Autosave edits with ``recovery`` (of this window's document)."""
        self.recovery = recovery
        recovery.failed.connect(self._autosave_failed)
        self.files.use_recovery(recovery)
        return recovery

    def _autosave_failed(self, exc: Exception) -> None:
        self.errors.problem(
            f"Autosave failed: the recovery file {self.recovery.file} could not be written "
            f"({write_error_text(exc)}). Until an autosave works again, a crash would lose "
            "the unsaved changes: save the battlefield yourself (File \u25b8 Save).",
            "" if isinstance(exc, OSError) else traceback_text(exc), title="Autosave failed")

    def offer_recovery(self) -> bool:
        """If the last run left a recovery file, offer to restore it; then autosave."""
        rec = self.recovery
        restored = False
        if rec.pending():
            try:
                found = rec.load()
            except ScenarioError as e:
                self.files.show_problems(rec.file, [str(p) for p in e.problems])
            else:
                now = battlefield_words(self.document.scenario)
                answer = QMessageBox.question(
                    self, "Restore unsaved work?",
                    "The program did not close cleanly last time. Its unsaved work was "
                    f"kept:\n\n{describe(found)}\n\nRestore it? It replaces the battlefield "
                    f"open now: {now}. "
                    "No discards the kept work.",
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                    QMessageBox.StandardButton.Yes)
                if answer == QMessageBox.StandardButton.Yes:
                    self.document.replace(found.scenario, found.original_path, modified=True)
                    self.view.fit_to_window()
                    restored = True
            if not restored:
                rec.discard()
        rec.start()
        return restored

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.files.maybe_discard():
            event.ignore()
            return
        if self.keep_state:
            self.save_state()
        self.files.closed_cleanly()
        self.worker.close()
        self._settle.stop()
        self._settle_busy.stop()
        heap.release()
        event.accept()
