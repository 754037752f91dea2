"""The `fight-vs-defense` engine: worked examples, rows, modifiers alone and combined,
cover without the 1" condition, platforms, flanking, the friendly-fire rule."""

from __future__ import annotations

import pytest

from tabletop_gui.rules.base import GivenDice, RulesError
from tabletop_gui.rules.fight_vs_defense.engine import RULESET
from tests.core.warcry_family_scenarios import (
    battle,
    fighter,
    fvd_chars,
    platform,
    req,
    v_weapon,
    wall,
)

BOW = v_weapon("Bow", kind="ranged", range=12, attacks=2, damage="1/2")


def duel(gap: float = 0.5, a_chars=None, t_chars=None, weapons=None, a_state=None,
         extra=(), **kw):
    a = fighter("a", "red", 10, 10, a_chars or fvd_chars(), weapons or [v_weapon(), BOW],
                state=a_state)
    t = fighter("t", "blue", 11 + gap, 10, t_chars or fvd_chars(), [v_weapon()])
    return battle("fight-vs-defense", [a, t, *extra], **kw)


def check(report, rule):
    return next(c for c in report.checks if c.rule == rule)


def names(report) -> list[str]:
    return [m.name for m in report.modifiers]


def test_example_1_twice() -> None:
    b = duel(a_chars=fvd_chars(fight=4), t_chars=fvd_chars(defense=2))
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.table_row == "Twice" and r.attack_type == "melee"
    assert r.expected_damage == pytest.approx(3.0)


def test_example_2_panicked_in_cover_is_equal() -> None:
    b = duel(gap=2.0, a_chars=fvd_chars(fight=4), t_chars=fvd_chars(defense=2),
             weapons=[v_weapon(range=3)], a_state={"panicked": True},
             obstacles=[wall("w1", 12.0, 8, 12.2, 12)])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert names(r) == ["panicked", "cover"]
    assert r.modifiers[0].effect == "-1 fight" and r.modifiers[1].effect == "+1 defense"
    assert r.table_row == "Equal"
    assert r.expected_damage == pytest.approx(3 * (2 / 6 * 1 + 1 / 6 * 2))


def test_example_3_half_never_critical() -> None:
    b = duel(gap=4.0, a_chars=fvd_chars(shoot=2), t_chars=fvd_chars(defense=4))
    r = RULESET.attack(b, req(weapon="Bow"))
    assert r.table_row == "Half" and r.attack_type == "ranged"
    roll = RULESET.resolve(b, req(weapon="Bow"), GivenDice([5, 6]))
    assert [d.outcome for d in roll.dice] == ["hit", "hit"] and roll.damage == 2


def test_example_4_ranged_attack_near_an_ally_has_no_exception() -> None:
    ally = fighter("f", "red", 12, 11.8, fvd_chars(), [v_weapon()])  # 0.8" from t
    b = duel(gap=1.0, extra=[ally])
    r = RULESET.attack(b, req(weapon="Bow"))
    c = check(r, "friendly_fire")
    assert not c.ok and c.text.startswith("friendly fire: t is within 1\" of f (0.8\")")
    ally2 = fighter("f", "red", 13, 11.8, fvd_chars(), [v_weapon()])
    b2 = duel(gap=2.0, extra=[ally2])
    assert not RULESET.attack(b2, req(weapon="Bow")).valid


@pytest.mark.parametrize(("a", "d", "row", "per_die"), [
    (6, 3, "Twice", 2 / 6 * 1 + 2 / 6 * 2),
    (4, 3, "Greater", 3 / 6 * 1 + 1 / 6 * 2),
    (3, 3, "Equal", 2 / 6 * 1 + 1 / 6 * 2),
    (2, 3, "Less", 1 / 6 * 1 + 1 / 6 * 2),
    (1, 3, "Half", 2 / 6 * 1),
])
def test_every_row(a: int, d: int, row: str, per_die: float) -> None:
    b = duel(a_chars=fvd_chars(fight=a), t_chars=fvd_chars(defense=d))
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.table_row == row
    assert r.expected_damage == pytest.approx(3 * per_die)
    assert r.distribution.total == pytest.approx(1.0)


def test_piercing_alone_and_to_zero_defense() -> None:
    b = duel(a_chars=fvd_chars(fight=3), t_chars=fvd_chars(defense=3),
             weapons=[v_weapon("Pick", piercing=1), v_weapon("Lance", piercing=3)])
    r = RULESET.attack(b, req(weapon="Pick"))
    assert names(r) == ["piercing"] and r.modifiers[0].effect == "-1 defense"
    assert r.table_row == "Greater"  # 3 vs 2
    assert RULESET.attack(b, req(weapon="Lance")).table_row == "Twice"  # D = 0


def test_panicked_lowers_shoot_for_ranged() -> None:
    b = duel(gap=4.0, a_chars=fvd_chars(shoot=3), t_chars=fvd_chars(defense=3),
             a_state={"panicked": True})
    r = RULESET.attack(b, req(weapon="Bow"))
    assert r.modifiers[0].effect == "-1 shoot" and r.table_row == "Less"


def test_flanked_melee_only_and_combined() -> None:
    # f (red) touches t's far side and no other enemy: t is flanked
    f = fighter("f", "red", 12.5 + 0.5, 10, fvd_chars(), [v_weapon()])
    b = duel(extra=[f], a_chars=fvd_chars(fight=3), t_chars=fvd_chars(defense=3))
    r = RULESET.attack(b, req(weapon="Sword"))
    assert names(r) == ["flanked"] and "f" in r.modifiers[0].why
    assert r.table_row == "Greater" and r.facts.flanked
    assert RULESET.pair_facts(b, "a", "t").flanked
    # the same pair with a ranged weapon: no flanking
    b2 = duel(gap=4.0, extra=[fighter("f", "red", 15.5 + 0.5, 10, fvd_chars(), [v_weapon()])])
    rr = RULESET.attack(b2, req(weapon="Bow"))
    assert "flanked" not in names(rr)
    # combined: panicked, piercing, flanked
    b3 = duel(extra=[f], a_chars=fvd_chars(fight=4), t_chars=fvd_chars(defense=4),
              weapons=[v_weapon(piercing=1)], a_state={"panicked": True})
    r3 = RULESET.attack(b3, req(weapon="Sword"))
    assert names(r3) == ["panicked", "piercing", "flanked"]
    assert r3.extras["_compare"]["attack"] == 3 and r3.extras["_compare"]["defense"] == 2
    assert r3.table_row == "Greater"


def test_not_flanked_when_the_friend_is_engaged_elsewhere() -> None:
    f = fighter("f", "red", 13.0, 10, fvd_chars(), [v_weapon()])
    other = fighter("o", "blue", 14.5, 10, fvd_chars(), [v_weapon()])  # 0.5" from f
    b = duel(extra=[f, other])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert "flanked" not in names(r) and not r.facts.flanked


def test_cover_ignores_obstacles_next_to_the_attacker_always() -> None:
    near_wall = [wall("w1", 10.55, 8, 10.65, 12)]
    assert RULESET.attack(duel(gap=0.8, obstacles=near_wall),
                          req(weapon="Sword")).facts.cover == "none"
    mid_wall = [wall("w1", 11.05, 8, 11.15, 12)]
    r = RULESET.attack(duel(gap=0.8, obstacles=mid_wall), req(weapon="Sword"))
    assert r.facts.cover == "cover" and "cover" in names(r)


@pytest.mark.parametrize(("height", "cover"), [(2.0, True), (1.9, False)])
def test_platform_cover_for_ranged_at_2_inches(height: float, cover: bool) -> None:
    a = fighter("a", "red", 10, 10, fvd_chars(), [v_weapon(range=3), BOW])
    t = fighter("t", "blue", 13, 10, fvd_chars(), [v_weapon()])
    b = battle("fight-vs-defense", [a, t], platforms=[platform("p1", 12, 8, 15, 12, height)])
    assert ("cover" in names(RULESET.attack(b, req(weapon="Bow")))) is cover
    # melee: no platform cover unless the option says so
    melee = RULESET.attack(b, req(weapon="Sword"))
    assert "cover" not in names(melee)
    b2 = battle("fight-vs-defense", [a, t], platforms=[platform("p1", 12, 8, 15, 12, height)],
                options={"platform_cover_in_melee": True})
    assert ("cover" in names(RULESET.attack(b2, req(weapon="Sword")))) is cover


def test_kind_decides_the_attack_type_and_range_checks() -> None:
    b = duel(gap=2.0, weapons=[v_weapon("Pistol", kind="ranged", range=2),
                               v_weapon("Whip", kind="melee", range="1-2")])
    assert RULESET.attack(b, req(weapon="Pistol")).attack_type == "ranged"
    r = RULESET.attack(b, req(weapon="Whip"))
    assert r.attack_type == "melee" and r.valid
    b2 = duel(gap=1.0, weapons=[v_weapon("Whip", kind="melee", range="1-2")])
    assert not check(RULESET.attack(b2, req(weapon="Whip")), "minimum_range").ok


def test_engaged_target_rule() -> None:
    e = fighter("e", "blue", 10, 11.5, fvd_chars(), [v_weapon()])
    b = duel(gap=3.0, extra=[e])
    assert not check(RULESET.attack(b, req(weapon="Bow")), "engaged").ok
    assert RULESET.attack(b, req(target="e", weapon="Sword")).valid


def test_refusals() -> None:
    b = duel()
    with pytest.raises(RulesError):
        RULESET.attack(b, req(weapon="Sword", offhand="Bow"))
    with pytest.raises(RulesError, match="needs 3"):
        RULESET.resolve(b, req(weapon="Sword"), GivenDice([1]))


def test_all_four_modifiers_together() -> None:
    f = fighter("f", "red", 13.3, 10, fvd_chars(), [v_weapon()])  # touches t's far side
    b = duel(gap=0.8, extra=[f], a_chars=fvd_chars(fight=5), t_chars=fvd_chars(defense=4),
             weapons=[v_weapon(piercing=2)], a_state={"panicked": True},
             obstacles=[wall("w1", 11.05, 8, 11.15, 12)])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert names(r) == ["panicked", "piercing", "cover", "flanked"]
    # A = 5 - 1 = 4; D = 4 - 2 + 1 - 1 = 2: Twice
    assert r.extras["_compare"]["attack"] == 4 and r.extras["_compare"]["defense"] == 2
    assert r.table_row == "Twice"
    assert r.expected_damage == pytest.approx(3 * (2 / 6 * 1 + 2 / 6 * 2))
