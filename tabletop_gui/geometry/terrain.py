"""Terrain as prisms: each obstacle and platform is its polygon from a base height up to a top.

Platforms are solids from the table (0) up to their height. An obstacle stands on the
table, or on the highest platform that contains its representative point (a point
inside its polygon), and then starts at that platform's height: its prism is
[base, base + height].

Convex polygons are also kept as padded edge arrays (counter-clockwise, inward unit
normals) so that segment tests run in numpy; other polygons fall back to shapely.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry.board import Terrain

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class TerrainSet:
    """Every terrain piece of a board as arrays (index i is ``terrains[i]``)."""

    terrains: tuple[Terrain, ...]
    polygons: NDArray[np.object_]  # shapely polygons
    base: FloatArray  # bottom of each prism
    top: FloatArray  # top of each prism
    is_obstacle: BoolArray
    blocks_sight: BoolArray
    hard: BoolArray
    convex: BoolArray
    bounds: FloatArray  # (k, 4): minx, miny, maxx, maxy
    edge_start: FloatArray  # (k, v, 2) padded; padding edges have zero normals
    edge_normal: FloatArray  # (k, v, 2) inward unit normals
    edge_valid: BoolArray  # (k, v)
    edge_nx: FloatArray  # (k, v) inward normal x; padding edges: 0
    edge_ny: FloatArray  # (k, v) inward normal y; padding edges: 0
    edge_c: FloatArray  # (k, v) n . start; padding edges: -1 (always satisfied)
    vertices: FloatArray  # (k, v, 2) exterior vertices of every polygon, padded
    vertex_valid: BoolArray  # (k, v)
    # the same, vertex-major for fast gathers: (v, k); padding repeats a real vertex
    vertex_x: FloatArray
    vertex_y: FloatArray
    # edges vertex-major (v, k): inward normal and offset; padding edges never constrain
    edge_nx_t: FloatArray
    edge_ny_t: FloatArray
    edge_c_t: FloatArray
    # edges of each polygon that can constrain (1 + index of its last valid edge; 0: none)
    edge_count: IntArray

    @staticmethod
    def of(terrains: tuple[Terrain, ...]) -> TerrainSet:
        """The TerrainSet of these terrain values, kept for equal tuples (a document edit that
        moves a fighter rebuilds its Board with equal terrain: no need to prepare it again)."""
        for known, ts in _CACHE:
            if known is terrains or known == terrains:
                return ts
        ts = TerrainSet.build(terrains)
        _CACHE.insert(0, (terrains, ts))
        del _CACHE[_CACHE_SIZE:]
        return ts

    @staticmethod
    def clear_cache() -> None:
        _CACHE.clear()

    @staticmethod
    def build(terrains: tuple[Terrain, ...]) -> TerrainSet:
        k = len(terrains)
        polys = np.empty(k, dtype=object)
        for i, t in enumerate(terrains):
            polys[i] = _valid_polygon(t.polygon)
        is_obstacle = np.array([t.kind == "obstacle" for t in terrains], dtype=bool)
        heights = np.array([max(0.0, float(t.height)) for t in terrains], dtype=float)
        base = np.zeros(k)
        platforms = [i for i in range(k) if not is_obstacle[i]]
        for i in range(k):
            if is_obstacle[i] and platforms and not polys[i].is_empty:
                rp = shapely.point_on_surface(polys[i])
                under = [heights[j] for j in platforms if shapely.intersects(polys[j], rp)]
                base[i] = max(under, default=0.0)
        top = base + heights
        convex = np.array(
            [not p.is_empty and abs(p.convex_hull.area - p.area) <= 1e-9 * max(1.0, p.area)
             and p.area > 0 for p in polys],
            dtype=bool,
        )
        bounds = (
            shapely.bounds(polys).reshape(k, 4) if k else np.zeros((0, 4))
        )
        es, en, ev = _edges(polys, convex)
        verts, vvalid = _vertices(polys)
        return TerrainSet(
            terrains=terrains,
            polygons=polys,
            base=base,
            top=top,
            is_obstacle=is_obstacle,
            blocks_sight=np.array([t.blocks_sight or t.kind == "platform" for t in terrains],
                                  dtype=bool),
            hard=np.array([t.cover == "hard" for t in terrains], dtype=bool),
            convex=convex,
            bounds=np.nan_to_num(bounds, nan=0.0),
            edge_start=es,
            edge_normal=en,
            edge_valid=ev,
            edge_nx=np.where(ev, en[:, :, 0], 0.0),
            edge_ny=np.where(ev, en[:, :, 1], 0.0),
            edge_c=np.where(ev, np.einsum("kvc,kvc->kv", en, es), -1.0),
            vertices=verts,
            vertex_valid=vvalid,
            vertex_x=_padded_major(verts[:, :, 0], vvalid),
            vertex_y=_padded_major(verts[:, :, 1], vvalid),
            edge_nx_t=np.ascontiguousarray(np.where(ev, en[:, :, 0], 0.0).T),
            edge_ny_t=np.ascontiguousarray(np.where(ev, en[:, :, 1], 0.0).T),
            edge_c_t=np.ascontiguousarray(
                np.where(ev, np.einsum("kvc,kvc->kv", en, es), -1.0).T),
            edge_count=_edge_count(ev),
        )

    def __len__(self) -> int:
        return len(self.terrains)

    def platform_heights_at(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, IntArray]:
        """Highest platform top covering each point (0 and -1 where none), and its index."""
        n = len(x)
        best = np.zeros(n)
        which = np.full(n, -1, dtype=np.intp)
        for j in np.flatnonzero(~self.is_obstacle):
            inside = shapely.intersects_xy(self.polygons[j], x, y)
            better = inside & ((which < 0) | (self.top[j] > best))
            best = np.where(better, self.top[j], best)
            which = np.where(better, j, which)
        return best, which

    def platforms_at(self, x: float, y: float) -> list[int]:
        """Indices of the platforms covering a point."""
        return [
            int(j) for j in np.flatnonzero(~self.is_obstacle)
            if shapely.intersects_xy(self.polygons[j], x, y)
        ]


_CACHE: list[tuple[tuple[Terrain, ...], TerrainSet]] = []
_CACHE_SIZE = 4


def _valid_polygon(points: tuple[tuple[float, float], ...]) -> shapely.Polygon:
    if len(points) < 3:
        return shapely.Polygon()
    poly = shapely.Polygon(points)
    if not poly.is_valid:
        fixed = shapely.make_valid(poly)
        polys = [g for g in getattr(fixed, "geoms", [fixed]) if isinstance(g, shapely.Polygon)]
        poly = max(polys, key=lambda g: g.area) if polys else shapely.Polygon()
    return shapely.orient_polygons(poly) if not poly.is_empty else poly


def _edges(polys: NDArray[np.object_], convex: BoolArray
           ) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Padded edge arrays of the convex polygons (counter-clockwise, inward normals)."""
    k = len(polys)
    rings: list[FloatArray] = []
    for i in range(k):
        if convex[i]:
            ring = np.asarray(shapely.get_coordinates(polys[i].exterior))[:-1]
            rings.append(ring)
        else:
            rings.append(np.zeros((0, 2)))
    v = max((len(r) for r in rings), default=0)
    es = np.zeros((k, v, 2))
    en = np.zeros((k, v, 2))
    ev = np.zeros((k, v), dtype=bool)
    for i, ring in enumerate(rings):
        m = len(ring)
        if m == 0:
            continue
        a = ring
        b = np.roll(ring, -1, axis=0)
        d = b - a
        length = np.hypot(d[:, 0], d[:, 1])
        ok = length > 0
        # counter-clockwise ring: the interior is on the left, inward normal (-dy, dx)
        nx = np.where(ok, -d[:, 1] / np.where(ok, length, 1.0), 0.0)
        ny = np.where(ok, d[:, 0] / np.where(ok, length, 1.0), 0.0)
        es[i, :m] = a
        en[i, :m, 0] = nx
        en[i, :m, 1] = ny
        ev[i, :m] = ok
    return es, en, ev


def _edge_count(valid: BoolArray) -> IntArray:
    """1 + the index of each polygon's last valid edge (0 when it has none)."""
    if valid.shape[1] == 0:
        return np.zeros(valid.shape[0], dtype=np.intp)
    last = valid.shape[1] - np.argmax(valid[:, ::-1], axis=1)
    return np.where(valid.any(axis=1), last, 0).astype(np.intp)


def _vertices(polys: NDArray[np.object_]) -> tuple[FloatArray, BoolArray]:
    rings = [np.asarray(shapely.get_coordinates(p.exterior))[:-1] if not p.is_empty
             else np.zeros((0, 2)) for p in polys]
    v = max((len(r) for r in rings), default=1)
    pts = np.zeros((len(rings), max(v, 1), 2))
    ok = np.zeros((len(rings), max(v, 1)), dtype=bool)
    for k, r in enumerate(rings):
        pts[k, :len(r)] = r
        ok[k, :len(r)] = True
    return pts, ok


def _padded_major(values: FloatArray, valid: BoolArray) -> FloatArray:
    """(k, v) -> (v, k), padding slots filled with the polygon's first vertex."""
    first = values[:, :1] if values.shape[1] else np.zeros((values.shape[0], 1))
    return np.ascontiguousarray(np.where(valid, values, first).T)
