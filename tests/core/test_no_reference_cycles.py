"""Attacks refused on the way leave no reference cycles behind.

The window freezes what is alive once it has settled (``model.heap``): a cycle made
before that and dropped later is never collected while the window is open. A rules
error kept in a local of the frame its traceback holds is such a cycle, and it held the
battle and its geometry (a thousand pair facts on a big board, one more set a move).
"""

from __future__ import annotations

import gc
from collections.abc import Callable

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError
from tabletop_gui.rules.warcry.engine import RULESET
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.resources import load_demo
from tests.core.warcry_family_scenarios import battle, fighter, req, warcry_chars, wc_weapon


def _cycles_left_by(call: Callable[[], object]) -> int:
    """How many objects only the cyclic collector could free after ``call``."""
    gc.collect()
    gc.disable()
    try:
        call()
        return gc.collect()
    finally:
        gc.enable()


def _duel(attacker_weapons: list[object]) -> object:
    a = fighter("a", "red", 10, 10, warcry_chars(), attacker_weapons)
    t = fighter("t", "blue", 11.5, 10, warcry_chars(), [wc_weapon()])
    return battle("warcry", [a, t])


def test_an_attack_refused_for_every_weapon_leaves_no_cycle() -> None:
    b = _duel([wc_weapon("Sword"), wc_weapon("Bow", range=10)])

    def refused() -> None:
        with pytest.raises(RulesError, match="dual wielding"):
            RULESET.attack(b, req(offhand="Dagger"))

    refused()  # the lazy parts of the battle made once
    assert _cycles_left_by(refused) == 0


def test_the_same_attack_accepted_leaves_no_cycle_either() -> None:
    """The measure of the test above: an attack that is not refused makes none."""
    b = _duel([wc_weapon("Sword"), wc_weapon("Bow", range=10)])
    RULESET.attack(b, req())
    assert _cycles_left_by(lambda: RULESET.attack(b, req())) == 0


def test_a_weapon_refused_in_the_target_scan_leaves_no_cycle() -> None:
    """The batch target check keeps a refused weapon's error to report it for every
    target: without the traceback that holds its own frame."""
    b = _duel([wc_weapon("Club", attacks=1000), wc_weapon("Sword")])
    assert RULESET.batch_targets
    verdicts = RULESET.target_validity(b, "a", ["t"])
    assert verdicts["t"][0]  # the sword is in range
    assert _cycles_left_by(lambda: RULESET.target_validity(b, "a", ["t"])) == 0


@pytest.mark.parametrize("ruleset_id", registry.RULESET_IDS)
def test_a_battle_the_rules_have_read_is_freed_without_the_collector(ruleset_id: str) -> None:
    """Whatever a ruleset keeps with a battle (``Battle.kept``) holds no way back to the
    battle: an attack and a target list on a demo's battle leave nothing for the cyclic
    collector, so a battle dropped after the heap was frozen is still freed."""
    scenario = load_demo(ruleset_id)
    ruleset = registry.get(ruleset_id)
    attacker = scenario.models[0]
    targets = [m.id for m in scenario.models if m.side != attacker.side]
    assert targets

    def read() -> None:
        b = battle_of(scenario)
        verdicts = ruleset.target_validity(b, attacker.id, targets)
        assert set(verdicts) == set(targets)
        ruleset.attack(b, AttackRequest(attacker.id, next(iter(targets))))

    read()
    assert _cycles_left_by(read) == 0
