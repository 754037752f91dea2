"""The Attack panel: attacker, weapon, target, situational options, checklist, modifiers,
the table row used, the dice, and Apply. It binds to an ``AttackState`` and never writes
to the document itself (Apply is a signal the attack flow turns into one edit).

While a worker judges the targets, the target list follows at most every
``TARGETS_REFRESH_MS`` (a list of a thousand enemies is not rebuilt for every piece of the
scan), and at once when the scan is complete."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.model.attack_state import AttackState
from tabletop_gui.rules.base import Check
from tabletop_gui.ui.choice_list import ChoiceList
from tabletop_gui.ui.dice_entry import DiceEntry
from tabletop_gui.ui.option_widgets import OptionsForm

OK_COLOR = QColor("#009E73")  # Okabe-Ito bluish green
FAIL_COLOR = QColor("#D55E00")  # Okabe-Ito vermillion
ROW_STYLE = "background: #F0E442; color: black; padding: 3px; font-weight: bold;"
DEFAULT_WEAPON = "(default weapon)"
NO_OFFHAND = "(none)"
NO_TARGET = "(no target)"
PENDING = "Judging the attack…"
TARGETS_REFRESH_MS = 250


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"


def check_row(check: Check) -> list[str]:
    """Columns of one checklist row: mark, rule, sentence, numbers, margin."""
    numbers = ""
    if check.value is not None and check.threshold is not None:
        numbers = f"{_num(check.value)} vs {_num(check.threshold)}"
    margin = "" if check.margin is None else f"{check.margin:+.2f}"
    return ["✔" if check.ok else "✖", check.rule, check.text, numbers, margin]


class AttackPanel(QWidget):
    """Binds the widgets of an attack to an ``AttackState``."""

    apply_requested = Signal()

    def __init__(self, state: AttackState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._updating = False
        self._signatures: dict[str, object] = {}  # what each combo shows: skip refills
        self._attackers_of: tuple[object, list[tuple[str, str | None]]] = (None, [])
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.attacker_combo = QComboBox()
        self.attacker_combo.setObjectName("attacker")
        self.attacker_combo.setToolTip("The attacker (or select it on the canvas)")
        self.weapon_combo = QComboBox()
        self.weapon_combo.setObjectName("weapon")
        self.weapon_combo.setToolTip("The attacker's weapon; default: the first weapon "
                                     "that can make a valid attack")
        self.offhand_combo = QComboBox()
        self.offhand_combo.setObjectName("offhand")
        self.offhand_combo.setToolTip("A weapon in the other hand, when the ruleset uses one")
        self.target_combo = QComboBox()
        self.target_combo.setObjectName("target")
        self.target_combo.setToolTip("The target (click it on the canvas, or Tab cycles "
                                     "the valid targets)")
        form.addRow("&Attacker", self.attacker_combo)
        form.addRow("&Weapon", self.weapon_combo)
        self.offhand_label = QLabel("Off-&hand")
        self.offhand_label.setBuddy(self.offhand_combo)
        form.addRow(self.offhand_label, self.offhand_combo)
        form.addRow("&Target", self.target_combo)
        layout.addLayout(form)
        for combo in (self.attacker_combo, self.weapon_combo, self.offhand_combo,
                      self.target_combo):
            combo.setModel(ChoiceList(combo))
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.attacker_combo.activated.connect(self._attacker_chosen)
        self.weapon_combo.activated.connect(self._weapon_chosen)
        self.offhand_combo.activated.connect(self._offhand_chosen)
        self.target_combo.activated.connect(self._target_chosen)

        self.options_box = QGroupBox("Situation")
        self.options_box.setToolTip("The ruleset's situational options for this attack")
        self.options_form = OptionsForm(state)
        box_layout = QVBoxLayout(self.options_box)
        box_layout.addWidget(self.options_form)
        layout.addWidget(self.options_box)

        self.verdict_label = QLabel("")
        self.verdict_label.setToolTip("Whether the rules allow this attack now")
        self.verdict_label.setWordWrap(True)
        layout.addWidget(self.verdict_label)
        self.checklist = QTreeWidget()
        self.checklist.setHeaderLabels(["", "rule", "check", "numbers", "margin"])
        self.checklist.setRootIsDecorated(False)
        self.checklist.setToolTip("Every target rule, ✔ met or ✖ failed, with its numbers "
                                  "and by how much")
        self.checklist.setMinimumHeight(110)
        layout.addWidget(self.checklist, 2)
        self.modifiers = QTreeWidget()
        self.modifiers.setHeaderLabels(["modifier", "effect", "why"])
        self.modifiers.setRootIsDecorated(False)
        self.modifiers.setToolTip("Every modifier applied, with its reason")
        self.modifiers.setMinimumHeight(55)
        layout.addWidget(self.modifiers, 1)
        self.table_row_label = QLabel("")
        self.table_row_label.setToolTip("The row of the ruleset's table used for this attack")
        self.table_row_label.setWordWrap(True)
        layout.addWidget(self.table_row_label)

        self.dice = DiceEntry(state)
        dice_box = QGroupBox("Dice")
        dice_box.setToolTip(self.dice.toolTip())
        QVBoxLayout(dice_box).addWidget(self.dice)
        layout.addWidget(dice_box)
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Apply the damage to the document (one undoable edit; "
                                     "Enter)")
        self.apply_button.clicked.connect(self.apply_requested)
        layout.addWidget(self.apply_button)
        state.subscribe(self.refresh)
        self._targets_timer = QTimer(self)
        self._targets_timer.setSingleShot(True)
        self._targets_timer.setInterval(TARGETS_REFRESH_MS)
        self._targets_timer.timeout.connect(self.refresh_targets)
        self._targets_shown: tuple[object, bool] = (None, False)  # (scan plan, verdicts)
        self._targets_for: tuple[object, ...] = ()  # (attacker, target, choice) listed
        # the target list's rows and tooltips, and the scan state they were made from
        self._target_rows: tuple[object, list[tuple[str, str | None]], dict[str, str]] = (
            None, [], {})
        state.subscribe_scan(self._scan_progressed)
        self.refresh()

    def _scan_progressed(self) -> None:
        """More targets judged: the list follows while the verdicts come (at most every
        ``TARGETS_REFRESH_MS``), once they are all in, and when the scan is complete
        (the tooltips); the full reports in between change no mark."""
        scan = self.state.scan
        if scan.complete:
            self._targets_timer.stop()
            self.refresh_targets()
        elif (not scan.verdicts_known or self._targets_shown != (scan.plan, True)) \
                and not self._targets_timer.isActive():
            self._targets_timer.start()

    # -- user choices ------------------------------------------------------------------
    def _attacker_chosen(self, index: int) -> None:
        self.state.set_attacker(self.attacker_combo.itemData(index))

    def _weapon_chosen(self, index: int) -> None:
        self.state.set_weapon(self.weapon_combo.itemData(index))

    def _offhand_chosen(self, index: int) -> None:
        self.state.set_offhand(self.offhand_combo.itemData(index))

    def _target_chosen(self, index: int) -> None:
        self.state.set_target(self.target_combo.itemData(index))

    # -- binding -----------------------------------------------------------------------
    def refresh(self) -> None:
        if self._updating:
            return
        self._updating = True
        try:
            self._refresh_choices()
            self._refresh_report()
        finally:
            self._updating = False

    def _fill(self, combo: QComboBox, items: list[tuple[str, str | None]], current: str | None,
              tooltips: dict[str, str] | None = None) -> None:
        model = combo.model()
        assert isinstance(model, ChoiceList)
        signature = tuple(items)
        combo.blockSignals(True)
        try:
            if self._signatures.get(combo.objectName()) == signature:
                if tooltips and self.state.scan.complete:
                    model.set_tooltips(tooltips)
            else:
                self._signatures[combo.objectName()] = signature
                model.set_rows(items, tooltips)
            index = max(0, model.row_of(current))
            if combo.currentIndex() != index:
                combo.setCurrentIndex(index)
        finally:
            combo.blockSignals(False)

    def _refresh_choices(self) -> None:
        st = self.state
        self._fill(self.attacker_combo, self._attackers(), st.attacker)
        weapons = st.weapon_names()
        self._fill(self.weapon_combo, [(DEFAULT_WEAPON, None)] + [(w, w) for w in weapons],
                   st.weapon)
        self._enable_choices()
        offhands = st.offhand_choices()
        if st.offhand is not None and st.offhand not in offhands:
            offhands.append(st.offhand)
        shown = bool(offhands)
        self.offhand_combo.setVisible(shown)
        self.offhand_label.setVisible(shown)
        self._fill(self.offhand_combo, [(NO_OFFHAND, None)] + [(w, w) for w in offhands],
                   st.offhand)
        if not self.state.hold_reports:  # a drag under way: the list once it rests
            if self._targets_for != self._target_choice():
                self.refresh_targets()  # another attacker, target or weapon: now
            elif not self._targets_timer.isActive():
                self._targets_timer.start()  # the same list, maybe re-judged: soon

    def _target_choice(self) -> tuple[object, ...]:
        st = self.state
        plan = st.scan.plan
        return (st.attacker, st.target, plan.key if plan is not None else None)

    def _attackers(self) -> list[tuple[str, str | None]]:
        """Every model on the table, once per scenario value (thousands of rows)."""
        scenario = self.state.scenario
        if self._attackers_of[0] is not scenario:
            models = scenario.models if scenario is not None else ()
            self._attackers_of = (scenario, [("(no attacker)", None)] + [
                (f"{m.name} ({m.id})", m.id) for m in models if not m.taken_down])
        return self._attackers_of[1]

    def refresh_targets(self) -> None:
        """The target list with ✔/✖ per enemy (those scanned so far)."""
        st = self.state
        self._targets_shown = (st.scan.plan, st.scan.verdicts_known)
        self._targets_for = self._target_choice()
        known = (st.scan, st.scan.plan, st.scan.version, st.attacker)
        if self._target_rows[0] != known:  # the rows change with the statuses only
            statuses = st.statuses()
            rows: list[tuple[str, str | None]] = [(NO_TARGET, None)]
            tips: dict[str, str] = {}
            full = st.scan.complete  # tooltips once every report is in (not per drag step)
            for s in statuses:
                m = st.model(s.target)
                mark = "✔" if s.valid else "✖"
                rows.append((f"{mark} {m.name if m else s.target} ({s.target})", s.target))
                if full:
                    tips[s.target] = s.tooltip
            self._target_rows = (known, rows, tips)
        _, items, tips = self._target_rows
        if st.target is not None and all(data != st.target for _, data in items):
            m = st.model(st.target)
            items = [*items, (f"{m.name if m else st.target} ({st.target})", st.target)]
        self._fill(self.target_combo, items, st.target, tips)
        self.target_combo.setEnabled(st.attacker is not None)

    def _enable_choices(self) -> None:
        st = self.state
        for w in (self.weapon_combo, self.target_combo, self.offhand_combo):
            w.setEnabled(st.attacker is not None)

    def _refresh_report(self) -> None:
        st = self.state
        report = st.report
        self.checklist.clear()
        self.modifiers.clear()
        if report is None:
            self.verdict_label.setText(st.message or (
                PENDING if st.pending else "Select an attacker, then a target."))
            self.table_row_label.setText("")
            self.table_row_label.setStyleSheet("")
            self.apply_button.setEnabled(False)
            return
        weapon = f" with {report.weapon}" if report.weapon else ""
        if report.valid:
            self.verdict_label.setText(f"✔ {report.attack_type} attack{weapon}: allowed")
            self.verdict_label.setStyleSheet(f"color: {OK_COLOR.name()}; font-weight: bold;")
        else:
            self.verdict_label.setText(f"✖ {report.attack_type} attack{weapon}: not allowed — "
                                       + "; ".join(report.reasons))
            self.verdict_label.setStyleSheet(f"color: {FAIL_COLOR.name()}; font-weight: bold;")
        for check in report.checks:
            item = QTreeWidgetItem(check_row(check))
            color = OK_COLOR if check.ok else FAIL_COLOR
            item.setForeground(0, QBrush(color))
            if not check.ok:
                item.setForeground(2, QBrush(color))
            item.setToolTip(2, check.text)
            self.checklist.addTopLevelItem(item)
        for mod in report.modifiers:
            item = QTreeWidgetItem([mod.name, mod.effect, mod.why])
            item.setToolTip(2, mod.why)
            self.modifiers.addTopLevelItem(item)
        if not report.modifiers:
            self.modifiers.addTopLevelItem(QTreeWidgetItem(["(none)", "", ""]))
        for tree in (self.checklist, self.modifiers):
            for col in range(tree.columnCount() - 1):
                tree.resizeColumnToContents(col)
        if report.table_row:
            self.table_row_label.setText(f"Table row used: {report.table_row}")
            self.table_row_label.setStyleSheet(ROW_STYLE)
        else:
            self.table_row_label.setText("")
            self.table_row_label.setStyleSheet("")
        self.apply_button.setEnabled(st.can_apply)
        if not report.valid:
            self.apply_button.setToolTip("The rules refuse this attack: "
                                         + "; ".join(report.reasons))
        elif st.resolution is None:
            self.apply_button.setToolTip("Roll or enter the dice first")
        else:
            self.apply_button.setToolTip("Apply the damage to the document (one undoable "
                                         "edit; Enter)")
