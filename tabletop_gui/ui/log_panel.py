"""The Log panel: what happened, in order (attacks applied, with their geometry facts,
modifiers, dice and result), saved as plain text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.rules import registry, words
from tabletop_gui.rules.base import AttackReport, Resolution, RulesError
from tabletop_gui.scenario.entities import Scenario


def _name(scenario: Scenario | None, model_id: str) -> str:
    m = scenario.model(model_id) if scenario is not None else None
    return f"{m.name} ({model_id})" if m is not None else model_id


def cover_words(cover: str, cover_by: tuple[str, ...] | list[str],
                 scenario: Scenario | None) -> str:
    """"not in cover", "in cover, given by Low wall (w1)", "in soft cover, given by ..."."""
    if cover == "none":
        return "not in cover"
    words = "in cover" if cover == "cover" else f"in {cover} cover"
    if not cover_by:
        return words
    names = []
    for terrain_id in cover_by:
        entity = scenario.entity(terrain_id) if scenario is not None else None
        name = getattr(entity, "name", "") if entity is not None else ""
        names.append(f"{name} ({terrain_id})" if name else terrain_id)
    return f"{words}, given by {', '.join(names)}"


def attack_entry(report: AttackReport, resolution: Resolution, scenario: Scenario | None,
                 seed: int | None, number: int) -> str:
    """One attack as the log prints it: who, with what, on whom, why, the dice, the result,
    in a player's words (``rules.words``), never the rules' internal keys."""
    rid = report.ruleset
    f = report.facts
    lines = [f"#{number} {_ruleset_name(rid)}: {_name(scenario, report.attacker)} attacks "
             f"{_name(scenario, report.target)} with {report.weapon or '(bare)'}"
             + (f" and {report.offhand}" if report.offhand else "")
             + f" ({words.attack_type_words(rid, report.attack_type)})"]
    geo = [f'distance {f.distance:.3f}" (horizontal {f.horizontal_distance:.3f}", '
           f'vertical {f.vertical_distance:.3f}")',
           f"engaged {'yes' if f.engaged else 'no'}",
           f"visible {'yes' if f.visible else 'no'}",
           cover_words(f.cover, f.cover_by, scenario)]
    if f.flanked:
        geo.append("flanked")
    if f.arc is not None:
        geo.append(f"{words.arc_words(f.arc)} arc")
    if f.spaces is not None:
        geo.append(f"{f.spaces} spaces")
    lines.append("  geometry: " + ", ".join(geo))
    for c in report.checks:
        lines.append(f"  {'✔' if c.ok else '✖'} {words.check_sentence(rid, c)}")
    for m in report.modifiers:
        lines.append(f"  modifier {m.name}: {words.player_text(m.effect, capital=False)} "
                     f"({words.player_text(m.why, capital=False)})")
    if report.table_row:
        lines.append(f"  table row: {report.table_row}")
    source = f"rolled, seed {seed}" if seed is not None else "entered"
    dice = ", ".join(f"{d.face} ({d.label}: {words.outcome_words(rid, d.outcome)})"
                     for d in resolution.dice)
    lines.append(f"  dice ({source}): {dice or 'none'}")
    for step in resolution.steps:
        lines.append(f"    {words.player_text(step, capital=False)}")
    result = f"  result: {resolution.damage} damage"
    if resolution.taken_down:
        result += f", {_name(scenario, report.target)} taken down"
    lines.append(result)
    for key, value in resolution.extras.items():
        lines.append(f"  {words.extra_words(rid, key, value)}")
    for change in resolution.changes:
        lines.append(f"  {_name(scenario, change.combatant)} now: "
                     f"{words.state_sentence(rid, change.state)}")
    return "\n".join(lines)


def _ruleset_name(ruleset_id: str) -> str:
    try:
        return registry.info(ruleset_id).name
    except RulesError:
        return ruleset_id


class LogPanel(QWidget):
    """An append-only text log with Save."""

    saved = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[str] = []
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        self.text.setToolTip("What happened, in order")
        layout.addWidget(self.text)
        buttons = QHBoxLayout()
        self.save_button = QPushButton("&Save log…")
        self.save_button.setToolTip("Save the log as a text file")
        self.save_button.clicked.connect(self.save_dialog)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Empty the log (the document is not changed)")
        self.clear_button.clicked.connect(self.clear)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(600, 140)

    def add(self, entry: str) -> None:
        self.entries.append(entry)
        self.text.appendPlainText(entry + "\n")

    def clear(self) -> None:
        self.entries = []
        self.text.clear()

    def as_text(self) -> str:
        return "\n\n".join(self.entries) + ("\n" if self.entries else "")

    def save(self, path: Path) -> None:
        path.write_text(self.as_text(), encoding="utf-8")
        self.saved.emit(str(path))

    def save_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save log", "battle-log.txt",
                                              "Text files (*.txt);;All files (*)")
        if name:
            self.save(Path(name))
