"""Draw obstacle / Draw platform: click vertices, double-click or Enter closes the polygon
(Backspace drops the last vertex); or drag for a rectangle. A platform then asks for its
height. Esc cancels."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QInputDialog

from tabletop_gui.model import edits
from tabletop_gui.model.polygons import polygon_problem
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.tools.base import Tool

DRAG_PIXELS = 6.0
OBSTACLE_HEIGHT = 2.0
DRAW_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Backspace, Qt.Key.Key_Escape)


class DrawTerrainTool(Tool):
    kind = "obstacle"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.vertices: list[tuple[float, float]] = []
        self._press: tuple[float, float] | None = None
        self._press_view = QPointF()
        self._dragging = False
        self._hover: tuple[float, float] | None = None
        self._outline: QGraphicsPathItem | None = None

    # -- feedback --------------------------------------------------------------------
    def _redraw(self, rect_to: tuple[float, float] | None = None) -> None:
        if self._outline is None:
            self._outline = QGraphicsPathItem()
            pen = QPen(QColor("#8e44ad"), 2, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            self._outline.setPen(pen)
            self._outline.setBrush(QColor(142, 68, 173, 50))
            self._outline.setParentItem(self.scene.tool_layer)
        points = self._rectangle(rect_to) if rect_to is not None else list(self.vertices)
        if rect_to is None and self._hover is not None and self.vertices:
            points.append(self._hover)
        path = QPainterPath()
        for n, (x, y) in enumerate(points):
            (path.lineTo if n else path.moveTo)(to_scene(x, y))
        for x, y in self.vertices:
            path.addEllipse(to_scene(x, y), 3, 3)
        self._outline.setPath(path)

    def _rectangle(self, corner: tuple[float, float]) -> list[tuple[float, float]]:
        assert self._press is not None
        (x0, y0), (x1, y1) = self._press, corner
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    # -- mouse -----------------------------------------------------------------------
    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        p = self.snap(*self.table_point(scene_pos))
        if not self.vertices:
            self._press, self._press_view, self._dragging = p, event.position(), False
        elif p != self.vertices[-1]:
            self.vertices.append(p)
            self._redraw()
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        p = self.snap(*self.table_point(scene_pos))
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            moved = event.position() - self._press_view
            if abs(moved.x()) + abs(moved.y()) > DRAG_PIXELS:
                self._dragging = True
            if self._dragging:
                self._redraw(rect_to=p)
            return True
        if self.vertices:
            self._hover = p
            self._redraw()
        return False

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return event.button() == Qt.MouseButton.LeftButton and bool(self.vertices)
        start, self._press = self._press, None
        if self._dragging:
            self._dragging = False
            corner = self.snap(*self.table_point(scene_pos))
            self._press = start
            rect = self._rectangle(corner)
            self._press = None
            if abs(corner[0] - start[0]) > 0 and abs(corner[1] - start[1]) > 0:
                self._finish(rect)
            else:
                self.cancel()
            return True
        self.vertices = [start]
        self._redraw()
        return True

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.close_polygon()
        return True

    def claims_key(self, event: QKeyEvent) -> bool:
        return event.key() in DRAW_KEYS

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.close_polygon()
            return True
        if event.key() == Qt.Key.Key_Backspace and self.vertices:
            self.vertices.pop()
            self._redraw()
            return True
        return super().key_press(event)

    # -- finishing -------------------------------------------------------------------
    def close_polygon(self) -> None:
        if len(self.vertices) < 3:
            self.view.status_message.emit("A polygon needs at least 3 vertices")
            return
        self._finish(list(self.vertices))

    def _finish(self, polygon: list[tuple[float, float]]) -> None:
        problem = polygon_problem(polygon)
        if problem is not None:
            self.view.status_message.emit(f"Not drawn: {problem}")
            self.cancel()
            return
        height = self.ask_height()
        self.cancel()
        if height is None:
            return
        new, new_id = edits.add_terrain(self.scenario, self.kind, polygon, height)
        self.document.edit(f"Draw {self.kind}", new)
        self.document.set_selection([new_id])

    def ask_height(self) -> float | None:
        return OBSTACLE_HEIGHT

    def cancel(self) -> None:
        self.vertices = []
        self._press, self._hover, self._dragging = None, None, False
        if self._outline is not None:
            self.scene.removeItem(self._outline)
            self._outline = None


class DrawObstacleTool(DrawTerrainTool):
    kind = "obstacle"
    name = "Draw obstacle"
    key = "O"
    tooltip = ("Draw an obstacle: click vertices, double-click or Enter closes; "
               "drag for a rectangle (O)")


class DrawPlatformTool(DrawTerrainTool):
    kind = "platform"
    name = "Draw platform"
    key = "P"
    tooltip = ("Draw a platform: click vertices, double-click or Enter closes; "
               "drag for a rectangle; then give its height (P)")

    def ask_height(self) -> float | None:
        value, ok = QInputDialog.getDouble(self.view, "Platform height",
                                           "Height above the floor (inches):", 3.0, 0.1,
                                           100.0, 2)
        return float(value) if ok else None
