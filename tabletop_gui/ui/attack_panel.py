"""The attack card: who attacks whom with what, the verdict in one line, the situation,
the checklist and the modifiers, the odds (big numbers and the distribution plot), the
dice tray, Roll and Apply, all in one panel that fits a laptop's screen with no
horizontal scrolling (long texts are elided, whole in their tooltips).

The choices (attacker, weapon, off-hand, target, situation) go to an
``AttackController``; everything else is drawn from the view it publishes (``show_view``,
the fields of ``AttackView``, see ``ui.card_view``) and the target list from the
``TargetScanner``'s statuses: the panel never writes to the document itself (Apply is a
signal the attack flow turns into one edit).

While a worker judges the targets, the target list follows at most every
``TARGETS_REFRESH_MS`` (a list of a thousand enemies is not rebuilt for every piece of the
scan), and at once when the scan is complete."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.attack_view import AttackView
from tabletop_gui.model.target_scanner import TargetScanner
from tabletop_gui.rules import words
from tabletop_gui.rules.base import Check, Modifier
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.ui.card_view import ShownAttack, same, view_of
from tabletop_gui.ui.choice_list import ChoiceList
from tabletop_gui.ui.dice_entry import DiceEntry
from tabletop_gui.ui.elided_label import ElidedLabel
from tabletop_gui.ui.odds_panel import OddsPanel
from tabletop_gui.ui.option_widgets import OptionsForm

OK_COLOR = QColor("#009E73")  # Okabe-Ito bluish green
FAIL_COLOR = QColor("#D55E00")  # Okabe-Ito vermillion
ROW_BACKGROUND = "#F0E442"  # Okabe-Ito yellow
DEFAULT_WEAPON = "(default weapon)"
NO_OFFHAND = "(none)"
NO_TARGET = "(no target)"
PENDING = "Judging the attack…"
TARGETS_REFRESH_MS = 250
MODIFIER_ROWS = 3  # the modifiers list shows this many rows before it scrolls
CHECK_ROWS = 6  # and the checklist
CHECK_LINES_KEPT = 512  # checklist rows kept made (``AttackPanel._check_line``)
COMBO_CHARS = 12  # a choice box asks for this many characters of width, no more


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"


def check_row(check: Check, ruleset_id: str = "") -> list[str]:
    """Columns of one checklist row: mark, the sentence in a player's words
    (``rules.words``), numbers (the rule's title, what it asks and the margin are in the
    row's tooltip)."""
    numbers = ""
    if check.value is not None and check.threshold is not None:
        numbers = f"{_num(check.value)} vs {_num(check.threshold)}"
    return ["✔" if check.ok else "✖", words.check_sentence(ruleset_id, check), numbers]


def check_tooltip(check: Check, ruleset_id: str = "") -> str:
    """The row's tooltip: the rule's title and sentence, what the rule asks, the numbers
    and the margin."""
    margin = "" if check.margin is None else f" (margin {check.margin:+.2f})"
    numbers = check_row(check, ruleset_id)[2]
    lines = [f"{words.check_title(ruleset_id, check)}: {words.check_sentence(ruleset_id, check)}",
             words.rule_meaning(ruleset_id, check.rule), f"{numbers}{margin}".strip()]
    return "\n".join(line for line in lines if line)


def modifier_text(mod: Modifier) -> str:
    """One modifier in one line: what it is, what it does, why."""
    why = f" — {mod.why}" if mod.why else ""
    return f"{mod.name}: {mod.effect}{why}"


def _list(columns: int, tooltip: str, name: str) -> QTreeWidget:
    """A list without header and without a horizontal scrollbar: the text column takes
    the width left and elides, the others fit their contents."""
    tree = QTreeWidget()
    tree.setColumnCount(columns)
    tree.setHeaderHidden(True)
    tree.setRootIsDecorated(False)
    tree.setToolTip(tooltip)
    tree.setAccessibleName(name)
    tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    tree.setTextElideMode(Qt.TextElideMode.ElideRight)
    tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    tree.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
    header = tree.header()
    header.setStretchLastSection(False)
    for col in range(columns):
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the text
    return tree


def _combo(name: str, tooltip: str) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name.lower().replace("-", ""))
    combo.setAccessibleName(name)
    combo.setToolTip(tooltip)
    combo.setModel(ChoiceList(combo))
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(COMBO_CHARS)
    combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    return combo


class AttackPanel(QWidget):
    """The attack card: choices sent to an ``AttackController``, the rest drawn from the
    view it publishes and the target scan's statuses."""

    apply_requested = Signal()

    def __init__(self, attack: AttackController, targets: TargetScanner,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attack = attack
        self.targets = targets
        self._updating = False
        self._signatures: dict[str, object] = {}  # what each combo shows: skip refills
        self._attackers_of: tuple[object, list[tuple[str, str | None]]] = (None, [])
        # each model's row, kept while the model is the same object (a drag step
        # replaces one model: the other rows are not made again)
        self._attacker_rows: dict[str, tuple[object, bool, tuple[str, str | None]]] = {}
        self._attackers_ruleset: str | None = None  # the taken-down rule is the ruleset's
        self.setAccessibleName("Attack card")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(3)
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(2)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.attacker_combo = _combo("Attacker", "The attacker (or select it on the canvas)")
        self.weapon_combo = _combo("Weapon", "The attacker's weapon; default: the first "
                                   "weapon that can make a valid attack")
        self.offhand_combo = _combo("Off-hand", "A weapon in the other hand, when the "
                                    "ruleset uses one")
        self.target_combo = _combo("Target", "The target (click it on the canvas, or Tab "
                                   "cycles the valid targets)")
        form.addRow("&Attacker", self.attacker_combo)
        form.addRow("&Weapon", self.weapon_combo)
        self.offhand_label = QLabel("Off-&hand")
        self.offhand_label.setBuddy(self.offhand_combo)
        form.addRow(self.offhand_label, self.offhand_combo)
        form.addRow("&Target", self.target_combo)
        layout.addLayout(form)
        self.attacker_combo.activated.connect(self._attacker_chosen)
        self.weapon_combo.activated.connect(self._weapon_chosen)
        self.offhand_combo.activated.connect(self._offhand_chosen)
        self.target_combo.activated.connect(self._target_chosen)

        self.options_toggle = QToolButton()
        self.options_toggle.setCheckable(True)
        self.options_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.options_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.options_toggle.setAccessibleName("Situation")
        self.options_toggle.setToolTip("The ruleset's situational options for this attack "
                                       "(show or hide them)")
        self.options_toggle.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.options_toggle.toggled.connect(self._toggle_options)
        layout.addWidget(self.options_toggle)
        self.options_form = OptionsForm(attack)
        self.options_form.setToolTip("The ruleset's situational options for this attack")
        self.options_form.hide()
        layout.addWidget(self.options_form)

        self.verdict_label = ElidedLabel()
        self.verdict_label.setToolTip("Whether the rules allow this attack now")
        self.verdict_label.setAccessibleDescription("The verdict")
        layout.addWidget(self.verdict_label)
        self.checklist = _list(3, "Every target rule, ✔ met or ✖ failed, with its numbers "
                               "(hover a row for the rule and the margin)", "Checklist")
        layout.addWidget(self.checklist)
        self.modifiers = _list(2, "Every modifier applied, with its reason", "Modifiers")
        layout.addWidget(self.modifiers)
        self.table_row_label = ElidedLabel()
        self.table_row_label.setToolTip("The row of the ruleset's table used for this attack")
        layout.addWidget(self.table_row_label)

        self.odds = OddsPanel()
        layout.addWidget(self.odds, 1)

        self.dice = DiceEntry(attack)
        layout.addWidget(self.dice)
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setAccessibleName("Apply")
        self.apply_button.setToolTip("Apply the damage to the document (one undoable edit; "
                                     "Enter)")
        self.apply_button.clicked.connect(self.apply_requested)
        self.dice.buttons_row.addStretch(1)
        self.dice.buttons_row.addWidget(self.apply_button)
        self.view: ShownAttack = view_of(attack.current_view)
        self._shown: tuple[object, ...] = ()  # what the verdict and the lists show
        self._drawn: Drawing | None = None  # and how
        self._check_lines: dict[tuple[Check, str], tuple[tuple[str, ...], bool, str]] = {}
        attack.subscribe(self._published)
        self._targets_timer = QTimer(self)
        self._targets_timer.setSingleShot(True)
        self._targets_timer.setInterval(TARGETS_REFRESH_MS)
        self._targets_timer.timeout.connect(self.refresh_targets)
        self._targets_shown: tuple[object, bool] = (None, False)  # (scan plan, verdicts)
        self._targets_for: tuple[object, ...] = ()  # (attacker, target, choice) listed
        # the target list's rows and tooltips, and the scan state they were made from
        # each enemy's row as last made: (its model value, its verdict, the row)
        self._row_of: dict[str, tuple[object, bool, tuple[str, str | None]]] = {}
        self._target_rows: tuple[object, list[tuple[str, str | None]], dict[str, str]] = (
            None, [], {})
        targets.subscribe(self._scan_progressed)
        self.refresh()

    def _toggle_options(self, shown: bool) -> None:
        self.options_form.setVisible(shown)
        self.options_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _options_summary(self) -> None:
        specs, options = self.attack.option_specs, dict(self.attack.choice.options)
        changed = [(s.key.replace("_", " "), options[s.key]) for s in specs
                   if s.key in options]
        if not specs:
            text = "Situation: no options in this ruleset"
        elif not changed:
            text = "Situation: as usual"
        else:
            text = "Situation: " + ", ".join(
                k if v is True else f"{k} {v}" for k, v in changed)
        self.options_toggle.setText(text)
        self.options_toggle.setEnabled(bool(specs))

    def _scan_progressed(self) -> None:
        """More targets judged: the list follows while the verdicts come (at most every
        ``TARGETS_REFRESH_MS``), once they are all in, and when the scan is complete
        (the tooltips); the full reports in between change no mark."""
        scan = self.targets.scan
        if scan.complete:
            self._targets_timer.stop()
            self.refresh_targets()
        elif (not scan.verdicts_known or self._targets_shown != (scan.plan, True)) \
                and not self._targets_timer.isActive():
            self._targets_timer.start()

    # -- user choices ------------------------------------------------------------------
    def _attacker_chosen(self, index: int) -> None:
        self.attack.set_attacker(self.attacker_combo.itemData(index))

    def _weapon_chosen(self, index: int) -> None:
        self.attack.set_weapon(self.weapon_combo.itemData(index))

    def _offhand_chosen(self, index: int) -> None:
        self.attack.set_offhand(self.offhand_combo.itemData(index))

    def _target_chosen(self, index: int) -> None:
        self.attack.set_target(self.target_combo.itemData(index))

    # -- binding -----------------------------------------------------------------------
    def _published(self, view: AttackView) -> None:
        self.refresh()

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
                if tooltips and self.targets.scan.complete:
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
        choice = self.attack.choice
        self._fill(self.attacker_combo, self._attackers(), choice.attacker)
        weapons = self.attack.weapon_names()
        self._fill(self.weapon_combo, [(DEFAULT_WEAPON, None)] + [(w, w) for w in weapons],
                   choice.weapon)
        self._enable_choices()
        offhands = list(self.attack.offhands)
        if choice.offhand is not None and choice.offhand not in offhands:
            offhands.append(choice.offhand)
        shown = bool(offhands)
        self.offhand_combo.setVisible(shown)
        self.offhand_label.setVisible(shown)
        self._fill(self.offhand_combo, [(NO_OFFHAND, None)] + [(w, w) for w in offhands],
                   choice.offhand)
        if not self.targets.hold_reports:  # a drag under way: the list once it rests
            if self._targets_for != self._target_choice():
                self.refresh_targets()  # another attacker, target or weapon: now
            elif not self._targets_timer.isActive():
                self._targets_timer.start()  # the same list, maybe re-judged: soon

    def _target_choice(self) -> tuple[object, ...]:
        choice, plan = self.attack.choice, self.targets.scan.plan
        return (choice.attacker, choice.target, plan.key if plan is not None else None)

    def _attackers(self) -> list[tuple[str, str | None]]:
        """Every model on the table, once per scenario value (thousands of rows)."""
        scenario = self.attack.scenario
        before = self._attackers_of[0]
        if before is not scenario and isinstance(before, Scenario) and scenario is not None \
                and scenario.ruleset == self._attackers_ruleset:
            changed = scenario.models_changed_from(before)  # a drag step: one model
            if changed is not None and all(
                    a.id == b.id and a.name == b.name
                    and before.taken_down(a) == scenario.taken_down(b) for a, b in changed):
                for _, b in changed:
                    known = self._attacker_rows.get(b.id)
                    if known is not None:
                        self._attacker_rows[b.id] = (b, *known[1:])
                self._attackers_of = (scenario, self._attackers_of[1])
        if self._attackers_of[0] is not scenario:
            models = scenario.models if scenario is not None else ()
            ruleset = scenario.ruleset if scenario is not None else None
            kept = self._attacker_rows if ruleset == self._attackers_ruleset else {}
            self._attackers_ruleset, rows = ruleset, {}
            out: list[tuple[str, str | None]] = [("(no attacker)", None)]
            for m in models:
                known = kept.get(m.id)
                if known is None or known[0] is not m:
                    down = scenario is not None and scenario.taken_down(m)
                    known = (m, down, (f"{m.name} ({m.id})", m.id))
                rows[m.id] = known
                if not known[1]:
                    out.append(known[2])
            if out == self._attackers_of[1]:
                out = self._attackers_of[1]  # the same rows: the combo keeps them as they are
            self._attacker_rows, self._attackers_of = rows, (scenario, out)
        return self._attackers_of[1]

    def refresh_targets(self) -> None:
        """The target list with ✔/✖ per enemy (those scanned so far)."""
        scan, choice, model = self.targets.scan, self.attack.choice, self.attack.model
        self._targets_shown = (scan.plan, scan.verdicts_known)
        self._targets_for = self._target_choice()
        known = (scan, scan.plan, scan.version, choice.attacker)
        if self._target_rows[0] != known:  # the rows change with the statuses only
            statuses = self.targets.statuses()
            rows: list[tuple[str, str | None]] = [(NO_TARGET, None)]
            tips: dict[str, str] = {}
            full = scan.complete  # tooltips once every report is in (not per drag step)
            made, kept = self._row_of, {}  # a row per enemy value and verdict, kept
            for s in statuses:
                t = s.target
                m = model(t)
                row = made.get(t)
                if row is None or row[0] is not m or row[1] != s.valid:
                    mark = "✔" if s.valid else "✖"
                    row = (m, s.valid, (f"{mark} {m.name if m else t} ({t})", t))
                kept[t] = row
                rows.append(row[2])
                if full:
                    tips[t] = s.tooltip
            self._row_of = kept
            self._target_rows = (known, rows, tips)
        _, items, tips = self._target_rows
        target = choice.target
        if target is not None and all(data != target for _, data in items):
            m = model(target)
            items = [*items, (f"{m.name if m else target} ({target})", target)]
        self._fill(self.target_combo, items, target, tips)
        self.target_combo.setEnabled(choice.attacker is not None)

    def _enable_choices(self) -> None:
        for w in (self.weapon_combo, self.target_combo, self.offhand_combo):
            w.setEnabled(self.attack.choice.attacker is not None)

    def _refresh_report(self) -> None:
        self._options_summary()
        self.show_view(view_of(self.attack.current_view))

    def show_view(self, view: ShownAttack) -> None:
        """Draw ``view``: verdict, checklist, modifiers, table row, odds, dice, Apply."""
        self.view = view
        self.odds.show_view(view)
        self.dice.show_view(view)
        shown = (view.report, view.message, view.can_apply, view.resolution,
                 self.attack.pending)
        if same(shown, self._shown):
            return
        self._shown = shown
        drawn = self._drawing(view)
        if drawn != self._drawn:  # (a new answer often says the same: a move's, a drag's)
            self._drawn = drawn
            self._draw(drawn)

    def _drawing(self, view: ShownAttack) -> Drawing:
        """What the verdict, the lists, the table row and Apply show of ``view``, as plain
        values (None: left as it is)."""
        report = view.report
        if report is None:
            return Drawing(
                view.can_apply, view.message or (
                    PENDING if self.attack.pending else "Select an attacker, then a target."),
                (None, False, None), "Whether the rules allow this attack now", (), (),
                ("", None, False), None)
        weapon = f" with {report.weapon}" if report.weapon else ""
        kind = words.attack_type_words(report.ruleset, report.attack_type)
        if report.valid:
            verdict = f"✔ {kind} attack{weapon}: allowed"
            look = (OK_COLOR.name(), True, None)
        else:
            verdict = (f"✖ {kind} attack{weapon}: not allowed — " + "; ".join(
                words.check_sentence(report.ruleset, c) for c in report.checks if not c.ok))
            look = (FAIL_COLOR.name(), True, None)
        checks = tuple(self._check_line(c, report.ruleset) for c in report.checks)
        modifiers = tuple((modifier_text(m), f"{m.name}: {m.effect}\n{m.why}".strip())
                          for m in report.modifiers)
        if report.table_row:
            table = (f"Table row used: {report.table_row}", ("#000000", True, ROW_BACKGROUND),
                     True)
        else:
            table = ("", None, False)
        if not report.valid:
            apply_tip = "The rules refuse this attack: " + "; ".join(report.reasons)
        elif view.resolution is None:
            apply_tip = "Roll or enter the dice first"
        else:
            apply_tip = "Apply the damage to the document (one undoable edit; Enter)"
        return Drawing(view.can_apply, verdict, look, verdict, checks, modifiers, table,
                       apply_tip)

    def _check_line(self, check: Check, ruleset_id: str
                    ) -> tuple[tuple[str, ...], bool, str]:
        """A checklist row, its mark and its tooltip, as ``_drawing`` lists them: made
        once per check value (a move's answer repeats most checks of the one before;
        the sentences take a tenth of a millisecond each)."""
        key = (check, ruleset_id)
        line = self._check_lines.get(key)
        if line is None:
            if len(self._check_lines) > CHECK_LINES_KEPT:
                self._check_lines.clear()
            line = self._check_lines[key] = (tuple(check_row(check, ruleset_id)), check.ok,
                                             check_tooltip(check, ruleset_id))
        return line

    def _draw(self, drawn: Drawing) -> None:
        self.checklist.clear()
        self.modifiers.clear()
        self.apply_button.setEnabled(drawn.can_apply)
        self.verdict_label.set_text(drawn.verdict)
        self.verdict_label.set_look(*drawn.look)
        self.verdict_label.setToolTip(drawn.verdict_tip)
        for texts, ok, tooltip in drawn.checks:
            item = QTreeWidgetItem(list(texts))
            color = OK_COLOR if ok else FAIL_COLOR
            item.setForeground(0, QBrush(color))
            if not ok:
                item.setForeground(1, QBrush(color))
            for col in range(3):
                item.setToolTip(col, tooltip)
            self.checklist.addTopLevelItem(item)
        for text, tooltip in drawn.modifiers:
            item = QTreeWidgetItem(["±", text])
            for col in range(2):
                item.setToolTip(col, tooltip)
            self.modifiers.addTopLevelItem(item)
        _fit_rows(self.checklist, len(drawn.checks), CHECK_ROWS)
        _fit_rows(self.modifiers, len(drawn.modifiers), MODIFIER_ROWS)
        text, look, visible = drawn.table
        self.table_row_label.set_text(text)
        if look is not None:
            self.table_row_label.set_look(*look)
        self.table_row_label.setVisible(visible)
        if drawn.apply_tip is not None:
            self.apply_button.setToolTip(drawn.apply_tip)


class Drawing(NamedTuple):
    """What the card's verdict, lists, table row and Apply show (``AttackPanel._drawing``):
    an equal one is not drawn again."""

    can_apply: bool
    verdict: str
    look: tuple[str | None, bool, str | None]  # the verdict's colour, bold, background
    verdict_tip: str
    checks: tuple[tuple[tuple[str, ...], bool, str], ...]  # texts, passed, tooltip
    modifiers: tuple[tuple[str, str], ...]  # text, tooltip
    table: tuple[str, tuple[str, bool, str] | None, bool]  # text, look, shown
    apply_tip: str | None


def _fit_rows(tree: QTreeWidget, rows: int, most: int) -> None:
    """A list as tall as its rows, up to ``most`` (it scrolls beyond); hidden when empty."""
    tree.setVisible(rows > 0)
    if rows:
        drawn = tree.visualItemRect(tree.topLevelItem(0)).height()  # 0 before a layout
        row = max(drawn, tree.sizeHintForRow(0), tree.fontMetrics().height())
        tree.setFixedHeight(min(rows, most) * row + 2 * tree.frameWidth())


def card_area(card: AttackPanel) -> QScrollArea:
    """The card in a frameless area that scrolls only up and down, and only if the
    situation's options are opened on a short screen: never sideways (the card's texts
    elide to its width)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(card)
    area.setAccessibleName("Attack")
    return area
