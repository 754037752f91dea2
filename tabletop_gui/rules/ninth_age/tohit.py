"""The to-hit roll of one attack, with every modifier and its reason.

Close combat reads the OS-vs-DS table, then Lightning Reflexes (+1, not with a Great
Weapon) and a Distracting target (-1); a parry defender attacked in its Front uses the
higher of DS + 1 and the attacker's OS. The needed roll stays within 2+..6+ (a natural 1
always misses, a natural 6 always hits).

Shooting starts at the weapon's Aim and is worsened by long range, moving, Unwieldy,
Stand and Shoot, cover and Hard Target. 7 is Hopeless Shots, 8 or more cannot hit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tabletop_gui.rules.base import Modifier
from tabletop_gui.rules.ninth_age.attributes import Attributes
from tabletop_gui.rules.ninth_age.profile import CANNOT_HIT, HOPELESS
from tabletop_gui.rules.ninth_age.tables import close_combat_needed
from tabletop_gui.rules.ninth_age.units import Situation, UnitView


@dataclass(frozen=True)
class ToHit:
    needed: int  # 2..6, HOPELESS or CANNOT_HIT
    reroll_failed: bool
    table_row: str
    modifiers: tuple[Modifier, ...]


def close_combat_to_hit(
    attacker: UnitView, target: UnitView, attrs: Attributes, off: int,
    situation: Situation, situational: Mapping[str, Any],
) -> ToHit:
    mods: list[Modifier] = []
    ds = target.char("def")
    used_ds = ds
    weapon = target.fighting_weapon()
    parry = any(a.strip().lower() == "parry" for a in weapon.attributes) or (
        target.has("shield") and weapon.name.strip().lower() == "hand weapon")
    if parry and situation.engaged_facing == "front":
        used_ds = max(ds + 1, off)
        mods.append(Modifier("parry", f"DS {ds} counts as {used_ds}",
                             "the target parries an attack in its Front facing"))
    base = close_combat_needed(off, used_ds)
    needed = base
    if attrs.lightning_reflexes:
        if attrs.great_weapon:
            mods.append(Modifier("lightning reflexes", "no effect",
                                 "not with a Great Weapon"))
        else:
            needed -= 1
            mods.append(Modifier("lightning reflexes", "+1 to hit", "Lightning Reflexes"))
    if target.has("distracting"):
        needed += 1
        mods.append(Modifier("distracting", "-1 to hit", f"{target.name} is Distracting"))
    final = min(6, max(2, needed))
    if final != needed:
        mods.append(Modifier("natural rolls", f"needs {final}+",
                             "a natural 1 always misses, a natural 6 always hits"))
    reroll = attrs.hatred and bool(situational.get("first_round", False))
    if reroll:
        mods.append(Modifier("hatred", "re-roll failed hit rolls", "first round of combat"))
    row = f"OS {off} vs DS {used_ds}: {base}+"
    return ToHit(final, reroll, row, tuple(mods))


def shooting_to_hit(
    shooter: UnitView, target: UnitView, attrs: Attributes, aim: int, max_range: float,
    situation: Situation, situational: Mapping[str, Any],
) -> ToHit:
    mods: list[Modifier] = []
    penalty = shooting_penalty(shooter, target, attrs, max_range, situation, situational, mods)
    needed = max(2, aim + penalty)
    if needed == HOPELESS:
        mods.append(Modifier("hopeless shots", "a 6, then 4+", "needed roll worsened to 7"))
    elif needed >= CANNOT_HIT:
        needed = CANNOT_HIT
        mods.append(Modifier("cannot hit", "no hit possible", "needed roll worsened to 8+"))
    row = f"Aim {aim}+" + (f", worsened by {penalty}" if penalty else "") + (
        f": {needed}+" if needed <= 6 else (": Hopeless Shots" if needed == HOPELESS
                                            else ": cannot hit"))
    return ToHit(needed, False, row, tuple(mods))


def shooting_penalty(
    shooter: UnitView, target: UnitView, attrs: Attributes, max_range: float,
    situation: Situation, situational: Mapping[str, Any], mods: list[Modifier] | None,
) -> int:
    """How much worse than the Aim a shot needs (long range, moving, Unwieldy, Stand and
    Shoot, cover, Hard Target), each modifier and its reason appended to ``mods``; with
    ``mods`` None (a verdict: only the number) no modifier is made."""
    penalty = 0

    def worse(n: int, name: str, why: str) -> None:
        nonlocal penalty
        penalty += n
        if mods is not None:
            mods.append(Modifier(name, f"-{n} to hit", why))

    if situation.distance > max_range / 2:
        why = (f'long range: {situation.distance:.2f}" > half of {max_range:g}"'
               if mods is not None else "")
        if attrs.accurate:
            if mods is not None:
                mods.append(Modifier("accurate", "no long-range penalty", why))
        else:
            worse(1, "long range", why)
    moved = shooter.flag("moved", situational) or shooter.flag("marched", situational)
    if moved:
        if attrs.quick_to_fire:
            if mods is not None:
                mods.append(Modifier("quick to fire", "no penalty for moving",
                                     "moved this turn"))
        else:
            worse(1, "moved", "moved this turn")
        if attrs.unwieldy:
            worse(1, "unwieldy", "Unwieldy: one more penalty for moving")
    if situational.get("stand_and_shoot", False):
        if attrs.steady_aim:
            if mods is not None:
                mods.append(Modifier("steady aim", "no Stand and Shoot penalty", "Steady Aim"))
        else:
            worse(1, "stand and shoot", "a Stand and Shoot charge reaction")
    cover = situation.cover
    if cover == "soft" and attrs.volley_fire and situation.cover_only_low_units:
        if mods is not None:
            mods.append(Modifier("volley fire", "cover ignored",
                                 "only intervening units no taller than the shooter"))
        cover = "none"
    if cover == "soft":
        worse(1, "soft cover", f"more than half the Target Facing hidden "
                               f"({', '.join(situation.cover_by)})" if mods is not None else "")
    elif cover == "hard":
        worse(2, "hard cover", f"more than half the Target Facing hidden by hard cover "
                               f"({', '.join(situation.cover_by)})" if mods is not None else "")
    if target.has("hard_target"):
        worse(1, "hard target", f"{target.name} is a Hard Target")
    return penalty
