"""The main window as the parts it is made of see it (the toolbox, the file and import
actions, the panels, the ruling mode).

``MainWindow`` makes these parts and hands itself to them; typed by ``WindowHost`` they do
not import the module of the window that imports them (no import circle). What a part
asks of a sibling part is a small protocol here, not the sibling's class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar, QWidget

from tabletop_gui.model.document import Document
from tabletop_gui.model.engine_thread import EngineThread
from tabletop_gui.ui.busy import BusyIndicator
from tabletop_gui.ui.canvas.scene import BattlefieldScene
from tabletop_gui.ui.canvas.tools.base import Tool
from tabletop_gui.ui.canvas.view import BattlefieldView
from tabletop_gui.ui.errors import ErrorReporter

if TYPE_CHECKING:  # the attack is loaded after the first paint
    from tabletop_gui.model.attack_controller import AttackController


class FilesPart(Protocol):
    def folder(self) -> str: ...
    def maybe_discard(self) -> bool: ...
    def open(self, path: str | None = None) -> bool: ...


class ImportsPart(Protocol):
    def ask_and_import(self) -> bool: ...


class ToolsPart(Protocol):
    toolbar: QToolBar

    def tool(self, cls: type[Tool]) -> Tool: ...
    def activate(self, tool: Tool) -> None: ...


class LibraryPart(Protocol):
    def refresh(self) -> None: ...


class AttackPart(Protocol):
    """The attack flow (installed after the first paint): its controller, and its marks."""

    attack: AttackController

    def show_marks(self, shown: bool) -> None: ...


class WindowHost(QMainWindow):
    """What ``MainWindow`` has set up by the time it makes a part, and the panels the
    parts install (``add_panel``)."""

    document: Document
    settings: QSettings
    errors: ErrorReporter
    worker: EngineThread
    scene: BattlefieldScene
    view: BattlefieldView
    busy: BusyIndicator
    files: FilesPart
    imports: ImportsPart
    toolbox: ToolsPart
    library_panel: LibraryPart
    roster_panel: QWidget
    inspector: QWidget
    docks: dict[str, QDockWidget]
    attack_flow: AttackPart | None  # None until installed

    def add_panel(self, title: str, widget: QWidget,
                  area: Qt.DockWidgetArea | None = None) -> QDockWidget:
        raise NotImplementedError  # MainWindow docks it
