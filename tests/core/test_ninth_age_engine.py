"""The `ninth-age` engine on real geometry: pair facts, attack reports, rolls, JSON."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, RulesError, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import (
    MM_PER_INCH,
    Battlefield,
    Obstacle,
    Scenario,
    Side,
    Unit,
    Weapon,
)

CHARS = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 0, "att": 1,
         "off": 4, "str": 4, "ap": 0, "agi": 3}
D = 20 / MM_PER_INCH  # one 20 mm base, inches


def _unit(uid: str, side: str, x: float, y: float, facing: float, models: int = 10,
          files: int = 5, weapons: tuple[Weapon, ...] = (), **chars: int) -> Unit:
    return Unit(uid, uid, side, x, y, models, files, (20.0, 20.0), facing=facing,
                characteristics={**CHARS, **chars}, weapons=weapons)


SWORDS = _unit("swords", "red", 0.0, 0.0, 90.0, models=15)  # 3 ranks: depth 3D
# the enemy's front touches the swordsmen's front (y = 1.5 D), facing them
SPEARS = _unit("spears", "blue", 0.0, 1.5 * D + D, 270.0, models=10)
ARCHERS = _unit("archers", "blue", 0.0, 20.0, 270.0, models=10,
                weapons=(Weapon("Longbow", {"kind": "shooting", "range": 30, "aim": 4,
                                            "shots": 1, "attributes": []}),))


def scenario(*units: Unit, obstacles: tuple[Obstacle, ...] = ()) -> Scenario:
    return Scenario("ninth-age", Battlefield(72, 48), (Side("red"), Side("blue")),
                    units=units, obstacles=obstacles)


RULES = registry.get("ninth-age")


def test_registry_and_description() -> None:
    assert RULES.id == "ninth-age"
    assert RULES.describe()["attack_types"] == ["close_combat", "shooting"]


def test_pair_facts_in_contact_and_at_range() -> None:
    battle = battle_of(scenario(SWORDS, SPEARS, ARCHERS))
    f = RULES.pair_facts(battle, "swords", "spears")
    assert f.engaged and f.distance == pytest.approx(0, abs=0.01)
    assert f.arc == "front" and f.vertical_distance == 0 and not f.flanked and f.spaces is None
    g = RULES.pair_facts(battle, "archers", "swords")
    assert not g.engaged and g.arc == "front" and g.visible
    assert g.cover == "soft" and g.cover_by == ("spears",)  # the spearmen stand in between
    assert g.distance == pytest.approx(20 - 1.0 * D - 1.5 * D, abs=1e-6)
    assert set(g.to_json()) >= {"distance", "arc", "cover", "engaged", "visible"}


def test_close_combat_from_geometry() -> None:
    battle = battle_of(scenario(SWORDS, SPEARS))
    report = RULES.attack(battle, AttackRequest("swords", "spears"))
    assert report.valid and report.attack_type == "close_combat"
    assert report.weapon == "Hand Weapon"
    # 5 front-rank models in contact, 5 supporting from the second rank; 4+ vs DS 3 -> 3+
    assert report.table_row == "OS 4 vs DS 3: 3+"
    assert report.expected_damage == pytest.approx(10 * 4 / 6 * 4 / 6)
    out = report.to_json()
    assert out["expected_casualties"] == pytest.approx(round(10 * 16 / 36, 3))
    assert out["hits"]["expected"] == pytest.approx(round(10 * 4 / 6, 3))
    assert abs(sum(p for _, p in out["hits"]["distribution"]) - 1) < 1e-9
    assert out["wounds"]["expected"] == pytest.approx(round(10 * 16 / 36, 3))
    assert out["attack_type"] == "close_combat" and out["roll"] is None
    json.dumps(out)


def test_overrides_of_attacking_and_supporting_models() -> None:
    battle = battle_of(scenario(SWORDS, SPEARS))
    req = AttackRequest("swords", "spears", situational={"attacking_models": 2,
                                                           "supporting_models": 0})
    assert RULES.attack(battle, req).expected_damage == pytest.approx(2 * 16 / 36)
    with pytest.raises(RulesError):
        RULES.attack(battle, AttackRequest("swords", "spears", situational={"nope": 1}))


def test_not_in_contact_is_refused_but_has_odds() -> None:
    battle = battle_of(scenario(SWORDS, ARCHERS))
    report = RULES.attack(battle, AttackRequest("swords", "archers"))
    assert not report.valid and any("base contact" in r for r in report.reasons)
    assert report.expected_damage > 0


def test_shooting_from_geometry_and_long_range() -> None:
    battle = battle_of(scenario(SWORDS, ARCHERS))
    report = RULES.attack(battle, AttackRequest("archers", "swords"))
    assert report.valid and report.attack_type == "shooting"
    assert report.table_row == "Aim 4+, worsened by 1: 5+"
    assert "long range" in {m.name for m in report.modifiers}
    # 10 archers in two ranks of 5: both ranks shoot, 10 shots at 5+ to hit, 3+ to wound
    assert report.expected_damage == pytest.approx(10 * 2 / 6 * 4 / 6)
    far = battle_of(scenario(SWORDS, replace(ARCHERS, y=40.0)))
    assert any("out of range" in r for r in RULES.attack(
        far, AttackRequest("archers", "swords")).reasons)


def test_shooting_into_the_flank_and_rear_arcs() -> None:
    left = battle_of(scenario(SWORDS, replace(ARCHERS, x=-15.0, y=0.0, facing=0.0)))
    assert RULES.pair_facts(left, "archers", "swords").arc == "left_flank"
    rear = battle_of(scenario(SWORDS, replace(ARCHERS, x=0.0, y=-15.0, facing=90.0)))
    assert RULES.pair_facts(rear, "archers", "swords").arc == "rear"


def test_roll_with_given_dice_and_changes() -> None:
    battle = battle_of(scenario(SWORDS, replace(SPEARS, models=3, files=3)))
    req = AttackRequest("swords", "spears", situational={"attacking_models": 2,
                                                           "supporting_models": 0})
    res = RULES.resolve(battle, req, GivenDice([3, 1, 5]))
    assert [d.face for d in res.dice] == [3, 1, 5]
    assert res.damage == 1 and not res.taken_down
    assert res.changes[0].combatant == "spears" and res.changes[0].state == {"hp_lost": 1}
    assert res.steps[0].startswith("hit roll, attack 1: 3")
    killed = RULES.resolve(battle, replace(req, situational={"attacking_models": 3,
                                                              "supporting_models": 0}),
                           GivenDice([6, 6, 6, 6, 6, 6]))
    assert killed.taken_down and killed.changes[0].state == {"hp_lost": 3, "taken_down": True}
    assert killed.extras["casualties"] == 3
    with pytest.raises(RulesError):
        RULES.resolve(battle, req, GivenDice([3, 1, 5, 2]))


def test_seeded_roll_repeats_and_odds_given() -> None:
    battle = battle_of(scenario(SWORDS, SPEARS))
    req = AttackRequest("swords", "spears")
    a = RULES.resolve(battle, req, SeededDice(11))
    b = RULES.resolve(battle, req, SeededDice(11))
    assert a == b
    given = RULES.odds_given(battle, req, [d.face for d in a.dice])
    assert given.items() == [(a.damage, pytest.approx(1.0, abs=1e-12))]
    with pytest.raises(RulesError):
        RULES.odds_given(battle, req, [d.face for d in a.dice] + [1])


def test_destroyed_target_and_friends_are_refused() -> None:
    dead = replace(SPEARS, state={"hp_lost": 10})
    battle = battle_of(scenario(SWORDS, dead))
    report = RULES.attack(battle, AttackRequest("swords", "spears"))
    assert not report.valid and report.take_down_probability == pytest.approx(1.0, abs=1e-9)
    friend = replace(SPEARS, side="red")
    battle = battle_of(scenario(SWORDS, friend))
    assert not RULES.attack(battle, AttackRequest("swords", "spears")).valid


def test_unknown_weapon_is_refused() -> None:
    battle = battle_of(scenario(SWORDS, SPEARS))
    with pytest.raises(RulesError):
        RULES.attack(battle, AttackRequest("swords", "spears", weapon="Lance"))


def test_soft_cover_of_units_and_volley_fire() -> None:
    volley = replace(ARCHERS, weapons=(Weapon("Longbow", {
        "kind": "shooting", "range": 30, "aim": 4, "shots": 1,
        "attributes": ["Volley Fire"]}),))
    battle = battle_of(scenario(SWORDS, SPEARS, ARCHERS))
    plain = RULES.attack(battle, AttackRequest("archers", "swords"))
    assert "soft cover" in {m.name for m in plain.modifiers}
    assert plain.table_row == "Aim 4+, worsened by 2: 6+"
    battle = battle_of(scenario(SWORDS, SPEARS, volley))
    report = RULES.attack(battle, AttackRequest("archers", "swords"))
    assert "soft cover" not in {m.name for m in report.modifiers}
    assert "volley fire" in {m.name for m in report.modifiers}


def test_hard_cover_of_a_wall() -> None:
    wall = Obstacle("w1", ((-4.0, 8.0), (4.0, 8.0), (4.0, 9.0), (-4.0, 9.0)), 2.0, "Wall",
                    cover="hard")
    battle = battle_of(scenario(SWORDS, ARCHERS, obstacles=(wall,)))
    f = RULES.pair_facts(battle, "archers", "swords")
    assert f.cover == "hard" and f.cover_by == ("w1",)
    report = RULES.attack(battle, AttackRequest("archers", "swords"))
    assert "hard cover" in {m.name for m in report.modifiers}


def _observer(x: float, y: float) -> Unit:
    return Unit("obs", "Scout", "red", x, y, 1, 1, (20.0, 20.0), round_base=True,
                characteristics=CHARS)


def test_worked_example_4_arcs_of_a_unit() -> None:
    target = _unit("t", "blue", 0.0, 0.0, 90.0, models=20, files=5)
    w, d = 2.5 * D, 2 * D  # half-width 1.969", half-depth 1.575"
    assert w == pytest.approx(1.969, abs=1e-3) and d == pytest.approx(1.575, abs=1e-3)
    cases = [((0.0, d + 1 + 0.4), "front"), ((w + 1 + 0.4, d), "right_flank"),
             ((w + 1 + 0.4, d + 1 + 0.4), "right_flank"), ((-w - 1.4, 0.0), "left_flank"),
             ((0.0, -d - 1.4), "rear")]
    for (x, y), arc in cases:
        battle = battle_of(scenario(target, _observer(x, y)))
        assert RULES.pair_facts(battle, "obs", "t").arc == arc, (x, y)


@pytest.mark.parametrize(("x", "y", "facing", "hits"), [
    (0.0, 20.0, 270.0, 8), (0.0, -20.0, 90.0, 8), (-20.0, 0.0, 0.0, 8), (20.0, 0.0, 180.0, 8),
])
def test_area_attack_from_each_arc_on_the_table(x: float, y: float, facing: float,
                                                hits: int) -> None:
    target = _unit("t", "blue", 0.0, 0.0, 90.0, models=12, files=5)
    catapult = Unit("cat", "Catapult", "red", x, y, 1, 1, (50.0, 50.0), facing=facing,
                    characteristics=CHARS, weapons=(Weapon("Stone", {
                        "kind": "shooting", "range": 48, "aim": 3, "shots": 1,
                        "attributes": ["Area Attack (3x3)"]}),))
    battle = battle_of(scenario(target, catapult))
    report = RULES.attack(battle, AttackRequest("cat", "t"))
    assert report.to_json()["hits"]["distribution"][-1][0] == hits
    lined = replace(target, models=11)  # ranks 5, 5, 1 / files 3, 2, 2, 2, 2: 7 either way
    battle = battle_of(scenario(lined, catapult))
    assert RULES.attack(battle, AttackRequest("cat", "t")).to_json()["hits"][
        "distribution"][-1][0] == 7


def test_close_combat_in_the_flank_has_no_parry() -> None:
    parry = replace(SPEARS, weapons=(Weapon("Sword", {"kind": "close_combat",
                                                      "attributes": ["Parry"]}),))
    front = battle_of(scenario(SWORDS, parry))
    assert RULES.attack(front, AttackRequest("swords", "spears")).table_row == (
        "OS 4 vs DS 4: 4+")
    # the spearmen stand to the right of the swordsmen, both facing +y: side by side, the
    # swordsmen touch the spearmen's left flank
    side = replace(parry, x=5 * D, y=0.5 * D, facing=90.0)
    flank = battle_of(scenario(SWORDS, side))
    s = RULES.situation(flank, "swords", "spears")  # type: ignore[attr-defined]
    assert s.engaged and s.engaged_facing == "left_flank"
    report = RULES.attack(flank, AttackRequest("swords", "spears"))
    assert report.table_row == "OS 4 vs DS 3: 3+"


def test_shooters_in_contact_fight_with_their_hand_weapon() -> None:
    archers = replace(ARCHERS, y=1.5 * D + D)
    battle = battle_of(scenario(SWORDS, archers))
    report = RULES.attack(battle, AttackRequest("archers", "swords"))
    assert report.weapon == "Hand Weapon" and report.valid
    assert report.attack_type == "close_combat"
    bow = RULES.attack(battle, AttackRequest("archers", "swords", weapon="Longbow"))
    assert not bow.valid and bow.attack_type == "shooting"


def test_a_round_base_target_has_one_front_arc() -> None:
    monster = Unit("m", "Giant", "blue", 0.0, 0.0, 1, 1, (50.0, 50.0), round_base=True,
                   characteristics={**CHARS, "hp": 6})
    for x, y, facing in ((0.0, -20.0, 90.0), (20.0, 0.0, 180.0), (0.0, 20.0, 270.0)):
        archers = replace(ARCHERS, x=x, y=y, facing=facing)
        battle = battle_of(scenario(monster, archers))
        assert RULES.pair_facts(battle, "archers", "m").arc == "front"
    stone = replace(ARCHERS, weapons=(Weapon("Stone", {
        "kind": "shooting", "range": 48, "aim": 3, "shots": 1,
        "attributes": ["Area Attack (3x3)"]}),))
    report = RULES.attack(battle_of(scenario(monster, stone)), AttackRequest("archers", "m"))
    assert report.to_json()["hits"]["distribution"][-1][0] == 10  # 10 shooters, 1 hit each
