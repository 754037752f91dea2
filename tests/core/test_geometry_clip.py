"""Convex clipping in one (edges x segments) array gives exactly the values of the
edge-by-edge loop, on random and degenerate segments (along edges, through corners,
zero length, parallel to edges)."""

from __future__ import annotations

import numpy as np

from tabletop_gui.geometry import segments
from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.terrain import TerrainSet


def _terrain() -> TerrainSet:
    hexagon = tuple((3 + 2 * np.cos(a), 3 + 2 * np.sin(a))
                    for a in np.linspace(0, 2 * np.pi, 6, endpoint=False))
    circle = tuple((8 + np.cos(a), 1 + np.sin(a))
                   for a in np.linspace(0, 2 * np.pi, 32, endpoint=False))
    return TerrainSet.build((
        Terrain("sq", "obstacle", ((0, 0), (2, 0), (2, 2), (0, 2)), 1.0),
        Terrain("tri", "obstacle", ((4, 0), (6, 0), (5, 1)), 1.0),
        Terrain("hex", "obstacle", tuple((float(x), float(y)) for x, y in hexagon), 1.0),
        Terrain("dup", "obstacle", ((0, 4), (1, 4), (1, 4), (1, 5), (0, 5)), 1.0),
        Terrain("disc", "obstacle", tuple((float(x), float(y)) for x, y in circle), 1.0),
    ))


def test_at_once_equals_edge_by_edge() -> None:
    ts = _terrain()
    rng = np.random.default_rng(5)
    n = 4000
    tid = rng.integers(0, len(ts), n).astype(np.intp)
    # random segments, and segments between vertices (along edges, through corners)
    p = rng.uniform(-1, 10, (n, 2))
    q = rng.uniform(-1, 10, (n, 2))
    v = ts.vertices
    k = rng.integers(0, 3, n)
    snap = rng.random(n) < 0.5
    p[snap] = v[tid[snap], k[snap]]
    q[snap] = v[tid[snap], (k[snap] + 1) % 3]
    same = rng.random(n) < 0.05
    q[same] = p[same]  # zero length
    d = q - p
    for group in (tid, np.full(n, 4, dtype=np.intp), np.full(n, 0, dtype=np.intp)):
        edges = int(ts.edge_count[group].max())
        limit = segments._AT_ONCE
        try:
            segments._AT_ONCE = 0
            lo1, hi1 = segments._clip(p, d, group, ts, edges)
            segments._AT_ONCE = 1 << 40
            lo2, hi2 = segments._clip(p, d, group, ts, edges)
        finally:
            segments._AT_ONCE = limit
        assert np.array_equal(lo1, lo2) and np.array_equal(hi1, hi2)
        assert (hi1 > lo1).any() and (hi1 <= lo1).any()


def test_sight_rounds_in_one_call_equal_two_calls() -> None:
    """Stage 2 of sight for small batches tests both rounds' lines in one call; the
    answers (and the blockers) are those of the two separate rounds."""
    from tabletop_gui.bench.battlefields import synthetic_board
    from tabletop_gui.geometry import sight
    from tabletop_gui.geometry.board_geometry import BoardGeometry
    from tabletop_gui.geometry.pairs import opposing_pairs

    limit = sight.MERGE_BELOW
    hidden = 0
    try:
        for seed in (1, 2):
            g = BoardGeometry(synthetic_board(120, seed))
            i, j = opposing_pairs(g.bodies)
            for s in range(0, len(i), 400):
                ii, jj = i[s:s + 400], j[s:s + 400]
                sight.MERGE_BELOW = 0
                a = sight.sight_pairs(g.bodies, g.terrain, ii, jj)
                sight.MERGE_BELOW = 1 << 40
                b = sight.sight_pairs(g.bodies, g.terrain, ii, jj)
                assert np.array_equal(a.visible, b.visible)
                assert np.array_equal(a.blocker_pair, b.blocker_pair)
                assert np.array_equal(a.blocker_terrain, b.blocker_terrain)
                hidden += int((~a.visible).sum())
    finally:
        sight.MERGE_BELOW = limit
    assert hidden > 0
