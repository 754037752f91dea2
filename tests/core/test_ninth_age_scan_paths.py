"""The whole-battlefield Ninth Age scan reads every pair's facts from the geometry's
tables: the arcs of the facing-cover table (``BoardGeometry.facing_arcs``) are
``unit_arcs.arc_of_point`` of each pair, and the scanned situations are those computed
pair by pair on a fresh battle (engaged pairs, round bases and monsters included)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletop_gui.bench.battlefields import ninth_age_scenario
from tabletop_gui.geometry import unit_arcs
from tabletop_gui.rules.base import Battle
from tabletop_gui.rules.ninth_age import engine
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.load import loads_scenario


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
