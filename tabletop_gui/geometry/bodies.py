"""Every body of a board as arrays (positions, outlines, elevations).

Elevation of a body: its own ``elevation`` when given, else the top of the highest
platform whose polygon covers its base centre (boundary included), else 0.
A body *stands on* a platform when that platform covers its centre and its top is
within ``STAND_TOLERANCE`` of the body's elevation.

The horizontal gap between two bodies is in ``gaps``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Body, Footprint
from tabletop_gui.geometry.terrain import TerrainSet

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

STAND_TOLERANCE = 0.01


@dataclass(frozen=True, eq=False)
class BodyArrays:
    bodies: tuple[Body, ...]
    index: dict[str, int]
    x: FloatArray
    y: FloatArray
    circle: BoolArray
    radius: FloatArray  # circles: the radius; others: 0
    circumradius: FloatArray
    elevation: FloatArray
    top: FloatArray  # elevation + height
    active: BoolArray
    side: IntArray  # side code (index into ``sides``)
    sides: tuple[str, ...]
    stands_on: IntArray  # terrain index of the platform stood on, or -1
    shapes: NDArray[np.object_]  # shapely outline polygons of non-round bodies, made on use
    shape: IntArray  # outline.CIRCLE / ELLIPSE / RECT
    half_length: FloatArray  # along the facing
    half_width: FloatArray  # across the facing
    forward: FloatArray  # (n, 2) unit vector of the facing

    @staticmethod
    def build(bodies: tuple[Body, ...], ts: TerrainSet) -> BodyArrays:
        n = len(bodies)
        c = _columns(bodies)
        x, y, own = c["x"], c["y"], c["own elevation"]
        elev, stands = _platforms(ts, x, y, own)
        sides = tuple(dict.fromkeys(c["side"]))
        side_code = {s: k for k, s in enumerate(sides)}
        forward = np.empty((n, 2))
        forward[:, 0] = c["forward x"]
        forward[:, 1] = c["forward y"]
        return BodyArrays(
            bodies=bodies,
            index=dict(zip(c["id"], range(n), strict=True)),
            x=x,
            y=y,
            circle=c["circle"],
            radius=c["radius"],
            circumradius=c["circumradius"],
            elevation=elev,
            top=elev + c["height"],
            active=np.array(c["active"], dtype=bool),
            side=np.array(list(map(side_code.__getitem__, c["side"])), dtype=np.intp),
            sides=sides,
            stands_on=stands,
            shapes=np.empty(n, dtype=object),  # filled on first use (``outline_shapes``)
            shape=c["shape"],
            half_length=c["half_length"],
            half_width=c["half_width"],
            forward=forward,
        )

    def __len__(self) -> int:
        return len(self.bodies)

    def with_body(self, k: int, body: Body, ts: TerrainSet) -> BodyArrays:
        """These arrays with body ``k`` replaced (same id and side), without rebuilding the rest."""
        if body.id != self.bodies[k].id or body.side != self.bodies[k].side:
            raise ValueError("with_body keeps the id and side of the body it replaces")
        row = _row(body, ts)
        bodies = self.bodies[:k] + (body,) + self.bodies[k + 1:]
        arrays: dict[str, object] = {}
        for name, value in row.items():
            a = getattr(self, name).copy()
            a[k] = value
            arrays[name] = a
        return BodyArrays(bodies=bodies, index=self.index, side=self.side, sides=self.sides,
                          **arrays)  # type: ignore[arg-type]


def _columns(bodies: tuple[Body, ...]) -> dict[str, Any]:
    """Every body's values, column by column: what ``_row`` computes of each body (with
    ``outline.is_circle``, ``circumradius`` and ``axes`` written out), each attribute read
    in one pass over the bodies and the arithmetic done in numpy where it is exact (the
    same operations: products, comparisons), in ``math`` where numpy's could differ in
    the last bit (``math.cos``, ``math.sin``, ``math.hypot``): a board of thousands
    otherwise does it all body by body."""
    fps = [b.footprint for b in bodies]
    names = [fp.shape for fp in fps]
    shape = np.fromiter(map(outline.SHAPE_CODES.get, names, repeat(-1)), dtype=np.intp,
                        count=len(names))
    length = np.array([fp.length for fp in fps], dtype=float)
    width = np.array([fp.width for fp in fps], dtype=float)
    circle = (shape == outline.CIRCLE) | ((shape == outline.ELLIPSE) & (length == width))
    shape[circle] = outline.CIRCLE
    unknown = np.flatnonzero(shape < 0)
    if len(unknown):  # a shape of no code, refused as ``outline.SHAPE_CODES`` does
        raise KeyError(names[int(unknown[0])])
    half_length = 0.5 * length
    # max(length, width), as Python's: the first unless the second is greater
    circum = 0.5 * np.where(width > length, width, length)
    rect = np.flatnonzero(shape == outline.RECT)
    if len(rect):
        circum[rect] = [0.5 * math.hypot(lw[0], lw[1])
                        for lw in zip(length[rect].tolist(), width[rect].tolist(),
                                      strict=True)]
    turn = list(map(math.radians, [fp.facing for fp in fps]))
    height = np.array([b.height for b in bodies], dtype=float)
    return {
        "id": [b.id for b in bodies], "side": [b.side for b in bodies],
        "active": [b.active for b in bodies], "x": np.array([fp.x for fp in fps], dtype=float),
        "y": np.array([fp.y for fp in fps], dtype=float), "circle": circle,
        "radius": np.where(circle, half_length, 0.0), "circumradius": circum,
        "own elevation": np.array([math.nan if b.elevation is None else b.elevation
                                   for b in bodies], dtype=float),
        "height": np.where(height > 0.0, height, 0.0),  # max(0.0, height), as Python's
        "shape": shape, "half_length": half_length, "half_width": 0.5 * width,
        "forward x": np.array(list(map(math.cos, turn)), dtype=float),
        "forward y": np.array(list(map(math.sin, turn)), dtype=float),
    }


def _platforms(ts: TerrainSet, x: FloatArray, y: FloatArray, own: FloatArray
               ) -> tuple[FloatArray, IntArray]:
    """The elevation of bodies at (x, y) with their own elevations ``own`` (NaN: none, then
    the highest platform top covering the centre, the first of equal ones, else 0), and
    the platform each stands on (-1: none): the points on each platform found at once
    (``_inside``), the platforms compared only for the points on one."""
    n = len(x)
    platforms = np.flatnonzero(~ts.is_obstacle)
    elev = np.where(np.isnan(own), 0.0, own)
    stands = np.full(n, -1, dtype=np.intp)
    if not len(platforms) or not n:
        return elev, stands
    inside = _inside(ts, platforms, x, y)
    on_one = np.flatnonzero(inside.any(axis=0))
    if len(on_one):
        elev[on_one], stands[on_one] = _highest(ts, platforms, inside[:, on_one],
                                                own[on_one])
    return elev, stands


def _highest(ts: TerrainSet, platforms: IntArray, inside: BoolArray, own: FloatArray
             ) -> tuple[FloatArray, IntArray]:
    """``_platforms`` of points each inside some of ``platforms`` (``inside``: platform by
    point): the first of the highest platforms holding a point gives its elevation (unless
    it has its own), the first of the highest within ``STAND_TOLERANCE`` of that is the one
    it stands on (-1: none)."""
    tops = ts.top[platforms][:, None]
    held = np.where(inside, tops, -np.inf)
    under = held[held.argmax(axis=0), np.arange(len(own))]
    elev = np.where(np.isnan(own), under, own)
    on = inside & (np.abs(tops - elev) <= STAND_TOLERANCE)
    first = np.where(on, tops, -np.inf).argmax(axis=0)
    return elev, np.where(on.any(axis=0), platforms[first], -1)


def _inside(ts: TerrainSet, platforms: IntArray, x: FloatArray, y: FloatArray
            ) -> BoolArray:
    """``shapely.intersects_xy(ts.polygons[platforms][:, None], x, y)`` (platform by point,
    boundary included), asked of shapely only for the points within each polygon's
    bounding box (its edges included), in one call: no other point can meet it, and
    platforms each cover few bodies."""
    minx, miny, maxx, maxy = ts.bounds[platforms].T[:, :, None]
    box: BoolArray = (x >= minx) & (x <= maxx)
    box &= y >= miny
    box &= y <= maxy
    p, q = np.nonzero(box)
    if len(p):
        box[p, q] = shapely.intersects_xy(ts.polygons[platforms[p]], x[q], y[q])
    return box


def _row(body: Body, ts: TerrainSet) -> dict[str, object]:
    """The values of one body in each per-body array, as ``build`` computes them (one drag step)."""
    fp = body.footprint
    x, y = float(fp.x), float(fp.y)
    circle = outline.is_circle(fp)
    platforms = np.flatnonzero(~ts.is_obstacle)
    inside = np.asarray(shapely.intersects_xy(ts.polygons[platforms], x, y), dtype=bool) \
        if len(platforms) else np.zeros(0, dtype=bool)
    tops = [float(ts.top[j]) for j in platforms]
    under, which = 0.0, -1  # as ``_platforms``
    for j, ins, top in zip(platforms, inside, tops, strict=True):
        if ins and (which < 0 or top > under):
            under, which = top, int(j)
    own = np.nan if body.elevation is None else float(body.elevation)
    elev = under if np.isnan(own) else own
    stands, best = -1, -np.inf  # as the platform loop of ``build``
    for j, ins, top in zip(platforms, inside, tops, strict=True):
        if ins and abs(top - elev) <= STAND_TOLERANCE and top > best:
            stands, best = int(j), top
    return {
        "x": x,
        "y": y,
        "circle": circle,
        "radius": 0.5 * fp.length if circle else 0.0,
        "circumradius": outline.circumradius(fp),
        "elevation": elev,
        "top": elev + max(0.0, body.height),
        "active": body.active,
        "stands_on": stands,
        "shapes": None,
        "shape": outline.CIRCLE if circle else outline.SHAPE_CODES[fp.shape],
        "half_length": 0.5 * fp.length,
        "half_width": 0.5 * fp.width,
        "forward": outline.axes(fp.facing)[0],
    }


def outline_shapes(ba: BodyArrays, k: IntArray) -> NDArray[np.object_]:
    """The shapely outline polygons of bodies k (built once, then kept in ``ba.shapes``,
    and by footprint for the next arrays: ``_OUTLINES``).

    Built in groups of the same vertex count: rectangles (4 corners), ellipses and circles
    (``outline.ellipse_segments`` / ``CIRCLE_SEGMENTS`` vertices), counter-clockwise.
    """
    missing = [int(m) for m in np.unique(k) if ba.shapes[m] is None]
    groups: dict[int, list[int]] = {}
    for m in missing:
        fp = ba.bodies[m].footprint
        known = _OUTLINES.get(fp)
        if known is not None:  # the same footprint's, made for an earlier board
            ba.shapes[m] = known
            continue
        n = 4 if ba.shape[m] == outline.RECT else (
            outline.CIRCLE_SEGMENTS if ba.circle[m] else outline.ellipse_segments(fp))
        groups.setdefault(n, []).append(m)
    for n, members in groups.items():
        idx = np.array(members, dtype=np.intp)
        if n == 4:
            su = np.array([1.0, -1.0, -1.0, 1.0])
            sv = np.array([1.0, 1.0, -1.0, -1.0])
        else:
            ang = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
            su, sv = np.cos(ang), np.sin(ang)
        u = ba.half_width[idx][:, None] * su[None, :]
        v = ba.half_length[idx][:, None] * sv[None, :]
        fx, fy = ba.forward[idx, 0][:, None], ba.forward[idx, 1][:, None]
        x = ba.x[idx][:, None] + u * fy + v * fx  # right = (fy, -fx)
        y = ba.y[idx][:, None] - u * fx + v * fy
        polys = shapely.orient_polygons(shapely.polygons(np.stack([x, y], axis=2)))
        ba.shapes[idx] = polys
        if len(_OUTLINES) + len(members) > OUTLINES_KEPT:
            _OUTLINES.clear()
        _OUTLINES.update(zip((ba.bodies[m].footprint for m in members), polys, strict=True))
    return ba.shapes[k]


OUTLINES_KEPT = 4096  # footprints whose outline polygons are kept (``outline_shapes``)
# the polygon of each footprint made lately: a document's next revision (a new geometry,
# every body's arrays built again) finds those of the bodies that did not move
_OUTLINES: dict[Footprint, shapely.Polygon] = {}
