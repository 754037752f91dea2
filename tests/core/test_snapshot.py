"""``Snapshot``: one revision's scenario, battle and geometry, the geometry built lazily once;
a drag step's snapshot derived from the previous one (new pair tables, the old ones left as
they were) answers as a snapshot built afresh; no cache shared between snapshots."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.pairs import PairTable
from tabletop_gui.rules import registry
from tabletop_gui.rules.warcry_family.targeting import Targeting
from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Obstacle,
    OvalBase,
    Platform,
    RectBase,
    RoundBase,
    Scenario,
    Side,
    Weapon,
)
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.geometry_helpers import assert_same_tables

WARCRY = CoverRule(True, 3.0)
BOW = Weapon("Bow", {"range": "3-18", "attacks": 2, "strength": 3, "damage": "1/3"})
SWORD = Weapon("Sword", {"range": 1, "attacks": 4, "strength": 4, "damage": "1/4"})
BASES = (RoundBase(32), OvalBase(60, 35), RectBase(25, 50))


def scenario(n: int = 30, seed: int = 1) -> Scenario:
    """``n`` fighters of two sides on round, oval and rectangular bases at random places and
    facings over 30" x 30", with walls and a platform."""
    rng = np.random.default_rng(seed)
    fighters = tuple(
        Fighter(f"m{i}", f"Model {i}", "red" if i % 2 else "blue",
                float(rng.uniform(1, 29)), float(rng.uniform(1, 29)), BASES[i % 3],
                facing=float(rng.uniform(0, 360)),
                characteristics={"move": 4, "toughness": 4, "wounds": 15},
                weapons=(SWORD, BOW))
        for i in range(n))
    walls = tuple(Obstacle(f"w{k}", ((x, y), (x + 4, y), (x + 4, y + 0.5), (x, y + 0.5)),
                           float(rng.uniform(0.5, 3)), f"Wall {k}")
                  for k, (x, y) in enumerate(rng.uniform(2, 24, (5, 2))))
    return Scenario(
        ruleset="warcry", name="Snapshots", battlefield=Battlefield(30, 30),
        sides=(Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1")),
        fighters=fighters, obstacles=walls,
        platforms=(Platform("p1", ((20, 20), (26, 20), (26, 26), (20, 26)), 3.0, "Tower"),),
    )


def moved(sc: Scenario, model_id: str, dx: float, dy: float, facing: float) -> Scenario:
    m = sc.model(model_id)
    assert isinstance(m, Fighter)
    return sc.with_entity(replace(m, x=m.x + dx, y=m.y + dy, facing=facing))


def table_values(t: PairTable) -> tuple[np.ndarray, ...]:
    return (t.horizontal.copy(), t.vertical.copy(), t.distance.copy(), t.visible.copy(),
            t.cover.copy(), t.flanked.copy())



def test_geometry_is_built_on_first_use_and_once() -> None:
    snap = Snapshot.of(scenario())
    assert not snap.geometry_built
    g = snap.geometry
    assert snap.geometry_built
    assert snap.geometry is g and snap.battle.geometry is g


def test_threads_asking_at_once_get_one_geometry() -> None:
    snap = Snapshot.of(scenario(60))
    barrier = threading.Barrier(4)
    got: list[object] = []

    def ask() -> None:
        barrier.wait()
        got.append(snap.geometry)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and all(g is got[0] for g in got)


def test_equal_scenarios_share_no_geometry() -> None:
    sc = scenario()
    a, b = Snapshot.of(sc), Snapshot.of(sc)
    c = Snapshot.of(replace(sc))
    assert a.geometry is not b.geometry and a.geometry is not c.geometry
    assert a.geometry.terrain is not b.geometry.terrain
    assert a.geometry.bodies is not b.geometry.bodies
    assert a.battle is not b.battle
    assert Targeting.of(a.battle) is not Targeting.of(b.battle)
    assert Targeting.of(a.battle) is Targeting.of(a.battle)  # kept with its battle


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_moved_answers_as_a_fresh_snapshot_and_leaves_the_old_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sc = scenario(30, seed)
    snap = Snapshot.of(sc)
    snap.geometry.pair_table(WARCRY)
    ruleset = registry.get("warcry")
    for _ in range(6):
        mid = f"m{int(rng.integers(0, 30))}"
        dx, dy = rng.uniform(-3, 3, 2)
        new = moved(sc, mid, float(dx), float(dy), float(rng.uniform(0, 360)))
        old_table = snap.geometry.pair_table(WARCRY)
        kept = table_values(old_table)
        a, t = "m0", "m1"
        old_answers = (snap.geometry.measure(a, t), snap.geometry.sight(a, t))
        nxt = snap.moved(mid, new)
        fresh = Snapshot.of(new)
        assert nxt.scenario is new and nxt.battle.board.body(mid) == fresh.battle.board.body(mid)
        assert_same_tables(nxt.geometry.pair_table(WARCRY), fresh.geometry.pair_table(WARCRY))
        assert nxt.geometry.terrain is snap.geometry.terrain  # prepared once
        # the old snapshot: the same table, with the same values, and the same answers
        assert snap.geometry.pair_table(WARCRY) is old_table
        for before, now in zip(kept, table_values(old_table), strict=True):
            np.testing.assert_array_equal(before, now)
        assert (snap.geometry.measure(a, t), snap.geometry.sight(a, t)) == old_answers
        enemies = [m.id for m in new.models if m.side != new.model(mid).side]
        assert ruleset.target_validity(nxt.battle, mid, enemies, "Bow") \
            == ruleset.target_validity(fresh.battle, mid, enemies, "Bow")
        sc, snap = new, nxt


def test_a_facing_change_alone_is_followed() -> None:
    sc = scenario(12, 5)
    snap = Snapshot.of(sc)
    snap.geometry.pair_table(WARCRY)
    m = sc.model("m1")  # an oval base: its facing changes its outline
    assert isinstance(m, Fighter) and isinstance(m.base, OvalBase)
    turned = sc.with_entity(replace(m, facing=m.facing + 90.0))
    nxt = snap.moved("m1", turned)
    assert nxt.battle.board.body("m1").footprint.facing == pytest.approx(m.facing + 90.0,
                                                                          abs=1e-12)
    assert_same_tables(nxt.geometry.pair_table(WARCRY),
                       Snapshot.of(turned).geometry.pair_table(WARCRY))


def test_drag_steps_nobody_asked_about_are_skipped() -> None:
    sc = scenario(20, 7)
    snap = Snapshot.of(sc)
    snap.geometry.pair_table(WARCRY)
    steps = [snap]
    for k in range(4):
        sc = moved(sc, "m4", 0.4, -0.2, 10.0 * k)
        steps.append(steps[-1].moved("m4", sc))
    last = steps[-1]
    assert_same_tables(last.geometry.pair_table(WARCRY),
                       Snapshot.of(sc).geometry.pair_table(WARCRY))
    assert not any(s.geometry_built for s in steps[1:-1])  # derived from the first directly


def test_revised_reuses_what_did_not_change() -> None:
    sc = scenario(10, 2)
    snap = Snapshot.of(sc)
    g = snap.geometry
    assert snap.revised(sc) is snap
    renamed = replace(sc, name="Another name")  # the very same models and terrain
    same = snap.revised(renamed)
    assert same.scenario is renamed and same.battle is snap.battle and same.geometry is g
    one = moved(sc, "m2", 1.0, 0.0, 0.0)
    assert snap.revised(one).geometry.pair_table(WARCRY) is not None
    two = moved(one, "m3", 1.0, 0.0, 0.0)  # two models changed: built afresh, same terrain
    other = snap.revised(two)
    assert other.geometry is not g and other.geometry.terrain is g.terrain
    wall = sc.obstacles[0]
    walls = replace(sc, obstacles=(replace(wall, height=wall.height + 1), *sc.obstacles[1:]))
    changed = snap.revised(walls)
    assert changed.geometry.terrain is not g.terrain
    assert changed.geometry.terrain.top[0] - changed.geometry.terrain.base[0] \
        == pytest.approx(wall.height + 1, abs=1e-12)


def test_moved_with_more_changes_is_built_afresh() -> None:
    sc = scenario(10, 4)
    snap = Snapshot.of(sc)
    snap.geometry.pair_table(WARCRY)
    two = moved(moved(sc, "m2", 1.0, 0.0, 0.0), "m3", 0.0, 1.0, 0.0)
    nxt = snap.moved("m2", two)
    assert_same_tables(nxt.geometry.pair_table(WARCRY),
                       Snapshot.of(two).geometry.pair_table(WARCRY))


def test_making_snapshots_builds_nothing() -> None:
    # the GUI thread makes a snapshot per revision and drag step; the worker builds
    sc = scenario(10, 6)
    snap = Snapshot.of(sc)
    nxt = snap.moved("m2", moved(sc, "m2", 1.0, 0.0, 0.0))
    other = nxt.revised(moved(nxt.scenario, "m3", 0.0, 1.0, 0.0))
    assert all(s._battle.built is None for s in (snap, nxt, other))
    assert other.battle.board.body("m3") == Snapshot.of(other.scenario).battle.board.body("m3")
