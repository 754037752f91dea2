"""Which platform holds each body's centre (``bodies._platforms``): shapely asked only for
the centres within a platform's bounding box, every platform in one call (``_inside``),
gives what asking it of every centre gives, boundary, corners, overlapping platforms,
empty ones and centres not finite included; the elevations and the platforms stood on
are those found centre by centre."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry import bodies
from tabletop_gui.geometry.board import Terrain
from tabletop_gui.geometry.terrain import TerrainSet


def every_centre(ts: TerrainSet, j: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The obvious lookup: shapely asked of every centre."""
    return np.asarray(shapely.intersects_xy(ts.polygons[j], x, y), dtype=bool)


def platforms(rng: np.random.Generator, k: int) -> tuple[Terrain, ...]:
    """k platforms (some triangles, some rotated boxes, one empty) and an obstacle."""
    out = []
    for n in range(k):
        cx, cy = rng.uniform(0, 20, 2)
        sides = 3 if n % 3 == 0 else 4
        ang = np.sort(rng.uniform(0, 2 * np.pi, sides))
        r = rng.uniform(0.5, 5.0)
        pts = tuple((float(cx + r * np.cos(a)), float(cy + r * np.sin(a))) for a in ang)
        out.append(Terrain(f"p{n}", "platform", pts, float(rng.uniform(0.5, 4.0))))
    out.append(Terrain("none", "platform", ((1.0, 1.0), (2.0, 2.0)), 2.0))  # empty
    out.append(Terrain("w", "obstacle", ((5.0, 5.0), (9.0, 5.0), (9.0, 9.0)), 3.0))
    return tuple(out)


def centres(rng: np.random.Generator, ts: TerrainSet, m: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """Random centres, every platform's vertices and edge midpoints, the corners of its
    bounding box, and centres not finite."""
    x = list(rng.uniform(-2, 22, m))
    y = list(rng.uniform(-2, 22, m))
    for poly in ts.polygons:
        coords = shapely.get_coordinates(poly)
        for a, b in zip(coords[:-1], coords[1:], strict=True):
            x += [a[0], 0.5 * (a[0] + b[0])]
            y += [a[1], 0.5 * (a[1] + b[1])]
        if not poly.is_empty:
            x0, y0, x1, y1 = poly.bounds
            x += [x0, x1, x0, x1]
            y += [y0, y0, y1, y1]
    x += [np.nan, np.inf, 3.0, -np.inf]
    y += [3.0, 3.0, np.nan, np.inf]
    return np.array(x), np.array(y)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_centres_in_bounding_boxes_meet_the_platforms_every_centre_would(seed: int,
                                                                          k: int) -> None:
    rng = np.random.default_rng(seed)
    ts = TerrainSet.build(platforms(rng, k))
    x, y = centres(rng, ts, 60)
    on = np.flatnonzero(~ts.is_obstacle)
    got = bodies._inside(ts, on, x, y)
    want = [every_centre(ts, int(j), x, y).tolist() for j in on]
    assert got.tolist() == want
    assert got.sum() > 0  # some centres are on platforms (their vertices at least)


def centre_by_centre(ts: TerrainSet, x: np.ndarray, y: np.ndarray, own: np.ndarray
                     ) -> tuple[list[float], list[int]]:
    """The obvious elevations and platforms stood on: each centre against each platform in
    order (the first of the highest tops; stood on: the first of the highest within the
    tolerance of the elevation)."""
    elev, stands = [], []
    for px, py, o in zip(x.tolist(), y.tolist(), own.tolist(), strict=True):
        on = [int(j) for j in np.flatnonzero(~ts.is_obstacle)
              if shapely.intersects_xy(ts.polygons[j], px, py)]
        under = max((float(ts.top[j]) for j in on), default=0.0)
        e = under if math.isnan(o) else o
        near = [j for j in on if abs(float(ts.top[j]) - e) <= bodies.STAND_TOLERANCE]
        best = max((float(ts.top[j]) for j in near), default=None)
        elev.append(e)
        stands.append(next((j for j in near if float(ts.top[j]) == best), -1))
    return elev, stands


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_platforms_of_a_board_as_centre_by_centre(seed: int) -> None:
    """``_platforms`` (elevations and the platform stood on): those found centre by centre,
    own elevations (some within the tolerance of a platform's top) included."""
    rng = np.random.default_rng(seed)
    ts = TerrainSet.build(platforms(rng, 6))
    x, y = centres(rng, ts, 200)
    tops = ts.top[rng.integers(0, len(ts.top), len(x))] + rng.choice([0.0, 0.005, 0.5],
                                                                      len(x))
    own = np.where(rng.random(len(x)) < 0.3, tops, np.nan)
    elev, stands = bodies._platforms(ts, x, y, own)
    want_elev, want_stands = centre_by_centre(ts, x, y, own)
    assert elev.tolist() == want_elev and stands.tolist() == want_stands
    assert (stands >= 0).sum() > 5
