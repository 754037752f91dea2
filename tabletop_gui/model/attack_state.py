"""The attack being prepared, as a plain Python object (the Attack panel only binds to it).

``AttackState`` holds the attacker, weapon, off-hand, target, situational option values,
the dice entered or rolled, the seed, and what the ruleset answered for them: the last
``AttackReport``, the odds conditioned on the dice so far, the ``Resolution`` once the
dice are complete, and the target scan (every enemy valid or not, ``model.target_scan``).
Nothing here branches on a ruleset's name or imports Qt.

The answers are computed by jobs handed to a runner (``model.jobs``): with the default
``InlineRunner`` every change is answered before the call returns; the window gives the
state a worker thread (``model.engine_thread``), and then a change returns at once, the
answers follow on a later event-loop turn, and the listeners are called again. A job
superseded by a newer change is cancelled and its answer dropped (a generation counter),
so what is shown is always the answer to the latest choices. While answers are being
computed, ``pending`` is True and the attack cannot be applied.

With a worker the target scan keeps itself going (``keep_scanning``): each piece is asked
for as soon as the previous one arrives, before the listeners draw it, so the worker
computes while the window draws; ``hold_reports`` pauses it after the verdicts (a drag
under way). Scan progress goes to the scan listeners (``subscribe_scan``), the other
changes to the listeners (``subscribe``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from tabletop_gui.model import attack_answers as answers_of
from tabletop_gui.model.attack_answers import (
    Answers,
    EngineFailure,
    Entered,
    Question,
    Rolled,
)
from tabletop_gui.model.jobs import InlineRunner, Outcome, Runner, Ticket
from tabletop_gui.model.notices import Notice
from tabletop_gui.model.target_scan import (
    PIECE_S,
    ScanPiece,
    TargetScan,
    TargetStatus,
    compute_piece,
    plan_of,
)
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

Listener = Callable[[], None]
FailureHandler = Callable[[str, Exception], None]
Refused = Callable[[str], None]
DOWN_CACHE = 20_000
SEED_LIMIT = 2_000_000_000  # seeds are 0 .. SEED_LIMIT (what the seed box can show)
NO_ATTACK = "choose an attacker and a target first"


def system_seed() -> int:
    """A fresh seed from the operating system's random source (differs at every call and
    at every launch; logged with the roll, so the roll can be replayed)."""
    return secrets.randbelow(SEED_LIMIT + 1)


class AttackState:
    """Attacker, weapon, target, options and dice of one attack, and the rules' answers."""

    def __init__(self, scenario: Scenario | Snapshot | None = None,
                 seed_source: Callable[[], int] = system_seed,
                 runner: Runner | None = None,
                 on_failure: FailureHandler | None = None) -> None:
        self._listeners: list[Listener] = []
        self._scan_listeners: list[Listener] = []
        self.runner: Runner = runner if runner is not None else InlineRunner()
        self.keep_scanning = not self.runner.synchronous  # scan on, piece after piece
        self.hold_reports = False  # the scan stops after the verdicts (a drag under way)
        self.snapshot: Snapshot | None = None  # the revision (or drag preview) attacked in
        self.attacker: str | None = None
        self.weapon: str | None = None
        self.offhand: str | None = None
        self.target: str | None = None
        self.options: dict[str, Any] = {}
        self.dice: list[int] = []
        self.seed_source = seed_source
        self.seed: int | None = None  # a seed fixed by the user, else None: fresh per roll
        self.rolled_seed: int | None = None  # the seed of the dice shown, when rolled
        self.report: AttackReport | None = None
        self.odds: Dist | None = None  # conditioned on self.dice
        self.resolution: Resolution | None = None
        self.entered: tuple[DieRoll, ...] = ()
        self.next_die: DieAsk | None = None  # the die asked for next
        self.message = ""  # the last refusal, in the rules' words
        self.pending_choices: tuple[ChoiceAsk, ...] = ()  # choices these dice call for
        self.answers: dict[str, str] = {}  # the choices answered (else their defaults)
        self.damage_axis = "damage"  # what the odds count (the ruleset's words)
        self.scan = TargetScan()
        self.pending = False  # answers for the current choices are being computed
        self._offhands: tuple[str, ...] = ()
        self._answered_for: AttackRequest | None = None  # the request the answers are for
        self._answered_dice: tuple[int, ...] = ()  # and the dice
        self._generation = 0  # of the answers wanted; older deliveries are dropped
        self._tickets: dict[str, Ticket] = {}  # the job in flight of each kind
        self._typed: list[tuple[int, Refused | None]] = []  # faces typed while judging
        self._judging: tuple[int, Refused | None] | None = None  # the face being judged
        self._models: dict[str, Model] = {}
        self._models_of: Scenario | None = None
        self._enemies_cache: tuple[object, list[str]] = (None, [])
        self._down: dict[int, tuple[Model, bool]] = {}
        self.live = False  # the change being notified is a drag preview (see set_scenario)
        self.on_failure = on_failure  # told when an engine call fails
        if isinstance(scenario, Snapshot):
            self.set_snapshot(scenario)
        elif scenario is not None:
            self.set_scenario(scenario)

    # -- listeners -----------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def subscribe_scan(self, listener: Listener) -> None:
        """``listener`` is called when more target statuses are known."""
        self._scan_listeners.append(listener)

    def _notify(self, live: bool = False) -> None:
        self.live = live
        try:
            for listener in list(self._listeners):
                listener()
        finally:
            self.live = False

    @property
    def scenario(self) -> Scenario | None:
        return self.snapshot.scenario if self.snapshot is not None else None

    # -- what the rules are ------------------------------------------------------------
    @property
    def info(self) -> RulesetInfo | None:
        return registry.info(self.scenario.ruleset) if self.scenario is not None else None

    @property
    def ruleset(self) -> Ruleset | None:
        return registry.get(self.scenario.ruleset) if self.scenario is not None else None

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        info = self.info
        return info.situational_options if info is not None else ()

    @property
    def busy(self) -> bool:
        """Answers or target statuses are being computed."""
        return bool(self._tickets)

    def model(self, model_id: str | None) -> Model | None:
        if self.scenario is None or model_id is None:
            return None
        if self._models_of is not self.scenario:
            self._models = {m.id: m for m in self.scenario.models}
            self._models_of = self.scenario
        return self._models.get(model_id)

    def weapon_names(self) -> list[str]:
        m = self.model(self.attacker)
        return [w.name for w in m.weapons] if m is not None else []

    def offhand_choices(self) -> list[str]:
        """The attacker's other weapons the ruleset accepts in the off hand against this
        target with this weapon (asked of the engine with the other answers)."""
        return list(self._offhands)

    def enemies(self) -> list[str]:
        """Ids of the attacker's enemies on the table (not taken down)."""
        a = self.model(self.attacker)
        if a is None or self.scenario is None:
            return []
        key = (self.scenario, a.side)
        if self._enemies_cache[0] != key:
            self._enemies_cache = (key, [m.id for m in self.scenario.models
                                         if m.side != a.side and not self.is_down(m)])
        return list(self._enemies_cache[1])

    def is_down(self, model: Model) -> bool:
        """``scenario.taken_down(model)``, remembered per model value (a drag changes one
        model)."""
        known = self._down.get(id(model))
        if known is None or known[0] is not model:
            if len(self._down) > DOWN_CACHE:
                self._down.clear()
            down = self.scenario is not None and self.scenario.taken_down(model)
            known = self._down[id(model)] = (model, down)
        return known[1]

    def option_value(self, key: str) -> Any:
        spec = next((s for s in self.option_specs if s.key == key), None)
        return self.options.get(key, spec.default if spec is not None else None)

    def request(self, target: str | None = None) -> AttackRequest | None:
        t = target if target is not None else self.target
        if self.attacker is None or t is None:
            return None
        return AttackRequest(self.attacker, t, self.weapon, self.offhand, dict(self.options))

    # -- setting ---------------------------------------------------------------------
    def set_scenario(self, scenario: Scenario, live: bool = False) -> None:
        """``set_snapshot`` of the snapshot of ``scenario``, derived from the current one
        (``Snapshot.revised``: one model changed, its geometry derived from this one's)."""
        self.set_snapshot(self.snapshot.revised(scenario) if self.snapshot is not None
                          else Snapshot.of(scenario), live)

    def set_snapshot(self, snapshot: Snapshot, live: bool = False) -> None:
        """A new version of the document (or a drag's preview of it, ``live``: listeners
        may wait for the end of the event-loop turn): keep the choices that still make
        sense. The jobs read its battle and geometry."""
        self.snapshot = snapshot
        if self.model(self.attacker) is None:
            self.attacker = self.target = None
        if self.model(self.target) is None:
            self.target = None
        known = {s.key for s in self.option_specs}
        self.options = {k: v for k, v in self.options.items() if k in known}
        self._fix_weapon()
        self._recompute(keep_dice=True, live=live, keep_typed=True)

    def set_attacker(self, attacker: str | None) -> None:
        if attacker == self.attacker:
            return
        self.attacker = attacker if self.model(attacker) is not None else None
        self.weapon = self.offhand = None
        t = self.model(self.target)
        a = self.model(self.attacker)
        if t is None or a is None or t.side == a.side:
            self.target = None
        self._fix_weapon()
        self._recompute()

    def set_target(self, target: str | None) -> None:
        if target == self.target:
            return
        self.target = target if self.model(target) is not None else None
        self._recompute()

    def set_weapon(self, weapon: str | None) -> None:
        if weapon != self.weapon:
            self.weapon = weapon
            if self.offhand == weapon:
                self.offhand = None
            self._recompute()

    def set_offhand(self, offhand: str | None) -> None:
        if offhand != self.offhand:
            self.offhand = offhand
            self._recompute()

    def set_option(self, key: str, value: Any) -> None:
        spec = next((s for s in self.option_specs if s.key == key), None)
        if spec is None:
            raise RulesError(f"unknown option {key!r}")
        if value == spec.default:
            self.options.pop(key, None)
        else:
            self.options[key] = value
        self._recompute(keep_dice=True)

    def answer_choice(self, key: str, value: str) -> None:
        """Answer a choice the dice call for (``pending_choices``), e.g. a limb."""
        if self.answers.get(key) != value:
            self.answers[key] = value
            self._recompute(keep_dice=True)

    def set_seed(self, seed: int | None) -> None:
        """Fix the seed of the next roll (the rolls after it take the next seeds), or None
        for a fresh seed from the operating system at every roll (the default)."""
        if seed != self.seed:
            self.seed = seed
            self._notify()

    def reset(self, snapshot: Snapshot | None = None) -> None:
        """Start over, on ``snapshot`` when given (another document): no attacker,
        target, options, dice or scan, nothing remembered of the earlier battlefield.
        A seed the user fixed stays."""
        if snapshot is not None:
            self.snapshot = snapshot
        self.attacker = self.target = self.weapon = self.offhand = None
        self.options = {}
        self._cancel()
        self.scan = TargetScan()
        self._models, self._models_of = {}, None
        self._enemies_cache = (None, [])
        self._down.clear()
        self._recompute()

    def problems(self) -> list[Notice]:
        """What went wrong judging the targets so far (see ``TargetScan.problems``)."""
        return self.scan.problems() if self.attacker is not None else []

    def clear(self) -> None:
        """Forget the attack (Esc): no attacker, no target, no dice."""
        self.attacker = self.target = self.weapon = self.offhand = None
        self.options = {}
        self._recompute()

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

    def _fix_weapon(self) -> None:
        names = self.weapon_names()
        if self.weapon is not None and self.weapon not in names:
            self.weapon = None
        if self.offhand is not None and self.offhand not in names:
            self.offhand = None

    # -- dice ------------------------------------------------------------------------
    def enter_die(self, face: int, refused: Refused | None = None) -> bool | None:
        """Add one physical die. True or False once the rules accepted or refused it
        (refused: ``message`` says why, and ``refused`` is called with it); None while
        it is being judged (a worker): faces typed meanwhile are judged in turn."""
        if self.request() is None or self.scenario is None:
            self.message = NO_ATTACK
            self._notify()
            if refused is not None:
                refused(self.message)
            return False
        self._typed.append((face, refused))
        if "answers" in self._tickets or "dice" in self._tickets:
            return None
        return self._enter_next()

    def _enter_next(self) -> bool | None:
        if not self._typed:
            return None
        q = self._question()
        if q is None or q.request is None:
            self._typed.clear()
            return None
        face, refused = self._judging = self._typed.pop(0)
        trial = (*self.dice, face) if self.rolled_seed is None else (face,)
        result: list[bool] = []
        self._submit("dice", partial(answers_of.enter, q, trial),
                     partial(self._entered, refused, result), "Reading the die entered")
        return result[0] if result else None

    def _entered(self, refused: Refused | None, result: list[bool],
                 entered: Entered) -> None:
        self._judging = None
        if entered.reading is None:
            self.message = entered.refusal
            result.append(False)
            self._notify()
            if refused is not None:
                refused(entered.refusal)
        else:
            self.dice = list(entered.dice)
            self.rolled_seed = None
            self._take(self._current().with_reading(entered.reading, entered.dice),
                       self._answered_for)
            result.append(True)
            self._notify()
        self._enter_next()

    def remove_last_die(self) -> None:
        if self.dice:
            self.dice = self.dice[:-1] if self.rolled_seed is None else []
            self.rolled_seed = None
            self._recompute(keep_dice=True)

    def clear_dice(self) -> None:
        self.dice = []
        self.answers.clear()
        self.rolled_seed = None
        self._recompute(keep_dice=True)

    def roll(self) -> Resolution | None:
        """Roll digital dice: with a fresh seed from ``seed_source``, or with the seed the
        user fixed (which then moves on by one, so that the next roll differs). The
        resolution, once known (None while a worker computes it)."""
        q = self._question()
        if q is None or q.request is None:
            self.message = NO_ATTACK
            self._notify()
            return None
        seed = self.seed if self.seed is not None else self.seed_source()
        if self.seed is not None:
            self.seed = seed + 1 if seed < SEED_LIMIT else 0
        self._typed.clear()
        self._judging = None
        ticket = self._tickets.pop("dice", None)
        if ticket is not None:
            ticket.cancel()
        self._generation += 1
        self._submit("answers", partial(answers_of.roll, q, seed),
                     partial(self._rolled, q.request), "Rolling the dice")
        if self.pending:
            self._notify()
        return self.resolution if not self.pending else None

    def _rolled(self, request: AttackRequest, rolled: Rolled) -> None:
        if rolled.answers is None:
            self.message = rolled.refusal
        else:
            self.rolled_seed = rolled.seed
            self.dice = list(rolled.answers.dice)
            self._take(rolled.answers, request)
        self._notify()

    # -- the target scan -----------------------------------------------------------------
    def statuses(self, complete: bool = True) -> list[TargetStatus]:
        """Every enemy of the attacker known so far, valid or not with reasons, nearest
        first. ``complete``: finish the scan first, when the runner is synchronous (a
        worker's scan is never waited for: its statuses come as they are computed)."""
        if self.attacker is None or self.scan.plan is None \
                or self.scan.plan.attacker != self.attacker:
            return []
        if complete and self.runner.synchronous:
            while self.advance_scan():
                pass
        return self.scan.statuses()

    def status(self, target: str) -> TargetStatus | None:
        return next((s for s in self.statuses() if s.target == target), None)

    def advance_scan(self, reports: bool = True, budget_s: float = PIECE_S) -> bool:
        """Compute the next piece of the target scan (``reports``: the full reports too,
        not only the verdicts); False when none was started (nothing left, or a piece is
        already under way)."""
        if "scan" in self._tickets:
            return False
        job = self.scan.next_job(reports)
        if job is None:
            return False
        job = replace(job, budget_s=budget_s, explain=not self.hold_reports)
        self._submit("scan", partial(compute_piece, job),
                     self._scanned, "Judging the targets")
        return True

    def hold(self, on: bool = True) -> None:
        """The scan stops after the verdicts (``on``: a drag under way) or not."""
        self.hold_reports = on

    def release_reports(self) -> None:
        """Go on with the full reports (the drag rested)."""
        self.hold_reports = False
        self._continue_scan()

    def _continue_scan(self) -> None:
        if self.keep_scanning and self.attacker is not None:
            self.advance_scan(reports=not self.hold_reports)

    def _scanned(self, piece: ScanPiece) -> None:
        if self.scan.merge(piece):
            self._continue_scan()  # the worker computes the next piece while this is drawn
            for listener in list(self._scan_listeners):
                listener()

    def _plan_scan(self) -> None:
        if self.snapshot is None or self.attacker is None:
            return
        plan = plan_of(self.snapshot, self.attacker, self.weapon, self.offhand,
                       self.options, self.enemies(), self.target)
        if self.scan.wants(plan):
            ticket = self._tickets.pop("scan", None)
            if ticket is not None:
                ticket.cancel()
            self.scan.start(plan)

    # -- recomputation -----------------------------------------------------------------
    def _question(self) -> Question | None:
        if self.snapshot is None:
            return None
        return Question(self.snapshot.scenario.ruleset, self.snapshot, self.request(),
                        tuple(self.dice),
                        self.option_specs, tuple(self.weapon_names()),
                        tuple(sorted(self.answers.items())))

    def _recompute(self, keep_dice: bool = False, live: bool = False,
                   keep_typed: bool = False) -> None:
        """Answer the choices anew; ``keep_typed``: the faces typed and not judged yet
        are judged on the new answers (the battlefield changed, not the attack)."""
        if not keep_dice:
            self.dice = []
            self.rolled_seed = None
        if keep_typed and self._judging is not None:
            self._typed.insert(0, self._judging)  # its answer is dropped: judged again
        elif not keep_typed:
            self._typed.clear()
        self._judging = None
        for kind in ("answers", "dice"):
            ticket = self._tickets.pop(kind, None)
            if ticket is not None:
                ticket.cancel()
        self._generation += 1
        self._plan_scan()
        q = self._question()
        if q is None or q.request is None:
            self._take(Answers(dice=tuple(self.dice)), None)
            self.pending = False
            self._continue_scan()
            self._notify(live)
            return
        if q.request != self._answered_for:
            self._take(Answers(dice=tuple(self.dice)), None)  # another attack: nothing stale
        elif q.dice != self._answered_dice:  # other dice: only the report still holds
            self._take(Answers(self.report, self.report.distribution if self.report else None,
                               dice=q.dice, offhands=self._offhands), q.request)
        self._submit("answers", partial(answers_of.answer, q),
                     partial(self._answered, q, live), "Preparing the attack")
        self._continue_scan()  # after the answers: the user waits for those first
        if self.pending:
            self._notify(live)

    def _answered(self, q: Question, live: bool, answers: Answers) -> None:
        self.dice = list(answers.dice)
        if answers.dice_dropped:
            self.rolled_seed = None
        self._take(answers, q.request)
        if answers.status is not None:
            self.scan.put(answers.status, q.snapshot.scenario)
        self._notify(live)
        self._enter_next()  # faces typed while the answers were computed

    def _submit(self, kind: str, work: Callable[[], Any], done: Callable[[Any], None],
                where: str) -> None:
        """Hand ``work`` to the runner; ``done`` gets its value unless a newer change
        superseded it. The answers kinds ("answers", "dice") make the state ``pending``."""
        generation = self._generation
        ticket: list[Ticket] = []

        def deliver(outcome: Outcome[Any]) -> None:
            if ticket and self._tickets.get(kind) is not ticket[0]:
                return  # superseded (or the state was reset)
            if kind != "scan" and generation != self._generation:
                return
            self._tickets.pop(kind, None)
            if kind != "scan":
                self.pending = False
            try:
                value = outcome.get()
            except EngineFailure as e:
                self._fail(e.where, e.error)
                return
            except Exception as e:  # noqa: BLE001 - the job's own failure, not the rules'
                self._fail(where, e)
                return
            done(value)

        if kind != "scan":
            self.pending = True
        old = self._tickets.get(kind)
        if old is not None:
            old.cancel()
        placeholder = Ticket()
        self._tickets[kind] = placeholder
        ticket.append(placeholder)
        submitted = self.runner.submit(work, deliver)
        if self._tickets.get(kind) is placeholder:  # still wanted: cancel the real one
            self._tickets[kind] = submitted
            ticket[0] = submitted

    def _fail(self, where: str, error: Exception) -> None:
        """An engine call failed in a way the rules did not foresee (a bug, a hostile
        file): with a failure handler, it is told ``where`` and the state starts over
        (nothing stale stays on show); without one (the state alone), it is raised."""
        if self.on_failure is None:
            raise error
        self.on_failure(where, error)
        self.reset()

    def _cancel(self) -> None:
        for ticket in self._tickets.values():
            ticket.cancel()
        self._tickets.clear()
        self._typed.clear()
        self._judging = None
        self.pending = False
        self._generation += 1

    def _current(self) -> Answers:
        return Answers(self.report, self.odds, self.resolution, self.entered, self.next_die,
                       self.pending_choices, self.message, tuple(self.dice),
                       offhands=self._offhands, damage_axis=self.damage_axis)

    def _take(self, answers: Answers, request: AttackRequest | None) -> None:
        self._answered_for = request
        self._answered_dice = answers.dice
        self.report = answers.report
        self.odds = answers.odds
        self.resolution = answers.resolution
        self.entered = answers.entered
        self.next_die = answers.next_die
        self.pending_choices = answers.pending_choices
        if answers.report is not None:
            self.damage_axis = answers.damage_axis
        self.message = answers.message
        self._offhands = answers.offhands

    # -- applying --------------------------------------------------------------------
    @property
    def can_apply(self) -> bool:
        return (not self.pending and self.report is not None and self.report.valid
                and self.resolution is not None)

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
