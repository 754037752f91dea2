"""The Ninth Age's verdicts of many targets at once (``target_validity``: the weapons
armed once per attacker, planned against each target only up to the first valid one) say
exactly what the obvious computation says: every weapon's plan built against the target
(``build_plan``), the first valid one taken (the first when none is), and ``attack`` of
each pair one by one."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest

from tabletop_gui.bench.battlefields import ninth_age_scenario
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError
from tabletop_gui.rules.ninth_age import engine
from tabletop_gui.rules.ninth_age.build import Plan, build_plan, plan_against, valid_against
from tabletop_gui.rules.ninth_age.engine import _plan_of, armed_for, check_size, unit_view
from tabletop_gui.rules.ninth_age.units import HAND_WEAPON, Situation, UnitView, WeaponView
from tabletop_gui.scenario.load import loads_scenario
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.test_ninth_age_support import bow, cc, unit

#: weapons the generated units draw from (shooting and close combat, attributes that
#: change the checks: Move or Fire, Volley Fire, Weapon Master, Devastating Charge, ...)
WEAPONS: tuple[dict[str, Any], ...] = (
    {"name": "Bows", "kind": "shooting", "strength": 3, "ap": 0, "range": 24, "aim": 4,
     "shots": 1, "attributes": ["Volley Fire"]},
    {"name": "Crossbow", "kind": "shooting", "strength": 4, "ap": 1, "range": 30, "aim": 4,
     "shots": 1, "attributes": ["Move or Fire"]},
    {"name": "Javelins", "kind": "shooting", "strength": 3, "ap": 0, "range": 12, "aim": 4,
     "shots": "D3", "attributes": ["Quick to Fire", "Accurate"]},
    {"name": "Spear", "kind": "close_combat", "attributes": ["Fight in Extra Rank"]},
    {"name": "Lance", "kind": "close_combat", "attributes": ["Devastating Charge (+2 Strength)"]},
    {"name": "Great axe", "kind": "close_combat", "attributes": ["Two-Handed", "Weapon Master"]},
    {"name": "Club", "kind": "close_combat", "attributes": ["Multiple Wounds (D3)",
                                                            "Area Attack (1x3)"]},
)
SITUATIONS: tuple[dict[str, Any], ...] = ({}, {"charging": True}, {"moved": True},
                                          {"crush_attack": True})


def armies(seed: int, units: int = 14) -> dict[str, Any]:
    """A generated battlefield whose units carry one to three weapons drawn at random."""
    data = ninth_age_scenario(units, seed)
    rng = np.random.default_rng(seed)
    for u in data["units"]:  # type: ignore[attr-defined]
        picks = rng.choice(len(WEAPONS), size=int(rng.integers(1, 4)), replace=False)
        u["weapons"] = [dict(WEAPONS[int(k)]) for k in picks]
    return data


def one_by_one(attacker: str, targets: list[str], weapon: str | None,
               situ: dict[str, Any], battle: Any) -> dict[str, tuple[bool, tuple[str, ...]]]:
    ruleset = registry.get("ninth-age")
    out: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for t in targets:
        try:
            r = ruleset.attack(battle, AttackRequest(attacker, t, weapon, None, situ))
        except RulesError as e:
            out[t] = (False, (str(e),))
            continue
        out[t] = (r.valid, tuple(r.reasons))
    return out


def planned_one_by_one(attacker: str, targets: list[str], weapon: str | None,
                       situ: dict[str, Any], battle: Any
                       ) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """The verdicts from every weapon's plan built against each target (``eager``)."""
    ruleset = engine.RULESET
    out: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for t in targets:
        try:
            a, tv = unit_view(battle, attacker), unit_view(battle, t)
            plan = eager(a, tv, weapon, ruleset.situation(battle, attacker, t), situ)
            check_size(plan, attacker)
        except RulesError as e:
            out[t] = (False, (str(e),))
            continue
        out[t] = (plan.valid, tuple(c.text for c in plan.checks if not c.ok))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_verdicts_of_generated_armies_are_every_weapons_plans(seed: int) -> None:
    scenario = loads_scenario(json.dumps(armies(seed)))
    battle = Snapshot.of(scenario).battle
    ruleset = registry.get("ninth-age")
    ids = [m.id for m in scenario.models]
    seen: set[bool] = set()
    for a in scenario.models:
        for weapon in [None, *(w.name for w in a.weapons)]:
            for situ in SITUATIONS:
                fast = ruleset.target_validity(battle, a.id, ids, weapon, None, situ)
                assert list(fast) == ids
                assert fast == planned_one_by_one(a.id, ids, weapon, situ, battle), \
                    (a.id, weapon, situ)
                seen.update(valid for valid, _ in fast.values())
    assert seen == {True, False}


def test_verdicts_of_a_generated_army_are_the_attacks() -> None:
    scenario = loads_scenario(json.dumps(armies(4, units=8)))
    battle = Snapshot.of(scenario).battle
    ruleset = registry.get("ninth-age")
    ids = [m.id for m in scenario.models]
    for a in scenario.models:
        for situ in SITUATIONS[:2]:
            fast = ruleset.target_validity(battle, a.id, ids, None, None, situ)
            assert fast == one_by_one(a.id, ids, None, situ, battle), (a.id, situ)


def eager(attacker: UnitView, target: UnitView, weapon: str | None, s: Situation,
          situ: dict[str, Any]) -> Plan:
    """The obvious choice: every weapon's plan, the first valid one (else the first)."""
    if weapon is not None or situ.get("crush_attack"):
        return build_plan(attacker, target, weapon, s, situ)
    names = [w.name for w in attacker.weapons]
    if not attacker.close_combat_weapons() and attacker.weapon(HAND_WEAPON) is None:
        names.append(HAND_WEAPON)
    plans = [build_plan(attacker, target, n, s, situ) for n in names]
    return next((p for p in plans if p.valid), plans[0])


def test_the_first_valid_weapon_is_the_one_every_plan_would_give() -> None:
    rng = np.random.default_rng(7)
    attackers = [
        unit("a", weapons=(bow("Bow", range=18), cc("Sword"))),
        unit("b", weapons=(cc("Halberd", "Area Attack (1x3) [Strength 6]"), bow("Sling"))),
        unit("c", weapons=(bow("Crossbow", "Move or Fire", range=30),)),
        unit("d", weapons=(cc("Axe", "Two-Handed"), cc("Mace", "Weapon Master"))),
        unit("e", state={"hp_lost": 10}, weapons=(bow(), cc())),
        unit("f", traits=("harnessed",), weapons=(cc("Hooves"), bow())),
    ]
    targets = [unit("t", side="blue"), unit("u", side="red"),
               unit("v", side="blue", state={"taken_down": True}, traits=("shield",))]
    compared = 0
    for _ in range(60):
        engaged = bool(rng.random() < 0.3)
        s = Situation(distance=0.0 if engaged else float(rng.uniform(0.5, 40.0)),
                      engaged=engaged, engaged_facing="front" if engaged else None,
                      arc=str(rng.choice(["front", "rear", "left_flank", "right_flank"])),
                      contact_models=int(rng.integers(1, 6)) if engaged else 0,
                      visible=bool(rng.random() < 0.7),
                      cover=str(rng.choice(["none", "soft", "hard"])))
        situ = dict(SITUATIONS[int(rng.integers(0, 3))])
        for a in attackers:
            for t in targets:
                for weapon in [None, *(w.name for w in a.weapons)]:
                    assert _plan_of(armed_for(a, weapon, situ), t, s) == \
                        eager(a, t, weapon, s, situ), (a.id, t.id, weapon, s, situ)
                    compared += 1
    assert compared > 1000


def test_a_refused_later_weapon_refuses_the_attack_as_before() -> None:
    """A weapon after a valid one that cannot be planned (a shooting weapon without aim)
    still refuses the attack with its message, as building every plan did."""
    broken = WeaponView("Sling", {"kind": "shooting", "range": 12})
    a = unit("a", weapons=(cc("Sword"), broken))
    t = unit("t", side="blue")
    s = Situation(distance=0.0, engaged=True, engaged_facing="front", contact_models=5)
    with pytest.raises(RulesError) as obvious:
        eager(a, t, None, s, {})
    with pytest.raises(RulesError) as armed:
        _plan_of(armed_for(a, None, {}), t, s)
    assert str(armed.value) == str(obvious.value) == \
        "shooting weapon 'Sling' needs range, aim and shots"


def test_a_pair_asked_again_is_answered_once_and_a_second_pair_scans() -> None:
    """One attack asks of one pair (again and again: its plan, its report): computed once,
    no scan; a second pair means a whole-battlefield question, so every pair is scanned,
    with the same answers."""
    scenario = loads_scenario(json.dumps(ninth_age_scenario(12, 5)))
    battle = Snapshot.of(scenario).battle
    ruleset = engine.RULESET
    a, t, u = (scenario.models[k].id for k in (0, 1, 3))  # a and t, a and u: enemies
    calls: list[tuple[str, str]] = []
    real = engine.situation_of

    def counted(b: Any, x: str, y: str, threshold: str) -> Situation:
        calls.append((x, y))
        return real(b, x, y, threshold)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "situation_of", counted)
        first = ruleset.situation(battle, a, t)
        assert ruleset.situation(battle, a, t) is first
        assert calls == [(a, t)]
        kept = battle.kept(engine._Scans, engine._Scans)
        assert kept.threshold is None  # no scan yet
        other = ruleset.situation(battle, a, u)
        assert kept.threshold == "more_than_half" and len(kept.situations) == 2 * 6 * 6
        assert calls == [(a, t)]
    fresh = Snapshot.of(scenario).battle
    assert engine.situation_of(fresh, a, u, "more_than_half") == other
    assert kept.situations[(a, t)] == first


def test_valid_against_is_the_plans_validity() -> None:
    """``valid_against`` (asked of the weapons after the first) says what the plan's
    checks say, for close combat and shooting, whatever makes a check fail."""
    rng = np.random.default_rng(11)
    attackers = [
        unit("a", weapons=(cc("Sword"), bow("Bow"))),
        unit("b", traits=("harnessed",), weapons=(cc("Hooves"),)),
        unit("c", state={"hp_lost": 10}, weapons=(cc("Axe"),)),
        unit("d", weapons=(cc("Axe", "Two-Handed"), cc("Mace"))),  # Hand Weapon: no WM
        unit("e", weapons=(cc("Club", "Crush Attack"), bow("Sling", "Move or Fire"))),
    ]
    targets = [unit("t", side="blue"), unit("u", side="red"),
               unit("v", side="blue", state={"taken_down": True})]
    seen = set()
    for _ in range(40):
        engaged = bool(rng.random() < 0.5)
        s = Situation(distance=0.0 if engaged else float(rng.uniform(0.5, 40.0)),
                      engaged=engaged, engaged_facing="front" if engaged else None,
                      contact_models=3 if engaged else 0, visible=bool(rng.random() < 0.7))
        situ = dict(SITUATIONS[int(rng.integers(0, len(SITUATIONS)))])
        for a in attackers:
            for weapon in [None, HAND_WEAPON, *(w.name for w in a.weapons)]:
                for w in armed_for(a, weapon, situ):
                    for t in targets:
                        want = plan_against(w, t, s).valid
                        assert valid_against(w, t, s) is want, (a.id, w.label, t.id, s, situ)
                        seen.add((w.shooting, want))
    assert seen == {(False, False), (False, True), (True, False), (True, True)}


def test_a_units_view_is_read_once_per_battle_and_again_after_an_edit() -> None:
    """The views of the units are kept with the battle (one document revision): every pair
    reads the same view; the battle of an edited document reads the edited unit."""
    scenario = loads_scenario(json.dumps(ninth_age_scenario(6, 2)))
    battle = Snapshot.of(scenario).battle
    uid = scenario.models[1].id
    view = unit_view(battle, uid)
    assert unit_view(battle, uid) is view and not view.destroyed
    unit = scenario.model(uid)
    assert unit is not None
    lost = dataclasses.replace(unit, state={"hp_lost": view.remaining_hp})
    edited = Snapshot.of(scenario.with_entity(lost)).battle
    assert unit_view(edited, uid).destroyed
    verdicts = registry.get("ninth-age").target_validity(edited, scenario.models[0].id, [uid])
    assert verdicts[uid][0] is False and "the target is destroyed" in verdicts[uid][1]
    assert unit_view(battle, uid) is view  # the first revision's battle is unchanged
    with pytest.raises(RulesError, match="nobody"):
        unit_view(battle, "nobody")
