"""The attack's model parts as the window couples them (no widgets): an
``AttackController`` and a ``TargetScanner`` that follows it (``follow_attack``). The same
numbers as the engine, target cycling, dice entered one by one with conditioned odds,
refusals, applying, choices, seeds."""

from __future__ import annotations

import pytest

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.attack_controller import SEED_LIMIT, AttackController, system_seed
from tabletop_gui.model.attack_view import (
    AttackChoice,
    AttackView,
    applied_scenario,
    edit_text,
)
from tabletop_gui.model.target_scanner import TargetScanner, enemies_of, next_valid
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, RulesError, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.attack_helpers import RULESETS, coupled, demo_scenario, first_pair
from tests.core.test_attack_controller import Turns, Worker


def _attack(ruleset: str, valid: bool = True
            ) -> tuple[AttackController, TargetScanner, str, str]:
    scenario = demo_scenario(ruleset)
    a, t = first_pair(scenario, valid)
    c, targets = coupled(scenario)
    c.set_attacker(a)
    c.set_target(t)
    return c, targets, a, t


def _faces(c: AttackController) -> list[int]:
    return list(c.dice.faces)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_report_equals_the_engine(ruleset: str) -> None:
    for valid in (True, False):
        c, targets, a, t = _attack(ruleset, valid)
        assert c.scenario is not None
        engine = registry.get(ruleset).attack(battle_of(c.scenario), AttackRequest(a, t))
        report = c.current_view.report
        assert report is not None
        assert report.to_json() == engine.to_json()
        assert report.valid is valid
        odds = c.current_view.odds
        assert odds is not None and odds.pairs() == engine.distribution.pairs()
        status = next((s for s in targets.statuses() if s.target == t), None)
        assert status is not None and status.valid is valid
        assert list(status.reasons) == engine.reasons


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_entered_one_by_one_condition_the_odds(ruleset: str) -> None:
    c, _, a, t = _attack(ruleset)
    ruleset_ = registry.get(ruleset)
    assert c.scenario is not None
    battle = battle_of(c.scenario)
    request = AttackRequest(a, t)
    faces = [d.face for d in ruleset_.resolve(battle, request, SeededDice(7)).dice]
    for n, face in enumerate(faces[:-1], start=1):
        assert c.enter_die(face), c.current_view.message
        view = c.current_view
        assert view.resolution is None
        assert view.odds is not None
        assert view.odds.pairs() == ruleset_.odds_given(battle, request, faces[:n]).pairs()
        assert view.next_die is not None and view.next_die.sides >= 2
    assert c.enter_die(faces[-1])
    expected = ruleset_.resolve(battle, request, GivenDice(faces))
    view = c.current_view
    assert view.resolution is not None
    assert view.resolution.damage == expected.damage
    assert view.resolution.changes == expected.changes
    assert [e.outcome for e in view.rolled] == [d.outcome for d in expected.dice]
    # one die more is refused with the rules' words, and nothing changes
    told: list[str] = []
    assert c.enter_die(1, told.append) is False
    assert "too many dice" in c.current_view.message and told == [c.current_view.message]
    assert _faces(c) == faces


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_impossible_face_is_refused(ruleset: str) -> None:
    c, _, _, _ = _attack(ruleset)
    asked = c.current_view.next_die
    assert asked is not None
    assert not c.enter_die(asked.sides + 1)
    assert f"d{asked.sides}" in c.current_view.message
    assert _faces(c) == []
    assert not c.enter_die(0)
    assert _faces(c) == []


def test_a_die_waiting_for_its_evaluation_is_neither_taken_nor_refused_yet() -> None:
    scenario = demo_scenario("warcry")
    a, t = first_pair(scenario)
    turns = Turns()
    c, _ = coupled(scenario, later=turns)
    c.set_attacker(a)
    c.set_target(t)
    assert c.enter_die(3) is None and c.pending
    turns.turn()
    assert _faces(c) == [3] and not c.pending


def test_cycle_visits_the_valid_targets_nearest_first() -> None:
    scenario = demo_scenario("warcry")
    c, targets = coupled(scenario)
    c.set_attacker("r3")  # the demo's archer: three blue fighters in range and in sight
    valid = [s.target for s in targets.statuses() if s.valid]
    assert sorted(valid) == ["b3", "b4", "b5"]
    measured = BoardGeometry(battle_of(scenario).board)
    assert valid == sorted(valid, key=lambda t: measured.measure("r3", t).distance)
    seen = []
    for _ in range(len(valid) + 1):
        seen.append(targets.next_valid(c.choice.target, 1))
        c.set_target(seen[-1])
    assert seen[: len(valid)] == valid
    assert seen[-1] == valid[0]  # wraps
    assert targets.next_valid(c.choice.target, -1) == valid[-1]
    assert next_valid(targets.statuses(), None, -1) == valid[-1]  # none yet: the last


def test_cycle_without_a_valid_target_selects_nothing() -> None:
    c, targets = coupled(demo_scenario("warcry"))
    c.set_attacker("r4")  # no enemy is a valid target for r4 in the demo
    assert targets.statuses() and [s.target for s in targets.statuses() if s.valid] == []
    assert targets.next_valid(c.choice.target, 1) is None
    assert targets.next_valid(c.choice.target, -1) is None


def test_the_scan_follows_the_choice_and_the_snapshot() -> None:
    scenario = demo_scenario("warcry")
    c, targets = coupled(scenario)
    told: list[tuple[object, AttackChoice]] = []
    c.subscribe_choice(lambda snapshot, choice: told.append((snapshot, choice)))
    c.set_attacker("r3")
    assert set(targets.enemies()) == set(enemies_of(scenario, "r3")) != set()
    assert {s.target for s in targets.statuses()} == set(targets.enemies())
    first = targets.scan.plan
    c.set_weapon(c.weapon_names()[-1])  # another weapon: another scan
    assert targets.scan.plan is not first and targets.scan.plan.weapon == c.choice.weapon
    c.enter_die(1)  # dice are no choice: nothing told
    assert len(told) == 2
    moved = scenario.with_entity(scenario.model("b3").moved_to(1.0, 1.0))
    c.set_snapshot(Snapshot.of(moved))
    assert told[-1][0] is c.snapshot and targets.scan.plan.scenario is moved
    c.clear()
    assert told[-1][1] == AttackChoice(None, None, None, None)
    assert targets.statuses() == [] and targets.enemies() == ()


def test_enemies_are_the_other_sides_models_still_standing() -> None:
    scenario = demo_scenario("warcry")
    side = scenario.model("r3").side
    assert set(enemies_of(scenario, "r3")) == {
        m.id for m in scenario.models if m.side != side and not scenario.taken_down(m)}
    assert enemies_of(scenario, None) == () and enemies_of(scenario, "nobody") == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_roll_and_apply_replace_the_state_of_each_combatant(ruleset: str) -> None:
    c, _, a, t = _attack(ruleset)
    c.set_seed(11)  # a seed fixed by the user: this roll takes it, the next one 12
    c.roll()
    view = c.current_view
    res = view.resolution
    assert res is not None and c.dice.seed == 11 and c.seed == 12
    assert c.scenario is not None
    expected = registry.get(ruleset).resolve(battle_of(c.scenario), AttackRequest(a, t),
                                             SeededDice(11))
    assert res.changes == expected.changes and _faces(c) == [d.face for d in expected.dice]
    new = applied_scenario(c.scenario, view)
    for change in res.changes:
        model = new.model(change.combatant)
        assert model is not None
        for key, value in change.state.items():
            assert model.state[key] == value
    untouched = {c.combatant for c in res.changes}
    for m in c.scenario.models:
        if m.id not in untouched:
            assert new.model(m.id) is m
    names = (c.scenario.model(a).name, c.scenario.model(t).name)  # type: ignore[union-attr]
    assert edit_text(c.scenario, view) == (
        f"Apply attack: {names[0]} on {names[1]} with {view.report.weapon}"  # type: ignore[union-attr]
        if view.report.weapon else f"Apply attack: {names[0]} on {names[1]}")  # type: ignore[union-attr]


def test_nothing_to_apply_without_a_resolution() -> None:
    c, _, _, _ = _attack("warcry")
    assert c.scenario is not None and c.current_view.resolution is None
    with pytest.raises(RulesError, match="roll or enter the dice first"):
        applied_scenario(c.scenario, c.current_view)
    c.roll()
    gone = c.current_view.resolution.changes[0].combatant  # type: ignore[union-attr]
    with pytest.raises(RulesError, match="unknown fighter or unit id"):
        applied_scenario(c.scenario.without_entity(gone), c.current_view)


def test_circle_of_realms_asks_for_the_limb_on_a_choosers_face() -> None:
    scenario = demo_scenario("circle-of-realms")
    c, _ = coupled(scenario)
    a, t = first_pair(scenario)
    c.set_attacker(a)
    c.set_target(t)
    view = c.current_view
    assert view.report is not None and view.report.extras["damage_type"] == "slashing"
    # a big attack against a defense roll of 1: the defender loses wounds and rolls the
    # Dismemberment Die; with the default faces, 5 is the defender's choice
    assert view.next_die is not None
    c.enter_die(view.next_die.sides)
    while c.current_view.next_die is not None \
            and c.current_view.next_die.label != "defense":
        c.enter_die(c.current_view.next_die.sides)
    assert c.enter_die(1)
    asked = c.current_view.next_die
    assert asked is not None and "dismemberment" in asked.label
    assert c.enter_die(5), c.current_view.message
    view = c.current_view
    assert view.resolution is not None
    assert [s.key for s in view.asked] == ["limb_choice"]
    ask = view.asked[0]
    assert ask.default == "RH" and ask.labels[ask.choices.index("LL")] == "left leg"

    def lost() -> object:
        res = c.current_view.resolution
        assert res is not None
        return {ch.combatant: ch.state.get("limbs_lost") for ch in res.changes}[t]

    c.answer_choice("limb_choice", "LL")
    assert "LL" in lost() and _faces(c)[-1] == 5  # type: ignore[operator]
    assert [s.key for s in c.current_view.asked] == ["limb_choice"]  # still offered
    c.answer_choice("limb_choice", "RL")
    assert "RL" in lost()  # type: ignore[operator]
    c.set_option("limb_choice", "LH")  # the option set beforehand: nothing to ask
    assert "LH" in lost() and c.current_view.asked == ()  # type: ignore[operator]


def test_choices_are_not_asked_when_the_dice_do_not_call_for_them() -> None:
    c, _, _, _ = _attack("circle-of-realms")
    c.set_seed(3)  # seeded dice are the same on every machine: this roll wounds no limb
    c.roll()
    res = c.current_view.resolution
    assert res is not None
    assert not any("dismemberment" in d.label for d in res.dice)
    assert c.current_view.asked == ()
    c.set_seed(4)  # this one rolls the chooser's face on the defender's dismemberment die
    c.roll()
    res = c.current_view.resolution
    assert res is not None
    assert any("dismemberment" in d.label for d in res.dice)
    assert [a.key for a in c.current_view.asked] == ["limb_choice"]


def test_off_hand_is_offered_only_where_the_engine_takes_one() -> None:
    for ruleset in RULESETS:
        c, _, _, _ = _attack(ruleset)
        if ruleset != "mordheim-warcry":
            assert c.offhands == ()
    scenario = demo_scenario("mordheim-warcry")
    c, targets = coupled(scenario)
    c.set_attacker("l2")
    c.set_weapon("Hammer")
    target = next(s.target for s in targets.statuses() if s.valid)
    c.set_target(target)
    assert c.offhands == ("Dagger",)
    c.set_offhand("Dagger")
    engine = registry.get("mordheim-warcry").attack(
        battle_of(scenario), AttackRequest("l2", target, "Hammer", "Dagger"))
    report = c.current_view.report
    assert report is not None and report.offhand == "Dagger"
    assert report.to_json() == engine.to_json()


def test_every_roll_takes_a_fresh_seed_unless_one_is_fixed() -> None:
    drawn = iter([901, 77, 5])
    scenario = demo_scenario("warcry")
    a, t = first_pair(scenario)
    c, _ = coupled(scenario, seed_source=lambda: next(drawn))
    c.set_attacker(a)
    c.set_target(t)
    assert c.seed is None  # the default: no fixed seed
    c.roll()
    assert c.current_view.resolution is not None and c.dice.seed == 901 and c.seed is None
    engine = registry.get("warcry").resolve(battle_of(scenario), AttackRequest(a, t),
                                            SeededDice(901))
    assert _faces(c) == [d.face for d in engine.dice]  # replayable from the logged seed
    c.roll()
    assert c.dice.seed == 77
    c.set_seed(40)
    c.roll()
    c.roll()
    assert c.dice.seed == 41 and c.seed == 42  # fixed: 40, then 41; the source unused
    c.set_seed(None)
    c.roll()
    assert c.dice.seed == 5


def test_the_default_seed_source_is_the_operating_system() -> None:
    c, _ = coupled(None)
    assert c.seed_source is system_seed
    seeds = {system_seed() for _ in range(8)}
    assert len(seeds) >= 7  # 8 draws of 2e9 values: a repeat has odds of about 1e-8
    assert all(0 <= x <= SEED_LIMIT for x in seeds)


def test_a_fixed_seed_is_published_with_the_view() -> None:
    c, _ = coupled(demo_scenario("warcry"))
    seen: list[AttackView] = []
    c.subscribe(seen.append)
    c.set_seed(5)
    assert len(seen) == 1 and c.seed == 5
    c.set_seed(5)  # the same: nothing to draw again
    assert len(seen) == 1


def test_a_refusal_is_published_until_the_next_view() -> None:
    c, _, _, t = _attack("warcry")
    seen: list[AttackView] = []
    c.subscribe(seen.append)
    c.refuse("no such value")
    assert seen[-1].message == "no such value" == c.current_view.message
    assert seen[-1].report is c.view.report and seen[-1].report is not None  # kept
    c.set_target(None)
    assert c.current_view.message == ""


def test_the_current_view_is_of_the_current_choice_while_a_change_is_answered() -> None:
    scenario = demo_scenario("warcry")
    a, t = first_pair(scenario)
    turns = Turns()
    c, _ = coupled(scenario, later=turns, runner=Worker())
    runner = c.runner
    assert isinstance(runner, Worker)
    c.set_attacker(a)
    c.set_target(t)
    turns.turn()
    runner.run()
    answered = c.current_view
    assert answered.report is not None and answered is c.view
    c.roll()  # other dice asked for: the report stays, nothing to apply meanwhile
    turns.turn()
    c.set_seed(None)
    assert c.pending and c.current_view.report is answered.report
    runner.run()
    assert c.current_view.can_apply and c.current_view.resolution is not None
    c.clear_dice()  # dice answered later: the report and its odds, no dice drawn
    published = c.view
    shown = c.current_view
    assert published.rolled and published.report is not None
    assert shown.report is published.report and shown.rolled == () and not shown.can_apply
    assert shown.odds is published.report.distribution
    other = next(m.id for m in scenario.models if m.id not in (a, t)
                 and m.side == scenario.model(t).side)  # type: ignore[union-attr]
    c.set_target(other)  # another choice answered later: nothing of the earlier one
    assert c.view.report is not None and c.current_view.report is None
    assert c.current_view.choice == c.choice
