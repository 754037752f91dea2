"""The `mordheim-warcry` engine (docs/rulesets/mordheim-warcry.md).

Melee: Fight against Fight (diving charge, flanking, shield, parry). Ranged: Shoot
against a difficulty rating of 3 (platform, long range, closest viable target, cover,
shield). Both on the five-row table. Each weapon's damage total is reduced by the
target's Armour less the weapon's Piercing; dual wielding adds one off-hand hit roll.
Dice: the main-hand hit rolls in order, then the off-hand roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.facts import Cover
from tabletop_gui.rules.base import (
    AttackRequest,
    Battle,
    Check,
    Combatant,
    Modifier,
    RulesError,
)
from tabletop_gui.rules.dist import DicePool
from tabletop_gui.rules.mordheim_warcry.info import INFO
from tabletop_gui.rules.mordheim_warcry.ranged import closest_viable, ranged_modifiers
from tabletop_gui.rules.warcry_family.ruleset import (
    Plan,
    Roll,
    WarcryFamilyRuleset,
    compare_extras,
    facts_of,
    target_checks,
    wounds_left,
)
from tabletop_gui.rules.warcry_family.tables import face_table, five_row
from tabletop_gui.rules.warcry_family.targeting import Targeting, inches
from tabletop_gui.rules.warcry_family.variants import (
    COVER_PLATFORM_HEIGHT,
    flank_of,
    flank_why,
    kind_of,
    variant_cover,
)
from tabletop_gui.rules.warcry_family.weapons import Profile, find_weapon, profile_of

BASE_DR = 3


def has_trait(c: Combatant, name: str) -> bool:
    return any(t == name or (isinstance(t, Mapping) and name in t) for t in c.traits)


def parry_weapon(target: Combatant) -> str | None:
    """The first of the target's melee weapons that has parry."""
    for w in target.weapons:
        if w.values.get("kind") == "melee" and bool(w.values.get("parry", False)):
            return str(w.name)
    return None


def armour_of(target: Combatant, prof: Profile) -> tuple[int, str]:
    """Armour against this weapon (Armour less Piercing, never below 0) and its text."""
    armour = int(target.characteristics.get("armour", 0))
    eff = max(0, armour - prof.piercing)
    text = f"armour {eff}" + (f" ({armour} - piercing {prof.piercing})" if prof.piercing
                              and armour else "")
    return eff, text


class MordheimWarcryRuleset(WarcryFamilyRuleset):
    info = INFO

    def inspect_cover_rule(self, options: Mapping[str, Any]) -> CoverRule:
        return CoverRule(False, COVER_PLATFORM_HEIGHT, True)  # as a ranged attack sees it

    def inspect_cover(self, tg: Targeting, options: Mapping[str, Any], attacker: str,
                      target: str) -> Cover:
        return variant_cover(tg, options, attacker, target, "ranged")

    def inspect_flanked(self, tg: Targeting, attacker: str, target: str) -> bool:
        return flank_of(tg, attacker, target).flanked

    def _offhand(self, attacker: Combatant, main: Profile, kind: str,
                 name: str | None) -> Profile | None:
        if name is None:
            return None
        off = profile_of(find_weapon(attacker, name), attacker.id)
        if kind != "melee":
            raise RulesError(f"--offhand: dual wielding needs a melee main-hand weapon, "
                             f"{main.name!r} is ranged")
        if kind_of(off, attacker.id) != "melee":
            raise RulesError(f"--offhand: {off.name!r} is a ranged weapon, not a melee one")
        if off.name == main.name:
            raise RulesError(f"--offhand: name a second melee weapon, not {main.name!r} again")
        return off

    def plan_for(self, battle: Battle, request: AttackRequest) -> Plan:
        options = self.options(battle)
        situational = self.situational(request)
        attacker, target, prof = self.parties(battle, request)
        kind = kind_of(prof, attacker.id)
        off = self._offhand(attacker, prof, kind, request.offhand)
        tg = Targeting.of(battle)

        ranges = [(prof.range, prof.name if off else "")]
        if off is not None:
            ranges.append((off.range, off.name))
        checks, visible, distance, near = target_checks(tg, attacker, target, ranges)
        melee = kind == "melee"
        if not melee:
            if near:
                checks.append(Check(
                    "melee_forced", False,
                    f'a ranged weapon cannot be used while an enemy is within 1" '
                    f'({near[0].id} at {inches(near[0].distance)})',
                    near[0].distance, 1.0, near[0].distance - 1.0))
            else:
                checks.append(Check("melee_forced", True,
                                    'no enemy within 1": a ranged weapon may be used'))
            checks.append(tg.friendly_fire_check(attacker, target.id, distance,
                                                 exception=False, rng=prof.range))

        cover = variant_cover(tg, options, attacker.id, target.id, kind)
        shield = has_trait(target, "shield")
        mods: list[Modifier] = []
        flanked = False
        if melee:
            a_name, d_name = "Fight", "Fight"
            a = int(attacker.characteristics["fight"])
            d = int(target.characteristics["fight"])
            if situational.get("diving_charge"):
                a += 1
                mods.append(Modifier("diving charge", "+1 fight",
                                     'diving_charge: fell more than 2" in its move'))
            flank = flank_of(tg, attacker.id, target.id)
            flanked = flank.flanked
            if flanked:
                a += 1
                mods.append(Modifier("flanked", "+1 fight", flank_why(flank)))
            if shield:
                d += 1
                mods.append(Modifier("shield", "+1 target fight", f"{target.id} has a shield"))
            parry = parry_weapon(target)
            if parry is not None:
                d += 1
                mods.append(Modifier("parry", "+1 target fight",
                                     f"{target.id}'s {parry} has parry"))
        else:
            a_name, d_name = "Shoot", "DR"
            a = int(attacker.characteristics["shoot"])
            closest = closest_viable(tg, attacker, prof)
            delta, ranged_mods = ranged_modifiers(
                tg, attacker.id, target.id, distance, closest, cover, shield)
            d = BASE_DR + delta
            mods += ranged_mods

        row = five_row(a, d)
        rolls = []
        for weapon, count, label, numbered in (
                (prof, prof.attacks, f"{prof.name} hit roll" if off else "hit roll", True),
                (off, 1, f"{off.name} off-hand roll" if off else "", False)):
            if weapon is None:
                continue
            eff, text = armour_of(target, weapon)
            if eff:
                mods.append(Modifier("armour", f"-{eff} damage" + (f" ({weapon.name})" if off
                                                                    else ""),
                                     f"{target.id} has {text}"
                                     + (f" against {weapon.name}" if not off else "")))
            table = face_table(row, weapon.damage)
            rolls.append(Roll(DicePool(table, count, eff, weapon.name), label, numbered,
                              text if int(target.characteristics.get("armour", 0)) else ""))
        facts = facts_of(tg, attacker.id, target.id, cover, flanked, visible.ok)
        return Plan(
            weapon=prof.name, offhand=off.name if off else None, attack_type=kind,
            checks=tuple(checks), modifiers=tuple(mods), facts=facts, table_row=row.name,
            rolls=tuple(rolls), wounds_left=wounds_left(target), target=target,
            extras=compare_extras(row, a, a_name, d, d_name),
        )


RULESET = MordheimWarcryRuleset()
