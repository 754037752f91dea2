"""Which platform holds each body's centre (``bodies._platforms``): shapely asked only for
the centres within a platform's bounding box gives what asking it of every centre gives,
boundary, corners, overlapping platforms, empty ones and centres not finite included."""

from __future__ import annotations

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


@pytest.fixture(autouse=True)
def _boxes_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounding boxes used however few the centres (``BOX_FROM``)."""
    monkeypatch.setattr(bodies, "BOX_FROM", 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_centres_in_bounding_boxes_meet_the_platforms_every_centre_would(seed: int,
                                                                          k: int) -> None:
    rng = np.random.default_rng(seed)
    ts = TerrainSet.build(platforms(rng, k))
    x, y = centres(rng, ts, 60)
    met = 0
    for j in np.flatnonzero(~ts.is_obstacle):
        got = bodies._inside(ts, int(j), x, y)
        want = every_centre(ts, int(j), x, y)
        assert got.tolist() == want.tolist()
        met += int(want.sum())
    assert met > 0  # some centres are on platforms (their vertices at least)


def test_platforms_of_a_board_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_platforms`` (elevations and the platform stood on) with the boxes and with
    shapely asked of every centre: the same arrays."""
    rng = np.random.default_rng(4)
    ts = TerrainSet.build(platforms(rng, 6))
    x, y = centres(rng, ts, 200)
    own = np.where(rng.random(len(x)) < 0.2, rng.uniform(0, 4, len(x)), np.nan)
    fast = bodies._platforms(ts, x, y, own)
    monkeypatch.setattr(bodies, "_inside", every_centre)
    slow = bodies._platforms(ts, x, y, own)
    for f, s in zip(fast, slow, strict=True):
        assert np.array_equal(f, s)
    assert (fast[1] >= 0).sum() > 5
