"""Circle of Realms exact odds against a vectorised Monte Carlo written from the page.

100,000 attacks per profile; every probability must agree within 4 standard errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from tabletop_gui.rules.circle_of_realms.dismemberment import parse_faces
from tabletop_gui.rules.circle_of_realms.resolution import Odds, Setup, odds_of
from tests.core.test_circle_resolution import AXE, BOW, MACE, SWORD, fighter, setup, weapon

N = 100_000
CUTTING = {"slashing", "hacking", "shredding"}


def simulate(s: Setup, rng: np.random.Generator) -> dict[str, NDArray[Any]]:
    """The page's rules, sample by sample (vectorised): wounds, crits, limbs, take-downs."""
    a, d = s.attacker, s.defender
    dice = [rng.integers(1, sides + 1, N) for sides in s.attack_dice]
    total = np.sum(dice, axis=0) + s.bonus
    ones = np.all(np.array(dice) == 1, axis=0)
    crit = (a.precision > 0) & (total > 0) & (total % max(a.precision, 1) == 0)
    if s.night and not a.scout:
        total = np.maximum(0, total - a.precision)
    face = rng.integers(1, d.defense + 1, N)
    defense = np.where(crit, face // 2, face)
    n = total - defense
    tw = np.where(n > 0, np.clip(n - d.armour, 0, d.wounds - d.damage), 0)
    counter = s.counter == "always" or (s.counter == "melee" and s.melee)
    back = np.maximum(0, -n - a.armour)
    if s.night and not d.scout:
        back = np.maximum(0, back - d.precision)
    aw = np.where((n < 0) & counter, np.minimum(back, a.wounds - a.damage), 0)
    att_roll = ones & (aw > 0) & (s.defender_type in CUTTING)
    def_roll = (face == 1) & (tw > 0) & (s.attack_type in CUTTING)

    def limb_down(fighter_lost: tuple[str, ...], main: str, rolls: NDArray[Any]) -> NDArray[Any]:
        die = rng.integers(0, len(s.faces), N)
        limb = np.array([f if f in ("RH", "LH", "RL", "LL") else (s.limb_choice or main)
                         for f in s.faces])[die]
        new_leg = np.isin(limb, ["RL", "LL"]) & ~np.isin(limb, list(fighter_lost))
        both = new_leg & (len({"RL", "LL"} & set(fighter_lost)) == 1)
        return rolls & both

    t_down = (tw >= d.wounds - d.damage) | limb_down(d.limbs_lost, d.main_hand, def_roll)
    a_down = (aw >= a.wounds - a.damage) | limb_down(a.limbs_lost, a.main_hand, att_roll)
    return {"tw": tw, "aw": aw, "crit": crit, "att_roll": att_roll, "def_roll": def_roll,
            "t_down": t_down, "a_down": a_down}


def close(p_exact: float, sample: NDArray[Any]) -> bool:
    p_mc = float(np.mean(sample))
    se = max(np.sqrt(p_exact * (1 - p_exact) / N), 1e-12)
    return abs(p_mc - p_exact) <= 4 * se + 1e-12


def check(odds: Odds, sim: dict[str, NDArray[Any]]) -> None:
    for dist, key in ((odds.target, "tw"), (odds.attacker, "aw")):
        assert dist.total == pytest.approx(1.0, abs=1e-9)
        values = set(np.unique(sim[key]).tolist()) | {v for v, _ in dist.items()}
        for v in values:
            assert close(dist.prob(v), sim[key] == v), (key, v, dist.prob(v))
    assert close(odds.critical, sim["crit"])
    assert close(odds.dismemberment["attacker"], sim["att_roll"])
    assert close(odds.dismemberment["defender"], sim["def_roll"])
    assert close(odds.target_down, sim["t_down"])
    assert close(odds.attacker_down, sim["a_down"])


GLAIVE = weapon("Glaive", 12, "shredding", hand="both")

PROFILES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ("example by night", {"precision": 3, "weapons": (SWORD,)},
     {"armour": 1, "precision": 2, "weapons": (AXE,)}, {"night": True}),
    ("low dice, fragile, one leg gone",
     {"base_attack": 4, "precision": 2, "armour": 0, "wounds": 3, "weapons": (AXE,),
      "state": {"limbs_lost": ["LL"]}},
     {"defense": 8, "wounds": 4, "state": {"damage": 1, "limbs_lost": ["RL"]},
      "weapons": (GLAIVE,)}, {"bonus": 1, "limb_choice": "RL"}),
    ("ranged always, scouts at night",
     {"base_attack": 6, "precision": 4, "weapons": (BOW,), "traits": ("scout",)},
     {"defense": 12, "armour": 1, "precision": 3, "traits": ("scout",), "weapons": (MACE,)},
     {"night": True, "counter": "always", "melee": False,
      "faces": parse_faces("LL,RL,attacker,defender,LH,RH")}),
]


@pytest.mark.parametrize(("name", "att", "dfn", "opts"), PROFILES, ids=[p[0] for p in PROFILES])
def test_exact_odds_match_monte_carlo(name: str, att: dict[str, Any], dfn: dict[str, Any],
                                      opts: dict[str, Any]) -> None:
    s = setup(fighter("a", **att), fighter("d", "blue", **dfn), **opts)
    rng = np.random.default_rng(sum(map(ord, name)))
    check(odds_of(s), simulate(s, rng))


KINDS = ("slashing", "hacking", "shredding", "piercing", "blunt", "siege")


def random_profile(seed: int) -> Setup:
    """A random attack: dice of any size, armour, precision, wounds, limbs, options."""
    rng = np.random.default_rng(seed)

    def die() -> int:
        return int(rng.choice([2, 3, 4, 6, 8, 10, 12, 20]))

    def limbs() -> list[str]:
        return [str(x) for x in rng.choice(["RL", "LL", "LH"], int(rng.integers(0, 2)),
                                           replace=False)]

    def one(fid: str, side: str) -> Any:
        wounds = int(rng.integers(1, 12))
        return fighter(
            fid, side, base_attack=die(), defense=die(), armour=int(rng.integers(0, 3)),
            precision=int(rng.integers(0, 6)), wounds=wounds,
            traits=("scout",) if rng.random() < 0.3 else (),
            weapons=(weapon("W", die(), str(rng.choice(KINDS)), hand="off"),),
            state={"damage": int(rng.integers(0, wounds)), "limbs_lost": limbs()},
        )

    faces = ",".join(rng.permutation(["RH", "LH", "RL", "LL", "defender", "attacker"]))
    return setup(one("a", "red"), one("d", "blue"), melee=bool(rng.random() < 0.7),
                 night=bool(rng.random() < 0.5), bonus=int(rng.integers(-2, 4)),
                 counter=str(rng.choice(["melee", "always", "never"])),
                 faces=parse_faces(faces), limb_choice=str(rng.choice(["", "RL", "LL"])))


@pytest.mark.parametrize("seed", [11, 24, 52, 59, 61])  # 24-61 risk limbs
def test_random_profiles_match_monte_carlo(seed: int) -> None:
    s = random_profile(seed)
    check(odds_of(s), simulate(s, np.random.default_rng(seed + 1000)))
