"""One Circle of Realms attack resolved with dice, step by step.

Dice order (docs/rulesets/circle-of-realms.md): base attack die, weapon die (when one is rolled),
defense die, then the attacker's Dismemberment Die and the defender's, when rolled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_gui.rules.base import DiceSource, DieRoll
from tabletop_gui.rules.circle_of_realms.dismemberment import (
    effect_text,
    face_text,
    legs_gone,
    limb_for_face,
)
from tabletop_gui.rules.circle_of_realms.profile import LIMB_NAMES, FighterProfile
from tabletop_gui.rules.circle_of_realms.resolution import Setup, attacker_wounds, target_wounds


@dataclass(frozen=True)
class Rolled:
    dice: tuple[DieRoll, ...]
    target_wounds: int
    attacker_wounds: int
    critical: bool
    limbs: dict[str, list[str]]  # side -> limbs lost by this attack
    steps: tuple[str, ...]
    attacker: FighterProfile  # new state
    defender: FighterProfile


def _after(fighter: FighterProfile, wounds: int, limb: str | None) -> FighterProfile:
    limbs = fighter.limbs_lost + ((limb,) if limb else ())
    damage = fighter.damage + wounds
    down = fighter.taken_down or damage >= fighter.wounds or legs_gone(limbs)
    return fighter.with_state(damage, down, limbs)


def roll_attack(setup: Setup, source: DiceSource) -> Rolled:
    att, dfn = setup.attacker, setup.defender
    dice: list[DieRoll] = []
    steps: list[str] = []

    faces: list[int] = []
    labels = ["base attack"] + ([f"weapon ({setup.weapon.name})"] if setup.weapon else [])
    for sides, label in zip(setup.attack_dice, labels, strict=True):
        face = source.roll(sides, label)
        faces.append(face)
        dice.append(DieRoll(sides, face, label, "attack"))
    total = sum(faces) + setup.bonus
    parts = " + ".join(f"d{s} {f}" for s, f in zip(setup.attack_dice, faces, strict=True))
    bonus = f" + bonus {setup.bonus}" if setup.bonus else ""
    steps.append(f"attack {parts}{bonus} = {total}")

    critical = setup.is_critical(total)
    if critical:
        steps.append(f"critical hit: {total} is a multiple of precision {att.precision}")
        dice[-1] = DieRoll(dice[-1].sides, dice[-1].face, dice[-1].label, "critical")
    effective = max(0, total - setup.attack_reduction)
    if setup.attack_reduction:
        steps.append(f"night: attack {total} - precision {setup.attack_reduction} = {effective}")

    d_face = source.roll(dfn.defense, "defense")
    d_value = d_face // 2 if critical else d_face
    dice.append(DieRoll(dfn.defense, d_face, "defense", "halved" if critical else "defense"))
    halved = f", halved to {d_value}" if critical else ""
    steps.append(f"defense d{dfn.defense} {d_face}{halved}")

    n = effective - d_value
    n_arr = np.array([n], dtype=np.int64)
    tw = int(target_wounds(setup, n_arr)[0])
    aw = int(attacker_wounds(setup, n_arr)[0])
    if n > 0:
        steps.append(f"{effective} - {d_value} = {n}, less armour {dfn.armour}: "
                     f"{dfn.id} takes {tw} wound{'s' if tw != 1 else ''}")
    elif n < 0 and setup.counter_applies:
        cut = setup.counter_reduction
        night = f", less precision {cut} at night" if cut else ""
        steps.append(f"{effective} - {d_value} = {n}: back to the attacker, less armour "
                     f"{att.armour}{night}: {att.id} takes {aw} wound{'s' if aw != 1 else ''}")
    elif n < 0:
        steps.append(f"{effective} - {d_value} = {n}: no damage back "
                     f"(counter_damage={setup.counter})")
    else:
        steps.append(f"{effective} - {d_value} = 0: no wounds")

    limbs: dict[str, list[str]] = {"attacker": [], "defender": []}
    att_rolls = all(f == 1 for f in faces) and aw > 0 and setup.attacker_may_lose_limb()
    def_rolls = d_face == 1 and tw > 0 and setup.defender_may_lose_limb()
    for side, fighter, rolls, faced in (
        ("attacker", att, att_rolls, setup.defender_type),
        ("defender", dfn, def_rolls, setup.attack_type),
    ):
        if not rolls:
            continue
        face = source.roll(len(setup.faces), f"{side} dismemberment")
        meaning = setup.faces[face - 1]
        limb = limb_for_face(meaning, fighter, setup.limb_choice)
        dice.append(DieRoll(len(setup.faces), face, f"{side} dismemberment", limb or "none"))
        ones = "rolled all 1s" if side == "attacker" else "rolled a 1 on defense"
        head = (f"{fighter.id} {ones}, took wounds and faces {faced}: "
                f"Dismemberment Die {face} ({face_text(meaning)})")
        if limb is None:
            steps.append(f"{head}: no limb left to lose")
        else:
            limbs[side].append(limb)
            steps.append(f"{head}: loses the {LIMB_NAMES[limb]}, {effect_text(fighter, limb)}")

    new_att = _after(att, aw, limbs["attacker"][0] if limbs["attacker"] else None)
    new_def = _after(dfn, tw, limbs["defender"][0] if limbs["defender"] else None)
    for before, after in ((dfn, new_def), (att, new_att)):
        if after.taken_down and not before.taken_down:
            steps.append(f"{after.id} is taken down")
    return Rolled(tuple(dice), tw, aw, critical, limbs, tuple(steps), new_att, new_def)
