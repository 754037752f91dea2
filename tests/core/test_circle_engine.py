"""Circle of Realms through the rules interface: target check, report JSON, rolls, inspect."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, RulesError, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Battlefield, Fighter, Obstacle, Weapon
from tests.core.test_circle_resolution import AXE, BOW, SWORD, fighter
from tests.core.test_circle_zones import scenario

RULES = registry.get("circle-of-realms")


def report(*fighters: Fighter, obstacles: tuple[Obstacle, ...] = (),
           options: dict[str, Any] | None = None, dice: list[int] | None = None,
           weapon: str | None = None, **sit: Any) -> dict[str, Any]:
    sc = scenario(*fighters, options=options)
    if obstacles:
        sc = replace(sc, obstacles=obstacles)
    battle = battle_of(sc)
    request = AttackRequest("a", "d", weapon, None, sit)
    rep = RULES.attack(battle, request)
    roll = RULES.resolve(battle, request, GivenDice(dice)) if dice is not None else None
    out = rep.to_json(roll)
    assert rep.distribution.total == pytest.approx(1.0, abs=1e-9)
    assert rep.expected_damage == pytest.approx(
        sum(v * p for v, p in rep.distribution.items()))
    return out


def attacker(**kw: Any) -> Fighter:
    return fighter("a", x=4.5, y=4.5, base_attack=6, precision=3, weapons=(SWORD,), **kw)


def defender(x: float = 5.5, y: float = 4.5, **kw: Any) -> Fighter:
    kw.setdefault("armour", 1)
    kw.setdefault("defense", 6)
    return fighter("d", "blue", x, y, **kw)


# -- worked examples through the interface ----------------------------------------------


def test_example_1_report() -> None:
    out = report(attacker(), defender(), dice=[6, 6, 4])
    assert out["attack_type"] == "melee" and out["valid"] and out["weapon"] == "Sword"
    assert out["geometry"]["spaces"] == 1 and out["geometry"]["engaged"]
    roll = out["roll"]
    assert roll["dice"] == [6, 6, 4] and roll["damage"] == 9 and roll["critical"] is True
    assert roll["attacker_damage"] == 0
    assert roll["dismemberment"] == {"attacker": [], "defender": []}
    assert 0 < out["critical_probability"] < 1


def test_example_2_report_by_night() -> None:
    out = report(attacker(), defender(), dice=[6, 6, 4], night=True)
    assert out["roll"]["damage"] == 6 and out["roll"]["critical"] is True
    assert any(m["name"] == "night" and m["effect"] == "-3 attack" for m in out["modifiers"])


def test_example_3_report_and_state_changes() -> None:
    sc = scenario(attacker(), defender(armour=0, weapons=(AXE,)))
    battle = battle_of(sc)
    request = AttackRequest("a", "d")
    res = RULES.resolve(battle, request, GivenDice([1, 1, 5, 2]))
    assert res.damage == 0 and res.extras["attacker_damage"] == 3
    assert res.extras["dismemberment"] == {"attacker": ["LH"], "defender": []}
    changes = {c.combatant: dict(c.state) for c in res.changes}
    assert changes == {"d": {"damage": 0, "taken_down": False, "limbs_lost": []},
                       "a": {"damage": 3, "taken_down": False, "limbs_lost": ["LH"]}}
    out = RULES.attack(battle, request).to_json()
    # all 1s, then a defense of 3 to 6
    assert out["dismemberment_probability"]["attacker"] == pytest.approx(1 / 48 * 4 / 6)
    assert [v for v, _ in out["attacker_distribution"]][0] == 0


# -- target check ------------------------------------------------------------------------


def test_range_in_spaces_and_ranged_type() -> None:
    archer = fighter("a", x=1.5, y=1.5, weapons=(BOW,))
    out = report(archer, defender(5.5, 3.5))
    assert out["attack_type"] == "ranged" and out["geometry"]["spaces"] == 4 and out["valid"]
    far = report(archer, defender(6.5, 3.5))
    assert not far["valid"] and far["reasons"] == ["out of range: 5 spaces > range 4"]
    # no damage back at range by default; always under counter_damage=always
    assert far["attacker_distribution"] == [[0, 1.0]]
    always = report(archer, defender(6.5, 3.5, defense=12), options={"counter_damage": "always"})
    assert always["attacker_expected_damage"] > 0


def test_friend_and_taken_down_targets_are_invalid() -> None:
    friend = fighter("d", "red", 5.5, 4.5)
    assert "is on the attacker's side" in report(attacker(), friend)["reasons"][0]
    down = report(attacker(), defender(state={"taken_down": True}))
    assert down["reasons"] == ["d is taken down"]


def test_sight_blocked_by_terrain() -> None:
    wall = Obstacle("w1", ((3.0, 2.8), (3.2, 2.8), (3.2, 6.2), (3.0, 6.2)), 3.0, "Wall")
    out = report(fighter("a", x=1.5, y=4.5, weapons=(BOW,)), defender(4.5, 4.5),
                 obstacles=(wall,))
    assert not out["geometry"]["visible"] and "target is not visible" in out["reasons"]


def test_default_weapon_and_dropped_weapon() -> None:
    fists_and_bow = fighter("a", x=4.5, y=4.5, weapons=(BOW, SWORD))
    assert report(fists_and_bow, defender())["weapon"] == "Bow"  # first one in range
    one_hand = attacker(state={"limbs_lost": ["RH"]})
    out = report(one_hand, defender(), dice=[6, 1])
    assert out["weapon"] == "Sword" and out["damage_type"] == "blunt"
    assert any(m["name"] == "weapon dropped" for m in out["modifiers"])
    assert out["roll"]["dice"] == [6, 1] and out["roll"]["dismemberment"]["defender"] == []
    dagger = Weapon("Dagger", {"attack": 4, "attack_type": "shredding", "hand": "off"})
    spare = fighter("a", x=4.5, y=4.5, weapons=(SWORD, dagger), state={"limbs_lost": ["RH"]})
    refused = report(spare, defender(), weapon="Sword")
    assert refused["reasons"] == ["Sword is held in a lost hand: attack with Dagger instead"]
    assert report(spare, defender())["weapon"] == "Dagger"
    unarmed = report(fighter("a", x=4.5, y=4.5), defender())
    assert unarmed["weapon"] is None and unarmed["valid"]


def test_taken_down_probability_and_extras() -> None:
    out = report(attacker(), defender(wounds=3, armour=0))
    p3 = dict((int(v), p) for v, p in out["distribution"])[3]  # no leg lost yet: wounds only
    assert out["take_down_probability"] == pytest.approx(p3, abs=1e-6)
    for key in ("attacker_distribution", "critical_probability", "dismemberment_probability",
                "limb_loss_probability", "attacker_take_down_probability"):
        assert key in out
    assert "_take_down_probability" not in out


def test_options_are_checked() -> None:
    with pytest.raises(RulesError, match="dismemberment_faces"):
        report(attacker(), defender(), options={"dismemberment_faces": "RH,XX"})
    with pytest.raises(RulesError, match="counter_damage"):
        report(attacker(), defender(), options={"counter_damage": "sometimes"})
    with pytest.raises(RulesError, match="no weapon"):
        report(attacker(), defender(), weapon="Halberd")
    with pytest.raises(RulesError):
        RULES.parse_set(["limb_choice=XX"])
    assert RULES.parse_set(["limb_choice=RL", "night=true"]) == {"limb_choice": "RL",
                                                                "night": True}


def test_defender_weapon_option_decides_the_attackers_risk() -> None:
    mace = fighter("d", "blue", 5.5, 4.5, weapons=(
        Weapon("Mace", {"attack": 6, "attack_type": "blunt"}), AXE))
    default = report(attacker(), mace)
    assert default["dismemberment_probability"]["attacker"] == pytest.approx(0.0, abs=1e-9)
    axe = report(attacker(), mace, defender_weapon="Axe")
    assert axe["dismemberment_probability"]["attacker"] > 0


# -- rolls and conditioning --------------------------------------------------------------


def test_seeded_roll_is_deterministic_and_dice_counts_are_checked() -> None:
    sc = scenario(attacker(), defender())
    battle = battle_of(sc)
    request = AttackRequest("a", "d")
    first = RULES.resolve(battle, request, SeededDice(7)).to_json()
    assert RULES.resolve(battle, request, SeededDice(7)).to_json() == first
    with pytest.raises(RulesError, match="too few"):
        RULES.resolve(battle, request, GivenDice([6, 6]))
    with pytest.raises(RulesError, match="too many"):
        RULES.resolve(battle, request, GivenDice([6, 6, 4, 1]))


def test_odds_given_known_dice() -> None:
    battle = battle_of(scenario(attacker(), defender(armour=0, weapons=(AXE,))))
    request = AttackRequest("a", "d")
    assert RULES.odds_given(battle, request, [6, 6, 4]).items() == (
        [(10, pytest.approx(1.0, abs=1e-12))])
    assert RULES.odds_given(battle, request, []).mean == pytest.approx(
        RULES.attack(battle, request).expected_damage)
    assert RULES.odds_given(battle, request, [1, 1, 5, 3]).items() == (
        [(0, pytest.approx(1.0, abs=1e-12))])
    with pytest.raises(RulesError):
        RULES.odds_given(battle, request, [1, 1, 5, 3, 2])
    with pytest.raises(RulesError):
        RULES.odds_given(battle, request, [7])


# -- inspect ---------------------------------------------------------------------------------


def test_pair_facts() -> None:
    sc = scenario(attacker(), defender(7.5, 6.5))
    facts = RULES.pair_facts(battle_of(sc), "a", "d").to_json()
    assert facts["spaces"] == 3 and not facts["engaged"] and facts["visible"]
    assert facts["cover"] == "none" and facts["arc"] is None and facts["flanked"] is False
    assert facts["vertical_distance"] == 0
    # closest points of two 25 mm bases, centres sqrt(3^2 + 2^2) apart
    assert facts["distance"] == pytest.approx(13 ** 0.5 - 25 / 25.4, abs=1e-3)
    assert facts["horizontal_distance"] == facts["distance"]


def test_needs_a_grid() -> None:
    sc = replace(scenario(attacker(), defender()), battlefield=Battlefield(12.0, 12.0))
    with pytest.raises(RulesError, match="grid"):
        RULES.attack(battle_of(sc), AttackRequest("a", "d"))


def test_hex_range_and_melee_split() -> None:
    from tabletop_gui.geometry.grid import GridGeometry

    grid = GridGeometry("hex", 1.0)
    ax, ay = grid.centre((4, 4))
    near = grid.neighbours((4, 4))[0]
    far = (7, 4)  # three spaces along the row
    assert grid.distance((4, 4), far) == 3
    bow = fighter("a", x=ax, y=ay, weapons=(BOW,))
    for space, kind, spaces in ((near, "melee", 1), (far, "ranged", 3)):
        x, y = grid.centre(space)
        sc = scenario(bow, defender(x, y), kind="hex")
        out = RULES.attack(battle_of(sc), AttackRequest("a", "d")).to_json()
        assert (out["attack_type"], out["geometry"]["spaces"]) == (kind, spaces)
        assert out["geometry"]["engaged"] == (kind == "melee") and out["valid"]
