"""Every attack attribute of the excerpt changes the result (each test fails without it)."""

from __future__ import annotations

import re

import pytest

from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.ninth_age.attributes import AttributeParseError, parse_attributes
from tabletop_gui.rules.ninth_age.build import build_plan
from tabletop_gui.rules.ninth_age.engine import plan_distribution
from tabletop_gui.rules.ninth_age.profile import CANNOT_HIT, HOPELESS
from tabletop_gui.rules.ninth_age.units import Situation
from tests.core.test_ninth_age_support import bow, cc, melee, mods, reasons, shoot, unit

FOE = unit("t", "blue", models=20, files=5)


def test_parse_parameters() -> None:
    a = parse_attributes(["Area Attack (1x3) [Strength 7, AP 4, Multiple Wounds (D3)]",
                          "Multiple Wounds (2, Clipped Wings)", "Extra Support (2)",
                          "Devastating Charge (+1 Strength, Poison Attacks)",
                          "Fight in Extra Rank", "Fight in Extra Rank", "Reload!", "Bogus"])
    assert a.area_attack is not None and a.area_attack.per_rank == 1
    assert a.area_attack.bracketed is not None
    assert a.area_attack.bracketed.strength == 7 and a.area_attack.bracketed.ap == 4
    assert a.multiple_wounds is not None and a.multiple_wounds.clipped_wings
    assert a.extra_support == 2 and a.fight_in_extra_rank == 2 and a.reload
    assert a.devastating_charge[0].changes == (("str", 1),)
    assert a.unknown == ("Bogus",)
    with pytest.raises(ValueError):
        parse_attributes(["Area Attack (big)"])


def test_accurate() -> None:
    for attrs, needed in (((), 5), (("Accurate",), 4)):
        a = unit("a", weapons=(bow("Bow", *attrs, range=24, aim=4),))
        assert shoot(a, FOE, distance=13).profile.hit_needed == needed


def test_battle_focus_adds_a_hit_on_a_six() -> None:
    plain = unit("a", off=3, weapons=(cc("Sword"),))
    focus = unit("a", off=3, weapons=(cc("Sword", "Battle Focus"),))
    h0 = plan_distribution(melee(plain, FOE, contact=1, supporting_models=0), "hits").mean
    h1 = plan_distribution(melee(focus, FOE, contact=1, supporting_models=0), "hits").mean
    assert h1 - h0 == pytest.approx(1 / 6)


def test_crush_attack() -> None:
    giant = unit("a", models=1, files=1, att=5, str=6, weapons=(cc("Club", "Crush Attack"),))
    plan = melee(giant, FOE, contact=1, crush_attack=True)
    assert plan.attacks == 1 and plan.weapon == "Crush Attack"
    assert plan.profile.normal.wound_needed == 2 and plan.profile.normal.wounds.bonus == 1
    assert not reasons(plan)
    plain = unit("a", models=1, files=1, att=5, weapons=(cc("Club"),))
    assert reasons(melee(plain, FOE, contact=1, crush_attack=True))


def test_devastating_charge_only_when_charging() -> None:
    a = unit("a", str=3, weapons=(cc("Lance", "Devastating Charge (+2 Strength, "
                                           "Poison Attacks)"),))
    calm = melee(a, FOE)
    charge = melee(a, FOE, charging=True)
    assert calm.profile.normal.wound_needed == 4 and not calm.profile.poison
    assert charge.profile.normal.wound_needed == 2 and charge.profile.poison
    assert "devastating charge" in mods(charge)


def test_extra_support() -> None:
    base = unit("a", models=10, files=5, att=3, weapons=(cc("Spear"),))
    extra = unit("a", models=10, files=5, att=3, weapons=(cc("Spear", "Extra Support (2)"),))
    assert melee(base, FOE, contact=5).attacks == 15 + 5
    assert melee(extra, FOE, contact=5).attacks == 15 + 10


def test_divine_attacks_reroll_successful_aegis() -> None:
    t = unit("t", "blue", models=20, aegis=4)
    plain = unit("a", str=5, weapons=(cc("Sword"),))
    divine = unit("a", str=5, weapons=(cc("Sword", "Divine Attacks"),))
    p0 = plan_distribution(melee(plain, t, contact=1, supporting_models=0)).mean
    p1 = plan_distribution(melee(divine, t, contact=1, supporting_models=0)).mean
    hit_wound = 3 / 6 * 5 / 6
    assert p0 == pytest.approx(hit_wound * 0.5)
    assert p1 == pytest.approx(hit_wound * 0.75)


def test_fight_in_extra_rank() -> None:
    a = unit("a", models=15, files=5, weapons=(cc("Spear", "Fight in Extra Rank"),))
    b = unit("a", models=15, files=5, weapons=(cc("Sword"),))
    assert melee(a, FOE, contact=5).attacks == 15
    assert melee(b, FOE, contact=5).attacks == 10


def test_flaming_attacks() -> None:
    t = unit("t", "blue", models=20, fortitude=5, traits=("flammable",))
    fire = unit("a", weapons=(cc("Torch", "Flaming Attacks"),))
    plain = unit("a", weapons=(cc("Torch"),))
    f = melee(fire, t).profile.normal
    p = melee(plain, t).profile.normal
    assert f.fortitude_needed == 7 and p.fortitude_needed == 5
    assert f.reroll_failed_wounds and not p.reroll_failed_wounds
    not_flammable = unit("t", "blue", models=20)
    assert not melee(fire, not_flammable).profile.normal.reroll_failed_wounds


@pytest.mark.parametrize("name", ["Harnessed", "Inanimate"])
def test_harnessed_and_inanimate_make_no_attacks(name: str) -> None:
    a = unit("a", weapons=(cc("Hooves", name),))
    plan = melee(a, FOE)
    assert plan.attacks == 0 and reasons(plan)
    s = unit("a", weapons=(bow("Bolt", name),))
    assert shoot(s, FOE).attacks == 0
    trait = unit("a", traits=(name.lower(),), weapons=(cc("Sword"),))
    assert melee(trait, FOE).attacks == 0
    assert melee(unit("a", weapons=(cc("Sword"),)), FOE).attacks > 0


def test_hatred_first_round_only() -> None:
    a = unit("a", weapons=(cc("Axe", "Hatred"),))
    assert melee(a, FOE, first_round=True).profile.reroll_failed_hits
    assert not melee(a, FOE).profile.reroll_failed_hits
    p = plan_distribution(melee(a, FOE, contact=1, supporting_models=0, first_round=True),
                          "hits").mean
    assert p == pytest.approx(1 - 0.5 * 0.5)


def test_lethal_strike() -> None:
    t = unit("t", "blue", models=20, arm=5, fortitude=4)
    a = unit("a", weapons=(cc("Blade", "Lethal Strike"),))
    h = melee(a, t).profile.normal
    assert h.lethal_strike and h.armour_needed_lethal == 7
    assert h.special_save(True) == ("none", 7) and h.special_save(False) == ("fortitude", 4)
    plain = unit("a", weapons=(cc("Blade"),))
    d1 = plan_distribution(melee(a, t, contact=1, supporting_models=0)).mean
    d0 = plan_distribution(melee(plain, t, contact=1, supporting_models=0)).mean
    assert d1 > d0


def test_lightning_reflexes_not_with_great_weapon() -> None:
    a = unit("a", off=3, weapons=(cc("Sword", "Lightning Reflexes"),))
    g = unit("a", off=3, weapons=(cc("Great Weapon", "Lightning Reflexes", "Great Weapon"),))
    assert melee(a, FOE).profile.hit_needed == 3
    assert melee(g, FOE).profile.hit_needed == 4


def test_magical_attacks_enable_conditional_aegis() -> None:
    t = unit("t", "blue", models=20, traits=({"aegis_vs_magical": 5},))
    magic = unit("a", weapons=(cc("Rune", "Magical Attacks"),))
    plain = unit("a", weapons=(cc("Rune"),))
    assert melee(magic, t).profile.normal.aegis_needed == 5
    assert melee(plain, t).profile.normal.aegis_needed == 7


def test_march_and_shoot() -> None:
    a = unit("a", weapons=(bow("Bow"),))
    b = unit("a", weapons=(bow("Bow", "March and Shoot"),))
    assert reasons(shoot(a, FOE, marched=True))
    plan = shoot(b, FOE, marched=True)
    assert not reasons(plan) and "moved" in mods(plan)


def test_move_or_fire() -> None:
    a = unit("a", weapons=(bow("Cannon", "Move or Fire"),))
    assert any("Move or Fire" in r for r in reasons(shoot(a, FOE, moved=True)))
    assert not reasons(shoot(a, FOE))
    moved = unit("a", weapons=(bow("Cannon", "Move or Fire"),), state={"moved": True})
    assert reasons(shoot(moved, FOE))


def test_multiple_wounds_dice_cap_and_clipped_wings() -> None:
    t = unit("t", "blue", models=3, files=3, hp=2)
    a = unit("a", str=10, weapons=(cc("Maul", "Multiple Wounds (D6)"),))
    h = melee(a, t).profile.normal
    assert h.wounds.sides == 6 and h.hp_cap == 2
    d = plan_distribution(melee(a, t, contact=1, supporting_models=0))
    assert d.max_value == 2
    assert d.prob(1) == pytest.approx(3 / 6 * 5 / 6 * 1 / 6)
    assert d.prob(2) == pytest.approx(3 / 6 * 5 / 6 * 5 / 6)
    flyer = unit("t", "blue", models=3, files=3, hp=4, traits=("fly",))
    c = unit("a", str=10, weapons=(cc("Net", "Multiple Wounds (2, Clipped Wings)"),))
    assert melee(c, flyer).profile.normal.wounds.count + melee(
        c, flyer).profile.normal.wounds.bonus == 3
    assert melee(c, t).profile.normal.wounds.count == 2


def test_poison_attacks() -> None:
    t = unit("t", "blue", models=20, res=6)
    p = unit("a", str=3, weapons=(cc("Dagger", "Poison Attacks"),))
    plain = unit("a", str=3, weapons=(cc("Dagger"),))
    w1 = plan_distribution(melee(p, t, contact=1, supporting_models=0), "wounds").mean
    w0 = plan_distribution(melee(plain, t, contact=1, supporting_models=0), "wounds").mean
    assert w0 == pytest.approx(3 / 6 * 1 / 6)
    assert w1 == pytest.approx(1 / 6 + 2 / 6 * 1 / 6)


def test_poison_with_battle_focus_one_automatic_wound() -> None:
    t = unit("t", "blue", models=20, res=6)
    a = unit("a", off=3, str=3, weapons=(cc("Dagger", "Poison Attacks", "Battle Focus"),))
    w = plan_distribution(melee(a, t, contact=1, supporting_models=0), "wounds").mean
    assert w == pytest.approx(1 / 6 * (1 + 1 / 6) + 2 / 6 * 1 / 6)


def test_quick_to_fire_and_unwieldy() -> None:
    def needed(*attrs: str) -> int:
        return shoot(unit("a", weapons=(bow("Gun", *attrs, aim=3),)), FOE,
                     moved=True).profile.hit_needed
    assert needed() == 4
    assert needed("Quick to Fire") == 3
    assert needed("Unwieldy") == 5
    assert needed("Unwieldy", "Quick to Fire") == 4


def test_reload_refused_with_stand_and_shoot() -> None:
    a = unit("a", weapons=(bow("Crossbow", "Reload!"),))
    assert any("Reload" in r for r in reasons(shoot(a, FOE, stand_and_shoot=True)))
    assert not reasons(shoot(a, FOE))
    assert not reasons(shoot(unit("a", weapons=(bow("Bow"),)), FOE, stand_and_shoot=True))


def test_the_first_and_second_ranks_shoot() -> None:
    # the page's example: a unit of 10 in two ranks of 5 shoots 10 times
    two_ranks = shoot(unit("a", models=10, files=5, weapons=(bow("Bow"),)), FOE)
    assert two_ranks.attacks == 10
    assert two_ranks.shooting_models == 10
    shots = next(m for m in two_ranks.modifiers if m.name == "shots")
    assert shots.why == "the first and second ranks shoot"
    # a third rank does not shoot; an incomplete second rank shoots what it has
    assert shoot(unit("a", models=15, files=5, weapons=(bow("Bow"),)), FOE).attacks == 10
    assert shoot(unit("a", models=7, files=5, weapons=(bow("Bow"),)), FOE).attacks == 7
    assert shoot(unit("a", models=1, files=1, weapons=(bow("Bow"),)), FOE).attacks == 1


def test_shoot_in_extra_rank() -> None:
    a = unit("a", models=20, files=5, weapons=(bow("Bow", "Shoot in Extra Rank"),))
    b = unit("a", models=20, files=5, weapons=(bow("Bow"),))
    assert shoot(a, FOE).attacks == 15  # first, second and third ranks
    assert shoot(b, FOE).attacks == 10
    shots = next(m for m in shoot(a, FOE).modifiers if m.name == "shots")
    assert shots.why.startswith("the first 3 ranks shoot")


def test_steady_aim() -> None:
    a = unit("a", weapons=(bow("Bow", "Steady Aim", aim=3),))
    b = unit("a", weapons=(bow("Bow", aim=3),))
    assert shoot(a, FOE, stand_and_shoot=True).profile.hit_needed == 3
    assert shoot(b, FOE, stand_and_shoot=True).profile.hit_needed == 4


def test_toxic_attacks() -> None:
    t = unit("t", "blue", models=20, res=5, arm=6)
    a = unit("a", str=8, weapons=(cc("Spit", "Toxic Attacks"),))
    h = melee(a, t).profile.normal
    assert h.wound_needed == 6 and h.armour_needed == 7
    assert melee(unit("a", str=8, weapons=(cc("Spit"),)), t).profile.normal.wound_needed == 2


def test_two_handed_takes_the_shield_in_close_combat_only() -> None:
    sh = unit("t", "blue", models=20, arm=2, traits=("shield",), weapons=(cc("Spear"),))
    th = unit("t", "blue", models=20, arm=2, traits=("shield",),
              weapons=(cc("Halberd", "Two-Handed"),))
    a = unit("a", weapons=(cc("Sword"), bow("Bow")))
    assert melee(a, sh, "Sword").profile.normal.armour_needed == 4
    assert melee(a, th, "Sword").profile.normal.armour_needed == 5
    assert shoot(a, th, "Bow").profile.normal.armour_needed == 4


def test_volley_fire() -> None:
    line = unit("a", models=10, files=10, weapons=(bow("Bow", "Volley Fire"),))
    plain = unit("a", models=10, files=10, weapons=(bow("Bow"),))
    deep = unit("a", models=15, files=5, weapons=(bow("Bow", "Volley Fire"),))
    line2 = unit("a", models=20, files=10, weapons=(bow("Bow", "Volley Fire"),))
    assert shoot(line2, FOE).attacks == 20
    assert shoot(line2, FOE, moved=True).attacks == 20  # two ranks shoot anyway
    # the page's example: 30 archers three deep (line formation), not moved: all 30
    line3 = unit("a", models=30, files=10, weapons=(bow("Bow", "Volley Fire"),))
    assert shoot(line3, FOE).attacks == 30
    assert shoot(line3, FOE, moved=True).attacks == 20
    assert shoot(deep, FOE).attacks == 10  # 3 ranks of 5: not a line, the first two shoot
    assert shoot(line, FOE, cover="soft", low_units=True).profile.hit_needed == 4
    assert shoot(plain, FOE, cover="soft", low_units=True).profile.hit_needed == 5
    assert shoot(line, FOE, cover="soft").profile.hit_needed == 5


def test_weapon_master_may_choose_the_hand_weapon() -> None:
    wm = unit("a", str=3, weapons=(cc("Halberd", "Weapon Master", strength="+1"),))
    plain = unit("a", str=3, weapons=(cc("Halberd", strength="+1"),))
    assert not reasons(melee(wm, FOE, "Hand Weapon"))
    assert melee(wm, FOE, "Hand Weapon").profile.normal.wound_needed == 4
    assert melee(wm, FOE).profile.normal.wound_needed == 3
    assert any("Weapon Master" in r for r in reasons(melee(plain, FOE, "Hand Weapon")))
    with pytest.raises(RulesError):
        melee(plain, FOE, "Trident")


def test_two_handed_and_magical_are_recognised() -> None:
    a = parse_attributes(["Two-Handed", "Magical Attacks", "Great Weapon", "Parry"])
    assert a.two_handed and a.magical and a.great_weapon and a.parry and not a.unknown


def test_hopeless_shots_and_cannot_hit() -> None:
    a = unit("a", models=1, files=1, weapons=(bow("Bow", aim=4),))
    t = unit("t", "blue", models=20, traits=("hard_target",))
    plan = shoot(a, t, distance=20, moved=True)  # 4 + long + moved + hard target = 7
    assert plan.profile.hit_needed == HOPELESS
    assert plan_distribution(plan, "hits").mean == pytest.approx(1 / 12)
    worse = shoot(a, t, distance=20, moved=True, cover="soft")
    assert worse.profile.hit_needed == CANNOT_HIT and reasons(worse)
    assert plan_distribution(worse).mean == pytest.approx(0.0, abs=1e-9)


def test_hopeless_shots_with_poison_and_battle_focus() -> None:
    a = unit("a", models=1, files=1, weapons=(bow("Bow", "Poison Attacks", "Battle Focus",
                                                  aim=7),))
    t = unit("t", "blue", models=20, res=10)
    plan = shoot(a, t)
    assert plan_distribution(plan, "hits").items() == [(0, pytest.approx(11 / 12)),
                                                       (2, pytest.approx(1 / 12))]
    w = plan_distribution(plan, "wounds").mean
    assert w == pytest.approx(1 / 12 * (1 + 1 / 6))


def test_shooting_refusals_range_and_sight() -> None:
    a = unit("a", weapons=(bow("Bow", range=10),))
    assert any("out of range" in r for r in reasons(shoot(a, FOE, distance=10.5)))
    assert any("line of sight" in r for r in reasons(shoot(a, FOE, visible=False)))
    assert not reasons(shoot(a, FOE, distance=10))
    engaged = build_plan(a, FOE, None, Situation(distance=0, engaged=True), {})
    assert any("base contact" in r for r in reasons(engaged))


def test_close_combat_to_hit_modifiers() -> None:
    a = unit("a", off=3, weapons=(cc("Sword"),))
    distracting = unit("t", "blue", models=20, traits=("distracting",))
    assert melee(a, FOE).profile.hit_needed == 4
    assert melee(a, distracting).profile.hit_needed == 5
    parry = unit("t", "blue", models=20, weapons=(cc("Sword", "Parry"),), **{"def": 3})
    strong = unit("a", off=7, weapons=(cc("Sword"),))
    assert melee(strong, parry, facing="front").table_row == "OS 7 vs DS 7: 4+"
    assert melee(a, parry, facing="front").table_row == "OS 3 vs DS 4: 4+"
    assert melee(strong, parry, facing="left_flank").table_row == "OS 7 vs DS 3: 2+"
    shield = unit("t", "blue", models=20, traits=("shield",), **{"def": 3})
    assert melee(strong, shield, facing="front").table_row == "OS 7 vs DS 7: 4+"


def test_cover_and_stand_and_shoot_penalties() -> None:
    a = unit("a", weapons=(bow("Bow", aim=3),))
    assert shoot(a, FOE, cover="soft").profile.hit_needed == 4
    assert shoot(a, FOE, cover="hard").profile.hit_needed == 5
    assert shoot(a, FOE, stand_and_shoot=True).profile.hit_needed == 4


@pytest.mark.parametrize(("attribute", "fragment"), [
    ("Extra Support (\u0663)", "Extra Support takes a whole number from 1 to 100"),
    ("Extra Support (0)", "Extra Support takes a whole number from 1 to 100"),
    ("Area Attack (101x1)", "an Area Attack size takes a whole number from 1 to 100"),
    ("Area Attack (1x3) [AP \u00b2]", "a bracketed Armour Penetration takes a whole number"),
    ("Multiple Wounds (20D6)", "Multiple Wounds of at most 100, not up to 120"),
    ("Devastating Charge (+101 Strength)", "a Devastating Charge change takes a whole number"),
    ("Devastating Charge (+2 Luck)", "'+2 Luck' is not a change such as +1 Strength"),
    ("Devastating Charge (Area Attack (1x1) [Multiple Wounds (D0)])", "out of bounds"),
    ("Multiple Wounds (D3" + " " * 300 + ")", "longer than 200 characters"),
    ("Devastating Charge (" * 6 + "Poison Attacks" + ")" * 6, "nested more than 4 deep"),
])
def test_parameters_are_checked_strictly_also_inside_brackets(
        attribute: str, fragment: str) -> None:
    """What the loader accepts the engine reads: numbers in ASCII digits within their
    bounds, and the attributes inside brackets parsed at once (the engine merges them in
    later, when charging or for the bracketed hit)."""
    with pytest.raises(AttributeParseError, match=re.escape(fragment)):
        parse_attributes([attribute])


def test_what_a_charge_gains_parses_again_when_the_engine_merges_it() -> None:
    names = ("Devastating Charge (+1 Strength, Multiple Wounds (D3))",
             "Area Attack (1x3) [Strength 7, Multiple Wounds (2)]")
    attrs = parse_attributes(names)
    gained = attrs.devastating_charge[0].attributes
    assert parse_attributes((*names, *gained)).multiple_wounds is not None
    assert attrs.area_attack is not None and attrs.area_attack.bracketed is not None
    assert parse_attributes((*names, *attrs.area_attack.bracketed.attributes)).names[-1] == (
        "Multiple Wounds (2)")
