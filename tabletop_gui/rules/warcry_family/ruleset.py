"""The base class of the Warcry-family engines: from an attack plan to odds and rolls.

A ruleset engine says how to plan an attack (its checks, modifiers, table row and dice
pools); this class turns the plan into the ``AttackReport`` (exact distribution capped at
the wounds left, take-down probability), a ``Resolution`` from dice consumed in pool order,
and the odds conditioned on the first dice already rolled.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.facts import Cover
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    Check,
    Combatant,
    DiceError,
    DiceShortage,
    DieRoll,
    Modifier,
    PairFacts,
    Resolution,
    RulesError,
    Ruleset,
    StateChange,
    Terms,
    first_valid,
)
from tabletop_gui.rules.dist import DicePool, Dist, FaceTable, dice_needed, pool_damage
from tabletop_gui.rules.fields import RangeSpec
from tabletop_gui.rules.resolver import DieAsk, Resolver, Steps, dice_word
from tabletop_gui.rules.warcry_family.tables import HitRow, face_table
from tabletop_gui.rules.warcry_family.targeting import ENGAGE, EPS, Near, Targeting
from tabletop_gui.rules.warcry_family.validity import batch_validity, options_refused
from tabletop_gui.rules.warcry_family.weapons import (
    Profile,
    find_weapon,
    profile_of,
    weapon_names,
)

OUTCOME_TEXT = {"miss": "miss", "hit": "hit", "critical": "critical hit"}


def faces_text(table: FaceTable) -> str:
    """What the faces of one die do: 'miss 1-2, hit 3-5, critical 6' (runs of faces)."""
    parts: list[str] = []
    start = 1
    for face in range(1, table.sides + 1):
        outcome = table.outcomes[face - 1]
        if face == table.sides or table.outcomes[face] != outcome:
            span = str(start) if start == face else f"{start}-{face}"
            parts.append(f"{OUTCOME_TEXT.get(outcome, outcome)} {span}")
            start = face + 1
    return ", ".join(parts)


class DiceCountShortage(DiceShortage):
    """Too few given dice, naming exactly how many the attack rolls and in which pools."""

    def __init__(self, needed: int, given: int, what: str) -> None:
        super().__init__(needed, given)
        self.args = (f"too few dice: this attack needs {needed} ({what}), "
                     f"{given} were given",)


@dataclass(frozen=True)
class Roll:
    """One pool of an attack's dice: which weapon, how its dice are called, its armour."""

    pool: DicePool
    label: str  # "hit roll" (numbered) or "Dagger off-hand roll"
    numbered: bool = True
    armour_text: str = ""  # "armour 1 (3 - piercing 2)" when a reduction applies


@dataclass(frozen=True)
class Plan:
    """Everything about one attack except the dice."""

    weapon: str
    offhand: str | None
    attack_type: str
    checks: tuple[Check, ...]
    modifiers: tuple[Modifier, ...]
    facts: PairFacts
    table_row: str
    rolls: tuple[Roll, ...]
    wounds_left: int
    target: Combatant
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def pools(self) -> list[DicePool]:
        return [r.pool for r in self.rolls]

    @property
    def valid(self) -> bool:
        return all(c.ok for c in self.checks)


def wounds_left(target: Combatant) -> int:
    wounds = int(target.characteristics.get("wounds", 1))
    done = int(target.state.get("damage", 0) or 0)
    return max(0, wounds - done)


def facts_of(tg: Targeting, attacker: str, target: str, cover: Cover, flanked: bool,
             visible: bool | None = None) -> PairFacts:
    m = tg.measure(attacker, target)
    if visible is None:
        visible = tg.sight(attacker, target).visible
    return PairFacts(
        attacker=attacker, target=target,
        distance=m.distance, horizontal_distance=m.horizontal, vertical_distance=m.vertical,
        engaged=m.distance <= ENGAGE + EPS, visible=visible,
        cover="cover" if cover.in_cover else "none", cover_by=tuple(cover.by),
        flanked=flanked,
    )


class TargetChecks(NamedTuple):
    """The checks every Warcry-family attack starts with, and what later rules read."""

    checks: list[Check]  # the engine appends its own (friendly fire, melee forced)
    visible: Check
    distance: float
    near: list[Near]  # enemies within 1" of the attacker


def target_checks(tg: Targeting, attacker: Combatant, target: Combatant,
                  ranges: Sequence[tuple[RangeSpec, str]]) -> TargetChecks:
    """An enemy not taken down, visible, in range of each (range, weapon name), and the 1"
    forced target: the target rules the Warcry-family pages share, in their order."""
    checks = tg.enemy_checks(attacker, target)
    visible = tg.visible_check(attacker.id, target.id)
    checks.append(visible)
    distance = tg.measure(attacker.id, target.id).distance
    for rng, name in ranges:
        checks += tg.range_checks(distance, rng, name)
    engaged, near = tg.engaged_check(attacker.id, target.id)
    checks.append(engaged)
    return TargetChecks(checks, visible, distance, near)


def compare_extras(row: HitRow, attack: int, attack_name: str, defense: int,
                   defense_name: str) -> dict[str, Any]:
    """The plan extras the attack panel shows: the two compared values and the row."""
    return {"_compare": {"attack": attack, "attack_name": attack_name,
                         "defense": defense, "defense_name": defense_name},
            "_faces": row.faces_text()}


def hit_roll_plan(prof: Profile, kind: str, row: HitRow, checks: Sequence[Check],
                  modifiers: Sequence[Modifier], facts: PairFacts, target: Combatant,
                  extras: Mapping[str, Any]) -> Plan:
    """The plan of one weapon's hit rolls on ``row``, without armour (Warcry and
    fight-vs-defense: one pool, no off-hand)."""
    table = face_table(row, prof.damage)
    return Plan(
        weapon=prof.name, offhand=None, attack_type=kind, checks=tuple(checks),
        modifiers=tuple(modifiers), facts=facts, table_row=row.name,
        rolls=(Roll(DicePool(table, prof.attacks, 0, prof.name), "hit roll"),),
        wounds_left=wounds_left(target), target=target, extras=extras,
    )


class WarcryFamilyRuleset(Ruleset):
    """Shared machinery; subclasses implement ``plan`` and the inspect facts."""

    @abstractmethod
    def plan_for(self, battle: Battle, request: AttackRequest) -> Plan:
        """Plan the attack with ``request.weapon`` set."""

    @abstractmethod
    def inspect_cover(self, tg: Targeting, options: Mapping[str, Any], attacker: str,
                      target: str) -> Cover:
        """Cover as `inspect` reports it for the pair."""

    def inspect_flanked(self, tg: Targeting, attacker: str, target: str) -> bool:
        return False

    def parties(self, battle: Battle, request: AttackRequest
                ) -> tuple[Combatant, Combatant, Profile]:
        """The attacker, the target and the profile of ``request.weapon`` (set by ``plan``)."""
        attacker = battle.combatant(request.attacker)
        target = battle.combatant(request.target)
        assert request.weapon is not None
        return attacker, target, profile_of(find_weapon(attacker, request.weapon), attacker.id)

    # -- the interface ----------------------------------------------------------------
    def pair_facts(self, battle: Battle, attacker: str, target: str) -> PairFacts:
        battle.combatant(attacker)
        battle.combatant(target)
        tg = Targeting.of(battle)
        cover = self.inspect_cover(tg, self.options(battle), attacker, target)
        return facts_of(tg, attacker, target, cover, self.inspect_flanked(tg, attacker, target))

    def plan(self, battle: Battle, request: AttackRequest) -> Plan:
        """The plan; without a weapon, the first that can attack validly, else the first."""
        if request.weapon is not None:
            return self.plan_for(battle, request)
        attacker = battle.combatant(request.attacker)
        names = [n for n in weapon_names(attacker) if n != request.offhand]
        if not names:
            raise RulesError(f"{attacker.id} has no weapon to attack with")
        return first_valid(names, lambda name: self.plan_for(battle, replace(request, weapon=name)),
                           lambda p: p.valid)

    # -- many targets at once (the GUI's target marks) ------------------------------------
    batch_targets = False  # engines whose target checks ``batch_validity`` replicates

    def missile_rule(self, prof: Profile, attacker: str) -> tuple[bool, bool]:
        """For ``target_validity`` (when ``batch_targets``): (the friendly-fire rule applies
        to this weapon, with the Warcry 3" exception), exactly as ``plan_for`` decides."""
        return (False, False)

    def table_rule(self) -> CoverRule | None:
        """The cover rule of the pair table ``target_validity`` reads (the one ``plan_for``
        asks most, so the table also serves the attacks)."""
        return None

    def inspect_cover_rule(self, options: Mapping[str, Any]) -> CoverRule | None:
        """The rule behind ``inspect_cover`` (None: no cover at all), for a ruling."""
        return self.table_rule()

    def terms(self, battle: Battle) -> Terms:
        return Terms("within", ENGAGE, True, self.inspect_cover_rule(self.options(battle)))

    def target_validity(self, battle: Battle, attacker: str, targets: Sequence[str],
                        weapon: str | None = None, offhand: str | None = None,
                        situational: Mapping[str, Any] | None = None,
                        explain: bool = True,
                        ) -> dict[str, tuple[bool, tuple[str, ...]]]:
        request = AttackRequest(attacker, attacker, weapon, offhand, dict(situational or {}))
        combatant = battle.combatants.get(attacker)
        if (not self.batch_targets or offhand is not None or combatant is None
                or not combatant.weapons
                or options_refused(lambda: (self.options(battle), self.situational(request)))):
            return super().target_validity(battle, attacker, targets, weapon, offhand,
                                           situational)
        names = [weapon] if weapon is not None else weapon_names(combatant)
        out, left = batch_validity(battle, attacker, targets, names, self.missile_rule,
                                   self.table_rule(), explain)
        if left:
            out.update(super().target_validity(battle, attacker, left, weapon, offhand,
                                               situational))
        return {t: out[t] for t in targets}

    def attack(self, battle: Battle, request: AttackRequest) -> AttackReport:
        p = self.plan(battle, request)
        dist = pool_damage(p.pools, p.wounds_left)
        extras = dict(p.extras)
        return AttackReport(
            ruleset=self.id, attacker=request.attacker, target=request.target,
            weapon=p.weapon, offhand=p.offhand, attack_type=p.attack_type,
            checks=p.checks, modifiers=p.modifiers, facts=p.facts, distribution=dist,
            table_row=p.table_row, extras=extras,
            take_down_probability=self._take_down(dist, p.wounds_left),
        )

    @staticmethod
    def _take_down(dist: Dist, left: int) -> float:
        return dist.prob_at_least(left) if left > 0 else 0.0

    def odds_given(self, battle: Battle, request: AttackRequest, known: Sequence[int]) -> Dist:
        p = self.plan(battle, request)
        need = dice_needed(p.pools)
        if len(known) > need:
            raise DiceError(f"too many dice: this attack rolls {need}, {len(known)} were given")
        for i, face in enumerate(known):
            if not 1 <= face <= 6:
                raise DiceError(f"die {i + 1} shows {face}, but a d6 shows 1 to 6")
        return pool_damage(p.pools, p.wounds_left, known)

    def dice_text(self, p: Plan) -> str:
        parts = [f"{r.pool.count} {r.label}{'s' if r.pool.count != 1 else ''}" for r in p.rolls]
        return " then ".join(parts)

    def begin(self, battle: Battle, request: AttackRequest) -> Resolver:
        p = self.plan(battle, request)
        trace: list[DieRoll] = []
        need = dice_needed(p.pools)
        return Resolver(self._steps(p, trace), trace,
                        lambda fed: pool_damage(p.pools, p.wounds_left, list(fed)),
                        lambda given: DiceCountShortage(need, given, self.dice_text(p)))

    def _steps(self, p: Plan, rolled: list[DieRoll]) -> Steps:
        steps: list[str] = []
        total = 0
        for r in p.rolls:
            raw = 0
            table_text = faces_text(r.pool.table)
            for i in range(r.pool.count):
                label = f"{r.label} {i + 1}" if r.numbered else r.label
                left = r.pool.count - i
                step, what = (("to hit", "to hit") if r.numbered
                              else ("off-hand", f"for the {r.label}"))
                face = yield DieAsk(r.pool.table.sides, label, step, left,
                                    f"roll {dice_word(left)} {what}: {table_text}")
                assert isinstance(face, int)
                outcome, dmg = r.pool.table.face(face)
                rolled.append(DieRoll(r.pool.table.sides, face, label, outcome))
                text = OUTCOME_TEXT.get(outcome, outcome)
                steps.append(f"{r.label} {face}: {text}"
                             + (f", {dmg} damage" if outcome != "miss" else ""))
                raw += dmg
            after = max(0, raw - r.pool.reduction)
            if r.armour_text:
                steps.append(f"{r.pool.name} total {raw}, {r.armour_text}: {after} damage")
            total += after
        left = p.wounds_left
        dealt = min(total, left)
        down = left > 0 and dealt >= left
        target = p.target
        if down:
            steps.append(f"{dealt} damage allocated"
                         + (f" ({total - dealt} discarded)" if total > dealt else "")
                         + f": {target.id} is taken down")
        else:
            steps.append(f"{dealt} damage allocated, {left - dealt} wound"
                         f"{'s' if left - dealt != 1 else ''} left")
        state = dict(target.state)
        state["damage"] = int(target.state.get("damage", 0) or 0) + dealt
        state["taken_down"] = bool(target.state.get("taken_down", False)) or down
        return Resolution(
            dice=tuple(rolled), damage=dealt, taken_down=down, steps=tuple(steps),
            changes=(StateChange(target.id, state),),
        )
