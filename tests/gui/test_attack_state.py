"""The attack panel's state object (no widgets): the same numbers as the engine, target
cycling, dice entered one by one with conditioned odds, refusals, apply, choices."""

from __future__ import annotations

import pytest

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.attack_state import SEED_LIMIT, AttackState, system_seed
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tests.gui.attack_support import RULESETS, demo, first_pair


def _state(ruleset: str, valid: bool = True) -> tuple[AttackState, str, str]:
    scenario = demo(ruleset)
    a, t = first_pair(scenario, valid)
    st = AttackState(scenario)
    st.set_attacker(a)
    st.set_target(t)
    return st, a, t


@pytest.mark.parametrize("ruleset", RULESETS)
def test_report_equals_the_engine(ruleset: str) -> None:
    for valid in (True, False):
        st, a, t = _state(ruleset, valid)
        engine = registry.get(ruleset).attack(battle_of(st.scenario), AttackRequest(a, t))
        assert st.report is not None
        assert st.report.to_json() == engine.to_json()
        assert st.report.valid is valid
        assert st.odds is not None and st.odds.pairs() == engine.distribution.pairs()
        status = st.status(t)
        assert status is not None and status.valid is valid
        assert list(status.reasons) == engine.reasons


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_entered_one_by_one_condition_the_odds(ruleset: str) -> None:
    st, a, t = _state(ruleset)
    ruleset_ = registry.get(ruleset)
    battle = battle_of(st.scenario)
    request = AttackRequest(a, t)
    faces = [d.face for d in ruleset_.resolve(battle, request, SeededDice(7)).dice]
    for n, face in enumerate(faces[:-1], start=1):
        assert st.enter_die(face), st.message
        assert st.resolution is None
        assert st.odds is not None
        assert st.odds.pairs() == ruleset_.odds_given(battle, request, faces[:n]).pairs()
        assert st.next_die is not None and st.next_die.sides >= 2
    assert st.enter_die(faces[-1])
    expected = ruleset_.resolve(battle, request, GivenDice(faces))
    assert st.resolution is not None
    assert st.resolution.damage == expected.damage
    assert st.resolution.changes == expected.changes
    assert [e.outcome for e in st.entered] == [d.outcome for d in expected.dice]
    # one die more is refused with the rules' words, and nothing changes
    assert not st.enter_die(1)
    assert "too many dice" in st.message
    assert st.dice == faces


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_impossible_face_is_refused(ruleset: str) -> None:
    st, _, _ = _state(ruleset)
    assert st.next_die is not None
    sides = st.next_die.sides
    assert not st.enter_die(sides + 1)
    assert f"d{sides}" in st.message
    assert st.dice == []
    assert not st.enter_die(0)
    assert st.dice == []


def test_cycle_visits_the_valid_targets_nearest_first() -> None:
    scenario = demo("warcry")
    st = AttackState(scenario)
    st.set_attacker("r3")  # the demo's archer: three blue fighters in range and in sight
    valid = [s.target for s in st.statuses() if s.valid]
    assert sorted(valid) == ["b3", "b4", "b5"]
    measured = BoardGeometry(battle_of(scenario).board)
    assert valid == sorted(valid, key=lambda t: measured.measure("r3", t).distance)
    seen = [st.cycle_target(1) for _ in range(len(valid) + 1)]
    assert seen[: len(valid)] == valid
    assert seen[-1] == valid[0]  # wraps
    assert st.cycle_target(-1) == valid[-1]


def test_cycle_without_a_valid_target_selects_nothing() -> None:
    st = AttackState(demo("warcry"))
    st.set_attacker("r4")  # no enemy is a valid target for r4 in the demo
    assert [s.target for s in st.statuses() if s.valid] == []
    assert st.cycle_target(1) is None
    assert st.cycle_target(-1) is None
    assert st.target is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_roll_and_apply_replace_the_state_of_each_combatant(ruleset: str) -> None:
    st, a, t = _state(ruleset)
    st.set_seed(11)  # a seed fixed by the user: this roll takes it, the next one 12
    res = st.roll()
    assert res is not None and st.rolled_seed == 11 and st.seed == 12
    expected = registry.get(ruleset).resolve(battle_of(st.scenario), AttackRequest(a, t),
                                             SeededDice(11))
    assert res.changes == expected.changes and st.dice == [d.face for d in expected.dice]
    new = st.applied_scenario()
    for change in res.changes:
        model = new.model(change.combatant)
        assert model is not None
        for key, value in change.state.items():
            assert model.state[key] == value
    untouched = {c.combatant for c in res.changes}
    for m in st.scenario.models:
        if m.id not in untouched:
            assert new.model(m.id) is m


def test_circle_of_realms_asks_for_the_limb_on_a_choosers_face() -> None:
    scenario = demo("circle-of-realms")
    st = AttackState(scenario)
    a, t = first_pair(scenario)
    st.set_attacker(a)
    st.set_target(t)
    assert st.report is not None and st.report.extras["damage_type"] == "slashing"
    # a big attack against a defense roll of 1: the defender loses wounds and rolls the
    # Dismemberment Die; with the default faces, 5 is the defender's choice
    assert st.next_die is not None
    high = st.next_die.sides
    st.enter_die(high)
    while st.next_die is not None and st.next_die.label != "defense":
        st.enter_die(st.next_die.sides)
    assert st.enter_die(1)
    assert st.next_die is not None and "dismemberment" in st.next_die.label
    assert st.enter_die(5), st.message
    assert st.resolution is not None
    assert [s.key for s in st.pending_choices] == ["limb_choice"]
    ask = st.pending_choices[0]
    assert ask.default == "RH" and ask.labels[ask.choices.index("LL")] == "left leg"
    st.answer_choice("limb_choice", "LL")
    assert st.resolution is not None and st.dice[-1] == 5
    lost = {c.combatant: c.state.get("limbs_lost") for c in st.resolution.changes}
    assert "LL" in lost[t]
    assert [s.key for s in st.pending_choices] == ["limb_choice"]  # still offered
    st.answer_choice("limb_choice", "RL")
    lost = {c.combatant: c.state.get("limbs_lost") for c in st.resolution.changes}
    assert "RL" in lost[t]
    st.set_option("limb_choice", "LH")  # the option set beforehand: nothing to ask
    lost = {c.combatant: c.state.get("limbs_lost") for c in st.resolution.changes}
    assert "LH" in lost[t] and st.pending_choices == ()


def test_choices_are_not_asked_when_the_dice_do_not_call_for_them() -> None:
    st, _, _ = _state("circle-of-realms")
    st.set_seed(3)  # seeded dice are the same on every machine: this roll wounds no limb
    st.roll()
    assert st.resolution is not None
    assert not any("dismemberment" in d.label for d in st.resolution.dice)
    assert st.pending_choices == ()
    st.set_seed(4)  # this one rolls the chooser's face on the defender's dismemberment die
    st.roll()
    assert st.resolution is not None
    assert any("dismemberment" in d.label for d in st.resolution.dice)
    assert [c.key for c in st.pending_choices] == ["limb_choice"]


def test_off_hand_is_offered_only_where_the_engine_takes_one() -> None:
    for ruleset in RULESETS:
        st, _, _ = _state(ruleset)
        if ruleset != "mordheim-warcry":
            assert st.offhand_choices() == []
    scenario = demo("mordheim-warcry")
    st = AttackState(scenario)
    st.set_attacker("l2")
    st.set_weapon("Hammer")
    target = next(s.target for s in st.statuses() if s.valid)
    st.set_target(target)
    assert st.offhand_choices() == ["Dagger"]
    st.set_offhand("Dagger")
    engine = registry.get("mordheim-warcry").attack(
        battle_of(scenario), AttackRequest("l2", target, "Hammer", "Dagger"))
    assert st.report is not None and st.report.offhand == "Dagger"
    assert st.report.to_json() == engine.to_json()


def test_every_roll_takes_a_fresh_seed_unless_one_is_fixed() -> None:
    drawn = iter([901, 77, 5])
    scenario = demo("warcry")
    a, t = first_pair(scenario)
    st = AttackState(scenario, seed_source=lambda: next(drawn))
    st.set_attacker(a)
    st.set_target(t)
    assert st.seed is None  # the default: no fixed seed
    first = st.roll()
    assert first is not None and st.rolled_seed == 901 and st.seed is None
    engine = registry.get("warcry").resolve(battle_of(scenario), AttackRequest(a, t),
                                            SeededDice(901))
    assert st.dice == [d.face for d in engine.dice]  # replayable from the logged seed
    st.roll()
    assert st.rolled_seed == 77
    st.set_seed(40)
    st.roll()
    st.roll()
    assert st.rolled_seed == 41 and st.seed == 42  # fixed: 40, then 41; the source unused
    st.set_seed(None)
    st.roll()
    assert st.rolled_seed == 5


def test_the_default_seed_source_is_the_operating_system() -> None:
    st = AttackState()
    assert st.seed_source is system_seed
    seeds = {system_seed() for _ in range(8)}
    assert len(seeds) >= 7  # 8 draws of 2e9 values: a repeat has odds of about 1e-8
    assert all(0 <= x <= SEED_LIMIT for x in seeds)
