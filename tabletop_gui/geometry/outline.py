"""Base outlines on the table: shapes, local frames, polygons and support points.

A footprint is a circle (exact), an ellipse or a rectangle, rotated by its facing
(degrees, counter-clockwise from +x; 90 means facing +y). ``length`` lies along the
facing, ``width`` across it.

Ellipses are handled as inscribed polygons when two non-round outlines meet, with as
many vertices as keep the sagitta between two vertices under ``ELLIPSE_SAGITTA``: 88 for
a 60 x 35 mm oval, 136 for 170 x 105 mm.
Such distances are within 0.001" of the exact ones. A round base against an oval uses
the exact ellipse (``outline_distance``).
Circles are never polygonised for distances (centre distance minus radius is exact).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from numpy.typing import NDArray

from tabletop_gui.geometry.board import Footprint, Point

ELLIPSE_SAGITTA = 0.0009  # inches
CIRCLE_SEGMENTS = 64  # only to draw / to intersect circles as polygons, never to measure

FloatArray = NDArray[np.float64]

CIRCLE, ELLIPSE, RECT = 0, 1, 2
SHAPE_CODES = {"circle": CIRCLE, "ellipse": ELLIPSE, "rect": RECT}


def axes(facing_deg: float) -> tuple[Point, Point]:
    """Unit vectors (forward, right) of a facing: forward along the facing, right across."""
    t = math.radians(facing_deg)
    fx, fy = math.cos(t), math.sin(t)
    return (fx, fy), (fy, -fx)


def to_local(fp: Footprint, x: float, y: float) -> tuple[float, float]:
    """(u, v): u across (right positive), v along the facing (front positive)."""
    (fx, fy), (rx, ry) = axes(fp.facing)
    dx, dy = x - fp.x, y - fp.y
    return dx * rx + dy * ry, dx * fx + dy * fy


def to_world(fp: Footprint, u: float, v: float) -> Point:
    (fx, fy), (rx, ry) = axes(fp.facing)
    return fp.x + u * rx + v * fx, fp.y + u * ry + v * fy


def is_circle(fp: Footprint) -> bool:
    return fp.shape == "circle" or (fp.shape == "ellipse" and fp.length == fp.width)


def radius(fp: Footprint) -> float:
    """The radius of a circular footprint (the mean of length and width otherwise)."""
    return 0.25 * (fp.length + fp.width)


def circumradius(fp: Footprint) -> float:
    """Radius of the smallest centred circle holding the outline."""
    if fp.shape == "rect":
        return 0.5 * math.hypot(fp.length, fp.width)
    return 0.5 * max(fp.length, fp.width)


def outline_points(fp: Footprint, segments: int | None = None) -> FloatArray:
    """Vertices of the outline, counter-clockwise, shape (k, 2); exact corners for rects."""
    hl, hw = 0.5 * fp.length, 0.5 * fp.width
    if fp.shape == "rect":
        uv = np.array([(hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl)], dtype=float)
    else:
        n = segments or (CIRCLE_SEGMENTS if is_circle(fp) else ellipse_segments(fp))
        a = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
        uv = np.stack([hw * np.cos(a), hl * np.sin(a)], axis=1)
    (fx, fy), (rx, ry) = axes(fp.facing)
    xs = fp.x + uv[:, 0] * rx + uv[:, 1] * fx
    ys = fp.y + uv[:, 0] * ry + uv[:, 1] * fy
    pts = np.stack([xs, ys], axis=1)
    if _signed_area(pts) < 0:
        pts = pts[::-1].copy()
    return pts


def ellipse_segments(fp: Footprint) -> int:
    """Vertices for an inscribed polygon of the ellipse within ``ELLIPSE_SAGITTA`` (x8, >= 16).

    Vertices are spread evenly in the ellipse's parameter (step h); the chord at the end of
    the major axis a is the worst: sagitta a h^2 / 8 (it is b h^2 / 8 at the minor axis).
    """
    a = 0.5 * max(fp.length, fp.width)
    if a <= 0:
        return 16
    n = math.ceil(2.0 * math.pi * math.sqrt(a / (8.0 * ELLIPSE_SAGITTA)))
    return max(16, 8 * math.ceil(n / 8))


def polygon(fp: Footprint, segments: int | None = None) -> shapely.Polygon:
    return shapely.Polygon(outline_points(fp, segments))


def corners(fp: Footprint) -> list[Point]:
    """The four corners of a rectangular outline: front-right, front-left, rear-left, rear-right."""
    hl, hw = 0.5 * fp.length, 0.5 * fp.width
    return [to_world(fp, u, v) for u, v in ((hw, hl), (-hw, hl), (-hw, -hl), (hw, -hl))]


def _signed_area(pts: FloatArray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
