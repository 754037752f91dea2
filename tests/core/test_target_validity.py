"""``Ruleset.target_validity`` (many targets at once) says exactly what ``attack`` says:
valid or not, and the same reasons, for every ordered pair of every demo, with the default
weapon and with each weapon named, and on a crowded battlefield after a drag step whose
pair table was updated incrementally (``BoardGeometry.moved``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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


def _random_crowd(seed: int) -> Scenario:
    """Fighters of two sides scattered over a small table (many within 1" of each other,
    attacks across the 3" and weapon-range limits), some placed exactly at a limit from
    the first fighter, with a wall; weapons of several ranges, missile and not."""
    import random
    from dataclasses import replace as dc_replace

    from tabletop_gui.bench.cases_gui import crowd_scenario
    from tabletop_gui.scenario.entities import Weapon

    rnd = random.Random(seed)
    base = crowd_scenario(2)
    template = base.fighters[0]
    weapons = (Weapon("Sword", {"range": 1, "attacks": 4, "strength": 4, "damage": "1/4"}),
               Weapon("Bow", {"range": "3-8", "attacks": 2, "strength": 3, "damage": "1/3"}),
               Weapon("Sling", {"range": 6, "attacks": 2, "strength": 3, "damage": "1/3"}))
    first = (8.0, 8.0)
    fighters = []
    for i in range(60):
        if i == 0:
            x, y = first
        elif i < 12:  # an enemy whose base edge is 1", 3", 6" or 8" from the first's
            gap = rnd.choice((1.0, 3.0, 6.0, 8.0)) + rnd.choice((0.0, 1e-7, -1e-7))
            reach = gap + template.base.length_in  # centre to centre
            dx, dy = rnd.choice(((1, 0), (-1, 0), (0, 1), (0, -1), (0.6, 0.8)))
            x, y = first[0] + reach * dx, first[1] + reach * dy
        else:
            x, y = rnd.uniform(1.5, 18.5), rnd.uniform(1.5, 18.5)
        side = "red" if i == 0 or (i >= 12 and rnd.random() < 0.5) else "blue"
        fighters.append(dc_replace(template, id=f"f{i}", name=f"F{i}", side=side,
                                   x=x, y=y,
                                   weapons=tuple(rnd.sample(weapons, rnd.randint(1, 3)))))
    return dc_replace(base, fighters=tuple(fighters),
                      battlefield=dc_replace(base.battlefield, width=20.0, depth=20.0),
                      obstacles=(dc_replace(base.obstacles[0],
                                            polygon=((9.0, 4.0), (10.0, 4.0), (10.0, 14.0),
                                                     (9.0, 14.0))),),
                      platforms=())


@pytest.mark.parametrize("seed", range(6))
def test_the_verdicts_decided_at_once_are_those_of_each_pair(seed: int) -> None:
    """``validity._fast_verdicts`` (every opposing pair and weapon at once, from the
    rows) says what ``_fast_ok`` says weapon by weapon, pair by pair, on random crowds:
    targets at the very range and 1" limits, friends near the targets, a wall."""
    from tabletop_gui.rules.warcry_family import validity
    from tabletop_gui.rules.warcry_family.targeting import Targeting
    from tabletop_gui.rules.warcry_family.weapons import find_weapon, profile_of

    scenario = _random_crowd(seed)
    battle = battle_of(scenario)
    ruleset = registry.get("warcry")
    tg = Targeting.of(battle)
    undecided = decided = 0
    for a in scenario.models[:20]:
        attacker = battle.combatant(a.id)
        profiles = []
        for w in a.weapons:
            prof = profile_of(find_weapon(attacker, w.name), a.id)
            profiles.append((prof, *ruleset.missile_rule(prof, a.id)))
        b = validity._Board(tg, ruleset.table_rule(), attacker)
        ids = [m.id for m in scenario.models]
        ks = [b.index[t] for t in ids]
        fast = validity._fast_verdicts(b, ids, ks, profiles)
        expected = {t: any(validity._fast_ok(b, k, t, *p) for p in profiles)
                    for t, k in zip(ids, ks, strict=True) if b.opposing(k)}
        assert fast == expected, a.id
        for prof, missile, exception in profiles:
            opposing = np.asarray([k for k in ks if b.opposing(k)], dtype=np.intp)
            states = validity._fast_states(b, opposing, prof, missile)
            undecided += int((states == -1).sum())
            decided += int((states != -1).sum())
            for k, s in zip(opposing.tolist(), states.tolist(), strict=True):
                if s != -1:  # what the rows decided is what the pair's checks say
                    t = ids[ks.index(k)]
                    assert bool(s) == validity._fast_ok(b, k, t, prof, missile, exception)
    assert decided > 0 and undecided > 0  # both ways were taken
