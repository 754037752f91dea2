"""Widgets generated from a ruleset's situational options (``OptionSpec``): check boxes for
bool, spin boxes for numbers, combo boxes for enums, line edits for text; the values go
to the attack controller, and are drawn again from it at every view it publishes."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.attack_view import AttackView
from tabletop_gui.rules import words
from tabletop_gui.rules.fields import FieldError, OptionSpec

OptionWidget = QCheckBox | QSpinBox | QDoubleSpinBox | QComboBox | QLineEdit


def option_label(spec: OptionSpec, ruleset_id: str = "") -> str:
    """The option's name in a player's words ("Attacking models"), ``rules.words``."""
    return words.option_label(ruleset_id, spec.key)


class OptionsForm(QWidget):
    """One widget per situational option of the attack's ruleset, bound to the attack."""

    def __init__(self, attack: AttackController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attack = attack
        self.widgets: dict[str, OptionWidget] = {}
        self._specs: tuple[OptionSpec, ...] = ()
        self._layout = QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._empty = QLabel("(none for this ruleset)")
        self._layout.addRow(self._empty)
        attack.subscribe(self._published)
        self.refresh()

    def _build(self) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self.widgets = {}
        self._empty = QLabel("(none for this ruleset)")
        if not self._specs:
            self._layout.addRow(self._empty)
        for spec in self._specs:
            widget = self._make(spec)
            tip = (f"{words.option_help(self._ruleset(), spec.key, spec.help)}\n"
                   f"(command line: --set {spec.key}=…)")
            widget.setToolTip(tip)
            label = QLabel(option_label(spec, self._ruleset()))
            label.setToolTip(tip)
            self._layout.addRow(label, widget)
            self.widgets[spec.key] = widget
            widget.setAccessibleName(label.text())  # what screen readers say for it

    def _ruleset(self) -> str:
        scenario = self.attack.scenario
        return scenario.ruleset if scenario is not None else ""

    def _make(self, spec: OptionSpec) -> OptionWidget:
        key, rid = spec.key, self._ruleset()
        if spec.kind == "bool":
            box = QCheckBox()
            box.toggled.connect(lambda v, k=key: self._set(k, bool(v)))
            return box
        if spec.kind == "int":
            spin = QSpinBox()
            spin.setRange(int(spec.minimum) if spec.minimum is not None else -999,
                          int(spec.maximum) if spec.maximum is not None else 999)
            # the lowest value may mean something ("automatic" for -1): shown in words
            lowest = words.option_words(rid, key, spin.minimum())
            if lowest != str(spin.minimum()):
                spin.setSpecialValueText(lowest)
            spin.valueChanged.connect(lambda v, k=key: self._set(k, int(v)))
            return spin
        if spec.kind == "number":
            dspin = QDoubleSpinBox()
            dspin.setRange(spec.minimum if spec.minimum is not None else -999.0,
                           spec.maximum if spec.maximum is not None else 999.0)
            dspin.valueChanged.connect(lambda v, k=key: self._set(k, float(v)))
            return dspin
        if spec.kind == "enum":
            combo = QComboBox()
            for choice in spec.choices:
                combo.addItem(words.option_words(rid, key, choice) or "(default)", choice)
            combo.activated.connect(
                lambda i, k=key, c=combo: self._set(k, c.itemData(i)))
            return combo
        edit = QLineEdit()
        edit.editingFinished.connect(lambda k=key, e=edit: self._set(k, e.text()))
        return edit

    def _set(self, key: str, value: Any) -> None:
        if self.attack.option_value(key) == value:
            return
        try:
            self.attack.set_option(key, value)
        except FieldError as e:  # pragma: no cover - widgets only offer valid values
            self.attack.refuse(str(e))

    def _published(self, view: AttackView) -> None:
        self.refresh()

    def refresh(self) -> None:
        specs = self.attack.option_specs
        if specs != self._specs:
            self._specs = specs
            self._build()
        for key, widget in self.widgets.items():
            value = self.attack.option_value(key)
            widget.blockSignals(True)
            if isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            elif isinstance(widget, QSpinBox):
                widget.setValue(int(value))
            elif isinstance(widget, QDoubleSpinBox):
                widget.setValue(float(value))
            elif isinstance(widget, QComboBox):
                widget.setCurrentIndex(max(0, widget.findData(value)))
            else:
                widget.setText(str(value))
            widget.blockSignals(False)
