"""Segments against polygons with many edges, or not convex, tested only against the
edges near them (``rings``), give exactly the answers of the obvious computations: shapely's
``relate`` for polygons that are not convex, clipping by every edge for convex ones. Random
segments and degenerate ones (through vertices, along edges, zero length)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop_gui.geometry import segments, terrain
from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.terrain import TerrainSet


def star(rng: np.random.Generator, cx: float, cy: float, n: int, r0: float, amp: float,
         lobes: int, noise: float) -> tuple[tuple[float, float], ...]:
    a = np.arange(n) * 2 * math.pi / n
    r = r0 + amp * np.cos(lobes * a) + rng.uniform(-noise, noise, n)
    return tuple((float(cx + q * math.cos(t)), float(cy + q * math.sin(t)))
                 for t, q in zip(a, r, strict=True))


def pieces(rng: np.random.Generator) -> tuple[Terrain, ...]:
    return (
        Terrain("L", "obstacle", ((0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)), 2.0),
        Terrain("jagged", "obstacle", star(rng, 10, 10, 3000, 5, 1, 25, 0.02), 2.0),
        Terrain("spiky", "obstacle", star(rng, -8, 8, 2000, 4, 0, 1, 1.0), 2.0),
        Terrain("circle", "obstacle", star(rng, 20, -5, 3000, 4, 0, 1, 0.0), 2.0),
        Terrain("poly100", "obstacle", star(rng, -5, -5, 100, 3, 0, 1, 0.0), 2.0),
        Terrain("square", "obstacle", ((3, -3), (5, -3), (5, -1), (3, -1)), 2.0),
        Terrain("blob", "obstacle", star(rng, 4, 5, 9, 2, 0.8, 2, 0.3), 2.0),
        Terrain("comb", "obstacle", ((30, 0), (40, 0), (40, 1), (39, 1), (39, 3), (38, 3),
                                     (38, 1), (37, 1), (37, 3), (36, 3), (36, 1), (30, 1)),
                2.0),
    )


def segments_for(rng: np.random.Generator, ts: TerrainSet, n: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tid = rng.integers(0, len(ts), n).astype(np.intp)
    b = ts.bounds[tid]
    p = np.column_stack([rng.uniform(b[:, 0] - 2, b[:, 2] + 2),
                         rng.uniform(b[:, 1] - 2, b[:, 3] + 2)])
    q = np.column_stack([rng.uniform(b[:, 0] - 2, b[:, 2] + 2),
                         rng.uniform(b[:, 1] - 2, b[:, 3] + 2)])
    for m in np.flatnonzero(rng.random(n) < 0.3):  # through vertices and along edges
        ring = np.asarray(ts.polygons[tid[m]].exterior.coords)[:-1]
        k = int(rng.integers(len(ring)))
        p[m] = ring[k]
        roll = rng.random()
        if roll < 0.4:
            q[m] = ring[(k + int(rng.integers(1, 4))) % len(ring)]
        elif roll < 0.7:
            q[m] = ring[k] + 3 * (ring[(k + 1) % len(ring)] - ring[k])
        elif roll < 0.85:
            q[m] = 2 * ring[k] - q[m]  # a line through the vertex
    same = rng.random(n) < 0.02
    q[same] = p[same]
    return p, q, tid


@pytest.mark.parametrize("seed", [1, 2])
def test_near_edges_give_the_answers_of_every_edge(seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    terrains = pieces(rng)
    ts = TerrainSet.build(terrains)
    names = [t.id for t in terrains]
    assert np.array_equal(ts.ringed, ~ts.convex | ts.large)
    assert ts.large[names.index("circle")] and ts.convex[names.index("circle")]
    assert ts.large[names.index("poly100")] and not ts.large[names.index("square")]
    assert not ts.convex[names.index("comb")] and not ts.convex[names.index("blob")]
    monkeypatch.setattr(terrain, "LARGE", 1 << 30)
    padded = TerrainSet.build(terrains)  # every convex polygon clipped by every edge
    assert not padded.large.any()
    p, q, tid = segments_for(rng, ts, 3000)
    z = np.zeros((len(tid), 1))
    pp, qq = np.hstack([p, z]), np.hstack([q, z])
    fast = segments.blocked(pp, qq, tid, ts, use_z=False)
    conv = ts.convex[tid]
    shapely_answer = segments.blocked(pp, qq, tid, ts, use_z=False, exact_shapely=True)
    assert np.array_equal(fast[~conv], shapely_answer[~conv])
    assert np.array_equal(fast, segments.blocked(pp, qq, tid, padded, use_z=False))
    # the interior ranges themselves, clamped to the segment
    d = q - p
    lo1, hi1 = segments.convex_interior(p[conv], d[conv], tid[conv], ts)
    lo2, hi2 = segments.convex_interior(p[conv], d[conv], tid[conv], padded)
    a1, b1, a2, b2 = (np.clip(x, 0.0, 1.0) for x in (lo1, hi1, lo2, hi2))
    empty1, empty2 = b1 <= a1, b2 <= a2
    assert np.array_equal(empty1, empty2)
    assert np.array_equal(a1[~empty1], a2[~empty2]) and np.array_equal(b1[~empty1], b2[~empty2])
    # the cases are there: blocked and clear segments of every piece
    for k in range(len(ts)):
        assert fast[tid == k].any() and not fast[tid == k].all(), names[k]


def test_segments_with_height_through_a_many_vertex_prism() -> None:
    """3D segments (clipped to the prism's heights first) agree with shapely too."""
    rng = np.random.default_rng(7)
    ts = TerrainSet.build((Terrain("jagged", "obstacle", star(rng, 0, 0, 5000, 5, 1, 25, 0.3),
                                   2.0),))
    n = 1500
    p = np.column_stack([rng.uniform(-8, 8, (n, 2)), rng.uniform(0, 4, n)])
    q = np.column_stack([rng.uniform(-8, 8, (n, 2)), rng.uniform(0, 4, n)])
    tid = np.zeros(n, dtype=np.intp)
    fast = segments.blocked(p, q, tid, ts)
    assert np.array_equal(fast, segments.blocked(p, q, tid, ts, exact_shapely=True))
    assert fast.any() and not fast.all()
