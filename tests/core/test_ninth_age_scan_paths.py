"""The whole-battlefield Ninth Age scan reads every pair's facts from the geometry's
tables: the arcs of the facing-cover table (``BoardGeometry.facing_arcs``) are
``unit_arcs.arc_of_point`` of each pair, and the scanned situations are those computed
pair by pair on a fresh battle (engaged pairs, round bases and monsters included), with
the contact models of the pairs in contact measured in one call."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletop_gui.bench.battlefields import ninth_age_scenario
from tabletop_gui.geometry import unit_arcs
from tabletop_gui.geometry.board import Body, Footprint
from tabletop_gui.rules.base import Battle
from tabletop_gui.rules.ninth_age import engine
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.load import loads_scenario
from tests.core.test_contact_models_batched import random_unit


def battle_from(doc: dict[str, object]) -> Battle:
    return battle_of(loads_scenario(json.dumps(doc)))


@pytest.mark.parametrize("seed", [2, 3, 11])
def test_the_arcs_of_the_facing_table_are_each_pairs_arc(seed: int) -> None:
    g = battle_from(ninth_age_scenario(16, seed)).geometry
    pairs, *_ = g.facing_choices()
    arcs = g.facing_arcs()
    bodies = g.bodies.bodies
    assert len(arcs) == len(pairs) == 2 * 8 * 8
    for (i, j), arc in zip(pairs, arcs, strict=True):
        want = unit_arcs.arc_of_point(bodies[j], unit_arcs.reference_point(bodies[i]))
        assert arc == want, (bodies[i].id, bodies[j].id)


@pytest.mark.parametrize(("seed", "threshold"), [(3, "more_than_half"), (6, "half_or_more"),
                                                 (13, "more_than_half")])
def test_scanned_situations_are_the_single_pairs(seed: int, threshold: str) -> None:
    doc = ninth_age_scenario(14, seed)
    scan = engine.scan_situations(battle_from(doc), threshold)
    assert len(scan) == 2 * 7 * 7
    rng = np.random.default_rng(seed)
    keys = list(scan)
    engaged = [k for k in keys if scan[k].engaged]
    covered = [k for k in keys if scan[k].cover != "none"]
    assert engaged and covered
    picked = {*engaged, *covered[:4], *(keys[int(k)] for k in rng.choice(len(keys), 6))}
    for a, t in picked:
        fresh = battle_from(doc)  # a single pair on its own: no table, no scan
        assert engine.situation_of(fresh, a, t, threshold) == scan[(a, t)], (a, t)


def test_contact_models_of_many_pairs_are_each_pairs() -> None:
    """``unit_arcs.contact_models_many`` (one call for every pair in contact of a scan,
    an attacker's bases made once for all its targets) counts what ``contact_models``
    counts pair by pair: round and rectangular targets, attackers with several targets,
    in contact, just out of it and overlapping."""
    rng = np.random.default_rng(5)
    pairs = []
    for n in range(120):
        target = random_unit(rng, f"t{n}", 0.0, 0.0)
        reach = 0.5 * max(target.footprint.length, target.footprint.width)
        attacker = random_unit(rng, f"a{n}", 0.0, 0.0)
        gap = float(rng.choice([0.0, 0.005, 0.0101, 0.3, -0.2]))
        fp = attacker.footprint
        moved = Footprint(fp.shape, 0.0, reach + 0.5 * fp.length + gap + float(rng.uniform(
            -0.5, 0.5)) * (n % 2), fp.length, fp.width, 270.0)
        attacker = Body(attacker.id, attacker.id, moved, 0.0, 1.0, attacker.formation)
        pairs.append((attacker, target))
        if n % 4 == 0:  # the same attacker against another target
            pairs.append((attacker, random_unit(rng, f"u{n}", float(rng.uniform(-1, 1)), 0.0)))
    want = [unit_arcs.contact_models(a, t) for a, t in pairs]
    assert unit_arcs.contact_models_many(pairs) == want
    assert len(set(want)) > 3 and 0 in want
    assert unit_arcs.contact_models_many([]) == []


@pytest.mark.parametrize("seed", [4, 8])
def test_measures_after_a_scan_are_the_single_measures(seed: int) -> None:
    """After ``horizontal_gaps`` (a scan), a measure reads the scan's matrix entry: the
    same Measure (gap, vertical, distance and both closest points) as a geometry that
    measures the pair on its own, both ways round."""
    doc = ninth_age_scenario(12, seed)
    scanned = battle_from(doc).geometry
    scanned.horizontal_gaps()
    ids = [b.id for b in scanned.bodies.bodies]
    sides = {b.id: b.side for b in scanned.bodies.bodies}
    for a in ids[:5]:
        for t in ids:
            if sides[a] == sides[t]:
                continue
            for x, y in ((a, t), (t, a)):
                single = battle_from(doc).geometry  # one measure: no row, no matrix
                assert scanned.measure(x, y) == single.measure(x, y), (x, y)
