"""What the two community variants share: the weapon's ``kind`` decides the attack type,
their cover (no 1" condition; platforms 2" for ranged attacks unless the ruleset option
extends them to melee) and their flanking test."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop_gui.geometry.facts import Cover, Flank
from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.warcry_family.targeting import Targeting
from tabletop_gui.rules.warcry_family.weapons import Profile

COVER_PLATFORM_HEIGHT = 2.0


def kind_of(prof: Profile, owner: str) -> str:
    if prof.kind not in ("melee", "ranged"):
        raise RulesError(f"{owner} weapon {prof.name!r}: kind must be melee or ranged, "
                         f"not {prof.kind!r}")
    return prof.kind


def variant_cover(tg: Targeting, options: Mapping[str, Any], attacker: str, target: str,
                  kind: str) -> Cover:
    platform = kind == "ranged" or bool(options.get("platform_cover_in_melee", False))
    return tg.cover(attacker, target, gate_1in=False,
                             platform_threshold=COVER_PLATFORM_HEIGHT,
                             platform_applies=platform)


def flank_of(tg: Targeting, attacker: str, target: str) -> Flank:
    return tg.flanked(attacker, target)


def flank_why(flank: Flank) -> str:
    who = ", ".join(flank.by)
    return (f"{who} within 1\" of the target and of no other enemy" if who
            else "a friendly fighter flanks the target")
