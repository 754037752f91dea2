"""The Ninth Age's facing cover and scans computed for a whole battlefield at once give the
answers of the obvious computations, on random army boards with forests (not convex),
hills, walls, units in contact, and polygons of thousands of vertices (jagged and round):

- ``fan.masks``: every line it says is certainly hidden is hidden (``segments.blocked``),
  every line it leaves out is not;
- facing cover of every pair (``BoardGeometry.facing_covers``) and of single pairs equals
  the straightforward computation (every sample line against every obstruction);
- the situations of a scan (``engine.scan_situations``) equal those of single pairs, each
  on a fresh geometry;
- the gaps of a scan equal single measures; the facing ends in numpy equal ``facing_edge``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import shapely

from tabletop_gui.bench.battlefields import ninth_age_scenario, warcry_jagged_scenario
from tabletop_gui.geometry import facing_cover, fan, unit_arcs
from tabletop_gui.geometry.board import Board, Body, Footprint, Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.rules.base import Battle
from tabletop_gui.rules.ninth_age import engine
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.load import loads_scenario
from tests.core.test_geometry_facing_cover import straightforward


def battle_from(doc: dict[str, object]) -> Battle:
    return battle_of(loads_scenario(json.dumps(doc)))


def with_big_polygons(doc: dict[str, object], vertices: int) -> dict[str, object]:
    """The document with a jagged and a round obstacle of ``vertices`` vertices in the
    middle of its table."""
    bf = doc["battlefield"]
    assert isinstance(bf, dict)
    cx, cy = 0.5 * bf["width"], 0.5 * bf["depth"]
    rocks = warcry_jagged_scenario(vertices, 2)["obstacles"][0]  # type: ignore[index]
    jag = [[x - 22 + cx - 9, y - 15 + cy] for x, y in rocks["polygon"]]
    ring = [[round(cx + 9 + 3 * math.cos(a), 6), round(cy + 3 * math.sin(a), 6)]
            for a in np.arange(vertices) * (2 * math.pi / vertices)]
    obstacles = list(doc["obstacles"])  # type: ignore[call-overload]
    obstacles += [{"id": "jagged", "name": "Rocks", "polygon": jag, "height": 3,
                   "blocks_sight": True, "cover": "hard"},
                  {"id": "tower", "name": "Tower", "polygon": ring, "height": 3,
                   "blocks_sight": True, "cover": "soft"}]
    return {**doc, "obstacles": obstacles}


def boards() -> list[Board]:
    return [battle_from(ninth_age_scenario(30, seed=5)).board,
            battle_from(with_big_polygons(ninth_age_scenario(24, seed=6), 2000)).board]


def opposing(b: Board) -> list[tuple[int, int]]:
    return [(a, t) for a in range(len(b.bodies)) for t in range(len(b.bodies))
            if b.bodies[a].side != b.bodies[t].side]


@pytest.mark.parametrize("which", [0, 1])
def test_facing_cover_of_every_pair_equals_the_straightforward_computation(which: int
                                                                          ) -> None:
    b = boards()[which]
    pairs = opposing(b)
    rng = np.random.default_rng(which)
    kinds = set()
    for threshold in ("more_than_half", "half_or_more"):
        g = BoardGeometry(b)
        every = g.facing_covers(threshold)  # type: ignore[arg-type]
        assert set(every) == set(pairs)
        # a few pairs of each kind of cover, at random
        sample = [pair for kind in ("none", "soft", "hard")
                  for pair in rng.permutation([p for p in pairs if every[p].kind == kind])[:3]]
        single = BoardGeometry(b)  # one pair at a time, then from the table
        for s, t in sample:
            want = straightforward(g, int(s), int(t), threshold)
            assert every[(s, t)] == want, (s, t, threshold)
            assert single.facing_cover(b.bodies[s].id, b.bodies[t].id,
                                       threshold=threshold) == want  # type: ignore[arg-type]
            kinds.add(want.kind)
    assert kinds == {"none", "soft", "hard"}


def test_masks_never_claim_a_hidden_line_wrongly() -> None:
    """Fans from random points onto random facings against the obstructions of a board
    (walls, forests in convex parts, 32-gon bodies, the hull and core of 2000-vertex
    polygons): lines that a piece says are certainly hidden are hidden by its obstruction,
    and lines no piece of it says may be hidden are not; most lines need no test."""
    from tabletop_gui.geometry.rings import ragged

    b = boards()[1]
    obs = BoardGeometry(b).obstructions()
    pcs, ts = obs.pieces, obs.ts
    rng = np.random.default_rng(3)
    n = 1500
    owner = rng.integers(0, len(ts), n)
    centre = 0.5 * (ts.bounds[owner, :2] + ts.bounds[owner, 2:])
    s0 = centre + rng.normal(0, 8, (n, 2))
    near = rng.random(n) < 0.2  # the shooter inside or at the obstruction
    s0[near] = centre[near] + rng.normal(0, 0.3, (int(near.sum()), 2))
    s1 = s0 + rng.normal(0, 1.5, (n, 2))
    t0 = centre + rng.normal(0, 8, (n, 2))
    t1 = t0 + rng.normal(0, 2, (n, 2))
    row, piece = ragged(pcs.first[owner], pcs.count[owner])
    fans = fan.Fans(s0[row, 0], s0[row, 1], (s1 - s0)[row, 0], (s1 - s0)[row, 1],
                    t0[row, 0], t0[row, 1], (t1 - t0)[row, 0], (t1 - t0)[row, 1])
    fractions = np.array([0.0, 0.5, 1.0])
    poss_r, cert_r = fan.masks(pcs, piece, fans, fractions)
    assert not (cert_r & ~poss_r).any()
    poss = np.zeros((n, len(fractions)), dtype=np.uint64)
    cert = np.zeros_like(poss)
    np.bitwise_or.at(poss, row, poss_r)
    np.bitwise_or.at(cert, row, cert_r)

    def bits(m: np.ndarray) -> np.ndarray:
        return np.unpackbits(m.ravel().view(np.uint8).reshape(-1, 8), axis=1,
                             bitorder="little").astype(bool)

    fan_of, point = np.divmod(np.arange(n * len(fractions)), len(fractions))
    sp = s0[fan_of] + fractions[point][:, None] * (s1 - s0)[fan_of]
    tp = t0[fan_of][:, None, :] + fan.U[None, :, None] * (t1 - t0)[fan_of][:, None, :]
    p = np.repeat(sp, fan.N, axis=0)
    z = np.zeros((len(p), 1))
    hidden = blocked(np.hstack([p, z]), np.hstack([tp.reshape(-1, 2), z]),
                     np.repeat(owner[fan_of], fan.N), ts, use_z=False).reshape(-1, fan.N)
    assert not (bits(cert) & ~hidden).any()
    assert not (hidden & ~bits(poss)).any()
    assert hidden.any() and (~hidden).any() and bits(cert).any()
    assert (bits(poss) & ~bits(cert)).mean() < 0.02  # lines left to test one by one


def test_pieces_cover_their_polygon_and_lie_in_it() -> None:
    b = boards()[1]
    obs = BoardGeometry(b).obstructions()
    pcs, ts = obs.pieces, obs.ts
    for o in np.flatnonzero((pcs.count > 1) | ts.large | ~ts.convex):
        poly = ts.polygons[o]
        rings = []
        for m in range(int(pcs.first[o]), int(pcs.first[o] + pcs.count[o])):
            pg = pcs.groups[pcs.group[m]]
            k = pcs.slot[m]
            ring = shapely.Polygon(np.column_stack([pg.vx[k], pg.vy[k]]))
            assert ring.is_valid and shapely.area(ring) > 0
            assert shapely.area(shapely.convex_hull(ring)) == pytest.approx(
                shapely.area(ring), rel=1e-9)  # convex
            if pg.shrunk[k]:  # it says lines are certainly hidden: it lies in the polygon
                assert poly.buffer(1e-9).covers(ring)
            rings.append(ring)
        union = shapely.union_all(rings)
        assert union.buffer(1e-9).covers(poly), ts.terrains[o].id
    assert ts.large.sum() == 2


def test_scan_situations_equal_single_situations() -> None:
    doc = ninth_age_scenario(22, seed=9)
    battle = battle_from(doc)
    scan = engine.scan_situations(battle, "more_than_half")
    ids = [b.id for b in battle.board.bodies]
    assert len(scan) == 2 * 11 * 11
    again = battle_from(doc)  # another Board object: another geometry, asked pair by pair
    for (a, t), want in scan.items():
        assert engine.situation_of(again, a, t, "more_than_half") == want
    rng = np.random.default_rng(1)
    engaged = [k for k in scan if scan[k].engaged]
    assert engaged
    for a, t in [*engaged[:3], *(list(scan)[k] for k in rng.choice(len(scan), 8))]:
        fresh = battle_from(doc)  # single-pair answers only
        assert engine.situation_of(fresh, a, t, "more_than_half") == scan[(a, t)]
    assert set(ids) == {a for a, _ in scan}


def test_gaps_of_a_scan_equal_single_measures() -> None:
    rng = np.random.default_rng(4)
    bodies = []
    for k in range(40):
        shape = ("circle", "rect", "ellipse")[k % 3]
        fp = Footprint(shape, float(rng.uniform(0, 20)), float(rng.uniform(0, 20)),
                       float(rng.uniform(0.8, 2.5)), float(rng.uniform(0.8, 2.0)),
                       float(rng.uniform(0, 360)))
        bodies.append(Body(f"b{k}", "red" if k % 2 else "blue", fp, None, 1.0,
                           active=k != 7))
    b = Board(20.0, 20.0, tuple(bodies), (Terrain("hill", "platform", ((5, 5), (9, 5), (9, 9),
                                                                       (5, 9)), 1.0),))
    g = BoardGeometry(b)
    gaps = g.horizontal_gaps()
    for a in range(len(bodies)):
        single = BoardGeometry(b)  # fewer than TABLE_AFTER measures: each on its own
        for t in range(len(bodies)):
            if bodies[a].side == bodies[t].side or not (bodies[a].active and bodies[t].active):
                assert math.isnan(gaps[a][t])
                continue
            fresh = single.measure(bodies[a].id, bodies[t].id)
            assert gaps[a][t] == fresh.horizontal
            assert g.measure(bodies[a].id, bodies[t].id) == fresh


def test_facing_ends_in_numpy_equal_facing_edge() -> None:
    b = boards()[0]
    g = BoardGeometry(b)
    pairs = [(a, t) for a in range(len(b.bodies)) for t in range(len(b.bodies)) if a != t]
    ends, arcs = facing_cover._ends(g.obstructions(), pairs)
    for n, (s, t) in enumerate(pairs):
        sb, tb = b.bodies[s], b.bodies[t]
        arc = unit_arcs.arc_of_point(tb, unit_arcs.reference_point(sb))
        assert arcs[n] == arc
        want = (facing_cover.facing_edge(sb, "front", (tb.footprint.x, tb.footprint.y))
                + facing_cover.facing_edge(tb, arc, (sb.footprint.x, sb.footprint.y)))
        assert np.array_equal(ends[n], np.array(want))
