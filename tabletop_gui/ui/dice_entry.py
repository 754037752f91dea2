"""Dice of the attack: roll digital dice (seeded) or enter the physical dice one by one.

Digits typed while the widget (or the attack flow's window shortcut) has them enter the
next die; faces of ten or more take two digits (or one digit then Space). Each die is
shown with what it was for and its outcome once the attack is resolved. A face the
rules refuse is not entered, and the rules' message is shown.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.model.attack_state import SEED_LIMIT, AttackState

CHOICE_STYLE = "background: #F0E442; color: black; padding: 2px;"
REFUSED_STYLE = "color: #D55E00; font-weight: bold;"  # Okabe-Ito vermillion
OUTCOME_MARK = {"miss": "·", "hit": "✔", "critical": "★"}
MAX_FACE_BUTTONS = 20
FRESH = -1  # the seed box's value for "a fresh seed from the system at every roll"


def die_text(face: int, sides: int | None, label: str, outcome: str) -> str:
    size = f"d{sides} " if sides else ""
    mark = OUTCOME_MARK.get(outcome, "")
    tail = f" → {outcome} {mark}".rstrip() if outcome else ""
    return f"{label}: {size}{face}{tail}"


class DiceEntry(QWidget):
    """Roll button, editable seed, the dice so far, face buttons for the next die."""

    refused = Signal(str)

    def __init__(self, state: AttackState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._pending = ""  # digits typed toward a face of ten or more
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setToolTip("Dice: R rolls; type digits to enter the physical dice one by one; "
                        "Backspace removes the last")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setToolTip("Roll digital dice (R): a fresh seed from the system for "
                                    "every roll, unless a seed is fixed")
        self.roll_button.clicked.connect(self.roll)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(FRESH, SEED_LIMIT)
        self.seed_box.setSpecialValueText("fresh seed")  # shown at FRESH
        self.seed_box.setPrefix("seed ")
        self.seed_box.setToolTip("Seed of the next digital roll: \"fresh seed\" takes a new one "
                                 "from the system for every roll; type a number to fix it (the "
                                 "same seed gives the same dice on every machine)")
        self.seed_box.setAccessibleName("Seed")
        self.seed_box.valueChanged.connect(
            lambda v: state.set_seed(None if v == FRESH else v))
        self.undo_die_button = QToolButton()
        self.undo_die_button.setText("⌫")
        self.undo_die_button.setToolTip("Remove the last die entered (Backspace)")
        self.undo_die_button.clicked.connect(state.remove_last_die)
        self.clear_button = QToolButton()
        self.clear_button.setText("Clear dice")
        self.clear_button.setToolTip("Forget the dice rolled or entered")
        self.clear_button.clicked.connect(state.clear_dice)
        for w in (self.roll_button, self.seed_box, self.undo_die_button, self.clear_button):
            top.addWidget(w)
        layout.addLayout(top)
        self.next_label = QLabel("")
        self.next_label.setToolTip("The die the rules ask for next")
        layout.addWidget(self.next_label)
        self.faces_row = QHBoxLayout()
        self.faces_row.setSpacing(2)
        layout.addLayout(self.faces_row)
        self.face_buttons: list[QToolButton] = []
        self.choice_label = QLabel("")
        self.choice_label.setWordWrap(True)
        self.choice_label.setStyleSheet(CHOICE_STYLE)
        self.choice_label.setToolTip("These dice call for a choice; it changes the result")
        layout.addWidget(self.choice_label)
        self.choices_row = QHBoxLayout()
        layout.addLayout(self.choices_row)
        self.choice_buttons: list[QToolButton] = []
        self.message_label = QLabel("")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(REFUSED_STYLE)
        self.message_label.setToolTip("Why the rules refused the last die")
        layout.addWidget(self.message_label)
        self.dice_label = QLabel("")
        self.dice_label.setWordWrap(True)
        self.dice_label.setToolTip("Each die with what it was for and its outcome")
        self.dice_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.dice_label)
        state.subscribe(self.refresh)
        self.refresh()

    # -- actions -----------------------------------------------------------------------
    def roll(self) -> None:
        self._pending = ""
        self.state.roll()

    def enter_face(self, face: int) -> bool | None:
        """Enter one die: True or False once the rules took or refused it (``refused``
        says why), None while a worker judges it."""
        self._pending = ""
        return self.state.enter_die(face, refused=self.refused.emit)

    def type_digit(self, digit: int) -> None:
        """One keyboard digit toward the next die (two digits for faces of ten or more)."""
        sides = self.state.next_die[0] if self.state.next_die is not None else 6
        text = self._pending + str(digit)
        if int(text) * 10 > sides or len(text) >= len(str(sides)):
            self.enter_face(int(text))
        else:
            self._pending = text
            self.refresh()

    def commit_pending(self) -> bool | None:
        if not self._pending:
            return False
        return self.enter_face(int(self._pending))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        if Qt.Key.Key_0 <= key <= Qt.Key.Key_9:
            self.type_digit(key - Qt.Key.Key_0)
        elif key == Qt.Key.Key_Space and self._pending:
            self.commit_pending()
        elif key == Qt.Key.Key_Backspace:
            if self._pending:
                self._pending = ""
                self.refresh()
            else:
                self.state.remove_last_die()
        else:
            super().keyPressEvent(event)

    # -- binding -----------------------------------------------------------------------
    def refresh(self) -> None:
        st = self.state
        ready = st.report is not None
        self.roll_button.setEnabled(ready)
        shown = FRESH if st.seed is None else st.seed
        if self.seed_box.value() != shown:
            self.seed_box.blockSignals(True)
            self.seed_box.setValue(shown)
            self.seed_box.blockSignals(False)
        self.undo_die_button.setEnabled(bool(st.dice))
        self.clear_button.setEnabled(bool(st.dice))
        if not ready:
            self.next_label.setText("")
        elif st.next_die is not None:
            sides, label = st.next_die
            typed = f" — typed {self._pending}…" if self._pending else ""
            self.next_label.setText(f"Next die: {label} (d{sides}){typed}")
        elif st.resolution is not None:
            self.next_label.setText("All dice in.")
        else:
            self.next_label.setText("")
        self._face_buttons(st.next_die[0] if ready and st.next_die is not None else 0)
        lines = [die_text(d.face, d.sides, d.label, d.outcome) for d in st.entered]
        if st.rolled_seed is not None:
            lines.insert(0, f"Rolled with seed {st.rolled_seed}:")
        if st.resolution is not None:
            res = st.resolution
            lines.append(f"<b>damage {res.damage}"
                         f"{', taken down' if res.taken_down else ''}</b>")
            lines.extend(f"&nbsp;&nbsp;{step}" for step in res.steps)
        self.dice_label.setText("<br>".join(lines))
        self.message_label.setText(st.message)
        self._choices()

    def _choices(self) -> None:
        """Buttons for every choice the dice call for (e.g. the limb on a chooser's face)."""
        for b in self.choice_buttons:
            self.choices_row.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.choice_buttons = []
        asks = self.state.pending_choices
        self.choice_label.setVisible(bool(asks))
        if not asks:
            return
        self.choice_label.setText("Choose: " + "; ".join(a.why for a in asks))
        shown: set[tuple[str, str]] = set()
        for ask in asks:
            current = self.state.answers.get(ask.key, ask.default)
            for choice, label in zip(ask.choices, ask.labels, strict=True):
                if (ask.key, choice) in shown:
                    continue
                shown.add((ask.key, choice))
                b = QToolButton()
                b.setText(label)
                b.setCheckable(True)
                b.setChecked(choice == current)
                b.setToolTip(f"{ask.key} = {choice}")
                b.clicked.connect(
                    lambda _=False, k=ask.key, c=choice: self.state.answer_choice(k, c))
                self.choices_row.addWidget(b)
                self.choice_buttons.append(b)

    def _face_buttons(self, sides: int) -> None:
        """Buttons 1..sides for the next die (hidden when no die is asked for)."""
        count = sides if sides <= MAX_FACE_BUTTONS else 0
        while len(self.face_buttons) < count:
            face = len(self.face_buttons) + 1
            b = QToolButton()
            b.setText(str(face))
            b.setToolTip(f"Enter a {face} for the next die (key {face})")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _=False, f=face: self.enter_face(f))
            self.faces_row.addWidget(b)
            self.face_buttons.append(b)
        for face, b in enumerate(self.face_buttons, start=1):
            b.setVisible(face <= count)
