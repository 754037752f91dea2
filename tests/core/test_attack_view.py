"""``evaluate(snapshot, choice, dice)``: the attack as data, pure and Qt-free."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tabletop_gui.model.attack_view import AttackChoice, DiceEntry, OverlayShape, evaluate
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, Battle, GivenDice
from tabletop_gui.scenario.entities import Scenario
from tests.core.test_resolver import demo, feed_all


@dataclass(frozen=True)
class Snap:
    """A snapshot as ``evaluate`` reads it (``scenario.snapshot.Snapshot`` has more)."""

    scenario: Scenario
    battle: Battle


def snap(ruleset: str) -> tuple[Snap, AttackRequest]:
    scenario, battle, requests = demo(ruleset)
    return Snap(scenario, battle), requests[0]


def choice_of(q: AttackRequest, **options: object) -> AttackChoice:
    return AttackChoice(q.attacker, q.weapon, q.offhand, q.target,
                        tuple(sorted(options.items())))


@pytest.mark.parametrize("ruleset", ["warcry", "circle-of-realms", "ninth-age"])
def test_a_valid_choice_without_dice(ruleset: str) -> None:
    s, q = snap(ruleset)
    view = evaluate(s, choice_of(q), DiceEntry())
    report = registry.get(ruleset).attack(s.battle, q)
    assert view.report is not None and view.message == ""
    assert view.report.to_json() == report.to_json()
    assert view.odds is view.report.distribution
    assert view.next_die is not None and view.pending_choice is None
    assert view.rolled == () and view.resolution is None and not view.can_apply
    assert view.damage_axis == {"warcry": "damage", "circle-of-realms": "wounds",
                                "ninth-age": "Health Points lost"}[ruleset]


def test_no_attacker_or_target_is_an_empty_view() -> None:
    s, q = snap("warcry")
    for choice in (AttackChoice(None, None, None, q.target),
                   AttackChoice(q.attacker, None, None, None)):
        view = evaluate(s, choice, DiceEntry((1, 2)))
        assert view.report is None and view.message == "" and view.odds is None
        assert view.next_die is None and not view.can_apply and view.overlays == ()


def test_a_refused_request_gives_the_rules_message() -> None:
    s, q = snap("warcry")
    view = evaluate(s, AttackChoice("nobody", None, None, q.target), DiceEntry())
    assert view.report is None and view.message == "unknown fighter or unit id 'nobody'"
    assert not view.can_apply
    s, q = snap("ninth-age")
    view = evaluate(s, AttackChoice(q.attacker, None, "Spear", q.target), DiceEntry())
    assert view.report is None and view.message.startswith("--offhand: ninth-age has no")
    view = evaluate(s, choice_of(q, attacking_models="x"), DiceEntry())
    assert view.report is None and view.message.startswith("--set")


def test_an_invalid_attack_has_a_report_but_cannot_be_applied() -> None:
    scenario, battle, _ = demo("warcry")
    engine = registry.get("warcry")
    q = next(AttackRequest(a.id, t.id) for a in scenario.models for t in scenario.models
             if a.id != t.id and not engine.attack(battle, AttackRequest(a.id, t.id)).valid)
    full = engine.begin(battle, q)
    feed_all(full, [5, 2, 3])
    view = evaluate(Snap(scenario, battle), choice_of(q), DiceEntry(full.fed))
    assert view.report is not None and not view.report.valid
    assert view.resolution is not None and not view.can_apply


@pytest.mark.parametrize("ruleset", ["warcry", "mordheim-warcry", "fight-vs-defense",
                                     "circle-of-realms", "ninth-age"])
def test_partial_then_complete_dice(ruleset: str) -> None:
    s, q = snap(ruleset)
    engine = registry.get(ruleset)
    full = engine.begin(s.battle, q)
    feed_all(full, [4, 1, 6, 2, 5, 3])
    faces = full.fed
    part = faces[:1]
    view = evaluate(s, choice_of(q), DiceEntry(part))
    assert view.resolution is None and not view.can_apply and view.message == ""
    assert len(view.rolled) == 1 and view.rolled[0].face == part[0]
    expected = engine.odds_given(s.battle, q, list(part))
    assert view.odds is not None
    assert view.odds.pairs() == expected.pairs()
    done = evaluate(s, choice_of(q), DiceEntry(faces, seed=None))
    resolution = engine.resolve(s.battle, q, GivenDice(list(faces)))
    assert done.resolution == resolution and done.can_apply and done.next_die is None
    assert done.odds is not None and done.odds.items() == [(resolution.damage, 1.0)]


def test_a_bad_face_is_the_rules_message_and_the_report_stays() -> None:
    s, q = snap("warcry")
    view = evaluate(s, choice_of(q), DiceEntry((3, 9)))
    assert view.report is not None
    assert view.message == "die 2 (hit roll 2) shows 9, but a d6 shows 1 to 6"
    assert [d.face for d in view.rolled] == [3] and not view.can_apply
    many = evaluate(s, choice_of(q), DiceEntry((1,) * 40))
    assert many.message.startswith("too many dice: this attack needs ")


def test_a_choice_the_dice_call_for_is_pending_until_answered() -> None:
    s, _ = snap("circle-of-realms")
    engine = registry.get("circle-of-realms")
    _, _, requests = demo("circle-of-realms")
    q = next(r for r in requests
             if engine.attack(s.battle, r).extras["damage_type"] == "slashing")
    r = engine.begin(s.battle, q)
    while (ask := r.next_die()) is not None and ask.step == "attack":
        r.feed(ask.sides)
    r.feed(1)
    r.feed(5)  # the defender's choice on the default faces
    view = evaluate(s, choice_of(q), DiceEntry(r.fed))
    assert view.pending_choice is not None and view.pending_choice.key == "limb_choice"
    assert view.resolution is None and not view.can_apply
    answered = evaluate(s, choice_of(q), DiceEntry(r.fed, (("limb_choice", "LL"),)))
    assert answered.pending_choice is None and answered.can_apply
    assert answered.resolution is not None
    lost = {c.combatant: c.state.get("limbs_lost") for c in answered.resolution.changes}
    assert "LL" in lost[q.target]
    bad = evaluate(s, choice_of(q), DiceEntry(r.fed, (("limb_choice", "XX"),)))
    assert "limb_choice" in bad.message and not bad.can_apply


def test_ninth_age_draws_the_targets_arc_lines() -> None:
    s, q = snap("ninth-age")
    view = evaluate(s, choice_of(q), DiceEntry())
    assert len(view.overlays) == 4
    assert all(isinstance(o, OverlayShape) and o.kind == "arc_line" and len(o.points) == 2
               and o.tooltip for o in view.overlays)
    assert evaluate(*snap("warcry")[:1], choice_of(snap("warcry")[1]), DiceEntry()
                    ).overlays == ()
