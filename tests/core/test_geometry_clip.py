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
