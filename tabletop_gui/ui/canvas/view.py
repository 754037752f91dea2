"""The battlefield view: zoom on the wheel around the cursor, pan with the middle button
or Space+drag, fit to window; mouse and key events go to the active tool.

A mouse move with a button held (a drag's step) is told before it is handled
(``drag_step``), and a button's release after it is handled (``drag_ended``): the window's
worker waits from the step until the event loop has nothing left to do or the drag ends
(``EngineThread.frame_started``), so that the frame has the interpreter lock to itself."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QWidget

from tabletop_gui.ui.canvas.scene import BattlefieldScene


class Tool(Protocol):
    """What the view asks of its active tool (``tools.base.Tool`` and its subclasses; the
    tools know the view, the view only this)."""

    cursor: Qt.CursorShape

    def activate(self) -> None: ...
    def deactivate(self) -> None: ...
    def claims_key(self, event: QKeyEvent) -> bool: ...
    def key_press(self, event: QKeyEvent) -> bool: ...
    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool: ...
    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool: ...
    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool: ...
    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool: ...

ZOOM_STEP = 1.15
MIN_SCALE, MAX_SCALE = 0.05, 40.0


class BattlefieldView(QGraphicsView):
    """Shows a BattlefieldScene; the active Tool interprets clicks, drags and keys."""

    zoom_changed = Signal(float)
    status_message = Signal(str)
    context_menu_requested = Signal(QPointF, QPoint)  # scene point, global screen point
    drag_step = Signal()  # a mouse move with a button held, before it is handled
    drag_ended = Signal()  # a mouse button released, after it is handled

    def __init__(self, scene: BattlefieldScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, False)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self._tool: Tool | None = None
        self._panning = False
        self._space_down = False
        self._pan_last = QPoint()
        self._fit_pending = True
        # labels keep their size on screen: where they fit depends on the zoom
        self.zoom_changed.connect(scene.labels.set_zoom)
        scene.labels.set_zoom(self.zoom)

    @property
    def battlefield_scene(self) -> BattlefieldScene:
        s = self.scene()
        assert isinstance(s, BattlefieldScene)
        return s

    # -- tools -----------------------------------------------------------------------
    @property
    def tool(self) -> Tool | None:
        return self._tool

    def set_tool(self, tool: Tool | None) -> None:
        if self._tool is tool:
            return
        if self._tool is not None:
            self._tool.deactivate()
        self._tool = tool
        if tool is not None:
            tool.activate()
            self.viewport().setCursor(tool.cursor)

    # -- zoom and pan ----------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        new = max(MIN_SCALE, min(MAX_SCALE, self.zoom * factor))
        factor = new / self.zoom
        if factor != 1.0:
            self.scale(factor, factor)
            self.zoom_changed.emit(self.zoom)

    def fit_to_window(self) -> None:
        bf = self.battlefield_scene.sceneRect()
        self.fitInView(QRectF(bf), Qt.AspectRatioMode.KeepAspectRatio)
        self._fit_pending = False
        self.zoom_changed.emit(self.zoom)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        dy = event.angleDelta().y()
        if dy == 0:
            return super().wheelEvent(event)
        self.zoom_at(event.position().toPoint(), ZOOM_STEP ** (dy / 120.0))
        event.accept()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self._fit_pending:
            self.fit_to_window()
            self._fit_pending = True  # keep fitting until the user zooms or pans

    def _start_pan(self, pos: QPoint) -> None:
        self._panning = True
        self._fit_pending = False
        self._pan_last = pos
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _pan_to(self, pos: QPoint) -> None:
        delta = pos - self._pan_last
        self._pan_last = pos
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())

    # -- events ----------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        """A key the active tool uses now (Enter closing a polygon, Esc cancelling) is
        claimed before Qt matches it against the window's shortcuts: accepting the
        ShortcutOverride makes Qt deliver it to ``keyPressEvent`` instead."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and self._tool is not None and self._tool.claims_key(event):
            event.accept()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_down
        ):
            self._start_pan(event.position().toPoint())
            event.accept()
            return
        if self._tool is not None and self._tool.mouse_press(event, self.mapToScene(
                event.position().toPoint())):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.buttons() != Qt.MouseButton.NoButton:
            self.drag_step.emit()
        if self._panning:
            self._pan_to(event.position().toPoint())
            event.accept()
            return
        if self._tool is not None and self._tool.mouse_move(event, self.mapToScene(
                event.position().toPoint())):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        try:
            self._mouse_release(event)
        finally:
            self.drag_ended.emit()

    def _mouse_release(self, event: QMouseEvent) -> None:
        if self._panning:
            self._panning = False
            cursor = self._tool.cursor if self._tool else Qt.CursorShape.ArrowCursor
            self.viewport().setCursor(
                Qt.CursorShape.OpenHandCursor if self._space_down else cursor)
            event.accept()
            return
        if self._tool is not None and self._tool.mouse_release(event, self.mapToScene(
                event.position().toPoint())):
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._tool is not None and self._tool.mouse_double_click(event, self.mapToScene(
                event.position().toPoint())):
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802
        self.context_menu_requested.emit(self.mapToScene(event.pos()), event.globalPos())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        if self._tool is not None and self._tool.key_press(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
            cursor = self._tool.cursor if self._tool else Qt.CursorShape.ArrowCursor
            self.viewport().setCursor(cursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    def zoom_at(self, view_pos: QPoint, factor: float) -> None:
        """Zoom keeping the scene point under ``view_pos`` fixed (the wheel's behaviour)."""
        before = self.mapToScene(view_pos)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        try:
            self.zoom_by(factor)
        finally:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        drift = self.mapFromScene(before) - view_pos
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())
        self._fit_pending = False
