"""The `warcry` engine (docs/rulesets/warcry.md): Strength against Toughness.

Target rules: an enemy not taken down, visible, in range (minimum excluded), the 1"
forced target, and the missile friendly-fire rule with its 3" exception. Cover (+1
Toughness) per the ruleset option ``cover``. Damage per hit / critical hit, capped at the
wounds left. Dice: one hit roll per Attack, in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.facts import Cover
from tabletop_gui.rules.base import AttackRequest, Battle, Modifier, RulesError
from tabletop_gui.rules.warcry.info import INFO
from tabletop_gui.rules.warcry_family.ruleset import (
    Plan,
    WarcryFamilyRuleset,
    compare_extras,
    facts_of,
    hit_roll_plan,
    target_checks,
)
from tabletop_gui.rules.warcry_family.tables import strength_row
from tabletop_gui.rules.warcry_family.targeting import Targeting
from tabletop_gui.rules.warcry_family.weapons import Profile

MELEE_MAX_RANGE = 3.0
COVER_PLATFORM_HEIGHT = 3.0  # a target on a platform 3" or more above the attacker


def attack_type_of(max_range: float) -> str:
    """Melee when the (maximum) range is 3 or less, missile otherwise."""
    return "melee" if max_range <= MELEE_MAX_RANGE else "missile"


class WarcryRuleset(WarcryFamilyRuleset):
    info = INFO
    batch_targets = True

    def missile_rule(self, prof: Profile, attacker: str) -> tuple[bool, bool]:
        return attack_type_of(prof.range.maximum) == "missile", True

    def table_rule(self) -> CoverRule:
        return CoverRule(True, COVER_PLATFORM_HEIGHT, True)

    def _cover(self, tg: Targeting, attacker: str, target: str) -> Cover:
        return tg.cover(attacker, target, gate_1in=True,
                                 platform_threshold=COVER_PLATFORM_HEIGHT)

    def inspect_cover_rule(self, options: Mapping[str, Any]) -> CoverRule | None:
        return None if options["cover"] == "none" else self.table_rule()

    def inspect_cover(self, tg: Targeting, options: Mapping[str, Any], attacker: str,
                      target: str) -> Cover:
        if options["cover"] == "none":
            return Cover(False)
        return self._cover(tg, attacker, target)

    def plan_for(self, battle: Battle, request: AttackRequest) -> Plan:
        if request.offhand is not None:
            raise RulesError("--offhand: warcry has no dual wielding")
        options = self.options(battle)
        self.situational(request)
        attacker, target, prof = self.parties(battle, request)
        kind = attack_type_of(prof.range.maximum)
        tg = Targeting.of(battle)

        checks, visible, distance, _ = target_checks(tg, attacker, target, [(prof.range, "")])
        if kind == "missile":
            checks.append(tg.friendly_fire_check(attacker, target.id, distance,
                                                 exception=True, rng=prof.range))

        cover = self._cover(tg, attacker.id, target.id)
        applies = options["cover"] == "all" or (options["cover"] == "missile"
                                               and kind == "missile")
        toughness = int(target.characteristics["toughness"])
        modifiers = []
        if cover.in_cover and applies:
            toughness += 1
            modifiers.append(Modifier("cover", "+1 toughness", cover.why or "target in cover"))
        row = strength_row(prof.strength, toughness)
        facts = facts_of(tg, attacker.id, target.id,
                         cover if applies else Cover(False), False, visible.ok)
        return hit_roll_plan(prof, kind, row, checks, modifiers, facts, target,
                             compare_extras(row, prof.strength, "Strength", toughness,
                                            "Toughness"))


RULESET = WarcryRuleset()
