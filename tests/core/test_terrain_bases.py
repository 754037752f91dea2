"""The base of each obstacle (``TerrainSet.build``: the top of the highest platform holding
its representative point) found only for the obstacles whose bounding box meets a
platform's (``terrain._bases``) is the one every obstacle against every platform gives:
obstacles inside, across, touching and beside platforms, nested and overlapping platforms,
empty polygons among them; and the padded edge and vertex arrays, read with the slots of
the whole rings, are those of each polygon's own ring."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.terrain import TerrainSet


def every_pair(ts: TerrainSet, terrains: tuple[Terrain, ...]) -> list[float]:
    """The obvious bases: each obstacle's representative point against every platform."""
    out = []
    for t, poly in zip(terrains, ts.polygons, strict=True):
        base = 0.0
        if t.kind == "obstacle" and not poly.is_empty:
            point = shapely.point_on_surface(poly)
            for u, other in zip(terrains, ts.polygons, strict=True):
                if u.kind == "platform" and shapely.intersects(other, point):
                    base = max(base, max(0.0, float(u.height)))
        out.append(base)
    return out


def pieces(seed: int, k: int) -> tuple[Terrain, ...]:
    rng = np.random.default_rng(seed)
    out = []
    for n in range(k):
        cx, cy = rng.uniform(0, 20, 2)
        w, h = rng.choice([0.2, 1.0, 3.0, 8.0], 2)
        a = rng.uniform(0, math.pi) if rng.random() < 0.5 else 0.0
        c, s = math.cos(a), math.sin(a)
        pts = tuple((float(cx + u * c - v * s), float(cy + u * s + v * c))
                    for u, v in ((-w, -h), (w, -h), (w, h), (-w, h)))
        kind = "platform" if rng.random() < 0.4 else "obstacle"
        if rng.random() < 0.05:
            pts = pts[:2]  # empty
        out.append(Terrain(f"t{n}", kind, pts, float(rng.choice([0.0, 1.0, 2.5, 4.0]))))
    # an obstacle exactly on a platform's edge, one touching its corner from outside
    out.append(Terrain("p", "platform", ((30.0, 0.0), (34.0, 0.0), (34.0, 4.0), (30.0, 4.0)),
                       3.0))
    out.append(Terrain("e", "obstacle", ((33.0, 1.0), (35.0, 1.0), (35.0, 2.0), (33.0, 2.0)),
                       1.0))
    out.append(Terrain("c", "obstacle", ((34.0, 4.0), (36.0, 4.0), (36.0, 6.0), (34.0, 6.0)),
                       1.0))
    return tuple(out)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30))
def test_bases_are_those_of_every_obstacle_against_every_platform(seed: int, k: int) -> None:
    terrains = pieces(seed, k)
    ts = TerrainSet.build(terrains)
    assert ts.base.tolist() == every_pair(ts, terrains)


@pytest.mark.parametrize("n", [200, 2000])
def test_the_benchmark_boards_bases(n: int) -> None:
    terrains = synthetic_board(n, seed=2).terrains
    ts = TerrainSet.build(terrains)
    want = every_pair(ts, terrains)
    assert ts.base.tolist() == want and max(want) > 0


def own_rings(ts: TerrainSet) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Padded vertices and edges (starts, inward normals, valid) from each polygon's own
    exterior ring, counter-clockwise, closing point dropped (convex and small ones' edges;
    every small one's vertices)."""
    k = len(ts.polygons)
    rings = [shapely.get_coordinates(p.exterior)[:-1] if not p.is_empty else np.zeros((0, 2))
             for p in ts.polygons]
    width = max([len(r) for r in rings] + [1])
    verts, starts = np.zeros((k, width, 2)), np.zeros((k, width, 2))
    normals, valid = np.zeros((k, width, 2)), np.zeros((k, width), dtype=bool)
    for n, r in enumerate(rings):
        if ts.large[n]:
            continue
        verts[n, :len(r)] = r
        if not ts.convex[n]:
            continue
        d = np.roll(r, -1, axis=0) - r
        length = np.hypot(d[:, 0], d[:, 1])
        ok = length > 0
        starts[n, :len(r)] = r
        normals[n, :len(r), 0] = np.where(ok, -d[:, 1] / np.where(ok, length, 1.0), 0.0)
        normals[n, :len(r), 1] = np.where(ok, d[:, 0] / np.where(ok, length, 1.0), 0.0)
        valid[n, :len(r)] = ok
    return verts, starts, normals, valid


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_edges_and_vertices_are_those_of_each_ring(seed: int) -> None:
    rng = np.random.default_rng(seed)
    terrains = list(pieces(seed, 20))
    # not convex (an L), a large convex one (a 100-gon) and a hexagon
    terrains.append(Terrain("l", "obstacle", ((0.0, 0.0), (4.0, 0.0), (4.0, 1.0), (1.0, 1.0),
                                              (1.0, 4.0), (0.0, 4.0)), 2.0))
    ang = np.linspace(0, 2 * np.pi, 100, endpoint=False)
    terrains.append(Terrain("g", "obstacle", tuple(zip((5 + np.cos(ang)).tolist(),
                                                       (5 + np.sin(ang)).tolist(),
                                                       strict=True)), 2.0))
    ang = np.sort(rng.uniform(0, 2 * np.pi, 6))
    terrains.append(Terrain("h", "platform", tuple(zip((9 + np.cos(ang)).tolist(),
                                                       (9 + np.sin(ang)).tolist(),
                                                       strict=True)), 1.0))
    ts = TerrainSet.build(tuple(terrains))
    verts, starts, normals, valid = own_rings(ts)
    v = ts.vertices.shape[1]
    assert ts.vertices.tobytes() == verts[:, :v].tobytes()
    e = ts.edge_start.shape[1]
    assert ts.edge_start.tobytes() == starts[:, :e].tobytes()
    assert ts.edge_normal.tobytes() == normals[:, :e].tobytes()
    assert ts.edge_valid.tolist() == valid[:, :e].tolist()
    assert ts.large.any() and (~ts.convex & ~ts.large).any() and (ts.edge_count == 6).any()
