"""When a fighter is out of the game is its ruleset's rule: the generic one (flagged, or
damage at its wounds) everywhere, and both legs lost as well in Circle of Realms only."""

from __future__ import annotations

import dataclasses

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Battlefield, Fighter, RoundBase, Scenario, Side

LEGLESS = {"limbs_lost": ["RL", "LL"], "damage": 0}


def _fighter(fid: str, side: str, x: float, state: dict[str, object]) -> Fighter:
    return Fighter(fid, fid, side, x, 5.0, RoundBase(25.4),
                   characteristics={"wounds": 10}, state=state)


def _scenario(ruleset: str, state: dict[str, object]) -> Scenario:
    return Scenario(ruleset=ruleset, battlefield=Battlefield(20, 10),
                    sides=(Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1")),
                    fighters=(_fighter("a", "red", 3.0, {}), _fighter("t", "blue", 8.0, state)))


def _target(sc: Scenario) -> Fighter:
    target = sc.model("t")
    assert isinstance(target, Fighter)
    return target


@pytest.mark.parametrize("ruleset,down", [("circle-of-realms", True), ("warcry", False),
                                          ("mordheim-warcry", False)])
def test_both_legs_lost_is_out_of_the_game_only_in_circle_of_realms(ruleset: str,
                                                                    down: bool) -> None:
    sc = _scenario(ruleset, LEGLESS)
    assert sc.taken_down(_target(sc)) is down
    assert registry.get(ruleset).is_taken_down(_target(sc)) is down
    # the battle's body of the target is out of the game the same way
    body = next(b for b in battle_of(sc).board.bodies if b.id == "t")
    assert body.active is not down


@pytest.mark.parametrize("ruleset", ["circle-of-realms", "warcry", "fight-vs-defense"])
@pytest.mark.parametrize("state,down", [({"damage": 10}, True), ({"damage": 9}, False),
                                        ({"taken_down": True}, True), ({}, False)])
def test_the_generic_rule_holds_in_every_fighter_ruleset(ruleset: str,
                                                         state: dict[str, object],
                                                         down: bool) -> None:
    sc = _scenario(ruleset, state)
    assert (sc.taken_down(_target(sc)), registry.get(ruleset).is_taken_down(_target(sc))) == (
        down, down)


def test_a_rulesets_declared_rule_is_what_the_scenario_reads(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    sc = _scenario("warcry", {})
    target = _target(sc)
    assert not sc.taken_down(target)
    always = dataclasses.replace(registry.INFOS["warcry"], taken_down_rule=lambda c: True)
    monkeypatch.setitem(registry.INFOS, "warcry", always)
    assert sc.taken_down(target)
