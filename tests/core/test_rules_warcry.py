"""The `warcry` engine: worked examples, every table row, every target rule on both sides
of its threshold, cover and its ruleset option, dice, conditioning."""

from __future__ import annotations

import itertools

import pytest

from tabletop_gui.rules.base import DiceShortage, GivenDice, RulesError, SeededDice
from tabletop_gui.rules.warcry.engine import RULESET
from tests.core.warcry_family_scenarios import (
    battle,
    fighter,
    platform,
    req,
    wall,
    warcry_chars,
    wc_weapon,
)


def duel(gap: float = 0.5, toughness: int = 4, wounds: int = 30, weapons=None, damage: int = 0,
         **kw):
    """Attacker a (red) and target t (blue) whose bases are `gap` apart along x."""
    weapons = weapons or [wc_weapon()]
    a = fighter("a", "red", 10, 10, warcry_chars(), weapons)
    t = fighter("t", "blue", 11 + gap, 10, warcry_chars(toughness, wounds),
                [wc_weapon()], state={"damage": damage})
    return battle("warcry", [a, t, *kw.pop("extra", [])], **kw)


def check(report, rule):
    return next(c for c in report.checks if c.rule == rule)


def assert_distribution(report) -> None:
    d = report.distribution
    assert d.total == pytest.approx(1.0, abs=1e-9)
    assert (d.probs >= 0).all()
    assert d.mean == pytest.approx(report.expected_damage)
    pairs = report.to_json()["distribution"]
    assert [p[0] for p in pairs] == sorted(p[0] for p in pairs)
    assert all(p[1] > 0 for p in pairs)


# -- worked examples ---------------------------------------------------------------------
def test_example_1_two_hits_a_critical_and_a_miss_make_5() -> None:
    b = duel(toughness=3)  # S4 > T3: hit 3-5, crit 6
    roll = RULESET.resolve(b, req(weapon="Sword"), GivenDice([3, 5, 6, 1]))
    assert roll.damage == 5
    assert [d.outcome for d in roll.dice] == ["hit", "hit", "critical", "miss"]
    assert roll.steps[0] == "hit roll 3: hit, 1 damage"
    assert roll.steps[2] == "hit roll 6: critical hit, 3 damage"
    assert not roll.taken_down


def test_example_2_equal_strength_and_toughness() -> None:
    r = RULESET.attack(duel(), req(weapon="Sword"))
    assert r.valid and r.table_row == "Strength = Toughness"
    assert r.expected_damage == pytest.approx(4 * (2 / 6 + 3 / 6))
    assert r.to_json()["expected_damage"] == pytest.approx(3.333, abs=1e-9)
    assert_distribution(r)


def test_example_3_cover_and_lower_toughness() -> None:
    b = duel(gap=2.0, weapons=[wc_weapon(range=3)],
             obstacles=[wall("w1", 12.0, 8, 12.2, 12, name="Ruined wall")])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.valid, r.reasons
    assert r.table_row == "Strength < Toughness"
    assert r.expected_damage == pytest.approx(4 * (1 / 6 + 3 / 6))
    assert [m.to_json() for m in r.modifiers] == [
        {"name": "cover", "effect": "+1 toughness", "why": r.modifiers[0].why}]
    assert "w1" in r.modifiers[0].why
    assert r.facts.cover == "cover" and r.facts.cover_by == ("w1",)
    r3 = RULESET.attack(duel(toughness=3), req(weapon="Sword"))
    assert r3.table_row == "Strength > Toughness"
    assert r3.expected_damage == pytest.approx(4.0)


def test_example_4_damage_capped_at_wounds_left() -> None:
    b = duel(wounds=5, damage=3, weapons=[wc_weapon(attacks=2, damage="2/4")])
    roll = RULESET.resolve(b, req(weapon="Sword"), GivenDice([6, 6]))
    assert roll.damage == 2 and roll.taken_down
    assert roll.changes[0].combatant == "t"
    assert roll.changes[0].state == {"damage": 5, "taken_down": True}
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.distribution.max_value == 2
    # P(at least one success of 2 dice, each 3/6 hit or crit) = 1 - (1/2)^2
    assert r.take_down_probability == pytest.approx(1 - (3 / 6) ** 2)
    assert_distribution(r)


# -- table rows and expected damage -----------------------------------------------------
@pytest.mark.parametrize(("strength", "row", "per_die"), [
    (5, "Strength > Toughness", 3 / 6 * 2 + 1 / 6 * 5),
    (4, "Strength = Toughness", 2 / 6 * 2 + 1 / 6 * 5),
    (3, "Strength < Toughness", 1 / 6 * 2 + 1 / 6 * 5),
])
def test_every_row_expected_damage(strength: int, row: str, per_die: float) -> None:
    b = duel(weapons=[wc_weapon(attacks=3, strength=strength, damage="2/5")])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.table_row == row
    assert r.expected_damage == pytest.approx(3 * per_die)
    assert_distribution(r)


# -- target rules ------------------------------------------------------------------------
@pytest.mark.parametrize(("gap", "ok"), [(1.0, True), (1.01, False)])
def test_range_threshold(gap: float, ok: bool) -> None:
    r = RULESET.attack(duel(gap=gap), req(weapon="Sword"))
    c = check(r, "range")
    assert c.ok is ok and r.valid is ok
    assert c.margin == pytest.approx(1.0 - gap)
    if not ok:
        assert r.reasons == ['out of range: 1.01" > 1"']
        assert r.distribution.total == pytest.approx(1.0)  # odds given even when invalid


@pytest.mark.parametrize(("gap", "ok"), [(3.0, False), (3.01, True)])
def test_minimum_range_excluded(gap: float, ok: bool) -> None:
    b = duel(gap=gap, weapons=[wc_weapon("Bow", range="3-10", attacks=2)])
    r = RULESET.attack(b, req(weapon="Bow"))
    assert r.attack_type == "missile"
    assert check(r, "minimum_range").ok is ok
    assert r.valid is ok


def test_attack_type_by_maximum_range() -> None:
    b = duel(weapons=[wc_weapon("Spear", range=3), wc_weapon("Sling", range="1-4")])
    assert RULESET.attack(b, req(weapon="Spear")).attack_type == "melee"
    assert RULESET.attack(b, req(weapon="Sling")).attack_type == "missile"


def test_enemy_within_1_forces_the_target() -> None:
    e = fighter("e", "blue", 10, 11.9, warcry_chars(), [wc_weapon()])  # 0.9" from a
    b = duel(gap=2.0, weapons=[wc_weapon("Bow", range=10)], extra=[e])
    r = RULESET.attack(b, req(weapon="Bow"))
    c = check(r, "engaged")
    assert not c.ok and "e at 0.9\"" in c.text
    assert RULESET.attack(b, req(target="e", weapon="Bow")).valid


def test_enemy_exactly_1_away_engages() -> None:
    e = fighter("e", "blue", 10, 12.0, warcry_chars(), [wc_weapon()])  # exactly 1"
    b = duel(gap=2.0, weapons=[wc_weapon("Bow", range=10)], extra=[e])
    assert not check(RULESET.attack(b, req(weapon="Bow")), "engaged").ok
    e2 = fighter("e", "blue", 10, 12.05, warcry_chars(), [wc_weapon()])
    b2 = duel(gap=2.0, weapons=[wc_weapon("Bow", range=10)], extra=[e2])
    assert check(RULESET.attack(b2, req(weapon="Bow")), "engaged").ok


@pytest.mark.parametrize(("gap", "rng", "ok"), [
    (2.0, 10, True),  # within 3", no minimum range: the exception applies
    (3.0, 10, True),  # exactly 3"
    (3.1, 10, False),  # beyond 3"
    (2.0, "1-10", False),  # a minimum range: no exception
])
def test_friendly_fire_and_its_3_inch_exception(gap: float, rng, ok: bool) -> None:
    ally = fighter("f", "red", 11 + gap, 11.8, warcry_chars(), [wc_weapon()])  # 0.8" from t
    b = duel(gap=gap, weapons=[wc_weapon("Bow", range=rng)], extra=[ally])
    r = RULESET.attack(b, req(weapon="Bow"))
    c = check(r, "friendly_fire")
    assert c.ok is ok, c.text
    assert r.valid is ok


def test_friendly_fire_not_for_melee_and_not_beyond_1() -> None:
    ally = fighter("f", "red", 12.5, 11.8, warcry_chars(), [wc_weapon()])
    b = duel(gap=0.5, extra=[ally])
    r = RULESET.attack(b, req(weapon="Sword"))
    assert all(c.rule != "friendly_fire" for c in r.checks)
    far = fighter("f", "red", 15.5, 12.05, warcry_chars(), [wc_weapon()])  # 1.05" from t
    b2 = duel(gap=4.0, weapons=[wc_weapon("Bow", range=10)], extra=[far])
    assert check(RULESET.attack(b2, req(weapon="Bow")), "friendly_fire").ok


def test_not_visible_behind_a_sight_blocking_wall() -> None:
    b = duel(gap=4.0, weapons=[wc_weapon("Bow", range=10)],
             obstacles=[wall("w9", 12.5, 5, 13.0, 15, height=5, blocks_sight=True,
                             name="Tall wall")])
    r = RULESET.attack(b, req(weapon="Bow"))
    c = check(r, "visible")
    assert not c.ok and "Tall wall (w9)" in c.text
    assert not r.facts.visible


def test_friend_and_taken_down_targets_are_refused() -> None:
    friend = fighter("f", "red", 11.5, 12, warcry_chars(), [wc_weapon()])
    b = duel(extra=[friend])
    r = RULESET.attack(b, req(target="f", weapon="Sword"))
    assert not check(r, "enemy").ok
    a = fighter("a", "red", 10, 10, warcry_chars(), [wc_weapon()])
    t = fighter("t", "blue", 11.5, 10, warcry_chars(), [wc_weapon()], state={"taken_down": True})
    r2 = RULESET.attack(battle("warcry", [a, t]), req(weapon="Sword"))
    assert not check(r2, "taken_down").ok and not r2.valid
    assert r2.take_down_probability == pytest.approx(0.0, abs=1e-9)


# -- cover -------------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "melee", "missile"), [
    ("all", True, True), ("missile", False, True), ("none", False, False)])
def test_cover_option(option: str, melee: bool, missile: bool) -> None:
    b = duel(gap=2.0, weapons=[wc_weapon("Spear", range=3), wc_weapon("Bow", range=10)],
             obstacles=[wall("w1", 12.0, 8, 12.2, 12)], options={"cover": option})
    for weapon, expected in (("Spear", melee), ("Bow", missile)):
        r = RULESET.attack(b, req(weapon=weapon))
        assert any(m.name == "cover" for m in r.modifiers) is expected
        assert (r.facts.cover == "cover") is expected
    facts = RULESET.pair_facts(b, "a", "t")
    assert facts.cover == ("none" if option == "none" else "cover")


def test_obstacle_next_to_the_attacker_is_ignored_only_beyond_1() -> None:
    # a wall touching the attacker's base: ignored when more than 1" apart ...
    near_wall = [wall("w1", 10.55, 8, 10.65, 12)]
    b = duel(gap=2.0, weapons=[wc_weapon(range=3)], obstacles=near_wall)
    assert RULESET.attack(b, req(weapon="Sword")).facts.cover == "none"
    # ... but it gives cover when the fighters are within 1"
    b2 = duel(gap=0.8, obstacles=near_wall)
    assert RULESET.attack(b2, req(weapon="Sword")).facts.cover == "cover"


@pytest.mark.parametrize(("height", "cover"), [(3.0, True), (2.9, False)])
def test_platform_cover_at_3_inches(height: float, cover: bool) -> None:
    a = fighter("a", "red", 10, 10, warcry_chars(), [wc_weapon("Bow", range=12)])
    t = fighter("t", "blue", 14, 10, warcry_chars(), [wc_weapon()])
    b = battle("warcry", [a, t], platforms=[platform("p1", 13, 8, 16, 12, height)])
    r = RULESET.attack(b, req(weapon="Bow"))
    assert (r.facts.cover == "cover") is cover
    assert any(m.name == "cover" for m in r.modifiers) is cover


# -- dice, conditioning, defaults ------------------------------------------------------
def test_given_dice_counts_and_faces_are_checked() -> None:
    b = duel()
    with pytest.raises(DiceShortage) as short:  # still a DiceShortage, with the count
        RULESET.resolve(b, req(weapon="Sword"), GivenDice([1, 2, 3]))
    assert str(short.value) == "too few dice: this attack needs 4 (4 hit rolls), 3 were given"
    with pytest.raises(RulesError, match="needs 4"):
        RULESET.resolve(b, req(weapon="Sword"), GivenDice([1, 2, 3, 4, 5]))
    with pytest.raises(RulesError, match="d6"):
        RULESET.resolve(b, req(weapon="Sword"), GivenDice([1, 2, 3, 7]))


def test_seeded_dice_repeat() -> None:
    b = duel()
    r1 = RULESET.resolve(b, req(weapon="Sword"), SeededDice(42))
    r2 = RULESET.resolve(b, req(weapon="Sword"), SeededDice(42))
    assert r1 == r2 and len(r1.dice) == 4


def test_odds_given_match_enumeration() -> None:
    b = duel(wounds=7, damage=2, weapons=[wc_weapon(attacks=3, damage="2/3")])
    rq = req(weapon="Sword")
    for k in range(4):
        for known in itertools.product(range(1, 7), repeat=k):
            got = RULESET.odds_given(b, rq, list(known))
            counts: dict[int, int] = {}
            rest = list(itertools.product(range(1, 7), repeat=3 - k))
            for combo in rest:
                dmg = min(5, RULESET.resolve(b, rq, GivenDice([*known, *combo])).damage)
                counts[dmg] = counts.get(dmg, 0) + 1
            for v, n in counts.items():
                assert got.prob(v) == pytest.approx(n / len(rest))
    with pytest.raises(RulesError):
        RULESET.odds_given(b, rq, [1, 2, 3, 4])
    with pytest.raises(RulesError):
        RULESET.odds_given(b, rq, [0])


def test_default_weapon_first_valid_else_first() -> None:
    b = duel(gap=5.0, weapons=[wc_weapon("Sword"), wc_weapon("Bow", range=10)])
    assert RULESET.attack(b, req()).weapon == "Bow"
    b2 = duel(gap=20.0, weapons=[wc_weapon("Sword"), wc_weapon("Bow", range=10)])
    assert RULESET.attack(b2, req()).weapon == "Sword"


def test_refused_input() -> None:
    b = duel()
    with pytest.raises(RulesError, match="no weapon 'Axe'"):
        RULESET.attack(b, req(weapon="Axe"))
    with pytest.raises(RulesError, match="dual wielding"):
        RULESET.attack(b, req(weapon="Sword", offhand="Sword"))
    with pytest.raises(RulesError, match="unknown"):
        RULESET.attack(b, req(target="zz", weapon="Sword"))
    with pytest.raises(RulesError, match="unknown option"):
        RULESET.attack(b, req(weapon="Sword", charging=True))
    with pytest.raises(RulesError, match="cover"):
        RULESET.attack(duel(options={"cover": "some"}), req(weapon="Sword"))


def test_pair_facts_and_json_shape() -> None:
    a = fighter("a", "red", 10, 10, warcry_chars(), [wc_weapon()])
    t = fighter("t", "blue", 13, 10, warcry_chars(), [wc_weapon()], elevation=2.0)
    b = battle("warcry", [a, t])
    f = RULESET.pair_facts(b, "a", "t")
    assert f.horizontal_distance == pytest.approx(2.0)
    assert f.vertical_distance == pytest.approx(2.0)
    assert f.distance == pytest.approx(8 ** 0.5)
    assert not f.engaged and not f.flanked and f.arc is None and f.spaces is None
    out = RULESET.attack(b, req(weapon="Sword")).to_json(
        RULESET.resolve(b, req(weapon="Sword"), GivenDice([6, 6, 1, 4])))
    assert list(out) == ["ruleset", "attacker", "target", "weapon", "offhand", "attack_type",
                         "valid", "reasons", "geometry", "modifiers", "expected_damage",
                         "distribution", "take_down_probability", "table_row", "roll"]
    assert out["roll"]["dice"] == [6, 6, 1, 4] and out["roll"]["damage"] == 7


def test_warcry_has_no_flanking_and_inspect_cover_includes_platforms() -> None:
    a = fighter("a", "red", 10, 10, warcry_chars(), [wc_weapon()])
    t = fighter("t", "blue", 11.5, 10, warcry_chars(), [wc_weapon()])
    f = fighter("f", "red", 13.0, 10, warcry_chars(), [wc_weapon()])  # would flank elsewhere
    b = battle("warcry", [a, t, f])
    facts = RULESET.pair_facts(b, "a", "t")
    assert facts.flanked is False and facts.engaged
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.modifiers == () and r.facts.flanked is False


def test_failed_checks_have_negative_margins() -> None:
    e = fighter("e", "blue", 10, 11.9, warcry_chars(), [wc_weapon()])
    ally = fighter("f", "red", 15, 11.8, warcry_chars(), [wc_weapon()])  # 0.8" from t
    b = duel(gap=4.0, weapons=[wc_weapon("Bow", range="1-3.5")], extra=[e, ally])
    r = RULESET.attack(b, req(weapon="Bow"))
    failed = [c for c in r.checks if not c.ok]
    assert {c.rule for c in failed} == {"range", "engaged", "friendly_fire"}
    for c in failed:
        assert c.margin is not None and c.margin < 0, c
    assert check(r, "engaged").value == pytest.approx(4.0)


def test_no_wounds_left_means_no_damage_and_no_take_down() -> None:
    b = duel(wounds=5, damage=5)
    r = RULESET.attack(b, req(weapon="Sword"))
    assert r.distribution.items() == [(0, pytest.approx(1.0, abs=1e-12))]
    assert r.take_down_probability == pytest.approx(0.0, abs=1e-9)
    roll = RULESET.resolve(b, req(weapon="Sword"), GivenDice([6, 6, 6, 6]))
    assert roll.damage == 0 and not roll.taken_down
