"""The `mordheim-warcry` engine: the dual-wield example, melee and ranged modifiers alone
and combined, the closest viable target, armour with piercing, the forced melee."""

from __future__ import annotations

import pytest

from tabletop_gui.rules.base import GivenDice, RulesError
from tabletop_gui.rules.mordheim_warcry.engine import RULESET
from tests.core.warcry_family_scenarios import (
    battle,
    fighter,
    mh_chars,
    platform,
    req,
    v_weapon,
    wall,
)

HAMMER = v_weapon("Hammer", attacks=2, damage="2/3", piercing=2)
DAGGER = v_weapon("Dagger", attacks=3, damage="1/3")
BOW = v_weapon("Bow", kind="ranged", range=24, attacks=2, damage="1/2")


def duel(gap: float = 0.5, a_chars=None, t_chars=None, weapons=None, t_weapons=None,
         traits=(), extra=(), **kw):
    a = fighter("a", "red", 10, 10, a_chars or mh_chars(), weapons or [HAMMER, DAGGER, BOW])
    t = fighter("t", "blue", 11 + gap, 10, t_chars or mh_chars(),
                t_weapons or [v_weapon()], traits=traits)
    return battle("mordheim-warcry", [a, t, *extra], **kw)


def names(report) -> list[str]:
    return [m.name for m in report.modifiers]


def check(report, rule):
    return next(c for c in report.checks if c.rule == rule)


def test_worked_dual_wield_example() -> None:
    b = duel(a_chars=mh_chars(fight=4), t_chars=mh_chars(fight=4, armour=3))
    rq = req(weapon="Hammer", offhand="Dagger")
    r = RULESET.attack(b, rq)
    assert r.valid and r.table_row == "Equal" and r.offhand == "Dagger"
    roll = RULESET.resolve(b, rq, GivenDice([5, 6, 6]))
    assert roll.damage == 4 and not roll.taken_down
    assert [(d.label, d.outcome) for d in roll.dice] == [
        ("Hammer hit roll 1", "hit"), ("Hammer hit roll 2", "critical"),
        ("Dagger off-hand roll", "critical")]
    assert roll.steps == (
        "Hammer hit roll 5: hit, 2 damage",
        "Hammer hit roll 6: critical hit, 3 damage",
        "Hammer total 5, armour 1 (3 - piercing 2): 4 damage",
        "Dagger off-hand roll 6: critical hit, 3 damage",
        "Dagger total 3, armour 3: 0 damage",
        "4 damage allocated, 26 wounds left",
    )
    # hand computation: hammer 2 dice (0: 1/2, 2: 1/3, 3: 1/6) less 1; dagger always 0
    assert r.expected_damage == pytest.approx(57 / 36)
    assert r.to_json()["offhand"] == "Dagger"
    with pytest.raises(RulesError, match="needs 3"):
        RULESET.resolve(b, rq, GivenDice([5, 6]))


def test_one_offhand_roll_whatever_its_attacks_and_armour_zero() -> None:
    b = duel(t_chars=mh_chars(fight=4, armour=0))
    r = RULESET.attack(b, req(weapon="Hammer", offhand="Dagger"))
    # Equal: hammer 2 x (2/6 x 2 + 1/6 x 3), dagger 1 x (2/6 x 1 + 1/6 x 3)
    assert r.expected_damage == pytest.approx(2 * (4 / 6 + 3 / 6) + (2 / 6 + 3 / 6))
    assert "armour" not in names(r)


def test_offhand_refusals() -> None:
    b = duel()
    with pytest.raises(RulesError, match="ranged"):
        RULESET.attack(b, req(weapon="Hammer", offhand="Bow"))
    with pytest.raises(RulesError, match="melee main-hand"):
        RULESET.attack(b, req(weapon="Bow", offhand="Dagger"))
    with pytest.raises(RulesError, match="second"):
        RULESET.attack(b, req(weapon="Hammer", offhand="Hammer"))


@pytest.mark.parametrize(("armour", "piercing", "reduction"), [
    (3, 2, 1), (3, 0, 3), (1, 2, 0), (0, 0, 0), (2, 2, 0)])
def test_armour_less_piercing_never_below_zero(armour: int, piercing: int,
                                               reduction: int) -> None:
    w = v_weapon("Axe", attacks=1, damage="4/6", piercing=piercing)
    b = duel(t_chars=mh_chars(fight=4, armour=armour), weapons=[w])
    r = RULESET.attack(b, req(weapon="Axe"))
    expected = 2 / 6 * max(0, 4 - reduction) + 1 / 6 * max(0, 6 - reduction)
    assert r.expected_damage == pytest.approx(expected)
    assert ("armour" in names(r)) is (reduction > 0)


# -- melee -----------------------------------------------------------------------------
def test_melee_modifiers_alone() -> None:
    base = dict(a_chars=mh_chars(fight=4), t_chars=mh_chars(fight=4),
                weapons=[v_weapon("Sword")])
    assert RULESET.attack(duel(**base), req(weapon="Sword")).table_row == "Equal"
    r = RULESET.attack(duel(**base), req(weapon="Sword", diving_charge=True))
    assert names(r) == ["diving charge"] and r.table_row == "Greater"
    r = RULESET.attack(duel(traits=["shield"], **base), req(weapon="Sword"))
    assert names(r) == ["shield"] and r.table_row == "Less"
    r = RULESET.attack(duel(t_weapons=[v_weapon("Rapier", parry=True)], **base),
                       req(weapon="Sword"))
    assert names(r) == ["parry"] and "Rapier" in r.modifiers[0].why and r.table_row == "Less"
    # a ranged weapon with parry does not count
    r = RULESET.attack(duel(t_weapons=[v_weapon("Gun", kind="ranged", range=10, parry=True)],
                            **base), req(weapon="Sword"))
    assert names(r) == []
    f = fighter("f", "red", 13.0, 10, mh_chars(), [v_weapon()])
    r = RULESET.attack(duel(extra=[f], **base), req(weapon="Sword"))
    assert names(r) == ["flanked"] and r.modifiers[0].effect == "+1 fight"
    assert r.table_row == "Greater"


def test_melee_modifiers_combined() -> None:
    f = fighter("f", "red", 13.0, 10, mh_chars(), [v_weapon()])
    b = duel(a_chars=mh_chars(fight=3), t_chars=mh_chars(fight=2), weapons=[v_weapon("Sword")],
             t_weapons=[v_weapon("Rapier", parry=True), v_weapon("Dirk", parry=True)],
             traits=["shield"], extra=[f])
    r = RULESET.attack(b, req(weapon="Sword", diving_charge=True))
    assert names(r) == ["diving charge", "flanked", "shield", "parry"]  # parry counts once
    assert r.extras["_compare"] == {"attack": 5, "attack_name": "Fight", "defense": 4,
                                    "defense_name": "Fight"}
    assert r.table_row == "Greater"


def test_cover_is_not_a_melee_modifier() -> None:
    b = duel(gap=0.8, weapons=[v_weapon("Sword")], obstacles=[wall("w1", 11.05, 8, 11.15, 12)])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.facts.cover == "cover" and names(r) == []


# -- ranged ----------------------------------------------------------------------------
def shoot(gap: float, *, shoot_: int = 3, extra=(), traits=(), **kw):
    return duel(gap=gap, a_chars=mh_chars(shoot=shoot_), weapons=[BOW], traits=traits,
                extra=extra, **kw)


def test_ranged_base_dr_3() -> None:
    r = RULESET.attack(shoot(3.0), req(weapon="Bow"))
    assert r.table_row == "Equal" and names(r) == [] and r.attack_type == "ranged"
    assert r.extras["_compare"]["defense"] == 3 and r.extras["_compare"]["defense_name"] == "DR"


@pytest.mark.parametrize(("gap", "long"), [(6.0, False), (6.01, True)])
def test_long_range_more_than_6(gap: float, long: bool) -> None:
    r = RULESET.attack(shoot(gap), req(weapon="Bow"))
    assert ("long range" in names(r)) is long
    assert r.table_row == ("Less" if long else "Equal")


@pytest.mark.parametrize(("elevation", "high"), [(2.0, True), (1.9, False)])
def test_high_ground_2_inches_above(elevation: float, high: bool) -> None:
    a = fighter("a", "red", 10, 10, mh_chars(shoot=3), [BOW])
    t = fighter("t", "blue", 14, 10, mh_chars(), [v_weapon()])
    b = battle("mordheim-warcry", [a, t], platforms=[platform("p1", 8, 8, 11, 12, elevation)])
    r = RULESET.attack(b, req(weapon="Bow"))
    assert ("high ground" in names(r)) is high
    assert r.table_row == ("Greater" if high else "Equal")


def test_shield_and_cover_raise_the_dr() -> None:
    r = RULESET.attack(shoot(3.0, traits=["shield"]), req(weapon="Bow"))
    assert names(r) == ["shield"] and r.modifiers[0].effect == "+1 DR"
    r = RULESET.attack(shoot(3.0, obstacles=[wall("w1", 12.5, 8, 12.7, 12)]), req(weapon="Bow"))
    assert names(r) == ["cover"] and r.table_row == "Less"
    r = RULESET.attack(shoot(8.0, shoot_=2, traits=["shield"],
                             obstacles=[wall("w1", 12.5, 8, 12.7, 12)]), req(weapon="Bow"))
    assert names(r) == ["long range", "cover", "shield"]
    assert r.extras["_compare"]["defense"] == 6 and r.table_row == "Half"


def test_closest_viable_target() -> None:
    closer = fighter("c", "blue", 10, 14, mh_chars(), [v_weapon()])  # 3" away
    r = RULESET.attack(shoot(5.0, extra=[closer]), req(weapon="Bow"))
    assert names(r) == ["not the closest"] and "c is a closer viable target" in \
        r.modifiers[0].why
    assert not any(m.name == "not the closest" for m in
                   RULESET.attack(shoot(5.0, extra=[closer]), req(target="c",
                                                                  weapon="Bow")).modifiers)
    # a tie counts as closest
    tie = fighter("c", "blue", 10, 16, mh_chars(), [v_weapon()])  # 5" away
    assert "not the closest" not in names(RULESET.attack(shoot(5.0, extra=[tie]),
                                                         req(weapon="Bow")))
    # a closer enemy that is not viable (a friend within 1" of it, or out of sight)
    ally = fighter("f", "red", 10, 15.5, mh_chars(), [v_weapon()])
    assert "not the closest" not in names(RULESET.attack(shoot(5.0, extra=[closer, ally]),
                                                         req(weapon="Bow")))
    hidden = shoot(5.0, extra=[closer],
                   obstacles=[wall("w9", 8, 12.0, 12, 12.5, height=5, blocks_sight=True)])
    assert "not the closest" not in names(RULESET.attack(hidden, req(weapon="Bow")))
    # a closer enemy within the minimum range of the weapon is not viable either
    sling = v_weapon("Sling", kind="ranged", range="4-24", attacks=1)
    a = fighter("a", "red", 10, 10, mh_chars(), [sling])
    t = fighter("t", "blue", 16, 10, mh_chars(), [v_weapon()])
    b = battle("mordheim-warcry", [a, t, closer])
    assert "not the closest" not in names(RULESET.attack(b, req(weapon="Sling")))


def test_enemy_within_1_forces_melee() -> None:
    e = fighter("e", "blue", 10, 11.5, mh_chars(), [v_weapon()])
    b = duel(gap=3.0, weapons=[BOW, v_weapon("Sword")], extra=[e])
    r = RULESET.attack(b, req(target="e", weapon="Bow"))
    c = check(r, "melee_forced")
    assert not c.ok and "e at 0.5\"" in c.text and not r.valid
    assert RULESET.attack(b, req(target="e", weapon="Sword")).valid
    assert RULESET.attack(b, req(target="e")).weapon == "Sword"  # default: first valid


def test_ranged_friendly_fire_without_exception() -> None:
    ally = fighter("f", "red", 12.5, 11.5, mh_chars(), [v_weapon()])
    r = RULESET.attack(duel(gap=1.5, weapons=[BOW], extra=[ally]), req(weapon="Bow"))
    assert not check(r, "friendly_fire").ok


def test_unknown_situational_option_and_bad_value() -> None:
    with pytest.raises(RulesError):
        RULESET.attack(duel(), req(weapon="Hammer", charging=True))
    assert RULESET.parse_set(["diving_charge=yes"]) == {"diving_charge": True}
    with pytest.raises(RulesError):
        RULESET.parse_set(["diving_charge=maybe"])


def test_odds_given_dual_wield_match_enumeration() -> None:
    import itertools

    b = duel(t_chars=mh_chars(fight=4, armour=2, wounds=6))
    rq = req(weapon="Hammer", offhand="Dagger")
    for k in range(4):
        for known in itertools.product(range(1, 7), repeat=k):
            got = RULESET.odds_given(b, rq, list(known))
            rest = list(itertools.product(range(1, 7), repeat=3 - k))
            counts: dict[int, int] = {}
            for combo in rest:
                dmg = RULESET.resolve(b, rq, GivenDice([*known, *combo])).damage
                counts[dmg] = counts.get(dmg, 0) + 1
            assert {v: q for v, q in got.items() if q > 1e-15} == pytest.approx(
                {v: n / len(rest) for v, n in counts.items()})


def test_default_main_weapon_with_an_offhand() -> None:
    b = duel(weapons=[BOW, DAGGER, HAMMER])
    r = RULESET.attack(b, req(offhand="Dagger"))
    assert r.weapon == "Hammer" and r.offhand == "Dagger" and r.valid
    with pytest.raises(RulesError):
        RULESET.attack(duel(weapons=[BOW, DAGGER]), req(offhand="Dagger"))


def test_all_five_ranged_modifiers_together() -> None:
    a = fighter("a", "red", 10, 10, mh_chars(shoot=4), [BOW], elevation=None)
    closer = fighter("c", "blue", 10, 17.5, mh_chars(), [v_weapon()])  # 6.5" away
    t = fighter("t", "blue", 18, 10, mh_chars(), [v_weapon()], traits=["shield"])  # 7" away
    b = battle("mordheim-warcry", [a, t, closer],
               platforms=[platform("p1", 8, 8, 11.2, 12, 2.5)],
               obstacles=[wall("w1", 14.0, 8, 14.2, 12)])
    r = RULESET.attack(b, req(weapon="Bow"))
    assert names(r) == ["high ground", "long range", "not the closest", "cover", "shield"]
    # DR = 3 - 1 + 1 + 1 + 1 + 1 = 6 against Shoot 4: Less
    assert r.extras["_compare"]["defense"] == 6 and r.table_row == "Less"
    assert r.expected_damage == pytest.approx(2 * (1 / 6 * 1 + 1 / 6 * 2))
