"""Measure: drag from a base to a base (or any point); shows the ruleset's distance with
its horizontal and vertical parts, live. The result stays until the next drag or Esc."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsSimpleTextItem

from tabletop_gui.model.measuring import End, Measurement, measure
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.tools.base import Tool


class MeasureTool(Tool):
    name = "Measure"
    key = "M"
    tooltip = "Drag from base to base: the distance with its horizontal and vertical parts (M)"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._start: End | None = None
        self._line: QGraphicsLineItem | None = None
        self._label: QGraphicsSimpleTextItem | None = None
        self.result: Measurement | None = None

    def _end_at(self, scene_pos: QPointF) -> End:
        item = self.scene.entity_at(scene_pos)
        if isinstance(item, ModelItem):
            return item.entity_id
        return self.table_point(scene_pos)

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.cancel()
        self._start = self._end_at(scene_pos)
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._start is None or not event.buttons() & Qt.MouseButton.LeftButton:
            return False
        self._show(measure(self.document.battle().board, self._start, self._end_at(scene_pos)))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self._start is None:
            return False
        self._show(measure(self.document.battle().board, self._start, self._end_at(scene_pos)))
        self._start = None
        return True

    def _show(self, m: Measurement) -> None:
        self.result = m
        if self._line is None:
            self._line = QGraphicsLineItem()
            pen = QPen(QColor("#d35400"), 2.5)
            pen.setCosmetic(True)
            self._line.setPen(pen)
            self._line.setParentItem(self.scene.tool_layer)
            self._label = QGraphicsSimpleTextItem()
            font = QFont()
            font.setPointSizeF(11)
            font.setBold(True)
            self._label.setFont(font)
            self._label.setBrush(QColor("#7e2d00"))
            self._label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            self._label.setParentItem(self.scene.tool_layer)
        a, b = to_scene(*m.start), to_scene(*m.end)
        self._line.setLine(a.x(), a.y(), b.x(), b.y())
        assert self._label is not None
        self._label.setText(m.text())
        self._label.setPos((a + b) / 2)
        self.view.status_message.emit(f"Measure: {m.text()}")

    def cancel(self) -> None:
        self._start = None
        self.result = None
        for item in (self._line, self._label):
            if item is not None:
                self.scene.removeItem(item)
        self._line = self._label = None
