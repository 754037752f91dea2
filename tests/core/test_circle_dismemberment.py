"""Circle of Realms Dismemberment: the three conditions per side, faces, choices, effects."""

from __future__ import annotations

import pytest

from tabletop_gui.rules.base import GivenDice, RulesError
from tabletop_gui.rules.circle_of_realms.dismemberment import limb_odds, parse_faces
from tabletop_gui.rules.circle_of_realms.profile import FighterProfile
from tabletop_gui.rules.circle_of_realms.resolution import odds_of
from tabletop_gui.rules.circle_of_realms.rolled import roll_attack
from tests.core.test_circle_resolution import (
    AXE,
    BOW,
    MACE,
    SWORD,
    fighter,
    roll,
    setup,
    weapon,
)

SPEAR = weapon("Spear", 8, "piercing")
DAGGER = weapon("Dagger", 4, "shredding", hand="off")
GREATAXE = weapon("Greataxe", 10, "hacking", hand="both")


# -- the attacker's three conditions ------------------------------------------------------


def test_attacker_all_conditions_met() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", weapons=(AXE,)))
    r = roll(s, 1, 1, 6, 1)  # A 2, D 6: 4 back; face 1 = right hand
    assert r.limbs["attacker"] == ["RH"] and r.attacker.limbs_lost == ("RH",)
    odds = odds_of(s)
    # all 1s (1/48) and any defense above 2 (4/6)
    assert odds.dismemberment["attacker"] == pytest.approx(1 / 48 * 4 / 6)
    assert odds.dismemberment["defender"] > 0
    assert sum(odds.limbs["attacker"].values()) == pytest.approx(odds.dismemberment["attacker"])


def test_attacker_not_all_ones() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", weapons=(AXE,)))
    r = roll(s, 1, 2, 6)  # wounded, faces an axe, but the weapon die shows 2
    assert r.attacker_wounds == 3 and r.limbs["attacker"] == []


def test_attacker_not_wounded() -> None:
    s = setup(fighter("a", armour=5, weapons=(SWORD,)), fighter("d", "blue", weapons=(AXE,)))
    r = roll(s, 1, 1, 6)  # N = -4, armour 5: no wound
    assert r.attacker_wounds == 0 and r.limbs["attacker"] == []
    assert odds_of(s).dismemberment["attacker"] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("defender_weapons", [(MACE,), (SPEAR,), ()])
def test_attacker_faces_no_cutting_weapon(defender_weapons: tuple) -> None:  # type: ignore[type-arg]
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", weapons=defender_weapons))
    r = roll(s, 1, 1, 6)
    assert r.attacker_wounds == 4 and r.limbs["attacker"] == []
    assert odds_of(s).dismemberment["attacker"] == pytest.approx(0.0, abs=1e-9)


def test_attacker_faces_no_damage_back_at_range() -> None:
    s = setup(fighter("a", weapons=(BOW,)), fighter("d", "blue", weapons=(AXE,)), melee=False)
    r = roll(s, 1, 1, 6)  # counter_damage=melee: no wound back, so no die
    assert r.attacker_wounds == 0 and r.limbs["attacker"] == []


# -- the defender's three conditions -----------------------------------------------------


def test_defender_all_conditions_met() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", weapons=(MACE,)))
    r = roll(s, 6, 8, 1, 4)  # N = 13; defense shows 1; faces a sword
    assert r.target_wounds == 13 and r.limbs == {"attacker": [], "defender": ["LL"]}
    assert r.defender.limbs_lost == ("LL",)
    assert [d.label for d in r.dice][-1] == "defender dismemberment"
    odds = odds_of(s)
    # defense 1 (1/6) and A - 1 > 0 always
    assert odds.dismemberment["defender"] == pytest.approx(1 / 6)
    assert odds.limbs["defender"]["LL"] == pytest.approx(1 / 36)
    assert odds.limbs["defender"]["RH"] == pytest.approx(3 / 36)  # face 1 and both choices


def test_defender_not_rolled_one() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue"))
    assert roll(s, 6, 8, 2).limbs["defender"] == []


def test_defender_not_wounded() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", armour=20))
    r = roll(s, 6, 8, 1)
    assert r.target_wounds == 0 and r.limbs["defender"] == []
    assert odds_of(s).dismemberment["defender"] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("attacker_weapon", [SPEAR, MACE])
def test_defender_faces_no_cutting_weapon(attacker_weapon) -> None:  # type: ignore[no-untyped-def]
    s = setup(fighter("a", weapons=(attacker_weapon,)), fighter("d", "blue"))
    assert roll(s, 6, 6, 1).limbs["defender"] == []
    assert odds_of(s).dismemberment["defender"] == pytest.approx(0.0, abs=1e-9)


def test_critical_halving_does_not_hide_the_rolled_one() -> None:
    s = setup(fighter("a", precision=2, weapons=(SWORD,)), fighter("d", "blue"))
    r = roll(s, 2, 2, 1, 2)  # critical, defense 1 halved to 0; the face was still a 1
    assert r.critical and r.limbs["defender"] == ["LH"]


# -- faces, choices, limbs already lost ---------------------------------------------------


def test_faces_option_reorders_the_die() -> None:
    faces = parse_faces("LL,RL,LH,RH,attacker,defender")
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue"), faces=faces)
    assert roll(s, 6, 8, 1, 1).limbs["defender"] == ["LL"]
    assert roll(s, 6, 8, 1, 4).limbs["defender"] == ["RH"]
    with pytest.raises(RulesError):
        parse_faces("RH,LH,XX")


@pytest.mark.parametrize(("face", "choice", "traits", "lost"), [
    (5, "", ("infantry",), "RH"),  # defender's choice, default the main hand
    (6, "", ("infantry",), "RH"),  # attacker's choice
    (5, "", ("left_handed",), "LH"),  # left-handed: main hand is the left
    (6, "RL", ("infantry",), "RL"),
])
def test_chosen_limb(face: int, choice: str, traits: tuple[str, ...], lost: str) -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", traits=traits),
              limb_choice=choice)
    assert roll(s, 6, 8, 1, face).limbs["defender"] == [lost]


def test_face_of_a_limb_already_lost_takes_nothing() -> None:
    dfn = fighter("d", "blue", state={"limbs_lost": ["RH"]})
    s = setup(fighter("a", weapons=(SWORD,)), dfn)
    r = roll(s, 6, 8, 1, 1)
    assert r.limbs["defender"] == [] and r.defender.limbs_lost == ("RH",)
    chosen = roll(s, 6, 8, 1, 5)  # chooser: main hand gone, so the off hand
    assert chosen.limbs["defender"] == ["LH"]


def test_second_leg_takes_the_fighter_down() -> None:
    dfn = fighter("d", "blue", wounds=50, state={"limbs_lost": ["RL"]})
    s = setup(fighter("a", weapons=(SWORD,)), dfn)
    r = roll(s, 6, 8, 1, 4)
    assert r.defender.taken_down and r.defender.damage == 13
    assert any("both legs" in step for step in r.steps)
    odds = odds_of(s)
    # wounds never reach 50: taken down only by face 4 (left leg) after a rolled 1
    assert odds.target_down == pytest.approx(1 / 6 * 1 / 6)
    assert limb_odds(FighterProfile.of(dfn), parse_faces("RH,LH,RL,LL,defender,attacker"),
                     "LL").down == pytest.approx(3 / 6)  # face 4 and both choosers


# -- effects of lost limbs on later attacks -------------------------------------------


def test_lost_main_hand_drops_the_weapon() -> None:
    att = fighter("a", weapons=(SWORD,), state={"limbs_lost": ["RH"]})
    s = setup(att, fighter("d", "blue"))
    assert s.weapon is None and s.attack_type == "blunt"
    r = roll(s, 6, 1)  # base die alone, then defense: a blunt attack cannot dismember
    assert [d.sides for d in r.dice] == [6, 6] and r.limbs["defender"] == []


def test_hands_per_weapon() -> None:
    p = FighterProfile.of(fighter("a", weapons=(SWORD, DAGGER, GREATAXE),
                                  state={"limbs_lost": ["LH"]}))
    assert [p.can_use(w) for w in p.weapons] == [True, False, False]
    lefty = FighterProfile.of(fighter("a", traits=("left_handed",), weapons=(SWORD, DAGGER),
                                      state={"limbs_lost": ["LH"]}))
    assert [lefty.can_use(w) for w in lefty.weapons] == [False, True]


def test_lost_leg_costs_two_movement() -> None:
    assert FighterProfile.of(fighter("a", movement=5)).movement_allowance == 5
    one = FighterProfile.of(fighter("a", movement=5, state={"limbs_lost": ["LL"]}))
    assert one.movement_allowance == 3
    two = FighterProfile.of(fighter("a", movement=3, state={"limbs_lost": ["LL", "RL"]}))
    assert two.movement_allowance == 0


def test_limb_lost_in_one_attack_changes_the_next() -> None:
    s = setup(fighter("a", weapons=(SWORD,)), fighter("d", "blue", weapons=(AXE,)))
    first = roll_attack(s, GivenDice([1, 1, 6, 1]))  # the attacker loses its right hand
    after = fighter("a", weapons=(SWORD,), state=first.attacker.state_json())
    s2 = setup(after, fighter("d", "blue", weapons=(AXE,)))
    assert s2.weapon is None and s2.attack_dice == (6,)
    assert odds_of(s2).target.max_value == 5  # d6 alone against a d6
