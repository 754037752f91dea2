"""The attack being prepared as the attack panels bind to it: an ``AttackController``
(the choice, the dice and their ``AttackView``) and a ``TargetScanner`` (every enemy's
validity), both fed the same snapshot and choice.

``AttackState`` holds nothing of its own but the listeners: what it reads comes from the
controller's current choice and dice and from the view it published last (a view of an
earlier choice, still being answered, shows no report); what it sets goes to the
controller, and the scan follows the choice. Its listeners are told at every view the
controller publishes (the one refresh path of the attack's views); the scan's progress
goes to the scan listeners (``subscribe_scan``). Getters have no side effects. Nothing
here branches on a ruleset's name or imports Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletop_gui.model.attack_controller import (
    NO_ATTACK,
    SEED_LIMIT,
    AttackController,
    Later,
    at_once,
    evaluate_nothing,
    system_seed,
)
from tabletop_gui.model.attack_view import AttackChoice, AttackView
from tabletop_gui.model.jobs import InlineRunner, Runner
from tabletop_gui.model.notices import Notice
from tabletop_gui.model.target_scan import PIECE_S, TargetScan, TargetStatus, report_status
from tabletop_gui.model.target_scanner import TargetScanner
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    DieRoll,
    Resolution,
    RulesError,
    Ruleset,
)
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import OptionSpec, RulesetInfo
from tabletop_gui.rules.resolver import ChoiceAsk, DieAsk
from tabletop_gui.scenario.entities import Model, Scenario
from tabletop_gui.scenario.snapshot import Snapshot

__all__ = ["NO_ATTACK", "SEED_LIMIT", "AttackState", "system_seed"]

Listener = Callable[[], None]
FailureHandler = Callable[[str, Exception], None]
Refused = Callable[[str], None]


class AttackState:
    """Attacker, weapon, target, options and dice of one attack, and the rules' answers."""

    def __init__(self, scenario: Scenario | Snapshot | None = None,
                 seed_source: Callable[[], int] = system_seed,
                 runner: Runner | None = None,
                 on_failure: FailureHandler | None = None,
                 later: Later = at_once) -> None:
        self._listeners: list[Listener] = []
        self.runner: Runner = runner if runner is not None else InlineRunner()
        self.on_failure = on_failure  # told when an engine call fails (else raised)
        self.controller = AttackController(runner=self.runner, later=later,
                                           seed_source=seed_source, on_failure=self._failed)
        self.targets = TargetScanner(self.runner, self._scan_failed)
        self._note = ""  # a refusal told here (an option's value), until the next view
        self._followed: tuple[Snapshot | None, AttackChoice | None] = (None, None)
        self.controller.subscribe(self._published)
        if isinstance(scenario, Snapshot):
            self.set_snapshot(scenario)
        elif scenario is not None:
            self.set_scenario(scenario)

    # -- listeners -----------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """``listener()`` at every view published (and when the seed changes)."""
        self._listeners.append(listener)

    def subscribe_scan(self, listener: Listener) -> None:
        """``listener()`` when more target statuses are known."""
        self.targets.subscribe(listener)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener()

    def _published(self, view: AttackView) -> None:
        self._follow()  # the scan first: a choice published at once (no target yet)
        self._note = ""
        snapshot = self.snapshot
        if view.report is not None and snapshot is not None \
                and view.choice == self.controller.choice:
            self.targets.put(report_status(view.report), snapshot)
        self._notify()

    # -- what is held ------------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot | None:
        s = self.controller.snapshot
        return s if isinstance(s, Snapshot) else None

    @property
    def scenario(self) -> Scenario | None:
        return self.controller.scenario

    @property
    def view(self) -> AttackView:
        """The view of the current choice: the one published (it cannot be applied while
        a change is answered); while other dice are being answered, its report only; while
        another choice is, an empty one. A refusal told here is its message."""
        c = self.controller
        v = c.view
        if v.choice != c.choice:
            v = replace(evaluate_nothing(c.choice, c.dice), damage_axis=v.damage_axis)
        elif v.dice != c.dice:
            v = replace(v, dice=c.dice, rolled=(), next_die=None, pending_choice=None,
                        resolution=None, can_apply=False, asked=(),
                        odds=v.report.distribution if v.report is not None else None)
        elif v.can_apply and c.pending:
            v = replace(v, can_apply=False)
        return replace(v, message=self._note) if self._note else v

    @property
    def attacker(self) -> str | None:
        return self.controller.choice.attacker

    @property
    def weapon(self) -> str | None:
        return self.controller.choice.weapon

    @property
    def offhand(self) -> str | None:
        return self.controller.choice.offhand

    @property
    def target(self) -> str | None:
        return self.controller.choice.target

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.controller.choice.options)

    @property
    def dice(self) -> list[int]:
        return list(self.controller.dice.faces)

    @property
    def seed(self) -> int | None:
        """A seed fixed by the user for the next roll, else None: fresh per roll."""
        return self.controller.seed

    @property
    def seed_source(self) -> Callable[[], int]:
        return self.controller.seed_source

    @property
    def rolled_seed(self) -> int | None:
        """The seed of the dice shown, when rolled."""
        return self.controller.dice.seed

    @property
    def answers(self) -> dict[str, str]:
        """The choices the dice called for, answered (else their defaults)."""
        return dict(self.controller.dice.answers)

    @property
    def report(self) -> AttackReport | None:
        return self.view.report

    @property
    def odds(self) -> Dist | None:
        """Conditioned on the dice."""
        return self.view.odds

    @property
    def resolution(self) -> Resolution | None:
        return self.view.resolution

    @property
    def entered(self) -> tuple[DieRoll, ...]:
        return self.view.rolled

    @property
    def next_die(self) -> DieAsk | None:
        """The die asked for next."""
        return self.view.next_die

    @property
    def pending_choices(self) -> tuple[ChoiceAsk, ...]:
        """The choices these dice called for (answered, or taken by their default)."""
        return self.view.asked

    @property
    def message(self) -> str:
        """The last refusal, in the rules' words."""
        return self._note or self.view.message

    @message.setter
    def message(self, text: str) -> None:
        self._note = text
        self._notify()

    @property
    def damage_axis(self) -> str:
        return self.controller.view.damage_axis

    @property
    def pending(self) -> bool:
        """Answers for the current choices are being computed."""
        return self.controller.pending

    @property
    def busy(self) -> bool:
        """Answers or target statuses are being computed."""
        return self.controller.pending or self.targets.busy

    @property
    def can_apply(self) -> bool:
        v = self.controller.view
        return self.controller.can_apply and v.report is not None and v.report.valid

    @property
    def scan(self) -> TargetScan:
        return self.targets.scan

    @property
    def hold_reports(self) -> bool:
        return self.targets.hold_reports

    # -- what the rules are ------------------------------------------------------------
    @property
    def info(self) -> RulesetInfo | None:
        return registry.info(self.scenario.ruleset) if self.scenario is not None else None

    @property
    def ruleset(self) -> Ruleset | None:
        return registry.get(self.scenario.ruleset) if self.scenario is not None else None

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return self.controller.option_specs

    def model(self, model_id: str | None) -> Model | None:
        return self.controller.model(model_id)

    def weapon_names(self) -> list[str]:
        return list(self.controller.weapon_names())

    def offhand_choices(self) -> list[str]:
        """The attacker's other weapons the ruleset accepts in the off hand against this
        target with this weapon (asked of the engine with the other answers)."""
        return list(self.controller.offhands)

    def enemies(self) -> list[str]:
        """Ids of the attacker's enemies on the table (not taken down): the scan's, when it
        follows this attacker on this scenario (the overlay asks at every slice)."""
        plan = self.scan.plan
        if plan is not None and plan.attacker == self.attacker \
                and plan.scenario is self.scenario:
            return list(plan.enemies)
        a = self.model(self.attacker)
        if a is None or self.scenario is None:
            return []
        return [m.id for m in self.scenario.models
                if m.side != a.side and not self.scenario.taken_down(m)]

    def option_value(self, key: str) -> Any:
        return self.controller.option_value(key)

    def request(self, target: str | None = None) -> AttackRequest | None:
        t = target if target is not None else self.target
        if self.attacker is None or t is None:
            return None
        return AttackRequest(self.attacker, t, self.weapon, self.offhand, self.options)

    # -- setting ---------------------------------------------------------------------
    def set_scenario(self, scenario: Scenario) -> None:
        """``set_snapshot`` of the snapshot of ``scenario``, derived from the current one
        (``Snapshot.revised``: one model changed, its geometry derived from this one's)."""
        self.set_snapshot(self.snapshot.revised(scenario) if self.snapshot is not None
                          else Snapshot.of(scenario))

    def set_snapshot(self, snapshot: Snapshot) -> None:
        """A new version of the document (or a drag's preview of it): keep the choices
        that still make sense."""
        self.controller.set_snapshot(snapshot)
        self._follow()

    def set_attacker(self, attacker: str | None) -> None:
        self.controller.set_attacker(attacker)
        self._follow()

    def set_target(self, target: str | None) -> None:
        self.controller.set_target(target)
        self._follow()

    def set_weapon(self, weapon: str | None) -> None:
        self.controller.set_weapon(weapon)
        self._follow()

    def set_offhand(self, offhand: str | None) -> None:
        self.controller.set_offhand(offhand)
        self._follow()

    def set_option(self, key: str, value: Any) -> None:
        self.controller.set_option(key, value)
        self._follow()

    def answer_choice(self, key: str, value: str) -> None:
        """Answer a choice the dice call for (``pending_choices``), e.g. a limb."""
        self.controller.answer_choice(key, value)

    def set_seed(self, seed: int | None) -> None:
        """Fix the seed of the next roll (the rolls after it take the next seeds), or None
        for a fresh seed from the operating system at every roll (the default)."""
        if seed != self.seed:
            self.controller.set_seed(seed)
            self._notify()

    def reset(self, snapshot: Snapshot | None = None) -> None:
        """Start over, on ``snapshot`` when given (another document): no attacker,
        target, options, dice or scan. A seed the user fixed stays."""
        self.targets.reset()
        self._followed = (None, None)
        self.controller.reset(snapshot)

    def clear(self) -> None:
        """Forget the attack (Esc): no attacker, no target, no dice."""
        self.controller.clear()
        self._follow()

    def _follow(self) -> None:
        """The scan follows the controller's snapshot and choice (once per change)."""
        followed = (self.snapshot, self.controller.choice)
        if followed[0] is not self._followed[0] or followed[1] != self._followed[1]:
            self._followed = followed
            self.targets.follow(*followed)

    # -- the target scan -----------------------------------------------------------------
    def statuses(self) -> list[TargetStatus]:
        """Every enemy of the attacker known so far, valid or not with reasons, nearest
        first."""
        return self.targets.statuses()

    def status(self, target: str) -> TargetStatus | None:
        return next((s for s in self.statuses() if s.target == target), None)

    def problems(self) -> list[Notice]:
        """What went wrong judging the targets so far (see ``TargetScan.problems``)."""
        return self.targets.problems()

    def advance_scan(self, reports: bool = True, budget_s: float = PIECE_S) -> bool:
        return self.targets.advance(reports, budget_s)

    def hold(self, on: bool = True) -> None:
        """The scan stops after the verdicts (``on``: a drag under way) or not."""
        self.targets.hold(on)

    def release_reports(self) -> None:
        """Go on with the full reports (the drag rested)."""
        self.targets.release_reports()

    def cycle_target(self, step: int = 1) -> str | None:
        """Make the next valid target (nearest first) the target; None when there is none
        (or none is known yet: the verdicts are still being computed)."""
        valid = [s.target for s in self.statuses() if s.valid]
        if not valid:
            return None
        if self.target in valid:
            nxt = valid[(valid.index(self.target) + step) % len(valid)]
        else:
            nxt = valid[0] if step > 0 else valid[-1]
        self.set_target(nxt)
        return nxt

    # -- dice ------------------------------------------------------------------------
    def enter_die(self, face: int, refused: Refused | None = None) -> bool | None:
        """Add one physical die. True or False once the rules accepted or refused it
        (refused: ``message`` says why, and ``refused`` is called with it); None while
        it is being judged (a worker): faces typed meanwhile are judged in turn."""
        told: list[str] = []

        def tell(message: str) -> None:
            told.append(message)
            if refused is not None:
                refused(message)

        self.controller.enter_die(face, tell)
        if self.controller.pending and not told:
            return None
        return not told

    def remove_last_die(self) -> None:
        self.controller.remove_last_die()

    def clear_dice(self) -> None:
        self.controller.clear_dice()

    def roll(self) -> Resolution | None:
        """Roll digital dice: with a fresh seed from ``seed_source``, or with the seed the
        user fixed (which then moves on by one, so that the next roll differs). The
        resolution, once known (None while a worker computes it)."""
        self.controller.roll()
        return self.resolution if not self.pending else None

    def _failed(self, where: str, error: Exception) -> None:
        """An engine call failed in a way the rules did not foresee (a bug, a hostile
        file): with a failure handler, it is told ``where`` and the state starts over
        (nothing stale stays on show); without one (the state alone), it is raised."""
        if self.on_failure is None:
            raise error
        self.on_failure(where, error)
        self.targets.reset()
        self._followed = (None, None)

    def _scan_failed(self, where: str, error: Exception) -> None:
        """A piece of the scan failed: told, and the attack starts over too."""
        self._failed(where, error)
        self.controller.reset()

    # -- applying --------------------------------------------------------------------
    def applied_scenario(self) -> Scenario:
        """The scenario with the resolution's state changes (dataclasses.replace on state)."""
        if self.scenario is None or self.resolution is None:
            raise RulesError("nothing to apply: roll or enter the dice first")
        scenario = self.scenario
        for change in self.resolution.changes:
            model = scenario.model(change.combatant)
            if model is None:
                raise RulesError(f"unknown fighter or unit id {change.combatant!r}")
            new_state = {**model.state, **change.state}
            scenario = scenario.with_entity(replace(model, state=new_state))
        return scenario

    def edit_text(self) -> str:
        a, t = self.model(self.attacker), self.model(self.target)
        weapon = f" with {self.report.weapon}" if self.report and self.report.weapon else ""
        return (f"Apply attack: {a.name if a else '?'} on {t.name if t else '?'}{weapon}")
