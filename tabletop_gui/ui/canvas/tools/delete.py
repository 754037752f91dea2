"""Delete: click a model or a piece of terrain to remove it (one undoable edit)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from tabletop_gui.model import edits
from tabletop_gui.ui.canvas.tools.base import Tool


class DeleteTool(Tool):
    name = "Delete"
    key = "D"
    tooltip = "Click a model or terrain to delete it (D)"
    cursor = Qt.CursorShape.ForbiddenCursor

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        item = self.scene.entity_at(scene_pos)
        if item is not None:
            ids = [item.entity_id]
            self.document.edit(f"Delete {edits.describe(self.scenario, ids, 'items')}",
                               edits.delete(self.scenario, ids))
        return True
