"""The `fight-vs-defense` engine (docs/rulesets/fight-vs-defense.md).

Fight (melee) or Shoot (ranged) against Defense on the five-row table; panicked,
Piercing, cover and flanking modify the two sides. The weapon's ``kind`` decides the
attack type. Target rules as Warcry but the ranged friendly-fire rule has no exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.facts import Cover
from tabletop_gui.rules.base import AttackRequest, Battle, Modifier, RulesError
from tabletop_gui.rules.fight_vs_defense.info import INFO
from tabletop_gui.rules.warcry_family.ruleset import (
    Plan,
    WarcryFamilyRuleset,
    compare_extras,
    facts_of,
    hit_roll_plan,
    target_checks,
)
from tabletop_gui.rules.warcry_family.tables import five_row
from tabletop_gui.rules.warcry_family.targeting import Targeting
from tabletop_gui.rules.warcry_family.variants import (
    COVER_PLATFORM_HEIGHT,
    flank_of,
    flank_why,
    kind_of,
    variant_cover,
)
from tabletop_gui.rules.warcry_family.weapons import Profile


class FightVsDefenseRuleset(WarcryFamilyRuleset):
    info = INFO
    batch_targets = True

    def missile_rule(self, prof: Profile, attacker: str) -> tuple[bool, bool]:
        return kind_of(prof, attacker) == "ranged", False

    def table_rule(self) -> CoverRule:
        return CoverRule(False, COVER_PLATFORM_HEIGHT, True)

    def inspect_cover(self, tg: Targeting, options: Mapping[str, Any], attacker: str,
                      target: str) -> Cover:
        return variant_cover(tg, options, attacker, target, "ranged")

    def inspect_flanked(self, tg: Targeting, attacker: str, target: str) -> bool:
        return flank_of(tg, attacker, target).flanked

    def plan_for(self, battle: Battle, request: AttackRequest) -> Plan:
        if request.offhand is not None:
            raise RulesError("--offhand: fight-vs-defense has no dual wielding")
        options = self.options(battle)
        self.situational(request)
        attacker, target, prof = self.parties(battle, request)
        kind = kind_of(prof, attacker.id)
        tg = Targeting.of(battle)

        checks, visible, distance, _ = target_checks(tg, attacker, target, [(prof.range, "")])
        if kind == "ranged":
            checks.append(tg.friendly_fire_check(attacker, target.id, distance,
                                                 exception=False, rng=prof.range))

        melee = kind == "melee"
        a_name = "fight" if melee else "shoot"
        a = int(attacker.characteristics[a_name])
        d = int(target.characteristics["defense"])
        mods: list[Modifier] = []
        if bool(attacker.state.get("panicked", False)):
            a -= 1
            mods.append(Modifier("panicked", f"-1 {a_name}", f"{attacker.id} is panicked"))
        if prof.piercing:
            d -= prof.piercing
            mods.append(Modifier("piercing", f"-{prof.piercing} defense",
                                 f"{prof.name} has Piercing {prof.piercing}"))
        cover = variant_cover(tg, options, attacker.id, target.id, kind)
        if cover.in_cover:
            d += 1
            mods.append(Modifier("cover", "+1 defense", cover.why or "target in cover"))
        flanked = False
        if melee:
            flank = flank_of(tg, attacker.id, target.id)
            flanked = flank.flanked
            if flanked:
                d -= 1
                mods.append(Modifier("flanked", "-1 defense", flank_why(flank)))
        row = five_row(a, d)
        facts = facts_of(tg, attacker.id, target.id, cover, flanked, visible.ok)
        return hit_roll_plan(prof, kind, row, checks, mods, facts, target,
                             compare_extras(row, a, a_name.capitalize(), d, "Defense"))


RULESET = FightVsDefenseRuleset()
