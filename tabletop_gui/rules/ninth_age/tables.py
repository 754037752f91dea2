"""The Ninth Age's roll tables: to hit in close combat, to wound, armour saves.

Each function returns the needed face of a six-sided die (``X`` for ``X+``) and leaves
the natural 1 / natural 6 rules to the caller, except where noted.
"""

from __future__ import annotations

NO_SAVE = 7  # "needs 7+": no save possible


def close_combat_needed(os: int, ds: int) -> int:
    """Offensive Skill minus Defensive Skill: >=4 2+, 1..3 3+, 0..-3 4+, -4..-7 5+, <=-8 6+."""
    diff = os - ds
    if diff >= 4:
        return 2
    if diff >= 1:
        return 3
    if diff >= -3:
        return 4
    if diff >= -7:
        return 5
    return 6


def to_wound_needed(strength: int, resilience: int) -> int:
    """Strength minus Resilience: >=+2 2+, +1 3+, 0 4+, -1 5+, <=-2 6+."""
    diff = strength - resilience
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    return 6


def armour_needed(armour: int, ap: int) -> int:
    """7 - (Armour - AP); ``NO_SAVE`` (7) when Armour - AP <= 0; never better than 2+
    (a natural 1 always fails)."""
    net = armour - ap
    if net <= 0:
        return NO_SAVE
    return max(2, 7 - net)


def special_needed(value: int) -> int:
    """An X+ special save (Aegis, Fortitude); 0 means none; a natural 1 always fails."""
    if value <= 0 or value > 6:
        return NO_SAVE
    return max(2, value)


def success(needed: int) -> float:
    """Chance that one d6 shows ``needed`` or more (``needed`` already within 2..7)."""
    if needed >= 7:
        return 0.0
    return (7 - needed) / 6.0


