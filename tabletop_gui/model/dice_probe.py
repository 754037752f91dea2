"""Dice entered one at a time, through the ``Ruleset`` interface only.

The interface resolves a whole attack (``resolve``) and conditions the odds on the first
dice (``odds_given``); it does not say how many dice an attack takes or what each one is
for. ``read_dice`` learns both by resolving with a ``ProbeDice`` source that hands out the
faces entered so far and then stops: the die asked for at the stop is the next one. Once
the faces are complete the real resolution runs with ``GivenDice``, so each engine's own
checks (count, faces) still apply. ``choices_called_for`` finds the situational choices
(such as a limb on a chooser's face) that change what the dice do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tabletop_gui.rules.base import (
    AttackRequest,
    Battle,
    DiceShortage,
    GivenDice,
    ListedDice,
    Resolution,
    RulesError,
    Ruleset,
)
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import OptionSpec


class ProbeDice(ListedDice):
    """The dice entered so far, then a stop: records each die's size and label, and the
    die the rules ask for next (not a ``GivenDice``, so no engine pre-counts it)."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(faces)
        self.labels: list[str] = []
        self.next_die: tuple[int, str] | None = None

    def roll(self, sides: int, label: str) -> int:
        if self.used >= len(self.faces):
            self.next_die = (sides, label)
        face = super().roll(sides, label)
        self.labels.append(label)
        return face


@dataclass(frozen=True)
class EnteredDie:
    """A die entered so far: its face, what it is for, its outcome once resolved."""

    face: int
    sides: int | None
    label: str
    outcome: str


@dataclass(frozen=True)
class DiceReading:
    """What some faces mean: the odds given them, the next die, or the resolution."""

    odds: Dist
    entered: tuple[EnteredDie, ...]
    next_die: tuple[int, str] | None
    resolution: Resolution | None


def read_dice(ruleset: Ruleset, battle: Battle, request: AttackRequest,
              faces: Sequence[int]) -> DiceReading:
    """The reading of ``faces`` (possibly none); RulesError when the rules refuse them."""
    probe = ProbeDice(faces)
    try:
        ruleset.resolve(battle, request, probe)
    except DiceShortage:
        if probe.next_die is None:
            raise
        odds = (ruleset.odds_given(battle, request, list(faces)) if faces
                else ruleset.attack(battle, request).distribution)
        entered = tuple(EnteredDie(f, s, lab, "")
                        for f, s, lab in zip(faces, probe.sizes, probe.labels, strict=False))
        return DiceReading(odds, entered, probe.next_die, None)
    if probe.used < len(faces):
        raise RulesError(f"too many dice: this attack needs {probe.used}, "
                         f"{len(faces)} were given")
    res = ruleset.resolve(battle, request, GivenDice(faces))
    entered = tuple(EnteredDie(d.face, d.sides, d.label, d.outcome) for d in res.dice)
    return DiceReading(Dist.point(res.damage), entered, None, res)


def first_die(ruleset: Ruleset, battle: Battle, request: AttackRequest
              ) -> tuple[int, str] | None:
    """(sides, label) of the first die of the attack, or None when it rolls none."""
    probe = ProbeDice([])
    try:
        ruleset.resolve(battle, request, probe)
    except RulesError:
        return probe.next_die
    return None


def choice_options(specs: Sequence[OptionSpec]) -> tuple[OptionSpec, ...]:
    """Situational options that are choices made when the dice call for them: enums whose
    default is the empty "not chosen" value (e.g. the limb on a chooser's face)."""
    return tuple(s for s in specs if s.kind == "enum" and s.default == "" and len(s.choices) > 1)


def choices_called_for(specs: Sequence[OptionSpec], ruleset: Ruleset, battle: Battle,
                       request: AttackRequest, faces: Sequence[int]) -> tuple[OptionSpec, ...]:
    """The choice options whose value changes what these dice do: the GUI asks for them."""
    out = []
    for spec in choice_options(specs):
        outcomes = set()
        for choice in spec.choices:
            trial = replace(request, situational={**request.situational, spec.key: choice})
            try:
                r = ruleset.resolve(battle, trial, GivenDice(faces))
            except RulesError:
                continue
            outcomes.add(repr((r.changes, r.damage, r.taken_down)))
        if len(outcomes) > 1:
            out.append(spec)
    return tuple(out)
