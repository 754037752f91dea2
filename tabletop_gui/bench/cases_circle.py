"""Benchmark case ``odds_circle_of_realms``: the exact outcome of one Circle of Realms
attack for both fighters -- the wounds each takes, the critical hit, the Dismemberment
Die of each side and the limbs it takes, and each fighter taken down -- against a
brute-force enumeration of the dice in the same run.

The attack: a d6 base attack and a d8 axe (hacking) at precision 4 with a +1 bonus, by
night, against a d8 defense, armour 1, precision 2, with a sword (slashing), so both
sides may be cut; each has already lost a leg, so losing the other takes it down.
The timed work is what the attack panel does once the setup is known: ``odds_of``.

The reference rolls every combination of faces of the attack and defense dice, and of
the Dismemberment Dice that roll calls for, through ``roll_attack`` (the code that
resolves a real roll), and adds up their probabilities.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop_gui.rules.base import GivenDice
from tabletop_gui.rules.circle_of_realms.profile import FighterProfile, WeaponProfile
from tabletop_gui.rules.circle_of_realms.resolution import Odds, Setup, odds_of
from tabletop_gui.rules.circle_of_realms.rolled import roll_attack

NAME = "odds_circle_of_realms"
TOLERANCE = 1e-12

AXE = WeaponProfile("Axe", 8, "hacking")
SWORD = WeaponProfile("Sword", 8, "slashing")
ATTACKER = FighterProfile("a", "Attacker", "red", base_attack=6, defense=6, armour=1,
                          precision=4, movement=4, wounds=6, limbs_lost=("LL",),
                          weapons=(AXE,))
DEFENDER = FighterProfile("d", "Defender", "blue", base_attack=6, defense=8, armour=1,
                          precision=2, movement=4, wounds=5, damage=1, limbs_lost=("RL",),
                          weapons=(SWORD,))
SETUP = Setup(attacker=ATTACKER, defender=DEFENDER, weapon=AXE, attack_type="hacking",
              defender_type="slashing", melee=True, night=True, bonus=1)


@dataclass(frozen=True)
class Outcome:
    """Both fighters' outcome distributions, as plain numbers."""

    target: dict[int, float]
    attacker: dict[int, float]
    critical: float
    dismemberment: dict[str, float]
    limbs: dict[str, dict[str, float]]
    target_down: float
    attacker_down: float


def _outcome(odds: Odds) -> Outcome:
    return Outcome(dict(odds.target.items()), dict(odds.attacker.items()), odds.critical,
                   dict(odds.dismemberment), {k: dict(v) for k, v in odds.limbs.items()},
                   odds.target_down, odds.attacker_down)


def compute() -> Outcome:
    """The program's answer: the exact odds of the attack."""
    return _outcome(odds_of(SETUP))


def reference() -> Outcome:
    """Every combination of faces resolved as a roll, its probability added up."""
    sizes = (*SETUP.attack_dice, DEFENDER.defense)
    sides = len(SETUP.faces)
    target: dict[int, float] = {}
    back: dict[int, float] = {}
    crit = 0.0
    rolled = {"attacker": 0.0, "defender": 0.0}
    limbs: dict[str, dict[str, float]] = {"attacker": {}, "defender": {}}
    down = {"attacker": 0.0, "defender": 0.0}
    q0 = 1.0
    for s in sizes:
        q0 /= s
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        # how many Dismemberment Dice this roll calls for: then every face of each
        extra = len(roll_attack(SETUP, GivenDice((*faces, 1, 1))).dice) - len(sizes)
        q = q0 / sides ** extra
        for more in itertools.product(range(1, sides + 1), repeat=extra):
            r = roll_attack(SETUP, GivenDice((*faces, *more)))
            target[r.target_wounds] = target.get(r.target_wounds, 0.0) + q
            back[r.attacker_wounds] = back.get(r.attacker_wounds, 0.0) + q
            crit += q * r.critical
            for side in ("attacker", "defender"):
                if any(d.label == f"{side} dismemberment" for d in r.dice):
                    rolled[side] += q
                for limb in r.limbs[side]:
                    limbs[side][limb] = limbs[side].get(limb, 0.0) + q
            down["attacker"] += q * (r.attacker.taken_down and not ATTACKER.taken_down)
            down["defender"] += q * (r.defender.taken_down and not DEFENDER.taken_down)
    return Outcome(target, back, crit, rolled, limbs, down["defender"], down["attacker"])


def same(answer: Any, ref: Any) -> bool:
    """Every probability within ``TOLERANCE`` (absent values count as 0)."""
    if not isinstance(answer, Outcome) or not isinstance(ref, Outcome):
        return False

    def close(a: dict[Any, float], b: dict[Any, float]) -> bool:
        return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= TOLERANCE for k in {*a, *b})

    return (close(answer.target, ref.target) and close(answer.attacker, ref.attacker)
            and abs(answer.critical - ref.critical) <= TOLERANCE
            and close(answer.dismemberment, ref.dismemberment)
            and all(close(answer.limbs.get(s, {}), ref.limbs.get(s, {}))
                    for s in ("attacker", "defender"))
            and abs(answer.target_down - ref.target_down) <= TOLERANCE
            and abs(answer.attacker_down - ref.attacker_down) <= TOLERANCE)


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    NAME: (compute, reference),
}
RUNS = {NAME: 200}
QUICK_RUNS = {NAME: 50}
REFERENCE_RUNS = {NAME: 2}
QUICK_REFERENCE_RUNS = {NAME: 1}
