"""The attack as data: what the player chose, the dice entered, and what the rules answer.

``evaluate(snapshot, choice, dice)`` is pure and Qt-free: from one document revision (a
snapshot with its ``scenario`` and ``battle``), the attack chosen (``AttackChoice``) and
the dice entered (``DiceEntry``) it computes the ``AttackView`` the GUI draws: the report
or the rules' refusal, the odds conditioned on the dice, the dice so far, the next die or
the choice they call for, the resolution, whether it can be applied, the ruleset's
overlays and the name of its damage axis. The dice are fed to a ``Resolver`` one by one.

``applied_scenario`` is the scenario once a view's resolution is applied (its state
changes), ``edit_text`` the undo entry's words for it; both pure too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    DieRoll,
    Resolution,
    RulesError,
)
from tabletop_gui.rules.base import OverlayShape as OverlayShape
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.resolver import ChoiceAsk, DieAsk, Resolver
from tabletop_gui.scenario.entities import Scenario


class SnapshotLike(Protocol):
    """What ``evaluate`` reads of a document revision (``scenario.snapshot.Snapshot``)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def battle(self) -> Battle: ...


@dataclass(frozen=True)
class AttackChoice:
    """The attack the player chose; ``options``: situational values, sorted by key."""

    attacker: str | None
    weapon: str | None
    offhand: str | None
    target: str | None
    options: tuple[tuple[str, Any], ...] = ()


NO_CHOICE = AttackChoice(None, None, None, None)  # nothing chosen


@dataclass(frozen=True)
class DiceEntry:
    """The dice entered or rolled so far, and the answers to the choices they call for."""

    faces: tuple[int, ...] = ()
    answers: tuple[tuple[str, str], ...] = ()
    seed: int | None = None  # the seed the faces were rolled with, if rolled


@dataclass(frozen=True)
class AttackView:
    """Everything the GUI draws of one attack (see ``evaluate``)."""

    choice: AttackChoice
    dice: DiceEntry
    report: AttackReport | None
    message: str  # refusal in the rules' words, or ""
    odds: Dist | None  # conditioned on dice.faces
    rolled: tuple[DieRoll, ...]
    next_die: DieAsk | None
    pending_choice: ChoiceAsk | None
    resolution: Resolution | None
    can_apply: bool
    overlays: tuple[OverlayShape, ...]  # from the ruleset (Qt-free)
    damage_axis: str  # from the ruleset ("damage", "Health Points lost", "wounds")
    asked: tuple[ChoiceAsk, ...] = ()  # the choices the dice called for (answered or not)


def _feed(resolver: Resolver, faces: tuple[int, ...], answers: dict[str, str],
          asked: list[ChoiceAsk]) -> str:
    """Feed ``faces``; a choice met on the way takes its answer (a choice left unanswered
    with faces after it takes its default); each choice met is added to ``asked``. The
    rules' refusal of a face or of an answer, or ""."""
    try:
        for face in faces:
            choice = resolver.pending_choice()
            if choice is not None:
                asked.append(choice)
                resolver.answer(answers.get(choice.key, choice.default))
            if resolver.done:
                return (f"too many dice: this attack needs {len(resolver.fed)}, "
                        f"{len(faces)} were given")
            resolver.feed(face)
        choice = resolver.pending_choice()
        if choice is not None:
            asked.append(choice)
            if choice.key in answers:
                resolver.answer(answers[choice.key])
    except RulesError as e:
        return str(e)
    return ""


def evaluate(snapshot: SnapshotLike, choice: AttackChoice, dice: DiceEntry) -> AttackView:
    """The view of the attack ``choice`` with ``dice`` on ``snapshot`` (pure)."""
    empty = AttackView(choice, dice, None, "", None, (), None, None, None, False, (), "damage")
    if choice.attacker is None or choice.target is None:
        return empty
    scenario, battle = snapshot.scenario, snapshot.battle
    try:
        ruleset = registry.get(scenario.ruleset)
    except RulesError as e:  # a scenario is validated on load: only a hand-made one
        return _refused(empty, str(e))
    empty = AttackView(choice, dice, None, "", None, (), None, None, None, False, (),
                       ruleset.damage_axis)
    request = AttackRequest(choice.attacker, choice.target, choice.weapon, choice.offhand,
                            dict(choice.options))
    try:
        report = ruleset.attack(battle, request)
        request = AttackRequest(request.attacker, request.target, report.weapon,
                                request.offhand, request.situational)
        resolver = ruleset.begin(battle, request)
        overlays = ruleset.overlays(battle, request)
        asked: list[ChoiceAsk] = []
        message = _feed(resolver, dice.faces, dict(dice.answers), asked)
    except RulesError as e:
        return _refused(empty, str(e))
    resolution = resolver.result()
    odds = resolver.odds() if resolver.fed else report.distribution
    return AttackView(
        choice=choice, dice=dice, report=report, message=message, odds=odds,
        rolled=resolver.rolled, next_die=resolver.next_die(),
        pending_choice=resolver.pending_choice(), resolution=resolution,
        can_apply=report.valid and resolution is not None and not message,
        overlays=overlays, damage_axis=ruleset.damage_axis, asked=tuple(asked),
    )


def _refused(view: AttackView, message: str) -> AttackView:
    return AttackView(view.choice, view.dice, None, message, None, (), None, None, None,
                      False, (), view.damage_axis)


def applied_scenario(scenario: Scenario, view: AttackView) -> Scenario:
    """``scenario`` with the state changes of ``view``'s resolution (each combatant's
    ``state`` updated with its change); RulesError when there is nothing to apply."""
    if view.resolution is None:
        raise RulesError("nothing to apply: roll or enter the dice first")
    for change in view.resolution.changes:
        model = scenario.model(change.combatant)
        if model is None:
            raise RulesError(f"unknown fighter or unit id {change.combatant!r}")
        scenario = scenario.with_entity(replace(model, state={**model.state, **change.state}))
    return scenario


def edit_text(scenario: Scenario, view: AttackView) -> str:
    """The undo entry of applying ``view``: "Apply attack: <attacker> on <target> with
    <weapon>" (names of the models in ``scenario``; "?" for one not there)."""
    names = []
    for model_id in (view.choice.attacker, view.choice.target):
        model = scenario.model(model_id) if model_id is not None else None
        names.append(model.name if model is not None else "?")
    report = view.report
    weapon = f" with {report.weapon}" if report is not None and report.weapon else ""
    return f"Apply attack: {names[0]} on {names[1]}{weapon}"
