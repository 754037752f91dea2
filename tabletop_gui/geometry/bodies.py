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
BOX_FROM = 400  # bodies from which a platform's bounding box picks the centres to locate


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
        # every body's numbers in one pass, one row each (columns below)
        rows = [_numbers(b) for b in bodies]
        cols = (np.array(rows, dtype=float).T.copy() if n
                else np.zeros((len(_COLUMNS), 0)))
        x, y, circle_f, radius, circum, own, height, half_length, half_width, fx, fy = cols
        circle = circle_f > 0
        elev, stands = _platforms(ts, x, y, own)
        sides = tuple(dict.fromkeys(b.side for b in bodies))
        side_code = {s: k for k, s in enumerate(sides)}
        shapes = np.empty(n, dtype=object)  # filled on first use (``shape_of``)
        return BodyArrays(
            bodies=bodies,
            index={b.id: i for i, b in enumerate(bodies)},
            x=x,
            y=y,
            circle=circle,
            radius=radius,
            circumradius=circum,
            elevation=elev,
            top=elev + height,
            active=np.array([b.active for b in bodies], dtype=bool),
            side=np.array([side_code[b.side] for b in bodies], dtype=np.intp),
            sides=sides,
            stands_on=stands,
            shapes=shapes,
            shape=np.array([outline.CIRCLE if r[2] else outline.SHAPE_CODES[b.footprint.shape]
                            for r, b in zip(rows, bodies, strict=True)], dtype=np.intp),
            half_length=half_length,
            half_width=half_width,
            forward=np.stack([fx, fy], axis=1).reshape(n, 2),
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


_COLUMNS = ("x", "y", "circle", "radius", "circumradius", "own elevation", "height",
            "half_length", "half_width", "forward x", "forward y")


def _numbers(b: Body) -> tuple[float, ...]:
    """A body's numbers in the order of ``_COLUMNS``: what ``_row`` computes, with
    ``outline.is_circle``, ``circumradius`` and ``axes`` written out (a board of
    thousands builds them for every body)."""
    fp = b.footprint
    shape, length, width = fp.shape, fp.length, fp.width
    circle = shape == "circle" or (shape == "ellipse" and length == width)
    facing = math.radians(fp.facing)
    return (fp.x, fp.y, 1.0 if circle else 0.0, 0.5 * length if circle else 0.0,
            0.5 * math.hypot(length, width) if shape == "rect" else 0.5 * max(length, width),
            math.nan if b.elevation is None else float(b.elevation), max(0.0, b.height),
            0.5 * length, 0.5 * width, math.cos(facing), math.sin(facing))


def _platforms(ts: TerrainSet, x: FloatArray, y: FloatArray, own: FloatArray
               ) -> tuple[FloatArray, IntArray]:
    """The elevation of bodies at (x, y) with their own elevations ``own`` (NaN: none, then
    the highest platform top covering the centre, the first of equal ones, else 0), and
    the platform each stands on (-1: none): each platform's points located once, by
    shapely for the points within its bounding box only (``_inside``)."""
    n = len(x)
    under = np.zeros(n)
    which = np.full(n, -1, dtype=np.intp)
    platforms = np.flatnonzero(~ts.is_obstacle)
    inside = [_inside(ts, int(j), x, y) for j in platforms]
    for j, ins in zip(platforms, inside, strict=True):
        better = ins & ((which < 0) | (ts.top[j] > under))
        under = np.where(better, ts.top[j], under)
        which = np.where(better, j, which)
    elev = np.where(np.isnan(own), under, own)
    stands = np.full(n, -1, dtype=np.intp)
    best = np.full(n, -np.inf)
    for j, ins in zip(platforms, inside, strict=True):
        on = ins & (np.abs(ts.top[j] - elev) <= STAND_TOLERANCE) & (ts.top[j] > best)
        stands = np.where(on, j, stands)
        best = np.where(on, ts.top[j], best)
    return elev, stands


def _inside(ts: TerrainSet, j: int, x: FloatArray, y: FloatArray) -> BoolArray:
    """``shapely.intersects_xy(ts.polygons[j], x, y)`` (boundary included); of more than
    ``BOX_FROM`` points, asked of shapely only for those within the polygon's bounding
    box (its edges included): no other point can meet it, and a big board's platforms
    each cover few fighters (a small board's test costs about what it saves)."""
    if len(x) <= BOX_FROM:
        return np.asarray(shapely.intersects_xy(ts.polygons[j], x, y), dtype=bool)
    minx, miny, maxx, maxy = ts.bounds[j].tolist()
    box = np.flatnonzero((x >= minx) & (x <= maxx) & (y >= miny) & (y <= maxy))
    out = np.zeros(len(x), dtype=bool)
    if len(box):
        out[box] = shapely.intersects_xy(ts.polygons[j], x[box], y[box])
    return out


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
