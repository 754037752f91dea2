"""When a fighter is out of the game is its ruleset's rule: the generic one (flagged, or
damage at its wounds) everywhere, and both legs lost as well in Circle of Realms only."""

from __future__ import annotations

import dataclasses

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Battlefield, Fighter, RoundBase, Scenario, Side, Unit

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


@pytest.mark.parametrize("hp,hp_lost,left", [
    (1, 0, 20), (1, 1, 19), (1, 19, 1), (1, 20, 0), (1, 25, 0),
    (3, 2, 20),   # a model is removed only when all its Health Points are lost
    (3, 3, 19), (3, 5, 19), (3, 6, 18), (3, 59, 1), (3, 60, 0),
])
def test_a_unit_loses_whole_models_as_its_health_points_go(hp: int, hp_lost: int,
                                                            left: int) -> None:
    unit = Unit("u", "Spears", "red", 5.0, 5.0, 20, 5, (20.0, 20.0),
                characteristics={"hp": hp}, state={"hp_lost": hp_lost})
    assert unit.models_left == left
    assert unit.taken_down is (left == 0)


def test_the_canvas_and_the_ninth_age_rules_count_the_same_models_left() -> None:
    """The entity (what the canvas draws) and the Ninth Age's view of it (what the rules
    attack with) read one count."""
    from tabletop_gui.rules.ninth_age.units import UnitView

    for hp in (1, 2, 3, 5):
        for lost in range(0, 3 * hp * 7):
            unit = Unit("u", "Spears", "red", 5.0, 5.0, 7, 3, (20.0, 20.0),
                        characteristics={"hp": hp}, state={"hp_lost": lost})
            view = UnitView("u", "Spears", "red", {"hp": hp}, state={"hp_lost": lost},
                            models=7, files=3)
            assert unit.models_left == view.alive, (hp, lost)
