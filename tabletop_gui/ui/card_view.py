"""What the attack card draws, as plain values: the fields of ``AttackView`` (see the
design of "the attack as data") that the Attack panel, the dice tray and the odds plot
read. The widgets take any value with these attributes (``ShownAttack``) through one
``show(view)`` each, so that an attack controller only has to publish views.

``view_of(state)`` is the one adapter from today's ``AttackState`` to such a view: the
next die's step, count and purpose and the pending choice are derived here from what the
state knows (a die's size and label, the choice options the dice call for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from tabletop_gui.model.attack_state import AttackState
from tabletop_gui.rules.base import AttackReport, DieRoll, Resolution
from tabletop_gui.rules.dist import Dist

_NUMBERED = re.compile(r"[,\s]*(?:attack\s+)?\d+$")


def step_of(label: str) -> str:
    """The step a die belongs to, from its label: "hit roll 3" and "hit roll, attack 3"
    are both "hit roll"; a label without a number is its own step ("defense")."""
    return _NUMBERED.sub("", label).strip() or label


class AskedDie(Protocol):
    """The die the rules ask for next (``DieAsk``)."""

    @property
    def sides(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def step(self) -> str: ...
    @property
    def remaining(self) -> int: ...
    @property
    def purpose(self) -> str: ...


class AskedChoice(Protocol):
    """A choice the dice call for (``ChoiceAsk``)."""

    @property
    def key(self) -> str: ...
    @property
    def choices(self) -> tuple[str, ...]: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def default(self) -> str: ...
    @property
    def why(self) -> str: ...


class EnteredDice(Protocol):
    """The dice entered or rolled (``DiceEntry``): faces, and the seed they were rolled with."""

    @property
    def faces(self) -> tuple[int, ...]: ...
    @property
    def seed(self) -> int | None: ...


class ShownAttack(Protocol):
    """What the attack card draws (the fields of ``AttackView`` it reads)."""

    @property
    def dice(self) -> EnteredDice: ...
    @property
    def report(self) -> AttackReport | None: ...
    @property
    def message(self) -> str: ...
    @property
    def odds(self) -> Dist | None: ...
    @property
    def rolled(self) -> tuple[DieRoll, ...]: ...
    @property
    def next_die(self) -> AskedDie | None: ...
    @property
    def pending_choice(self) -> AskedChoice | None: ...
    @property
    def resolution(self) -> Resolution | None: ...
    @property
    def can_apply(self) -> bool: ...
    @property
    def damage_axis(self) -> str: ...


@dataclass(frozen=True)
class NextDie:
    sides: int
    label: str
    step: str
    remaining: int
    purpose: str


@dataclass(frozen=True)
class PendingChoice:
    key: str
    choices: tuple[str, ...]
    labels: tuple[str, ...]
    default: str
    why: str


@dataclass(frozen=True)
class Dice:
    faces: tuple[int, ...] = ()
    seed: int | None = None


@dataclass(frozen=True)
class CardView:
    """A ``ShownAttack`` made of plain values."""

    dice: Dice = Dice()
    report: AttackReport | None = None
    message: str = ""
    odds: Dist | None = None
    rolled: tuple[DieRoll, ...] = ()
    next_die: NextDie | None = None
    pending_choice: PendingChoice | None = None
    resolution: Resolution | None = None
    can_apply: bool = False
    damage_axis: str = "damage"


_PLAIN = (str, int, float, bool, tuple, type(None))


def same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """The same values, one by one: plain values (texts, numbers, faces) equal, the
    rules' answers (reports, odds, resolutions) identical (immutable: a new answer is a
    new object): what is drawn need not be drawn again."""
    return len(a) == len(b) and all(
        x is y or (isinstance(x, _PLAIN) and type(x) is type(y) and x == y)
        for x, y in zip(a, b, strict=True))


def damage_axis_of(state: AttackState) -> str:
    """The name of the target's damage (the ruleset's first number of state)."""
    info = state.info
    fields = [f for f in info.declaration.state if f.kind == "int"] if info else []
    return fields[0].name.replace("_", " ") if fields else "damage"


def view_of(state: AttackState) -> CardView:
    """The view of today's ``AttackState`` (until an attack controller publishes one)."""
    if state.resolution is not None:
        rolled = state.resolution.dice
    else:
        rolled = tuple(DieRoll(d.sides or 0, d.face, d.label, d.outcome) for d in state.entered)
    next_die = None
    if state.report is not None and state.next_die is not None:
        sides, label = state.next_die
        step = step_of(label)
        next_die = NextDie(sides, label, step, 1, f"roll a d{sides}: {label}")
    choice = None
    if state.pending_choices:
        spec = state.pending_choices[0]
        choices = tuple(c for c in spec.choices if c)
        current = state.option_value(spec.key)
        choice = PendingChoice(spec.key, choices, choices,
                               current if current in choices else choices[0], spec.help)
    return CardView(
        dice=Dice(tuple(state.dice), state.rolled_seed), report=state.report,
        message=state.message, odds=state.odds, rolled=rolled, next_die=next_die,
        pending_choice=choice, resolution=state.resolution, can_apply=state.can_apply,
        damage_axis=damage_axis_of(state))
