"""Tiny tests run by test_harness.py in a pytest of their own (named without the
test_ prefix so that the suite does not collect them)."""

import traceback

import pytest
from PySide6.QtCore import QObject, Signal


class Emitter(QObject):
    fired = Signal()


def _raise() -> None:
    raise ValueError("deliberate error in a slot")


@pytest.mark.qt_no_exception_capture
def test_slot_raises_outside_pytest_qt_capture(qtbot):
    e = Emitter()
    e.fired.connect(_raise)
    e.fired.emit()


def test_slot_prints_its_traceback(qtbot):
    def slot():
        try:
            _raise()
        except ValueError:
            traceback.print_exc()
    e = Emitter()
    e.fired.connect(slot)
    e.fired.emit()


def test_slot_raises(qtbot):
    e = Emitter()
    e.fired.connect(_raise)
    e.fired.emit()


def test_clean(qtbot):
    hits = []
    e = Emitter()
    e.fired.connect(lambda: hits.append(1))
    e.fired.emit()
    assert hits == [1]
