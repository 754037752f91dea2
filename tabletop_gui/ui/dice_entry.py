"""Dice of the attack: roll digital dice (seeded) or enter the physical dice one by one.

Digits typed while the widget (or the attack flow's window shortcut) has them enter the
next die; faces of ten or more take two digits (or one digit then Space). The dice are
drawn in the dice tray (``ui.dice_tray``), grouped by step, with what the next die is
for. A face the rules refuse is not entered, and the rules' message is shown.

What is drawn comes from a view (``show_view``, see ``ui.card_view``); the actions go to
the ``AttackController`` (roll, enter, remove, clear, answer a choice, fix the seed).
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

from tabletop_gui.model.attack_controller import SEED_LIMIT, AttackController
from tabletop_gui.ui.card_view import CardView, ShownAttack
from tabletop_gui.ui.dice_tray import DiceTray
from tabletop_gui.ui.elided_label import ElidedLabel

CHOICE_BACKGROUND = "#F0E442"  # Okabe-Ito yellow
REFUSED_STYLE = "color: #D55E00; font-weight: bold;"  # Okabe-Ito vermillion
MAX_FACE_BUTTONS = 12  # a die with more faces is typed (digits, then Space)
FACE_BUTTON_WIDTH = 28
FRESH = -1  # the seed box's value for "a fresh seed from the system at every roll"


def result_text(view: ShownAttack) -> str:
    """The line under the tray: the seed of a roll and the result once every die is in."""
    res = view.resolution
    seed = view.dice.seed
    head = f"Rolled with seed {seed}" if seed is not None else (
        "Dice entered" if view.dice.faces else "")
    if res is None:
        return f"{head}:" if head and view.dice.faces else ""
    result = f"{res.damage} damage{', taken down' if res.taken_down else ''}"
    return f"{head}: {result}" if head else result


class DiceEntry(QWidget):
    """The dice tray, what the next die is for, face buttons, Roll and the seed."""

    refused = Signal(str)

    def __init__(self, attack: AttackController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attack = attack
        self.view: ShownAttack = CardView()
        self._pending = ""  # digits typed toward a face of ten or more
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Dice entry")
        self.setToolTip("Dice: R rolls; type digits to enter the physical dice one by one; "
                        "Backspace removes the last")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.status_label = ElidedLabel()
        self.status_label.set_look(bold=True)
        self.status_label.setToolTip("What the next die is for; once every die is in, the "
                                     "result and the seed of the roll (to replay it)")
        layout.addWidget(self.status_label)
        self.tray = DiceTray()
        layout.addWidget(self.tray)
        self.faces_row = QHBoxLayout()
        self.faces_row.setSpacing(2)
        self.faces_row.addStretch(1)  # the buttons at its end: added before it
        layout.addLayout(self.faces_row)
        self.face_buttons: list[QToolButton] = []
        self.choices_row = QHBoxLayout()  # what the choice is, then a button per answer
        self.choices_row.setSpacing(2)
        self.choice_label = ElidedLabel()
        self.choice_label.set_look("#000000", background=CHOICE_BACKGROUND)
        self.choice_label.setToolTip("These dice call for a choice; it changes the result")
        self.choice_label.hide()
        self.choices_row.addWidget(self.choice_label, 1)
        layout.addLayout(self.choices_row)
        self.choice_buttons: list[QToolButton] = []
        self._asked: tuple[object, ...] = ()  # the choice the buttons are for, its value
        self.message_label = QLabel("")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(REFUSED_STYLE)
        self.message_label.setToolTip("Why the rules refused the last die")
        self.message_label.hide()
        layout.addWidget(self.message_label)

        self.buttons_row = QHBoxLayout()
        self.buttons_row.setSpacing(4)
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setAccessibleName("Roll")
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
        self.seed_box.setMinimumWidth(80)  # "fresh seed" elides a little, no more
        self.seed_box.setMaximumWidth(150)
        self.seed_box.valueChanged.connect(
            lambda v: attack.set_seed(None if v == FRESH else v))
        self.undo_die_button = QToolButton()
        self.undo_die_button.setText("⌫")
        self.undo_die_button.setAccessibleName("Remove the last die")
        self.undo_die_button.setToolTip("Remove the last die entered (Backspace)")
        self.undo_die_button.clicked.connect(attack.remove_last_die)
        self.clear_button = QToolButton()
        self.clear_button.setText("Clear")
        self.clear_button.setAccessibleName("Clear dice")
        self.clear_button.setToolTip("Forget the dice rolled or entered")
        self.clear_button.clicked.connect(attack.clear_dice)
        for w in (self.roll_button, self.seed_box, self.undo_die_button, self.clear_button):
            self.buttons_row.addWidget(w)
        layout.addLayout(self.buttons_row)

    # -- actions -----------------------------------------------------------------------
    def roll(self) -> None:
        self._pending = ""
        self.attack.roll()

    def enter_face(self, face: int) -> bool | None:
        """Enter one die: True or False once the rules took or refused it (``refused``
        says why), None while a worker judges it."""
        self._pending = ""
        return self.attack.enter_die(face, refused=self.refused.emit)

    def type_digit(self, digit: int) -> None:
        """One keyboard digit toward the next die (two digits for faces of ten or more)."""
        asked = self.view.next_die
        sides = asked.sides if asked is not None else 6
        text = self._pending + str(digit)
        if int(text) * 10 > sides or len(text) >= len(str(sides)):
            self.enter_face(int(text))
        else:
            self._pending = text
            self._show_status()

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
                self._show_status()
            else:
                self.attack.remove_last_die()
        else:
            super().keyPressEvent(event)

    # -- drawing -----------------------------------------------------------------------
    def show_view(self, view: ShownAttack) -> None:
        """Draw ``view``: the tray, the next die, the choice asked for, the result."""
        self.view = view
        ready = view.report is not None
        self.roll_button.setEnabled(ready)
        seed = self.attack.seed
        shown = FRESH if seed is None else seed
        if self.seed_box.value() != shown:
            self.seed_box.blockSignals(True)
            self.seed_box.setValue(shown)
            self.seed_box.blockSignals(False)
        self.undo_die_button.setEnabled(bool(view.dice.faces))
        self.clear_button.setEnabled(bool(view.dice.faces))
        self.tray.show_dice(view.rolled if ready else (), view.next_die if ready else None)
        self._show_status()
        asked = view.next_die
        self._face_buttons(asked.sides if ready and asked is not None else 0)
        refusal = view.message
        self.message_label.setText(refusal)
        self.message_label.setVisible(bool(refusal))
        self._choices(view)

    def _show_status(self) -> None:
        """The line over the tray: what the next die is for, or the result."""
        view = self.view
        asked = view.next_die
        res = view.resolution
        if view.report is None:
            text = ""
        elif asked is not None:
            typed = f" — typed {self._pending}…" if self._pending else ""
            keys = f"keys 1–{asked.sides}" if asked.sides <= 9 else "type it, then Space"
            text = f"Next: {asked.purpose} ({keys}; R rolls){typed}"
        elif res is not None:
            text = f"{result_text(view)} — Apply (Enter) or roll again"
        else:
            text = ""
        self.status_label.set_text(text)
        steps = "\n".join(res.steps) if res is not None else ""
        self.status_label.setToolTip("\n".join(t for t in (text, steps) if t) or
                                     "What the next die is for, then the result")

    def _choices(self, view: ShownAttack) -> None:
        """Buttons for the choice the dice call for (e.g. the limb on a chooser's face)."""
        ask = view.pending_choice
        current = dict(self.attack.dice.answers).get(ask.key, ask.default) \
            if ask is not None else None
        asked = (ask, current)
        if asked == self._asked:
            return
        self._asked = asked
        for b in self.choice_buttons:
            self.choices_row.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.choice_buttons = []
        self.choice_label.setVisible(ask is not None)
        if ask is None:
            return
        self.choice_label.set_text(f"Choose: {ask.why}")
        for choice, label in zip(ask.choices, ask.labels, strict=True):
            b = QToolButton()
            b.setText(label)
            b.setAccessibleName(f"Choose {label}")
            b.setCheckable(True)
            b.setChecked(choice == current)
            b.setToolTip(f"{ask.why}: {label}")
            b.clicked.connect(
                lambda _=False, k=ask.key, c=choice: self.attack.answer_choice(k, c))
            self.choices_row.addWidget(b)
            b.show()  # now, not on the next turn of the event loop
            self.choice_buttons.append(b)

    def _face_buttons(self, sides: int) -> None:
        """Buttons 1..sides for the next die (hidden when no die is asked for)."""
        count = sides if sides <= MAX_FACE_BUTTONS else 0
        while len(self.face_buttons) < count:
            face = len(self.face_buttons) + 1
            b = QToolButton()
            b.setText(str(face))
            b.setAccessibleName(f"Face {face}")
            b.setToolTip(f"Enter a {face} for the next die (key {face})")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setFixedWidth(FACE_BUTTON_WIDTH)
            b.clicked.connect(lambda _=False, f=face: self.enter_face(f))
            self.faces_row.insertWidget(self.faces_row.count() - 1, b)
            self.face_buttons.append(b)
        for face, b in enumerate(self.face_buttons, start=1):
            b.setVisible(face <= count)
