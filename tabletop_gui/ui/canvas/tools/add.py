"""Add: click on the battlefield to place the profile picked in the Library panel, for the
side picked there. Models cannot be placed outside the battlefield."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from tabletop_gui.model.edits import clamp_model
from tabletop_gui.model.profiles import placed
from tabletop_gui.scenario.entities import Model
from tabletop_gui.ui.canvas.snapping import inside_board
from tabletop_gui.ui.canvas.tools.base import Tool


class AddTool(Tool):
    name = "Add"
    key = "A"
    tooltip = "Add the fighter or unit picked in the Library panel: click to place (A)"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.template: Model | None = None
        self.side: str | None = None


    def set_template(self, profile: Model | None, side: str | None) -> None:
        """The profile placed by the next clicks (None: nothing), on ``side``."""
        self.template, self.side = profile, side
    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        x, y = self.table_point(scene_pos)
        bf = self.scenario.battlefield
        if not inside_board(bf, x, y):
            self.view.status_message.emit("Models cannot be placed outside the battlefield")
            return True
        if self.template is None:
            self.view.status_message.emit("Pick a profile in the Library panel first")
            return True
        side = self.side or (self.scenario.sides[0].id if self.scenario.sides else "")
        x, y = self.snap(x, y)
        x, y = clamp_model(self.scenario, self.template, x, y)
        new, new_id = placed(self.scenario, self.template, side, x, y)
        self.document.edit(f"Add {self.template.name}", new)
        self.document.set_selection([new_id])
        return True
