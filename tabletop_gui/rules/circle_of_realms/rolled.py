"""One Circle of Realms attack resolved with dice, step by step.

Dice order (docs/rulesets/circle-of-realms.md): base attack die, weapon die (when one is rolled),
defense die, then the attacker's Dismemberment Die and the defender's, when rolled.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import numpy as np

from tabletop_gui.rules.base import DiceSource, DieRoll
from tabletop_gui.rules.circle_of_realms.dismemberment import (
    CHOOSERS,
    effect_text,
    face_text,
    legs_gone,
    limb_for_face,
)
from tabletop_gui.rules.circle_of_realms.profile import LIMB_NAMES, FighterProfile
from tabletop_gui.rules.circle_of_realms.resolution import Setup, attacker_wounds, target_wounds
from tabletop_gui.rules.resolver import Ask, ChoiceAsk, DieAsk, dice_word


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
    """The attack rolled with faces from ``source`` (a chooser's limb: ``limb_choice`` or
    the default)."""
    steps = attack_steps(setup, [])
    ask = next(steps)
    try:
        while True:
            if isinstance(ask, ChoiceAsk):
                ask = steps.send(ask.default)
            else:
                ask = steps.send(source.roll(ask.sides, ask.label))
    except StopIteration as stop:
        rolled: Rolled = stop.value
        return rolled


def limb_ask(side: str, face: int, meaning: str, loser: FighterProfile) -> ChoiceAsk | None:
    """The choice of a limb on a chooser's face, when there is one to make."""
    if meaning not in CHOOSERS:
        return None
    left = [limb for limb in (loser.main_hand, loser.off_hand, "RL", "LL")
            if limb not in loser.limbs_lost]
    if len(left) < 2:
        return None
    return ChoiceAsk("limb_choice", tuple(left), tuple(LIMB_NAMES[x] for x in left), left[0],
                     f"{side} dismemberment die {face}: the {meaning} chooses a limb of "
                     f"{loser.id}")


def attack_steps(setup: Setup, dice: list[DieRoll]) -> Generator[Ask, int | str, Rolled]:
    """The attack die by die (``rules/resolver.py``); each die is appended to ``dice``."""
    att, dfn = setup.attacker, setup.defender
    steps: list[str] = []

    faces: list[int] = []
    labels = ["base attack"] + ([f"weapon ({setup.weapon.name})"] if setup.weapon else [])
    n_attack = len(setup.attack_dice)
    for i, (sides, label) in enumerate(zip(setup.attack_dice, labels, strict=True)):
        sizes = " + ".join(f"d{s}" for s in setup.attack_dice[i:])
        face = yield DieAsk(sides, label, "attack", n_attack - i,
                            f"roll {dice_word(n_attack - i)} to attack: {sizes}")
        assert isinstance(face, int)
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

    d_face = yield DieAsk(dfn.defense, "defense", "defense", 1,
                          f"roll 1 die for {dfn.id}'s defense: d{dfn.defense}")
    assert isinstance(d_face, int)
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
    to_roll = int(att_rolls) + int(def_rolls)
    for side, fighter, rolls, faced in (
        ("attacker", att, att_rolls, setup.defender_type),
        ("defender", dfn, def_rolls, setup.attack_type),
    ):
        if not rolls:
            continue
        face = yield DieAsk(len(setup.faces), f"{side} dismemberment", "dismemberment",
                            to_roll, f"roll {dice_word(to_roll)} of dismemberment: "
                            f"{fighter.id} may lose a limb (d{len(setup.faces)})")
        assert isinstance(face, int)
        to_roll -= 1
        meaning = setup.faces[face - 1]
        choice = setup.limb_choice
        ask = None if choice else limb_ask(side, face, meaning, fighter)
        if ask is not None:
            answer = yield ask
            choice = str(answer)
        limb = limb_for_face(meaning, fighter, choice)
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
