"""Bound editors of the Inspector: a widget, how to read its value from an entity and
how to build the edited entity from a new value. Editors never write to the document:
they hand the new entity to a commit function that pushes an edit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from tabletop_gui.rules.fields import json_scalar

Reader = Callable[[Any], Any]
Writer = Callable[[Any, Any], Any]
Commit = Callable[["Binding", Any], None]


@dataclass
class Binding:
    """One editor: ``read(entity)`` gives its value, ``write(entity, value)`` the edited
    entity (or raises ValueError with a message). ``shows(value)``: the widget shows
    that value already (then ``load`` leaves it alone)."""

    label: str
    widget: QWidget
    read: Reader
    write: Writer
    set_value: Callable[[Any], None]
    shows: Callable[[Any], bool] | None = None

    def load(self, entity: Any) -> None:
        """Show the entity's value; a widget that shows it already is not set again (a
        model moved reloads its form: the fields but x and y were set and repainted,
        ~1 ms of a move on a 2,000-fighter board)."""
        value = self.read(entity)
        if self.shows is not None and self.shows(value):
            return
        self.widget.blockSignals(True)
        try:
            self.set_value(value)
        finally:
            self.widget.blockSignals(False)


def text_field(label: str, read: Reader, write: Writer, commit: Commit) -> Binding:
    w = QLineEdit()
    b = Binding(label, w, read, write, lambda v: w.setText("" if v is None else str(v)),
                lambda v: w.text() == ("" if v is None else str(v)))
    w.editingFinished.connect(lambda: commit(b, w.text()))
    return b


def number_field(label: str, read: Reader, write: Writer, commit: Commit, *,
                 minimum: float = -1e6, maximum: float = 1e6, decimals: int = 2,
                 step: float = 0.1, suffix: str = "", none_text: str = "") -> Binding:
    """A decimal number; with ``none_text`` the lowest value stands for "not set"."""
    w = QDoubleSpinBox()
    w.setDecimals(decimals)
    w.setSingleStep(step)
    w.setKeyboardTracking(False)
    w.setSuffix(suffix)
    low = minimum - step if none_text else minimum
    w.setRange(low, maximum)
    if none_text:
        w.setSpecialValueText(none_text)

    def set_value(v: Any) -> None:
        w.setValue(low if v is None else float(v))

    def shows(v: Any) -> bool:  # (the spin box keeps a value rounded to its decimals)
        return w.value() == (low if v is None else round(float(v), decimals))

    def changed(v: float) -> None:
        commit(b, None if none_text and v <= low + 1e-9 else v)

    b = Binding(label, w, read, write, set_value, shows)
    w.valueChanged.connect(changed)
    return b


def int_field(label: str, read: Reader, write: Writer, commit: Commit, *,
              minimum: int = 0, maximum: int = 999, none_text: str = "") -> Binding:
    w = QSpinBox()
    w.setKeyboardTracking(False)
    low = minimum - 1 if none_text else minimum
    w.setRange(low, maximum)
    if none_text:
        w.setSpecialValueText(none_text)

    def set_value(v: Any) -> None:
        w.setValue(low if v is None else int(v))

    def shows(v: Any) -> bool:
        return w.value() == (low if v is None else int(v))

    def changed(v: int) -> None:
        commit(b, None if none_text and v == low else v)

    b = Binding(label, w, read, write, set_value, shows)
    w.valueChanged.connect(changed)
    return b


def bool_field(label: str, read: Reader, write: Writer, commit: Commit) -> Binding:
    w = QCheckBox()
    b = Binding(label, w, read, write, lambda v: w.setChecked(bool(v)),
                lambda v: w.isChecked() == bool(v))
    w.toggled.connect(lambda v: commit(b, bool(v)))
    return b


def choice_field(label: str, choices: Sequence[tuple[str, Any]], read: Reader, write: Writer,
                 commit: Commit) -> Binding:
    w = QComboBox()
    for text, data in choices:
        w.addItem(text, data)

    def set_value(v: Any) -> None:
        i = w.findData(v)
        if i < 0:
            w.addItem(str(v), v)
            i = w.count() - 1
        w.setCurrentIndex(i)

    def shows(v: Any) -> bool:
        i = w.findData(v)
        return i >= 0 and i == w.currentIndex()

    b = Binding(label, w, read, write, set_value, shows)
    w.currentIndexChanged.connect(lambda _i: commit(b, w.currentData()))
    return b


def parse_list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def traits_text(traits: Sequence[Any]) -> str:
    parts = []
    for t in traits:
        if isinstance(t, dict):
            parts += [f"{k}={v}" for k, v in t.items()]
        else:
            parts.append(str(t))
    return ", ".join(parts)


def parse_traits(text: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for part in parse_list(text):
        if "=" in part:
            k, v = part.split("=", 1)
            out.append({k.strip(): json_scalar(v)})
        else:
            out.append(part)
    return tuple(out)
