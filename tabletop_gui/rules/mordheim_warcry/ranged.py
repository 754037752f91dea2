"""Mordheim's ranged attacks: the closest viable target and the difficulty rating."""

from __future__ import annotations

from tabletop_gui.geometry.facts import Cover
from tabletop_gui.rules.base import Combatant, Modifier, is_taken_down
from tabletop_gui.rules.warcry_family.targeting import EPS, Near, Targeting, inches
from tabletop_gui.rules.warcry_family.weapons import Profile

LONG_RANGE = 6.0  # more than 6" away: +1 DR
PLATFORM_HEIGHT = 2.0  # attacker at least 2" above the target: -1 DR


def closest_viable(tg: Targeting, attacker: Combatant, prof: Profile) -> Near | None:
    """The nearest enemy this ranged weapon could target (visible, in range, no friend
    within 1" of it); None when there is none or when an enemy within 1" of the attacker
    forbids ranged attacks altogether."""
    if tg.engaging(attacker.id):
        return None
    for eid, distance in tg.enemies_by_distance(attacker.id):
        if distance > prof.range.maximum + EPS:
            break
        if prof.range.minimum is not None and distance <= prof.range.minimum + EPS:
            continue
        enemy = tg.combatants.get(eid)
        if enemy is None or is_taken_down(enemy):
            continue
        if not tg.sight(attacker.id, eid).visible:
            continue
        if tg.friends_near_target(attacker, eid):
            continue
        return Near(eid, distance)
    return None


def ranged_modifiers(tg: Targeting, attacker: str, target: str, distance: float,
                     closest: Near | None, cover: Cover, shield: bool
                     ) -> tuple[int, list[Modifier]]:
    """The DR modifiers of a ranged attack and their total."""
    total = 0
    mods: list[Modifier] = []
    above = tg.elevation(attacker) - tg.elevation(target)
    if above >= PLATFORM_HEIGHT - EPS:
        total -= 1
        mods.append(Modifier("high ground", "-1 DR",
                             f"attacker {inches(above)} above the target (2\" or more)"))
    if distance > LONG_RANGE + EPS:
        total += 1
        mods.append(Modifier("long range", "+1 DR",
                             f"target {inches(distance)} away (more than 6\")"))
    if closest is not None and closest.id != target and distance > closest.distance + EPS:
        total += 1
        mods.append(Modifier("not the closest", "+1 DR",
                             f"{closest.id} is a closer viable target "
                             f"({inches(closest.distance)} against {inches(distance)})"))
    if cover.in_cover:
        total += 1
        mods.append(Modifier("cover", "+1 DR", cover.why or "target in cover"))
    if shield:
        total += 1
        mods.append(Modifier("shield", "+1 DR", f"{target} has a shield"))
    return total, mods
