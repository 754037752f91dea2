"""Mouse events qtbot lacks: moves with buttons held, drags in steps, double-clicks."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget

NO_MOD = Qt.KeyboardModifier.NoModifier


def _send(widget: QWidget, kind: QEvent.Type, pos: QPoint, button: Qt.MouseButton,
          buttons: Qt.MouseButton, mods: Qt.KeyboardModifier = NO_MOD) -> None:
    local = QPointF(pos)
    ev = QMouseEvent(kind, local, QPointF(widget.mapToGlobal(pos)), button, buttons, mods)
    QApplication.sendEvent(widget, ev)


def move_mouse(widget: QWidget, pos: QPoint, buttons: Qt.MouseButton = Qt.MouseButton.NoButton,
               mods: Qt.KeyboardModifier = NO_MOD) -> None:
    _send(widget, QEvent.Type.MouseMove, pos, Qt.MouseButton.NoButton, buttons, mods)


def press(widget: QWidget, pos: QPoint, mods: Qt.KeyboardModifier = NO_MOD) -> None:
    left = Qt.MouseButton.LeftButton
    _send(widget, QEvent.Type.MouseButtonPress, pos, left, left, mods)


def release(widget: QWidget, pos: QPoint, mods: Qt.KeyboardModifier = NO_MOD) -> None:
    left = Qt.MouseButton.LeftButton
    _send(widget, QEvent.Type.MouseButtonRelease, pos, left, Qt.MouseButton.NoButton, mods)


def drag(widget: QWidget, start: QPoint, end: QPoint, steps: int = 5,
         mods: Qt.KeyboardModifier = NO_MOD) -> None:
    """Press at ``start``, move in steps with the left button held, release at ``end``."""
    press(widget, start, mods)
    for k in range(1, steps + 1):
        p = start + (end - start) * (k / steps)
        move_mouse(widget, p, Qt.MouseButton.LeftButton, mods)
    release(widget, end, mods)


def click(widget: QWidget, pos: QPoint, mods: Qt.KeyboardModifier = NO_MOD) -> None:
    press(widget, pos, mods)
    release(widget, pos, mods)


def double_click(widget: QWidget, pos: QPoint) -> None:
    left = Qt.MouseButton.LeftButton
    press(widget, pos)
    release(widget, pos)
    _send(widget, QEvent.Type.MouseButtonDblClick, pos, left, left)
    release(widget, pos)
