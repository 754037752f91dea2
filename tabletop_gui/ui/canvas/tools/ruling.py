"""Ruling (Y): click the attacker, then the target: the two bases with the closest points
and the measured segment, every sample sight line, cover, arcs and limits drawn on the
battlefield, and the Ruling panel's checklist with margins and tipping points. Nothing is
moved in this mode. The work is done by ``ui.ruling_mode`` (loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QMenu

from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.tools.base import Tool

if TYPE_CHECKING:
    from tabletop_gui.ui.ruling_mode import RulingMode


class RulingTool(Tool):
    name = "Ruling"
    key = "Y"
    tooltip = ("Settle an argument: click the attacker, then the target; the evidence, "
               "every check with its margin, and what would change it (Y)")
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._mode: RulingMode | None = None
        self._pending: tuple[str, str | None] | None = None

    @property
    def mode(self) -> RulingMode:
        if self._mode is None:
            from tabletop_gui.ui.ruling_mode import RulingMode  # lazy: on first use

            self._mode = RulingMode(self.view.window())  # type: ignore[arg-type]
        return self._mode

    def activate(self) -> None:
        pending, self._pending = self._pending, None
        self.mode.start(pending)

    def deactivate(self) -> None:
        if self._mode is not None:
            self._mode.stop()

    def show_pair(self, attacker: str, target: str | None) -> None:
        """Turn the mode on (through the toolbox, so the toolbar follows) on this pair."""
        if self.view.tool is self:
            self.mode.start((attacker, target))
            return
        self._pending = (attacker, target)
        toolbox = getattr(self.view.window(), "toolbox", None)
        if toolbox is not None:
            toolbox.activate(self)
        else:
            self.view.set_tool(self)

    def context_menu(self, scene_pos: QPointF) -> QMenu | None:
        return self.mode.context_menu(scene_pos, self.show_pair)

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        item = self.scene.entity_at(scene_pos)
        if isinstance(item, ModelItem):
            self.mode.pick(item.entity_id)
        return True  # nothing is selected or moved in this mode

    def claims_key(self, event: QKeyEvent) -> bool:
        """Esc clears the ruling while one is shown; then it is the window's again."""
        return (event.key() == Qt.Key.Key_Escape and self._mode is not None
                and self._mode.attacker is not None)

    def cancel(self) -> None:
        if self._mode is not None:
            self._mode.clear()
