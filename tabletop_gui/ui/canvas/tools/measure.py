"""Measure: drag from a base to a base (or any point); shows the ruleset's distance with
its horizontal and vertical parts, live, on the segment between the two closest points
(drawn by ``segment_marks``, as the Ruling mode draws it). The result stays until the next
drag or Esc."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from tabletop_gui.model.measuring import End, Measurement, measure
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.segment_marks import SegmentMarks
from tabletop_gui.ui.canvas.tools.base import Tool


class MeasureTool(Tool):
    name = "Measure"
    key = "M"
    tooltip = "Drag from base to base: the distance with its horizontal and vertical parts (M)"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._start: End | None = None
        self.marks: SegmentMarks | None = None
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
        self._show(measure(self.document.snapshot.geometry, self._start, self._end_at(scene_pos)))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self._start is None:
            return False
        self._show(measure(self.document.snapshot.geometry, self._start, self._end_at(scene_pos)))
        self._start = None
        return True

    def _show(self, m: Measurement) -> None:
        self.result = m
        if self.marks is None:
            self.marks = SegmentMarks(self.scene.tool_layer)
        self.marks.show(m.start, m.end, m.text())
        self.view.status_message.emit(f"Measure: {m.text()}")

    def cancel(self) -> None:
        self._start = None
        self.result = None
        if self.marks is not None:
            self.marks.remove()
        self.marks = None
