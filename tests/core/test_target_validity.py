"""``Ruleset.target_validity`` (many targets at once) says exactly what ``attack`` says:
valid or not, and the same reasons, for every ordered pair of every demo, with the default
weapon and with each weapon named, and on a crowded battlefield after a drag step whose
pair table was updated incrementally (``BoardGeometry.moved``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, Battle, RulesError, Ruleset
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.snapshot import Snapshot

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"


def one_by_one(ruleset: Ruleset, battle: Battle, attacker: str, targets: list[str],
               weapon: str | None) -> dict[str, tuple[bool, tuple[str, ...]]]:
    out = {}
    for t in targets:
        try:
            r = ruleset.attack(battle, AttackRequest(attacker, t, weapon))
        except RulesError as e:
            out[t] = (False, (str(e),))
            continue
        out[t] = (r.valid, tuple(r.reasons))
    return out


def check_all_pairs(scenario: Scenario) -> int:
    ruleset = registry.get(scenario.ruleset)
    battle = battle_of(scenario)
    ids = [m.id for m in scenario.models]
    compared = 0
    for a in scenario.models:
        for weapon in [None, *(w.name for w in a.weapons)]:
            fast = ruleset.target_validity(battle, a.id, ids, weapon)
            assert list(fast) == ids
            assert fast == one_by_one(ruleset, battle, a.id, ids, weapon), (a.id, weapon)
            quiet = ruleset.target_validity(battle, a.id, ids, weapon, explain=False)
            assert {t: v for t, (v, _) in quiet.items()} == {t: v for t, (v, _) in fast.items()}
            assert all(r in ((), fast[t][1]) for t, (_, r) in quiet.items())
            compared += len(ids)
    return compared


@pytest.mark.parametrize("path", sorted(DEMOS.glob("*.battle.json")), ids=lambda p: p.stem)
def test_every_pair_of_every_demo(path: Path) -> None:
    assert check_all_pairs(load_scenario(path)) > 0


def test_an_unknown_target_is_refused_in_the_rules_words() -> None:
    scenario = load_scenario(DEMOS / "warcry.battle.json")
    ruleset = registry.get("warcry")
    battle = battle_of(scenario)
    a = scenario.models[0].id
    fast = ruleset.target_validity(battle, a, ["nobody"])
    assert fast == one_by_one(ruleset, battle, a, ["nobody"], None)
    assert fast["nobody"][0] is False


def test_a_crowd_after_drag_steps_of_the_attacker() -> None:
    from tabletop_gui.bench.cases_gui import crowd_scenario

    scenario = crowd_scenario(200)
    ruleset = registry.get("warcry")
    attacker = "m90"
    enemies = [m.id for m in scenario.models if m.side != "red"]
    snapshot = Snapshot.of(scenario)
    snapshot.geometry.pair_table()
    for step in range(3):
        m = scenario.model(attacker)
        assert m is not None
        moved = scenario.with_entity(m.moved_to(m.x + 0.7, m.y + 1.3 * (step % 2)))
        snapshot = snapshot.moved(attacker, moved)  # tables derived from the last step's
        new = snapshot.battle
        scenario = moved
        for weapon in (None, "Sword", "Bow"):
            fast = ruleset.target_validity(new, attacker, enemies, weapon)
            assert fast == one_by_one(ruleset, new, attacker, enemies, weapon)
        assert any(v for v, _ in fast.values())
        assert any(not v for v, _ in fast.values())


def test_target_validity_after_drag_steps_reads_no_whole_matrix() -> None:
    """The targets of a dragged attacker are checked from its rows of the derived pair
    tables and the table's pairs within 1": no matrix of a drag step's table is folded
    whole (``geometry.layered``: that would copy N x N values every step)."""
    from tabletop_gui.bench.cases_gui import crowd_scenario

    scenario = crowd_scenario(200)
    ruleset = registry.get("warcry")
    attacker = "m90"
    enemies = [m.id for m in scenario.models if m.side != "red"]
    snapshot = Snapshot.of(scenario)
    ruleset.target_validity(snapshot.battle, attacker, enemies, "Bow")  # builds the tables
    for step in range(3):
        m = scenario.model(attacker)
        assert m is not None
        scenario = scenario.with_entity(m.moved_to(m.x + 0.7, m.y + 1.3 * (step % 2)))
        snapshot = snapshot.moved(attacker, scenario)
        fast = ruleset.target_validity(snapshot.battle, attacker, enemies, "Bow")
        assert any(v for v, _ in fast.values())
        tables = list(snapshot.geometry._tables.values())
        assert tables
        assert all(t.distance_layers.layers == 1 and t.visible_layers.layers == 1
                   for t in tables)
