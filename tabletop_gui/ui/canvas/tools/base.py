"""What every canvas tool is: a name, a key, a tooltip, a cursor, and event handlers that
return True when they used the event."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from tabletop_gui.model.document import Document
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.ui.canvas.coords import to_table
from tabletop_gui.ui.canvas.snapping import snap_point

if TYPE_CHECKING:
    from tabletop_gui.ui.canvas.scene import BattlefieldScene
    from tabletop_gui.ui.canvas.view import BattlefieldView

SNAP_STEP = 0.1  # inches


class Tool(QObject):
    """A mode of the canvas. Subclasses override the handlers they need."""

    name = "Tool"
    key = ""
    tooltip = ""
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, view: BattlefieldView, document: Document) -> None:
        super().__init__(view)
        self.view = view
        self.document = document
        self.snapping = True

    @property
    def scene(self) -> BattlefieldScene:
        return self.view.battlefield_scene

    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    def set_snapping(self, on: bool) -> None:
        """Snap the points this tool places (Edit ▸ Snap), or not."""
        self.snapping = on

    def activate(self) -> None:
        return None

    def deactivate(self) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Forget anything in progress (Esc)."""
        return None

    # -- coordinates -----------------------------------------------------------------
    def snap(self, x: float, y: float) -> tuple[float, float]:
        """Snap a table point: to space centres on a grid, else to 0.1" (when on)."""
        if not self.snapping:
            return x, y
        return snap_point(self.scenario.battlefield, x, y, SNAP_STEP)

    def table_point(self, scene_pos: QPointF) -> tuple[float, float]:
        return to_table(scene_pos)

    # -- events (return True when used) ----------------------------------------------
    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def claims_key(self, event: QKeyEvent) -> bool:
        """True when this key belongs to the tool now: the view takes it before any window
        shortcut that uses the same key (Qt's ShortcutOverride). Esc cancels the tool."""
        return event.key() == Qt.Key.Key_Escape

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.cancel()
            return True
        return False
