"""The attack being prepared, as a plain Python object (the Attack panel only binds to it).

``AttackState`` holds the attacker, weapon, off-hand, target, situational option values,
the dice entered or rolled, the seed, and what the ruleset answered for them: the last
``AttackReport``, the odds conditioned on the dice so far, and the ``Resolution`` once
the dice are complete. Every change recomputes through the ``Ruleset`` interface and
calls the listeners; nothing here branches on a ruleset's name or imports Qt.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.dice_probe import (
    EnteredDie,
    choices_called_for,
    first_die,
    read_dice,
)
from tabletop_gui.model.notices import Notice
from tabletop_gui.model.target_scan import TargetScan, TargetStatus
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    Resolution,
    RulesError,
    Ruleset,
    SeededDice,
)
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import OptionSpec, RulesetInfo
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Model, Scenario

Listener = Callable[[], None]
FailureHandler = Callable[[str, Exception], None]
DOWN_CACHE = 20_000
T = TypeVar("T")


def _none() -> None:
    return None


def _guarded(where: str, fallback: Callable[[], Any] = _none) -> Callable[[T], T]:
    """An engine call that may fail in a way the rules did not foresee (a bug, a hostile
    file): with a failure handler set, the state starts over (``reset``: nothing stale
    stays on show) and the handler is told ``where`` it failed; ``fallback()`` is returned.
    A ``RulesError`` is the rules' answer, not a failure: it passes. Without a handler
    (the state alone, in tests) the exception passes too."""
    def wrap(method: T) -> T:
        @functools.wraps(method)  # type: ignore[arg-type]
        def run(self: AttackState, *args: Any, **kwargs: Any) -> Any:
            if self._guarding or self.on_failure is None:
                return method(self, *args, **kwargs)  # type: ignore[operator]
            self._guarding = True
            try:
                return method(self, *args, **kwargs)  # type: ignore[operator]
            except RulesError:
                raise
            except Exception as e:  # noqa: BLE001 - handed to on_failure (the window)
                self.on_failure(where, e)
                self.reset()
                return fallback()
            finally:
                self._guarding = False
        return run  # type: ignore[return-value]
    return wrap


def carry_geometry(before: Scenario, after: Scenario) -> None:
    """Derive the geometry of ``after`` from that of ``before`` when exactly one model
    changed (same models otherwise, the very same objects): one row and column of the
    pair tables are recomputed instead of every pair."""
    old, new = before.models, after.models
    if len(old) != len(new) or before.obstacles is not after.obstacles \
            or before.platforms is not after.platforms:
        return
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a is not b]
    if len(changed) != 1 or old[changed[0]].id != new[changed[0]].id:
        return
    moved_id = new[changed[0]].id
    old_board = battle_of(before).board
    new_board = battle_of(after).board
    try:
        BoardGeometry.of(old_board).moved(new_board, moved_id, handover=True)
    except KeyError:
        return


SEED_LIMIT = 2_000_000_000  # seeds are 0 .. SEED_LIMIT (what the seed box can show)


def system_seed() -> int:
    """A fresh seed from the operating system's random source (differs at every call and
    at every launch; logged with the roll, so the roll can be replayed)."""
    return secrets.randbelow(SEED_LIMIT + 1)


class AttackState:
    """Attacker, weapon, target, options and dice of one attack, and the rules' answers."""

    def __init__(self, scenario: Scenario | None = None,
                 seed_source: Callable[[], int] = system_seed) -> None:
        self._listeners: list[Listener] = []
        self.scenario: Scenario | None = None
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
        self.entered: tuple[EnteredDie, ...] = ()
        self.next_die: tuple[int, str] | None = None  # (sides, label) of the die asked next
        self.message = ""  # the last refusal, in the rules' words
        self.pending_choices: tuple[OptionSpec, ...] = ()  # choices these dice call for
        self.scan = TargetScan()
        self._models: dict[str, Model] = {}
        self._models_of: Scenario | None = None
        self._offhand_cache: tuple[object, list[str]] = (None, [])
        self._enemies_cache: tuple[object, list[str]] = (None, [])
        self._down: dict[int, tuple[Model, bool]] = {}
        self.live = False  # the change being notified is a drag preview (see set_scenario)
        self.on_failure: FailureHandler | None = None  # told when an engine call fails
        self._guarding = False
        if scenario is not None:
            self.set_scenario(scenario)

    # -- listeners -----------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener()

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

    def battle(self) -> Battle | None:
        return battle_of(self.scenario) if self.scenario is not None else None

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

    @_guarded("Listing the off-hand weapons", list)
    def offhand_choices(self) -> list[str]:
        """The attacker's other weapons the ruleset accepts in the off hand against this
        target with this weapon (asked of the engine; empty where nobody dual-wields)."""
        request, battle, ruleset = self.request(), self.battle(), self.ruleset
        if request is None or battle is None or ruleset is None:
            return []
        key = (self.scenario, request.attacker, request.target, request.weapon,
               repr(sorted(request.situational.items())))
        if self._offhand_cache[0] == key:
            return self._offhand_cache[1]
        out = []
        for name in self.weapon_names():
            if name == self.weapon:
                continue
            try:
                report = ruleset.attack(battle, replace(request, offhand=name))
            except RulesError:
                continue
            if report.offhand == name and report.weapon != name:
                out.append(name)
        self._offhand_cache = (key, out)
        return out

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
        """``model.taken_down``, remembered per model value (a drag changes one model)."""
        known = self._down.get(id(model))
        if known is None or known[0] is not model:
            if len(self._down) > DOWN_CACHE:
                self._down.clear()
            known = self._down[id(model)] = (model, model.taken_down)
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
        """A new version of the document: keep the choices that still make sense.

        When it differs from the current one in a single model (a drag step, or its
        release), the geometry of the new battle is derived from the current one
        (``BoardGeometry.moved``: the pair tables updated in one row and column).
        ``live``: a drag preview; listeners may wait for the end of the event-loop turn."""
        previous = self.scenario
        self.scenario = scenario
        if previous is not None and previous is not scenario:
            carry_geometry(previous, scenario)
        self.live = live
        if self.model(self.attacker) is None:
            self.attacker = self.target = None
        if self.model(self.target) is None:
            self.target = None
        known = {s.key for s in self.option_specs}
        self.options = {k: v for k, v in self.options.items() if k in known}
        self._fix_weapon()
        self._recompute(keep_dice=True)

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

    def set_seed(self, seed: int | None) -> None:
        """Fix the seed of the next roll (the rolls after it take the next seeds), or None
        for a fresh seed from the operating system at every roll (the default)."""
        if seed != self.seed:
            self.seed = seed
            self._notify()

    def reset(self, scenario: Scenario | None = None) -> None:
        """Start over, on ``scenario`` when given (another document): no attacker,
        target, options, dice or scan, nothing remembered of the earlier battlefield.
        A seed the user fixed stays."""
        if scenario is not None:
            self.scenario = scenario
        self.attacker = self.target = self.weapon = self.offhand = None
        self.options = {}
        self.scan = TargetScan()
        self._models, self._models_of = {}, None
        self._offhand_cache = (None, [])
        self._enemies_cache = (None, [])
        self._down.clear()
        self.live = False
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
        """Make the next valid target (nearest first) the target; None when there is none."""
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
    @_guarded("Reading the die entered", lambda: False)
    def enter_die(self, face: int) -> bool:
        """Add one physical die; refused (False, with ``message``) when the rules refuse it."""
        request = self.request()
        battle = self.battle()
        ruleset = self.ruleset
        if request is None or battle is None or ruleset is None:
            self.message = "choose an attacker and a target first"
            self._notify()
            return False
        trial = [*self.dice, face] if self.rolled_seed is None else [face]
        try:
            self._resolve_given(ruleset, battle, request, trial)
        except RulesError as e:
            self.message = str(e)
            self._notify()
            return False
        self.dice = trial
        self.rolled_seed = None
        self.message = ""
        self._notify()
        return True

    def remove_last_die(self) -> None:
        if self.dice:
            self.dice = self.dice[:-1] if self.rolled_seed is None else []
            self.rolled_seed = None
            self._recompute(keep_dice=True)

    def clear_dice(self) -> None:
        self.dice = []
        self.rolled_seed = None
        self._recompute(keep_dice=True)

    @_guarded("Rolling the dice")
    def roll(self) -> Resolution | None:
        """Roll digital dice: with a fresh seed from ``seed_source``, or with the seed the
        user fixed (which then moves on by one, so that the next roll differs)."""
        request, battle, ruleset = self.request(), self.battle(), self.ruleset
        if request is None or battle is None or ruleset is None:
            self.message = "choose an attacker and a target first"
            self._notify()
            return None
        seed = self.seed if self.seed is not None else self.seed_source()
        try:
            res = ruleset.resolve(battle, request, SeededDice(seed))
        except RulesError as e:
            self.message = str(e)
            self._notify()
            return None
        self.rolled_seed = seed
        if self.seed is not None:
            self.seed = seed + 1 if seed < SEED_LIMIT else 0
        self.dice = [d.face for d in res.dice]
        self.message = ""
        self._recompute(keep_dice=True)
        return self.resolution

    def _resolve_given(self, ruleset: Ruleset, battle: Battle, request: AttackRequest,
                       faces: Sequence[int]) -> None:
        """Set resolution/odds/entered for the given faces; RulesError when refused."""
        reading = read_dice(ruleset, battle, request, faces)
        self.resolution = reading.resolution
        self.odds = reading.odds
        self.next_die = reading.next_die
        self.entered = reading.entered
        self.pending_choices = () if reading.resolution is None else choices_called_for(
            self.option_specs, ruleset, battle, request, faces)

    # -- recomputation -----------------------------------------------------------------
    @_guarded("Judging the targets", list)
    def statuses(self, complete: bool = True) -> list[TargetStatus]:
        """Every enemy of the attacker, valid or not with reasons, nearest first; with
        ``complete=False`` only those scanned so far (see ``scan_step``)."""
        if not self._prepare_scan():
            return []
        if complete:
            self.scan.finish()
        return self.scan.statuses()

    @_guarded("Judging the targets", lambda: True)
    def scan_step(self, budget_s: float) -> bool:
        """Scan more enemies for ``budget_s`` seconds; True when every enemy is scanned."""
        if not self._prepare_scan():
            return True
        return self.scan.step(budget_s)

    def _prepare_scan(self) -> bool:
        ruleset = self.ruleset
        if self.scenario is None or self.attacker is None or ruleset is None:
            return False
        self.scan.prepare(ruleset, self.scenario, self.attacker, self.weapon, self.offhand,
                          self.options, self.enemies(), first=self.target)
        return True

    def status(self, target: str) -> TargetStatus | None:
        return next((s for s in self.statuses() if s.target == target), None)

    @_guarded("Preparing the attack")
    def _recompute(self, keep_dice: bool = False) -> None:
        if not keep_dice:
            self.dice = []
            self.rolled_seed = None
        self.report = None
        self.odds = None
        self.resolution = None
        self.entered = ()
        self.next_die = None
        self.pending_choices = ()
        self.message = ""
        request, battle, ruleset = self.request(), self.battle(), self.ruleset
        if request is not None and battle is not None and ruleset is not None:
            try:
                self.report = ruleset.attack(battle, request)
                self.odds = self.report.distribution
                if self._prepare_scan() and request.target in self.enemies():
                    r = self.report
                    self.scan.put(TargetStatus(r.target, r.valid, tuple(r.reasons), r.facts, r))
            except RulesError as e:
                self.message = str(e)
            if self.report is not None and self.dice:
                try:
                    self._resolve_given(ruleset, battle, request, self.dice)
                except RulesError as e:
                    self.message = f"dice dropped: {e}"
                    self.dice = []
                    self.rolled_seed = None
                    self.odds = self.report.distribution
            if self.report is not None and self.next_die is None and self.resolution is None:
                self.next_die = first_die(ruleset, battle, request)
        try:
            self._notify()
        finally:
            self.live = False

    # -- applying --------------------------------------------------------------------
    @property
    def can_apply(self) -> bool:
        return (self.report is not None and self.report.valid and self.resolution is not None)

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
