"""What the attack card draws, as plain values: the fields of ``AttackView``
(``model.attack_view``) that the Attack panel, the dice tray and the odds plot read. The
widgets take any value with these attributes (``ShownAttack``) through one ``show_view``
each, so that an attack controller only has to publish views.

``view_of(view)`` is what the card shows of an ``AttackView`` the attack controller
published: the dice of the resolution, and the choice the dice called for that is still
to be answered (else the last one, which the player may answer otherwise).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from tabletop_gui.model.attack_view import AttackView
from tabletop_gui.rules.base import AttackReport, DieRoll, Resolution
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.resolver import ChoiceAsk, DieAsk

_NUMBERED = re.compile(r"[,\s]*(?:attack\s+)?\d+$")


def step_of(label: str) -> str:
    """The step a die belongs to, from its label: "hit roll 3" and "hit roll, attack 3"
    are both "hit roll"; a label without a number is its own step ("defense")."""
    return _NUMBERED.sub("", label).strip() or label


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
    def next_die(self) -> DieAsk | None: ...
    @property
    def pending_choice(self) -> ChoiceAsk | None: ...
    @property
    def resolution(self) -> Resolution | None: ...
    @property
    def can_apply(self) -> bool: ...
    @property
    def damage_axis(self) -> str: ...


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
    next_die: DieAsk | None = None
    pending_choice: ChoiceAsk | None = None
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


def view_of(view: AttackView) -> CardView:
    """What the card shows of ``view``."""
    rolled = view.resolution.dice if view.resolution is not None else view.rolled
    next_die = view.next_die if view.report is not None else None
    answers = dict(view.dice.answers)
    # the first choice nobody answered yet (each is taken as its default meanwhile)
    choice = view.pending_choice or next(
        (c for c in view.asked if c.key not in answers), view.asked[-1] if view.asked else None)
    return CardView(
        dice=Dice(view.dice.faces, view.dice.seed), report=view.report,
        message=view.message, odds=view.odds, rolled=rolled, next_die=next_die,
        pending_choice=choice, resolution=view.resolution, can_apply=view.can_apply,
        damage_axis=view.damage_axis)
