"""What the rules answer for the attack being prepared: pure computations of values.

``AttackState`` keeps the choices (attacker, weapon, target, options, dice) and hands a
frozen ``Question`` to a runner (``model.jobs``); the functions here compute the
``Answers`` (report, odds, the dice's reading, the off-hand weapons) from it, on whatever
thread the runner uses. They read values only and return values.

A question carries the ``Snapshot`` of the revision it is about: its battle and geometry
(a drag step's snapshot derives its geometry from the previous step's, as a new value).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from tabletop_gui.model.target_scan import TargetStatus, report_status
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    DieRoll,
    Resolution,
    RulesError,
    Ruleset,
    SeededDice,
)
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import OptionSpec
from tabletop_gui.rules.resolver import ChoiceAsk, DieAsk, Resolver, too_many
from tabletop_gui.scenario.snapshot import Snapshot


class EngineFailure(Exception):
    """The engine failed in a way the rules did not foresee (a bug, a hostile file) while
    ``where`` (an action, in words); ``error`` is what it raised."""

    def __init__(self, where: str, error: Exception) -> None:
        super().__init__(f"{where}: {error}")
        self.where = where
        self.error = error


@contextmanager
def engine_step(where: str) -> Iterator[None]:
    """A ``RulesError`` is the rules' answer and passes; anything else is a failure."""
    try:
        yield
    except (RulesError, EngineFailure):
        raise
    except Exception as e:  # noqa: BLE001 - told to the user by whoever receives it
        raise EngineFailure(where, e) from e


@dataclass(frozen=True)
class Question:
    """Everything one computation of the answers depends on (values only)."""

    ruleset_id: str
    snapshot: Snapshot
    request: AttackRequest | None
    dice: tuple[int, ...]
    option_specs: tuple[OptionSpec, ...]
    weapons: tuple[str, ...]  # the attacker's weapons: the off-hand candidates
    answers: tuple[tuple[str, str], ...] = ()  # choices the dice call for, answered

    @property
    def ruleset(self) -> Ruleset:
        """The engine (loaded on first use, by the job: never on the caller's thread)."""
        return registry.get(self.ruleset_id)


@dataclass(frozen=True)
class Reading:
    """What the dice so far mean (a ``Resolver`` fed with them) and the choices they
    called for (each answered with ``Question.answers`` or its default)."""

    odds: Dist
    entered: tuple[DieRoll, ...]
    next_die: DieAsk | None
    resolution: Resolution | None
    pending_choices: tuple[ChoiceAsk, ...]


@dataclass(frozen=True)
class Answers:
    """The rules' answers for one ``Question``."""

    report: AttackReport | None = None
    odds: Dist | None = None
    resolution: Resolution | None = None
    entered: tuple[DieRoll, ...] = ()
    next_die: DieAsk | None = None
    pending_choices: tuple[ChoiceAsk, ...] = ()
    message: str = ""  # the last refusal, in the rules' words
    dice: tuple[int, ...] = ()  # the dice kept (none when the rules dropped them)
    dice_dropped: bool = False
    offhands: tuple[str, ...] = ()  # weapons the ruleset accepts in the off hand
    status: TargetStatus | None = None  # the target's status, from the report
    damage_axis: str = "damage"  # what the distribution counts (``Ruleset.damage_axis``)

    def with_reading(self, reading: Reading, dice: tuple[int, ...]) -> Answers:
        return replace(self, odds=reading.odds, entered=reading.entered,
                       next_die=reading.next_die, resolution=reading.resolution,
                       pending_choices=reading.pending_choices, dice=dice, message="")


def read(q: Question, battle: Battle, faces: tuple[int, ...]) -> Reading:
    """The reading of ``faces``; RulesError when the rules refuse them."""
    assert q.request is not None
    resolver = q.ruleset.begin(battle, q.request)
    answers = dict(q.answers)
    asked: list[ChoiceAsk] = []
    for face in faces:
        _answer_choices(resolver, answers, asked)
        if resolver.done:
            raise too_many(len(resolver.fed), len(faces))
        resolver.feed(face)
    _answer_choices(resolver, answers, asked)
    ask = resolver.next_die()
    return Reading(resolver.odds(), resolver.rolled, ask, resolver.result(), tuple(asked))


def _answer_choices(resolver: Resolver, answers: dict[str, str],
                    asked: list[ChoiceAsk]) -> None:
    """Answer the choices the resolver stands at: the answer given, else the default."""
    while (choice := resolver.pending_choice()) is not None:
        asked.append(choice)
        given = answers.get(choice.key)
        resolver.answer(given if given in choice.choices else choice.default)


def answer(q: Question) -> Answers:
    """Report, odds, the reading of the dice and the off-hand choices for ``q``."""
    request = q.request
    if request is None:
        return Answers(dice=q.dice)
    with engine_step("Preparing the attack"):
        battle = q.snapshot.battle
        try:
            report = q.ruleset.attack(battle, request)
        except RulesError as e:
            return Answers(message=str(e), dice=q.dice, offhands=_offhands(q, battle))
        out = Answers(report=report, odds=report.distribution, dice=q.dice,
                      status=report_status(report), damage_axis=q.ruleset.damage_axis)
        if q.dice:
            try:
                out = out.with_reading(read(q, battle, q.dice), q.dice)
            except RulesError as e:
                out = replace(out, message=f"dice dropped: {e}", dice=(), dice_dropped=True)
        if out.next_die is None and out.resolution is None:
            out = replace(out, next_die=q.ruleset.begin(battle, request).next_die())
    return replace(out, offhands=_offhands(q, battle))


def _offhands(q: Question, battle: Battle) -> tuple[str, ...]:
    """The attacker's other weapons the ruleset accepts in the off hand against this
    target with this weapon (asked of the engine; none where nobody dual-wields)."""
    request = q.request
    assert request is not None
    out = []
    with engine_step("Listing the off-hand weapons"):
        for name in q.weapons:
            if name == request.weapon:
                continue
            try:
                report = q.ruleset.attack(battle, replace(request, offhand=name))
            except RulesError:
                continue
            if report.offhand == name and report.weapon != name:
                out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class Entered:
    """One more die entered: the new reading, or the rules' refusal of it."""

    dice: tuple[int, ...]
    reading: Reading | None
    refusal: str = ""


def enter(q: Question, trial: tuple[int, ...]) -> Entered:
    """Whether the rules accept the faces ``trial`` (the dice so far and one more)."""
    with engine_step("Reading the die entered"):
        battle = q.snapshot.battle
        try:
            return Entered(trial, read(q, battle, trial))
        except RulesError as e:
            return Entered(trial, None, str(e))


@dataclass(frozen=True)
class Rolled:
    """Digital dice rolled with ``seed``: their faces and the answers for them, or the
    rules' refusal to roll."""

    seed: int
    answers: Answers | None
    refusal: str = ""


def roll(q: Question, seed: int) -> Rolled:
    """Resolve the attack with dice seeded by ``seed``; the answers for those faces."""
    assert q.request is not None
    with engine_step("Rolling the dice"):
        battle = q.snapshot.battle
        try:
            res = q.ruleset.resolve(battle, q.request, SeededDice(seed))
        except RulesError as e:
            return Rolled(seed, None, str(e))
    faces = tuple(d.face for d in res.dice)
    return Rolled(seed, answer(replace(q, dice=faces)))
