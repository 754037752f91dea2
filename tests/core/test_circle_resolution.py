"""Circle of Realms arithmetic: worked examples 1-3, critical hits, night, damage back."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop_gui.rules.base import DiceShortage, GivenDice, RulesError
from tabletop_gui.rules.circle_of_realms.profile import FighterProfile
from tabletop_gui.rules.circle_of_realms.resolution import Setup, odds_of
from tabletop_gui.rules.circle_of_realms.rolled import Rolled, roll_attack
from tabletop_gui.scenario.entities import Fighter, RoundBase, Weapon


def weapon(name: str, die: int, kind: str, *, reach: int = 1, hand: str = "main") -> Weapon:
    return Weapon(name, {"attack": die, "attack_type": kind, "range": reach, "hand": hand})


SWORD = weapon("Sword", 8, "slashing")
AXE = weapon("Axe", 8, "hacking")
MACE = weapon("Mace", 6, "blunt")
BOW = weapon("Bow", 6, "piercing", reach=4, hand="both")


def fighter(fid: str, side: str = "red", x: float = 0.5, y: float = 0.5, *,
            base_attack: int = 6, defense: int = 6, armour: int = 0, precision: int = 0,
            movement: int = 4, wounds: int = 20, traits: tuple[str, ...] = ("infantry",),
            weapons: tuple[Weapon, ...] = (), state: dict[str, Any] | None = None) -> Fighter:
    return Fighter(
        id=fid, name=fid.title(), side=side, x=x, y=y, base=RoundBase(25.0),
        characteristics={"base_attack": base_attack, "defense": defense, "armour": armour,
                         "precision": precision, "movement": movement, "wounds": wounds},
        traits=traits, weapons=weapons, state=state or {},
    )


def setup(att: Fighter, dfn: Fighter, *, use: str | None = "first", melee: bool = True,
          **kw: Any) -> Setup:
    a, d = FighterProfile.of(att), FighterProfile.of(dfn)
    w = a.weapons[0] if use == "first" and a.weapons else (a.weapon(use) if use and use !=
                                                           "first" else None)
    w = w if w is not None and a.can_use(w) else None
    d_w = next((x for x in d.weapons if d.can_use(x)), None)
    return Setup(attacker=a, defender=d, weapon=w,
                 attack_type=w.attack_type if w else "blunt",
                 defender_type=d_w.attack_type if d_w else None, melee=melee, **kw)


def roll(s: Setup, *faces: int) -> Rolled:
    dice = GivenDice(faces)
    r = roll_attack(s, dice)
    dice.finish()
    return r


def example_pair(**attacker: Any) -> tuple[Fighter, Fighter]:
    att = fighter("a", base_attack=6, precision=3, weapons=(SWORD,), **attacker)
    dfn = fighter("d", "blue", defense=6, armour=1)
    return att, dfn


# -- worked examples -----------------------------------------------------------------


def test_example_1_critical_by_day() -> None:
    r = roll(setup(*example_pair()), 6, 6, 4)
    assert r.critical
    assert r.target_wounds == 9
    assert r.attacker_wounds == 0
    assert [d.face for d in r.dice] == [6, 6, 4]
    assert any("halved to 2" in s for s in r.steps)


def test_example_2_same_by_night_crit_decided_before_reduction() -> None:
    r = roll(setup(*example_pair(), night=True), 6, 6, 4)
    assert r.critical
    assert r.target_wounds == 6  # A = 12 - 3 = 9, D = 2, N = 7, armour 1
    assert any("12 - precision 3 = 9" in s for s in r.steps)


def test_example_3_attacker_wounded_rolls_dismemberment_next() -> None:
    att = fighter("a", precision=3, weapons=(SWORD,))
    dfn = fighter("d", "blue", armour=0, weapons=(AXE,))
    s = setup(att, dfn)
    with pytest.raises(DiceShortage):  # the Dismemberment Die is the fourth die
        roll(s, 1, 1, 5)
    r = roll(s, 1, 1, 5, 3)
    assert r.target_wounds == 0 and r.attacker_wounds == 3
    assert r.limbs == {"attacker": ["RL"], "defender": []}
    assert r.attacker.damage == 3 and r.attacker.limbs_lost == ("RL",)
    assert [d.sides for d in r.dice] == [6, 8, 6, 6]


# -- critical hits -----------------------------------------------------------------------


@pytest.mark.parametrize("precision", [1, 2, 3, 4, 5, 7])
def test_critical_on_every_multiple(precision: int) -> None:
    att = fighter("a", base_attack=20, precision=precision)
    dfn = fighter("d", "blue", defense=10)
    s = setup(att, dfn, use=None)
    for face in range(1, 21):
        r = roll(s, face, 10)
        assert r.critical == (face % precision == 0), face
        assert r.dice[-1].outcome == ("halved" if r.critical else "defense")
        # D = 10, halved to 5 on a critical hit
        assert r.target_wounds == max(0, face - (5 if r.critical else 10))
    assert odds_of(s).critical == pytest.approx(sum(f % precision == 0 for f in range(1, 21)) / 20)


def test_precision_zero_never_critical() -> None:
    s = setup(fighter("a", base_attack=12, weapons=(SWORD,)), fighter("d", "blue"))
    assert odds_of(s).critical == pytest.approx(0.0, abs=1e-9)
    assert not any(roll(s, f, 8, 6).critical for f in range(1, 13))


def test_critical_counts_the_attack_bonus() -> None:
    s = setup(*example_pair(), bonus=1)
    assert roll(s, 5, 6, 6).critical  # 5 + 6 + 1 = 12
    assert not roll(s, 5, 5, 6).critical  # 11


# -- night ---------------------------------------------------------------------------------


def test_night_scout_attacker_keeps_full_attack() -> None:
    att, dfn = example_pair(traits=("infantry", "scout"))
    assert roll(setup(att, dfn, night=True), 6, 6, 4).target_wounds == 9


def test_night_attack_never_below_zero() -> None:
    att = fighter("a", base_attack=6, precision=10)
    dfn = fighter("d", "blue", armour=0)
    r = roll(setup(att, dfn, use=None, night=True, counter="never"), 3, 1)
    assert r.target_wounds == 0
    assert any("3 - precision 10 = 0" in s for s in r.steps)


def test_night_reduces_damage_back_by_defender_precision_unless_scout() -> None:
    att = fighter("a", base_attack=4)
    dfn = fighter("d", "blue", defense=12, precision=2)
    scout = fighter("d", "blue", defense=12, precision=2, traits=("scout",))
    # A = 1, D = 9: N = -8, attacker armour 0
    assert roll(setup(att, dfn, use=None), 1, 9).attacker_wounds == 8
    assert roll(setup(att, dfn, use=None, night=True), 1, 9).attacker_wounds == 6
    assert roll(setup(att, scout, use=None, night=True), 1, 9).attacker_wounds == 8


# -- damage back, armour, caps ----------------------------------------------------------


@pytest.mark.parametrize(("counter", "melee", "expected"), [
    ("melee", True, 2), ("melee", False, 0), ("always", True, 2), ("always", False, 2),
    ("never", True, 0), ("never", False, 0),
])
def test_counter_damage_option(counter: str, melee: bool, expected: int) -> None:
    att = fighter("a", base_attack=6, armour=1)
    dfn = fighter("d", "blue", defense=10)
    s = setup(att, dfn, use=None, melee=melee, counter=counter)
    r = roll(s, 2, 6)  # N = -4, less armour 1: 3
    assert r.attacker_wounds == (3 if expected else 0)
    odds = odds_of(s)
    assert (odds.attacker.mean > 0) == bool(expected)


def test_wounds_capped_at_wounds_left_and_taken_down() -> None:
    att = fighter("a", base_attack=12, wounds=3, state={"damage": 1})
    dfn = fighter("d", "blue", defense=6, wounds=5, state={"damage": 2})
    s = setup(att, dfn, use=None)
    r = roll(s, 12, 1)  # N = 11: capped at 3 left
    assert r.target_wounds == 3 and r.defender.taken_down and r.defender.damage == 5
    r = roll(s, 1, 6)  # N = -5: attacker has 2 left
    assert r.attacker_wounds == 2 and r.attacker.taken_down and not r.defender.taken_down
    odds = odds_of(s)
    assert odds.target.max_value == 3 and odds.attacker.max_value == 2
    assert odds.target_down == pytest.approx(odds.target.prob(3))


def test_armour_and_zero_difference() -> None:
    s = setup(fighter("a", base_attack=6), fighter("d", "blue", armour=2), use=None)
    assert roll(s, 5, 3).target_wounds == 0  # N = 2, armour 2
    assert roll(s, 6, 3).target_wounds == 1
    r = roll(s, 3, 3)
    assert r.target_wounds == r.attacker_wounds == 0


# -- exact odds ------------------------------------------------------------------------------


def test_odds_are_distributions_with_matching_means() -> None:
    att = fighter("a", base_attack=6, precision=3, armour=1, weapons=(SWORD,))
    dfn = fighter("d", "blue", defense=10, armour=1, precision=2, weapons=(AXE,))
    for night in (False, True):
        odds = odds_of(setup(att, dfn, night=night, bonus=1))
        for d in (odds.target, odds.attacker):
            assert d.total == pytest.approx(1.0, abs=1e-9)
            assert (d.probs >= 0).all()


def test_odds_brute_force_over_every_face() -> None:
    att = fighter("a", base_attack=6, precision=4, armour=1, weapons=(AXE,))
    dfn = fighter("d", "blue", defense=8, armour=1, precision=2, weapons=(SWORD,))
    s = setup(att, dfn, night=True, bonus=2)
    target: dict[int, float] = {}
    back: dict[int, float] = {}
    crit = 0.0
    for b in range(1, 7):
        for w in range(1, 9):
            for d in range(1, 9):
                dice = [b, w, d]
                if b == w == 1 or d == 1:
                    dice.append(1)  # a Dismemberment Die may follow; its face does not matter
                r = roll_attack(s, GivenDice(dice))
                q = 1 / (6 * 8 * 8)
                target[r.target_wounds] = target.get(r.target_wounds, 0) + q
                back[r.attacker_wounds] = back.get(r.attacker_wounds, 0) + q
                crit += q * r.critical
    odds = odds_of(s)
    assert dict(odds.target.items()) == pytest.approx(target)
    assert dict(odds.attacker.items()) == pytest.approx(back)
    assert odds.critical == pytest.approx(crit)


def test_odds_conditioned_on_known_dice() -> None:
    s = setup(*example_pair())
    assert odds_of(s, (6, 6, 4)).target.items() == [(9, pytest.approx(1.0, abs=1e-12))]
    partial = odds_of(s, (6, 6))  # A = 12, critical: d6 halved shows 0, 1, 1, 2, 2, 3
    assert dict(partial.target.items()) == pytest.approx({11: 1 / 6, 10: 1 / 3, 9: 1 / 3,
                                                          8: 1 / 6})
    assert partial.critical == pytest.approx(1.0, abs=1e-9)


def test_rolled_dice_must_fit_their_die() -> None:
    s = setup(*example_pair())
    with pytest.raises(RulesError, match="d8"):
        roll(s, 6, 9, 4)
    with pytest.raises(RulesError, match="too many dice"):
        roll(s, 6, 6, 4, 1)
