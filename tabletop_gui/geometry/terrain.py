"""Terrain as prisms: each obstacle and platform is its polygon from a base height up to a top.

Platforms are solids from the table (0) up to their height. An obstacle stands on the
table, or on the highest platform that contains its representative point (a point
inside its polygon), and then starts at that platform's height: its prism is
[base, base + height].

Convex polygons of at most ``LARGE`` vertices are also kept as padded edge arrays
(counter-clockwise, inward unit normals) so that segment tests run in numpy. Polygons that
are not convex (without holes) and convex ones with more vertices are indexed as edge
chains (``rings.RingIndex``), so that a segment meets only the edges near it; the rest
(holes) fall back to shapely.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.rings import RingIndex

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

LARGE = 64  # polygons with more vertices are kept only in the ring index (no padded arrays)


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
    large: BoolArray  # more than LARGE vertices: not in the padded arrays below
    ringed: BoolArray  # in ``rings`` (not convex without holes, or large and convex)
    rings: RingIndex
    bounds: FloatArray  # (k, 4): minx, miny, maxx, maxy
    # padded arrays of the polygons that are not large (their rows are empty for large ones)
    edge_start: FloatArray  # (k, v, 2) padded; padding edges have zero normals
    edge_normal: FloatArray  # (k, v, 2) inward unit normals
    edge_valid: BoolArray  # (k, v)
    edge_nx: FloatArray  # (k, v) inward normal x; padding edges: 0
    edge_ny: FloatArray  # (k, v) inward normal y; padding edges: 0
    edge_c: FloatArray  # (k, v) n . start; padding edges: -1 (always satisfied)
    vertices: FloatArray  # (k, v, 2) exterior vertices of every polygon, padded
    vertex_valid: BoolArray  # (k, v)
    # points whose convex hull holds each polygon, vertex-major for fast gathers: (v, k),
    # padding repeats a real point: the vertices, or the corners of a large one's box
    vertex_x: FloatArray
    vertex_y: FloatArray
    # edges vertex-major (v, k): inward normal and offset; padding edges never constrain
    edge_nx_t: FloatArray
    edge_ny_t: FloatArray
    edge_c_t: FloatArray
    # edges of each polygon that can constrain (1 + index of its last valid edge; 0: none)
    edge_count: IntArray

    @staticmethod
    def build(terrains: tuple[Terrain, ...]) -> TerrainSet:
        k = len(terrains)
        polys = _valid_polygons(terrains)
        is_obstacle = np.array([t.kind == "obstacle" for t in terrains], dtype=bool)
        heights = np.array([max(0.0, float(t.height)) for t in terrains], dtype=float)
        empty = np.asarray(shapely.is_empty(polys), dtype=bool) if k else np.zeros(0, bool)
        raw_bounds = shapely.bounds(polys).reshape(k, 4) if k else np.zeros((0, 4))
        finite = np.asarray(np.isfinite(raw_bounds).all(axis=1), dtype=bool)
        # empty polygons (NaN) and the like
        bounds = raw_bounds if finite.all() else np.nan_to_num(raw_bounds, nan=0.0)
        base = np.zeros(k)
        platforms = np.flatnonzero(~is_obstacle)
        standing = np.flatnonzero(is_obstacle & ~empty)
        if len(platforms) and len(standing):
            # an obstacle stands on the highest platform holding its representative point
            base[standing] = _bases(polys, raw_bounds if finite[~empty].all() else None,
                                    heights, platforms, standing)
        top = base + heights
        area = np.asarray(shapely.area(polys), dtype=float) if k else np.zeros(0)
        hull_area = (np.asarray(shapely.area(shapely.convex_hull(polys)), dtype=float)
                     if k else np.zeros(0))
        convex = (~empty & (np.abs(hull_area - area) <= 1e-9 * np.maximum(1.0, area))
                  & (area > 0))
        # the exterior rings of every polygon, read once (closing points dropped)
        ring, owner = _rings(polys, ~empty)
        slot = _slots(owner)
        n_vert = np.bincount(owner, minlength=k)  # what ``get_num_coordinates`` - 1 gives
        large = ~empty & (n_vert > LARGE)
        holes = (np.asarray(shapely.get_num_interior_rings(polys), dtype=np.intp) > 0
                 if k else np.zeros(0, dtype=bool))
        ringed = ~empty & ((~convex & ~holes) | (convex & large))
        if ringed.any():
            shapely.prepare(polys[ringed])  # their points are located by shapely (fast)
        es, en, ev = _edges(ring, owner, slot, convex & ~large, k)
        verts, vvalid = _vertices(ring, owner, slot, ~large, k)
        hull_x, hull_y = _hull_points(verts, vvalid, bounds, large)
        edge_nx = np.where(ev, en[:, :, 0], 0.0)
        edge_ny = np.where(ev, en[:, :, 1], 0.0)
        edge_c = np.where(ev, np.einsum("kvc,kvc->kv", en, es), -1.0)
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
            large=large,
            ringed=ringed,
            rings=RingIndex.build(polys, ringed),
            bounds=bounds,
            edge_start=es,
            edge_normal=en,
            edge_valid=ev,
            edge_nx=edge_nx,
            edge_ny=edge_ny,
            edge_c=edge_c,
            vertices=verts,
            vertex_valid=vvalid,
            vertex_x=hull_x,
            vertex_y=hull_y,
            edge_nx_t=np.ascontiguousarray(edge_nx.T),
            edge_ny_t=np.ascontiguousarray(edge_ny.T),
            edge_c_t=np.ascontiguousarray(edge_c.T),
            edge_count=_edge_count(ev),
        )

    def __len__(self) -> int:
        return len(self.terrains)


def _bases(polys: NDArray[np.object_], bounds: FloatArray | None, heights: FloatArray,
           platforms: IntArray, standing: IntArray) -> FloatArray:
    """The top of the highest platform holding each ``standing`` obstacle's representative
    point (shapely's ``point_on_surface``; 0: none). The points are made and located only
    for the obstacles whose bounding box meets a platform's (``bounds``: finite but for
    empty polygons, whose NaN meet nothing; None: every pair), padded far above rounding:
    no other point can be on it."""
    if bounds is None:
        p, s = (np.repeat(np.arange(len(platforms)), len(standing)),
                np.tile(np.arange(len(standing)), len(platforms)))
    else:
        pb = bounds[platforms][:, :, None]
        sb = bounds[standing]
        pad = 1e-9 * (1.0 + np.abs(sb).max(axis=1))
        near = (sb[:, 0] - pad <= pb[:, 2]) & (sb[:, 2] + pad >= pb[:, 0])
        near &= sb[:, 1] - pad <= pb[:, 3]
        near &= sb[:, 3] + pad >= pb[:, 1]
        p, s = np.nonzero(near)
    base = np.zeros(len(standing))
    if len(p):
        made, at = np.unique(s, return_inverse=True)
        points = shapely.point_on_surface(polys[standing[made]])
        on = np.asarray(shapely.intersects(polys[platforms[p]], points[at]), dtype=bool)
        np.maximum.at(base, s[on], heights[platforms[p[on]]])
    return base


def _valid_polygons(terrains: tuple[Terrain, ...]) -> NDArray[np.object_]:
    """The polygon of each terrain (``_valid_polygon``), the usual ones (at least three
    finite points, valid) made in one go."""
    k = len(terrains)
    polys = np.empty(k, dtype=object)
    plain, coords, sizes = _plain_rings(terrains)
    if len(plain):
        index = np.repeat(np.arange(len(plain)), sizes)
        made = shapely.polygons(shapely.linearrings(coords, indices=index))
        valid = np.asarray(shapely.is_valid(made), dtype=bool)
        ok = np.flatnonzero(valid & ~np.asarray(shapely.is_empty(made), dtype=bool))
        made[ok] = shapely.orient_polygons(made[ok])
        polys[plain[valid]] = made[valid]
        for n in plain[~valid]:
            polys[n] = _valid_polygon(terrains[n].polygon)
    if len(plain) < k:
        done = set(plain.tolist())
        for n, t in enumerate(terrains):
            if n not in done:
                polys[n] = _valid_polygon(t.polygon)
    return polys


def _plain_rings(terrains: tuple[Terrain, ...]) -> tuple[IntArray, FloatArray, IntArray]:
    """The terrains whose polygons are at least three finite (x, y) points, their points
    stacked, and how many each has: read in one array when every point is a pair of
    numbers, else terrain by terrain."""
    sizes = np.array([len(t.polygon) for t in terrains], dtype=np.intp)
    try:
        flat = np.array([p for t in terrains for p in t.polygon], dtype=float)
    except (TypeError, ValueError):
        flat = np.zeros((0, 0))
    if flat.ndim == 2 and flat.shape[1] == 2:
        owner = np.repeat(np.arange(len(terrains)), sizes)
        bad = np.zeros(len(terrains), dtype=bool)
        bad[owner[~np.isfinite(flat).all(axis=1)]] = True
        keep = ~bad & (sizes >= 3)
        return np.flatnonzero(keep), flat[keep[owner]], sizes[keep]
    try:
        rings = [np.asarray(t.polygon, dtype=float) for t in terrains]
        plain = [n for n, r in enumerate(rings) if r.ndim == 2 and r.shape[1] == 2
                 and len(r) >= 3 and np.isfinite(r).all()]
    except (TypeError, ValueError):
        plain = []
    if not plain:
        return np.zeros(0, np.intp), np.zeros((0, 2)), np.zeros(0, np.intp)
    return (np.array(plain, dtype=np.intp), np.concatenate([rings[n] for n in plain]),
            np.array([len(rings[n]) for n in plain], dtype=np.intp))


def _valid_polygon(points: tuple[tuple[float, float], ...]) -> shapely.Polygon:
    if len(points) < 3:
        return shapely.Polygon()
    poly = shapely.Polygon(points)
    if not poly.is_valid:
        fixed = shapely.make_valid(poly)
        polys = [g for g in getattr(fixed, "geoms", [fixed]) if isinstance(g, shapely.Polygon)]
        poly = max(polys, key=lambda g: g.area) if polys else shapely.Polygon()
    return shapely.orient_polygons(poly) if not poly.is_empty else poly


def _rings(polys: NDArray[np.object_], keep: BoolArray) -> tuple[FloatArray, IntArray]:
    """Exterior vertices (closing point dropped) of the polygons ``keep`` selects, stacked,
    and the polygon each belongs to."""
    sel = np.flatnonzero(keep)
    if len(sel) == 0:
        return np.zeros((0, 2)), np.zeros(0, np.intp)
    coords, index = shapely.get_coordinates(shapely.get_exterior_ring(polys[sel]),
                                            return_index=True)
    last = np.ones(len(index), dtype=bool)
    last[:-1] = index[1:] != index[:-1]  # each ring's closing point
    return np.asarray(coords[~last], dtype=float), sel[index[~last]].astype(np.intp)


def _slots(owner: IntArray) -> IntArray:
    """Position of each stacked vertex within its polygon's ring."""
    starts = np.ones(len(owner), dtype=bool)
    starts[1:] = owner[1:] != owner[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(len(owner)), 0))
    return (np.arange(len(owner)) - first).astype(np.intp)


def _edges(ring: FloatArray, owner: IntArray, slot: IntArray, convex: BoolArray, k: int
           ) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Padded edge arrays of the convex polygons (counter-clockwise, inward normals), from
    the stacked ring vertices (``_rings``) of k polygons and their ``_slots``."""
    a, owner, slot = _of(ring, owner, slot, convex)
    v = int(slot.max()) + 1 if len(slot) else 0
    es = np.zeros((k, v, 2))
    en = np.zeros((k, v, 2))
    ev = np.zeros((k, v), dtype=bool)
    if len(a) == 0:
        return es, en, ev
    # the next vertex of the same ring (the first after the last)
    nxt = np.arange(1, len(a) + 1)
    ends = np.flatnonzero(np.append(owner[1:] != owner[:-1], True))
    nxt[ends] = ends - slot[ends]
    d = a[nxt] - a
    length = np.hypot(d[:, 0], d[:, 1])
    ok = length > 0
    # counter-clockwise ring: the interior is on the left, inward normal (-dy, dx)
    nx = np.where(ok, -d[:, 1] / np.where(ok, length, 1.0), 0.0)
    ny = np.where(ok, d[:, 0] / np.where(ok, length, 1.0), 0.0)
    es[owner, slot] = a
    en[owner, slot, 0] = nx
    en[owner, slot, 1] = ny
    ev[owner, slot] = ok
    return es, en, ev


def _of(ring: FloatArray, owner: IntArray, slot: IntArray, polygons: BoolArray
        ) -> tuple[FloatArray, IntArray, IntArray]:
    """The stacked vertices, owners and slots of the ``polygons`` selected (whole rings:
    each vertex keeps its slot)."""
    mine = polygons[owner]
    if mine.all():
        return ring, owner, slot
    return ring[mine], owner[mine], slot[mine]


def _edge_count(valid: BoolArray) -> IntArray:
    """1 + the index of each polygon's last valid edge (0 when it has none)."""
    if valid.shape[1] == 0:
        return np.zeros(valid.shape[0], dtype=np.intp)
    last = valid.shape[1] - np.argmax(valid[:, ::-1], axis=1)
    return np.where(valid.any(axis=1), last, 0).astype(np.intp)


def _vertices(ring: FloatArray, owner: IntArray, slot: IntArray, small: BoolArray, k: int
              ) -> tuple[FloatArray, BoolArray]:
    """Padded exterior vertices of the polygons ``small`` selects (of k), from the stacked
    ring vertices of the non-empty ones (``_rings``) and their ``_slots``."""
    a, owner, slot = _of(ring, owner, slot, small)
    v = int(slot.max()) + 1 if len(slot) else 0
    pts = np.zeros((k, max(v, 1), 2))
    ok = np.zeros((k, max(v, 1)), dtype=bool)
    pts[owner, slot] = a
    ok[owner, slot] = True
    return pts, ok


def _hull_points(verts: FloatArray, valid: BoolArray, bounds: FloatArray, large: BoolArray
                 ) -> tuple[FloatArray, FloatArray]:
    """Vertex-major (v, k) points holding each polygon: its vertices, or for a large one
    the four corners of its bounding box."""
    if large.any():
        width = max(verts.shape[1], 4)
        verts = np.concatenate([verts, np.zeros((len(verts), width - verts.shape[1], 2))],
                               axis=1)
        valid = np.concatenate([valid, np.zeros((len(valid), width - valid.shape[1]), bool)],
                               axis=1)
        b = bounds[large]
        verts[large, :4, 0] = b[:, [0, 2, 2, 0]]
        verts[large, :4, 1] = b[:, [1, 1, 3, 3]]
        valid[large, :4] = True
        valid[large, 4:] = False
    return _padded_major(verts[:, :, 0], valid), _padded_major(verts[:, :, 1], valid)


def _padded_major(values: FloatArray, valid: BoolArray) -> FloatArray:
    """(k, v) -> (v, k), padding slots filled with the polygon's first vertex."""
    first = values[:, :1] if values.shape[1] else np.zeros((values.shape[0], 1))
    return np.ascontiguousarray(np.where(valid, values, first).T)
