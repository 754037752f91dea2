"""One Circle of Realms attack, exact and rolled (docs/rulesets/circle-of-realms.md).

Attack total A = base attack die + weapon die (when a usable weapon is rolled) + the
pre-rolled ``attack_bonus``. A critical hit when the attacker's precision is above 0 and
divides A (decided before the night reduction; this program also requires A > 0). At
night A drops by the attacker's precision (not for scouts), never below 0. The defense
die is halved (rounded down) on a critical hit. N = A - D: N > 0 wounds the target by
N - its armour; N < 0 wounds the attacker (when ``counter_damage`` allows) by -N - its
armour, less the defender's precision at night unless the defender is a scout. Wounds
are allocated like Warcry damage: both sides take at most the wounds they have left.

``attack_odds`` gives the exact joint outcome (dice as face-probability vectors, so the
same code conditions on dice already rolled); ``roll_attack`` resolves it with dice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.rules.circle_of_realms.dismemberment import cuts, limb_odds
from tabletop_gui.rules.circle_of_realms.profile import FighterProfile, WeaponProfile
from tabletop_gui.rules.dist import Dist

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Setup:
    """Everything one attack depends on, already decided (weapon, type, options)."""

    attacker: FighterProfile
    defender: FighterProfile
    weapon: WeaponProfile | None  # the weapon whose die is rolled; None: base die alone
    attack_type: str  # what the defender faces: the weapon's type, or blunt
    defender_type: str | None  # what the attacker faces: the defender's weapon type
    melee: bool
    night: bool = False
    bonus: int = 0
    counter: str = "melee"  # "melee", "always", "never"
    faces: tuple[str, ...] = ("RH", "LH", "RL", "LL", "defender", "attacker")
    limb_choice: str = ""

    @property
    def counter_applies(self) -> bool:
        return self.counter == "always" or (self.counter == "melee" and self.melee)

    @property
    def attack_reduction(self) -> int:
        """What night takes off the attack total."""
        return self.attacker.precision if self.night and not self.attacker.scout else 0

    @property
    def counter_reduction(self) -> int:
        """What night takes off the wounds dealt back to the attacker."""
        return self.defender.precision if self.night and not self.defender.scout else 0

    @property
    def attack_dice(self) -> tuple[int, ...]:
        """Sizes of the attack dice, base first."""
        base = self.attacker.base_attack
        return (base,) if self.weapon is None else (base, self.weapon.die)

    def is_critical(self, total: int) -> bool:
        p = self.attacker.precision
        return p > 0 and total > 0 and total % p == 0

    def attacker_may_lose_limb(self) -> bool:
        return cuts(self.defender_type)

    def defender_may_lose_limb(self) -> bool:
        return cuts(self.attack_type)


def target_wounds(setup: Setup, n: IntArray) -> IntArray:
    """Wounds the target takes for each N = A - D, capped at its wounds left."""
    raw = np.where(n > 0, np.maximum(0, n - setup.defender.armour), 0)
    return np.minimum(raw, setup.defender.wounds_left)


def attacker_wounds(setup: Setup, n: IntArray) -> IntArray:
    """Wounds the defense roll deals back to the attacker, capped at its wounds left."""
    if not setup.counter_applies:
        return np.zeros_like(n)
    raw = np.maximum(0, -n - setup.attacker.armour)
    raw = np.maximum(0, raw - setup.counter_reduction)
    return np.where(n < 0, np.minimum(raw, setup.attacker.wounds_left), 0)


@dataclass(frozen=True)
class Odds:
    """The exact outcome of one attack for both sides."""

    target: Dist  # wounds to the target
    attacker: Dist  # wounds dealt back to the attacker
    critical: float
    dismemberment: dict[str, float]  # side -> probability its Dismemberment Die is rolled
    limbs: dict[str, dict[str, float]]  # side -> limb -> probability it is lost
    target_down: float
    attacker_down: float


def die_vector(sides: int, known: int | None = None) -> FloatArray:
    """Face probabilities of a die (index 0 is face 1); a known face is certain."""
    if known is None:
        return np.full(sides, 1.0 / sides)
    v = np.zeros(sides)
    v[known - 1] = 1.0
    return v


BoolArray = NDArray[np.bool_]


def _totals(setup: Setup, attack: list[FloatArray]) -> tuple[IntArray, FloatArray, BoolArray]:
    """Rows of (attack total, probability, rolled all 1s): all-1s mass kept in its own row."""
    probs = attack[0]
    ones = attack[0][0]
    for vec in attack[1:]:
        probs = np.convolve(probs, vec)
        ones = ones * vec[0]
    lowest = len(attack) + setup.bonus
    totals = np.arange(lowest, lowest + probs.size, dtype=np.int64)
    rest = probs.copy()
    rest[0] -= ones
    rest[0] = max(rest[0], 0.0)
    values = np.concatenate([totals, [lowest]])
    weights = np.concatenate([rest, [ones]])
    all_ones = np.zeros(values.size, dtype=bool)
    all_ones[-1] = True
    return values, weights, all_ones


def attack_odds(setup: Setup, attack: list[FloatArray], defense: FloatArray) -> Odds:
    """Exact odds given face-probability vectors of the attack dice and the defense die."""
    totals, p_a, a_ones = _totals(setup, attack)
    crit = np.array([setup.is_critical(int(t)) for t in totals], dtype=bool)
    effective = np.maximum(0, totals - setup.attack_reduction)
    faces = np.arange(1, defense.size + 1, dtype=np.int64)
    d_value = np.where(crit[:, None], faces[None, :] // 2, faces[None, :])
    n = effective[:, None] - d_value
    p = p_a[:, None] * defense[None, :]
    tw = target_wounds(setup, n)
    aw = attacker_wounds(setup, n)

    # the three conditions of the Dismemberment Die, for each side
    att_roll = a_ones[:, None] & (aw > 0) & setup.attacker_may_lose_limb()
    def_roll = (faces[None, :] == 1) & (tw > 0) & setup.defender_may_lose_limb()

    att_left, def_left = setup.attacker.wounds_left, setup.defender.wounds_left
    att_limbs = limb_odds(setup.attacker, setup.faces, setup.limb_choice)
    def_limbs = limb_odds(setup.defender, setup.faces, setup.limb_choice)
    p_att_roll = float(p[att_roll].sum())
    p_def_roll = float(p[def_roll].sum())
    # taken down: by wounds, or else by a Dismemberment Die that takes the last leg
    target_down = float(p[tw >= def_left].sum()) if def_left > 0 else 0.0
    target_down += float(p[def_roll & (tw < def_left)].sum()) * def_limbs.down
    attacker_down = float(p[aw >= att_left].sum()) if att_left > 0 else 0.0
    attacker_down += float(p[att_roll & (aw < att_left)].sum()) * att_limbs.down
    total = float(p.sum())
    return Odds(
        target=Dist(np.bincount(tw.ravel(), weights=p.ravel()) / total),
        attacker=Dist(np.bincount(aw.ravel(), weights=p.ravel()) / total),
        critical=float(p[crit, :].sum()) / total,
        dismemberment={"attacker": p_att_roll / total, "defender": p_def_roll / total},
        limbs={
            "attacker": {k: v * p_att_roll / total for k, v in att_limbs.limbs.items()},
            "defender": {k: v * p_def_roll / total for k, v in def_limbs.limbs.items()},
        },
        target_down=target_down / total,
        attacker_down=attacker_down / total,
    )


def odds_of(setup: Setup, known: tuple[int, ...] = ()) -> Odds:
    """Exact odds with the first ``known`` dice (attack dice, then defense) already rolled."""
    sizes = (*setup.attack_dice, setup.defender.defense)
    vectors = [die_vector(s, known[i] if i < len(known) else None) for i, s in enumerate(sizes)]
    return attack_odds(setup, vectors[:-1], vectors[-1])
