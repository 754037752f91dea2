"""The attack controller: holds the attack chosen and the dice, publishes what they mean.

``AttackController`` holds a frozen ``AttackChoice``, a frozen ``DiceEntry`` and the
``Snapshot`` of the document revision attacked in. Any change (a choice, an option, a die,
an answer, a roll, a new snapshot) marks it dirty and schedules one evaluation with
``later`` (the window: the next turn of the event loop, so that many changes in one turn
cost one evaluation; by default at once). The evaluation (``answer``: ``evaluate`` and the
off-hand weapons, the dice typed meanwhile judged one by one, or the dice rolled) is a job
handed to a runner (``model.jobs``: inline, or the window's worker thread); a job
superseded by a newer change is cancelled and its answer dropped (a generation counter).
The answer's ``AttackView`` is then published to the listeners: the one way the views
of the attack learn that it changed (``current_view`` is what they draw of it while a
newer change is answered). A new snapshot or another choice is told at once, before it
is evaluated, to the choice listeners (``subscribe_choice``: the target scan follows it).
Getters have no side effects.

Rolling: every roll takes a fresh seed from the operating system (``system_seed``;
``seed_source`` for tests) unless the user fixed one (``set_seed``), which then moves on
by one per roll; the seed is in the published ``DiceEntry``.

Qt-free; nothing here names a ruleset.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from tabletop_gui.model.attack_view import (
    NO_CHOICE,
    AttackChoice,
    AttackView,
    DiceEntry,
    SnapshotLike,
    evaluate,
)
from tabletop_gui.model.jobs import InlineRunner, Outcome, Runner, Ticket
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError, SeededDice
from tabletop_gui.rules.fields import OptionSpec
from tabletop_gui.scenario.entities import Model, Scenario

ViewListener = Callable[[AttackView], None]
ChoiceListener = Callable[[SnapshotLike | None, AttackChoice], None]
Refused = Callable[[str], None]
FailureHandler = Callable[[str, Exception], None]
Later = Callable[[Callable[[], None]], None]
SEED_LIMIT = 2_000_000_000  # seeds are 0 .. SEED_LIMIT (what the seed box can show)
NO_ATTACK = "choose an attacker and a target first"


def system_seed() -> int:
    """A fresh seed from the operating system's random source (differs at every call and
    at every launch; logged with the roll, so the roll can be replayed)."""
    return secrets.randbelow(SEED_LIMIT + 1)


def at_once(work: Callable[[], None]) -> None:
    """The default ``later``: evaluate before the change returns."""
    work()


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
class Answer:
    """One evaluation: the view, the off-hand weapons the rules accept (None: not asked,
    the choice is the one answered before), and the rules' refusal of each die typed
    that they refused, in the order typed."""

    view: AttackView
    offhands: tuple[str, ...] | None
    refusals: tuple[str, ...] = ()  # one per face typed: the refusal, or "" (accepted)


def answer(snapshot: SnapshotLike, choice: AttackChoice, dice: DiceEntry,
           typed: tuple[int, ...] = (), roll_seed: int | None = None,
           weapons: tuple[str, ...] | None = None) -> Answer:
    """The view of ``choice`` with ``dice`` (or, with ``roll_seed``, with dice rolled with
    that seed), then each face ``typed`` added when the rules accept it; the off-hand
    weapons among ``weapons`` when given. Dice that no longer fit the attack (an option
    changed) are dropped and the view says so."""
    with engine_step("Rolling the dice" if roll_seed is not None else "Preparing the attack"):
        if roll_seed is not None and (choice.attacker is None or choice.target is None):
            return Answer(replace(evaluate(snapshot, choice, dice), message=NO_ATTACK),
                          _offhands(snapshot, choice, weapons), (NO_ATTACK,) * len(typed))
        if roll_seed is not None:
            try:
                ruleset = registry.get(snapshot.scenario.ruleset)
                res = ruleset.resolve(snapshot.battle, _request(choice), SeededDice(roll_seed))
            except RulesError as e:
                view = evaluate(snapshot, choice, replace(dice, faces=(), seed=None))
                return Answer(replace(view, message=str(e)), _offhands(snapshot, choice,
                                                                       weapons))
            dice = DiceEntry(tuple(d.face for d in res.dice), dice.answers, roll_seed)
        view = evaluate(snapshot, choice, dice)
        if view.message and view.report is not None and dice.faces:
            dropped = evaluate(snapshot, choice, DiceEntry(answers=dice.answers))
            view = replace(dropped, message=f"dice dropped: {view.message}")
        view = _defaulted(snapshot, choice, view)
        refusals = []
        for face in typed:
            faces = (view.dice.faces if view.dice.seed is None else ()) + (face,)
            trial = evaluate(snapshot, choice, DiceEntry(faces, view.dice.answers))
            if trial.message or trial.report is None:
                refusals.append(trial.message or NO_ATTACK)
                view = replace(view, message=refusals[-1])
            else:
                refusals.append("")
                view = _defaulted(snapshot, choice, trial)
    return Answer(view, _offhands(snapshot, choice, weapons), tuple(refusals))


def _defaulted(snapshot: SnapshotLike, choice: AttackChoice, view: AttackView
               ) -> AttackView:
    """The view with the choice the dice end on taken by its default (the choice is still
    in ``asked``: the player may answer otherwise); the view itself when none is pending."""
    ask = view.pending_choice
    if ask is None or view.message:
        return view
    answers = tuple(sorted({**dict(view.dice.answers), ask.key: ask.default}.items()))
    taken = evaluate(snapshot, choice, replace(view.dice, answers=answers))
    return view if taken.message else replace(taken, dice=view.dice)


def _request(choice: AttackChoice) -> AttackRequest:
    assert choice.attacker is not None and choice.target is not None
    return AttackRequest(choice.attacker, choice.target, choice.weapon, choice.offhand,
                         dict(choice.options))


def _offhands(snapshot: SnapshotLike, choice: AttackChoice,
              weapons: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The attacker's other weapons the ruleset accepts in the off hand against this
    target with this weapon (asked of the engine; none where nobody dual-wields)."""
    if weapons is None:
        return None
    if choice.attacker is None or choice.target is None:
        return ()
    request = _request(choice)
    out = []
    with engine_step("Listing the off-hand weapons"):
        ruleset = registry.get(snapshot.scenario.ruleset)
        for name in weapons:
            if name == request.weapon:
                continue
            try:
                report = ruleset.attack(snapshot.battle, replace(request, offhand=name))
            except RulesError:
                continue
            if report.offhand == name and report.weapon != name:
                out.append(name)
    return tuple(out)


class AttackController:
    """Holds the attack chosen, the dice and the snapshot; publishes their ``AttackView``."""

    def __init__(self, snapshot: SnapshotLike | None = None, *,
                 runner: Runner | None = None, later: Later = at_once,
                 seed_source: Callable[[], int] = system_seed,
                 on_failure: FailureHandler | None = None) -> None:
        self.runner: Runner = runner if runner is not None else InlineRunner()
        self.later = later
        self.seed_source = seed_source
        self.on_failure = on_failure  # told when an engine call fails (else it is raised)
        self._listeners: list[ViewListener] = []
        self._choice_listeners: list[ChoiceListener] = []
        self._snapshot: SnapshotLike | None = snapshot
        self._choice = NO_CHOICE
        self._dice = DiceEntry()
        self._seed: int | None = None  # fixed by the user, else a fresh one per roll
        self._view = evaluate_nothing(self._choice, self._dice)
        # the snapshot and choice last told to the choice listeners
        self._told: tuple[SnapshotLike | None, AttackChoice] = (snapshot, NO_CHOICE)
        self._offhands: tuple[str, ...] = ()
        self._typed: list[tuple[int, Refused | None]] = []  # faces not judged yet
        self._judging: list[tuple[int, Refused | None]] = []  # faces in the job
        self._roll_seed: int | None = None  # a roll wanted with this seed
        self._offhands_for: tuple[object, AttackChoice] | None = None
        self._generation = 0
        self._ticket: Ticket | None = None
        self._scheduled = False
        self._dirty = False

    # -- what it holds (no side effects) ---------------------------------------------------
    @property
    def snapshot(self) -> SnapshotLike | None:
        return self._snapshot

    @property
    def scenario(self) -> Scenario | None:
        return self._snapshot.scenario if self._snapshot is not None else None

    @property
    def choice(self) -> AttackChoice:
        return self._choice

    @property
    def dice(self) -> DiceEntry:
        """The dice accepted so far (the faces typed are added once the rules accept them)."""
        return self._dice

    @property
    def seed(self) -> int | None:
        """The seed the user fixed for the next roll, or None: a fresh one per roll."""
        return self._seed

    @property
    def view(self) -> AttackView:
        """The view last published (of the current choice and dice unless ``pending``)."""
        return self._view

    @property
    def current_view(self) -> AttackView:
        """The view of the current choice and dice, as far as answered: the one published
        (not to be applied while a change is answered); while other dice are answered,
        its report and odds only; while another choice is, an empty one."""
        v, choice, dice = self._view, self._choice, self._dice
        if v.choice != choice:
            return replace(evaluate_nothing(choice, dice), damage_axis=v.damage_axis)
        if v.dice != dice:
            return replace(v, dice=dice, rolled=(), next_die=None, pending_choice=None,
                           resolution=None, can_apply=False, asked=(),
                           odds=v.report.distribution if v.report is not None else None)
        if v.can_apply and self.pending:
            return replace(v, can_apply=False)
        return v

    @property
    def pending(self) -> bool:
        """A change has not been answered yet."""
        return self._dirty or self._ticket is not None

    @property
    def can_apply(self) -> bool:
        return not self.pending and self._view.can_apply

    @property
    def offhands(self) -> tuple[str, ...]:
        """The attacker's other weapons the ruleset accepts in the off hand."""
        return self._offhands

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        scenario = self.scenario
        return registry.info(scenario.ruleset).situational_options if scenario else ()

    def model(self, model_id: str | None) -> Model | None:
        scenario = self.scenario
        if scenario is None or model_id is None:
            return None
        return scenario.model(model_id)

    def weapon_names(self) -> tuple[str, ...]:
        m = self.model(self._choice.attacker)
        return tuple(w.name for w in m.weapons) if m is not None else ()

    def option_value(self, key: str) -> Any:
        options = dict(self._choice.options)
        if key in options:
            return options[key]
        spec = next((s for s in self.option_specs if s.key == key), None)
        return spec.default if spec is not None else None

    # -- listeners ----------------------------------------------------------------------
    def subscribe(self, listener: ViewListener) -> None:
        """``listener(view)`` at every view published."""
        self._listeners.append(listener)

    def subscribe_choice(self, listener: ChoiceListener) -> None:
        """``listener(snapshot, choice)`` when the snapshot or the choice changes (at once,
        before the change is evaluated)."""
        self._choice_listeners.append(listener)

    def refuse(self, message: str) -> None:
        """Publish the view with the rules' refusal ``message`` (e.g. an option's value
        refused); the next view published replaces it."""
        self._view = replace(self._view, message=message)
        self._publish()

    def _publish(self) -> None:
        for listener in list(self._listeners):
            listener(self._view)

    # -- changes --------------------------------------------------------------------------
    def set_snapshot(self, snapshot: SnapshotLike | None) -> None:
        """A new revision of the document (or a drag's preview): the choices that still
        make sense stay, and so do the dice and the faces typed not judged yet."""
        if snapshot is self._snapshot:
            return
        self._snapshot = snapshot
        c = self._choice
        attacker = c.attacker if self.model(c.attacker) is not None else None
        target = c.target if attacker is not None and self.model(c.target) is not None \
            else None
        known = {s.key for s in self.option_specs}
        names = self.weapon_names() if attacker is not None else ()
        self._choice = AttackChoice(
            attacker, c.weapon if c.weapon in names else None,
            c.offhand if c.offhand in names else None, target,
            tuple((k, v) for k, v in c.options if k in known))
        self._changed(keep_typed=True, defer=True)

    def set_choice(self, choice: AttackChoice) -> None:
        """Another attack: its dice start afresh."""
        if choice != self._choice:
            self._choice = choice
            self._dice = DiceEntry(answers=self._dice.answers)
            self._changed()

    def set_attacker(self, attacker: str | None) -> None:
        if attacker == self._choice.attacker:
            return
        a = self.model(attacker)
        t = self.model(self._choice.target)
        target = t.id if t is not None and a is not None and t.side != a.side else None
        self.set_choice(AttackChoice(a.id if a is not None else None, None, None, target,
                                     self._choice.options))

    def set_target(self, target: str | None) -> None:
        if target != self._choice.target:
            t = self.model(target)
            self.set_choice(replace(self._choice, target=t.id if t is not None else None))

    def set_weapon(self, weapon: str | None) -> None:
        if weapon != self._choice.weapon:
            offhand = None if self._choice.offhand == weapon else self._choice.offhand
            self.set_choice(replace(self._choice, weapon=weapon, offhand=offhand))

    def set_offhand(self, offhand: str | None) -> None:
        if offhand != self._choice.offhand:
            self.set_choice(replace(self._choice, offhand=offhand))

    def set_option(self, key: str, value: Any) -> None:
        """A situational value (its default removes it); the dice stay when they fit."""
        spec = next((s for s in self.option_specs if s.key == key), None)
        if spec is None:
            raise RulesError(f"unknown option {key!r}")
        options = {k: v for k, v in self._choice.options if k != key}
        if value != spec.default:
            options[key] = value
        choice = replace(self._choice, options=tuple(sorted(options.items())))
        if choice != self._choice:
            self._choice = choice
            self._changed()

    def answer_choice(self, key: str, value: str) -> None:
        """Answer a choice the dice call for (``AttackView.pending_choice``), e.g. a limb."""
        answers = dict(self._dice.answers)
        if answers.get(key) != value:
            answers[key] = value
            self._dice = replace(self._dice, answers=tuple(sorted(answers.items())))
            self._changed()

    def clear(self) -> None:
        """Forget the attack (Esc): no attacker, no target, no options, no dice."""
        self._choice = NO_CHOICE
        self._dice = DiceEntry()
        self._changed()

    def reset(self, snapshot: SnapshotLike | None = None) -> None:
        """Start over (on ``snapshot``: another document); a seed the user fixed stays."""
        self._snapshot = snapshot if snapshot is not None else self._snapshot
        self._offhands_for = None
        self.clear()

    # -- dice ---------------------------------------------------------------------------
    def enter_die(self, face: int, refused: Refused | None = None) -> bool | None:
        """Add one physical die; the rules judge it with the next evaluation (a refused
        face is not kept: the view's ``message`` says why and ``refused`` is told). True
        or False once judged; None while it waits for its evaluation (a later turn, a
        worker). Without an attack it is refused at once."""
        told: list[str] = []

        def tell(message: str) -> None:
            told.append(message)
            if refused is not None:
                refused(message)

        if self._refused_without_attack():
            tell(NO_ATTACK)
            return False
        self._typed.append((face, tell))
        self._changed(keep_typed=True)
        if self.pending and not told:
            return None
        return not told

    def remove_last_die(self) -> None:
        if self._dice.faces:
            faces = self._dice.faces[:-1] if self._dice.seed is None else ()
            self._dice = DiceEntry(faces, self._dice.answers)
            self._changed()

    def clear_dice(self) -> None:
        """No dice, no answers to the choices they called for."""
        self._dice = DiceEntry()
        self._changed()

    def set_seed(self, seed: int | None) -> None:
        """Fix the seed of the next roll (the rolls after it take the next seeds), or None
        for a fresh seed from the operating system at every roll (the default). The view
        is published again (the seed is shown with it)."""
        if seed != self._seed:
            self._seed = seed
            self._publish()

    def roll(self) -> None:
        """Roll digital dice: with a fresh seed from ``seed_source``, or with the seed the
        user fixed (which then moves on by one, so that the next roll differs)."""
        if self._refused_without_attack():
            return
        seed = self._seed if self._seed is not None else self.seed_source()
        if self._seed is not None:
            self._seed = seed + 1 if seed < SEED_LIMIT else 0
        self._roll_seed = seed
        self._changed()

    def _refused_without_attack(self) -> bool:
        """No attacker or no target (and none coming): the view says so, now."""
        c = self._choice
        if (c.attacker is not None and c.target is not None) or self.pending:
            return False
        self.refuse(NO_ATTACK)
        return True

    # -- evaluation -----------------------------------------------------------------------
    def _changed(self, keep_typed: bool = False, defer: bool = False) -> None:
        """Evaluate later (``defer``: even when there is no attack to ask the rules
        about: a drag's steps are published once per turn)."""
        self._generation += 1
        chosen = (self._snapshot, self._choice)
        if chosen[0] is not self._told[0] or chosen[1] != self._told[1]:
            self._told = chosen
            for listener in list(self._choice_listeners):
                listener(*chosen)
        if self._ticket is not None:
            self._ticket.cancel()
            self._ticket = None
        if keep_typed:
            self._typed[:0] = self._judging  # their answer is dropped: judged again
        else:
            self._typed.clear()
        self._judging = []
        c = self._choice
        if not defer and (c.attacker is None or c.target is None) and not self._typed \
                and self._roll_seed is None:  # nothing to ask the rules: no attack, now
            self._dirty = False
            self._take(Answer(evaluate_nothing(c, self._dice), ()), [], ())
            return
        self._dirty = True
        if not self._scheduled:
            self._scheduled = True
            self.later(self._evaluate)

    def _evaluate(self) -> None:
        """Hand the evaluation of what is held now to the runner."""
        self._scheduled = False
        if not self._dirty:
            return
        self._dirty = False
        snapshot, choice = self._snapshot, self._choice
        if snapshot is None:
            judged, self._typed = self._typed, []
            message = NO_ATTACK if judged or self._roll_seed is not None else ""
            self._roll_seed = None
            self._take(Answer(replace(evaluate_nothing(choice, self._dice), message=message),
                              (), (NO_ATTACK,) * len(judged)), judged, ())
            return
        roll_seed, self._roll_seed = self._roll_seed, None
        self._judging, self._typed = self._typed, []
        key = (snapshot, choice)
        weapons = self.weapon_names() if self._offhands_for != key else None
        self._offhands_for = key
        work = partial(answer, snapshot, choice, self._dice,
                       tuple(face for face, _ in self._judging), roll_seed, weapons)
        generation = self._generation
        where = "Rolling the dice" if roll_seed is not None else "Preparing the attack"
        self._ticket = Ticket()  # pending from now on
        ticket = self.runner.submit(work, partial(self._deliver, generation, where))
        if self._generation == generation and self._ticket is not None:
            self._ticket = ticket
        if not self.runner.synchronous and self._ticket is not None:
            self._publish()  # pending: the views may say so

    def _deliver(self, generation: int, where: str, outcome: Outcome[Answer]) -> None:
        if generation != self._generation:
            return  # superseded by a newer change
        self._ticket = None
        judged, self._judging = self._judging, []
        try:
            result = outcome.get()
        except EngineFailure as e:
            self._fail(e.where, e.error)
            return
        except Exception as e:  # noqa: BLE001 - the job's own failure, not the rules'
            self._fail(where, e)
            return
        self._take(result, judged, result.offhands)

    def _take(self, result: Answer, judged: list[tuple[int, Refused | None]],
              offhands: tuple[str, ...] | None) -> None:
        self._dice = result.view.dice
        self._view = result.view
        if offhands is not None:
            self._offhands = offhands
        self._publish()
        for (_face, refused), message in zip(judged, result.refusals, strict=False):
            if message and refused is not None:
                refused(message)

    def _fail(self, where: str, error: Exception) -> None:
        """An engine call failed in a way the rules did not foresee: with a failure
        handler it is told ``where`` and the controller starts over; else it is raised."""
        if self.on_failure is None:
            raise error
        self.on_failure(where, error)
        self.reset()


def evaluate_nothing(choice: AttackChoice, dice: DiceEntry) -> AttackView:
    """The view of no attack (no document, or nothing chosen)."""
    return AttackView(choice, dice, None, "", None, (), None, None, None, False, (), "damage")
