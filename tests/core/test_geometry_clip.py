"""Convex clipping in one (edges x segments) array gives exactly the values of the
edge-by-edge loop, on random and degenerate segments (along edges, through corners,
zero length, parallel to edges)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tabletop_gui.geometry import jit, segments
from tabletop_gui.geometry.board import Board, Terrain
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


def _walls_on_platforms(b: Board, seed: int) -> Board:
    """``b`` with low platforms carrying tall walls added (their top sight lines are
    blocked by terrain off the table: stage 3 tries the other heights)."""
    rng = np.random.default_rng(seed)
    extra = []
    for k in range(12):
        x, y = rng.uniform(0, b.width - 6), rng.uniform(0, b.depth - 6)
        extra.append(Terrain(f"lp{k}", "platform", ((x, y), (x + 6, y), (x + 6, y + 6),
                                                     (x, y + 6)), 0.5))
        ang = rng.uniform(0, np.pi)
        c, s = np.cos(ang), np.sin(ang)
        extra.append(Terrain(f"lw{k}", "obstacle",
                             tuple((x + 3 + u * c - v * s, y + 3 + u * s + v * c)
                                   for u, v in ((-2.5, -0.3), (2.5, -0.3), (2.5, 0.3),
                                                (-2.5, 0.3))), 2.5))
    return replace(b, terrains=b.terrains + tuple(extra))


def test_sight_rounds_in_one_call_equal_two_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stage 2 of sight for small batches tests both rounds' lines in one call, and with
    few lines all eight paths in one call; the answers (and the blockers) are those of
    the separate rounds, on batches of a few pairs (a drag's row) and of many."""
    from tabletop_gui.bench.battlefields import synthetic_board
    from tabletop_gui.geometry import sight
    from tabletop_gui.geometry.board_geometry import BoardGeometry
    from tabletop_gui.geometry.pairs import opposing_pairs

    monkeypatch.setattr(jit, "ENABLED", False)  # numpy's paths (an earlier test may load numba's)
    # (MERGE_BELOW, ONE_CALL_LINES): four calls, two calls, one call
    modes = ((0, 0), (1 << 40, 0), (1 << 40, 1 << 40))
    saved = sight.MERGE_BELOW, sight.ONE_CALL_LINES
    hidden = 0
    lower = []  # batches that reached stage 3 (other heights)
    real_lower = sight._any_clear_lower

    def counting(*args: object, **kw: object) -> np.ndarray:
        lower.append(1)
        return real_lower(*args, **kw)  # type: ignore[arg-type]

    try:
        sight._any_clear_lower = counting  # type: ignore[assignment]
        for seed in (1, 2, 3):
            g = BoardGeometry(_walls_on_platforms(synthetic_board(120, seed), seed))
            i, j = opposing_pairs(g.bodies)
            for size in (400, 37):
                for s in range(0, len(i), size):
                    ii, jj = i[s:s + size], j[s:s + size]
                    results = []
                    for merge, one_call in modes:
                        sight.MERGE_BELOW, sight.ONE_CALL_LINES = merge, one_call
                        results.append(sight.sight_pairs(g.bodies, g.terrain, ii, jj))
                    a = results[0]
                    for b in results[1:]:
                        assert np.array_equal(a.visible, b.visible)
                        assert np.array_equal(a.blocker_pair, b.blocker_pair)
                        assert np.array_equal(a.blocker_terrain, b.blocker_terrain)
                    hidden += int((~a.visible).sum())
    finally:
        sight.MERGE_BELOW, sight.ONE_CALL_LINES = saved
        sight._any_clear_lower = real_lower  # type: ignore[assignment]
    assert hidden > 0 and lower


def test_sight_lines_clipped_at_once_equal_the_general_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``blocked`` of sight lines against convex pieces of the padded arrays
    (``_blocked_padded``) gives the general path's answer on every line: random ones, and
    lines between vertices (along edges, grazing corners), level at a prism's base or top,
    of zero length, in the plan of an edge at the top's height."""
    ts = TerrainSet.build((
        Terrain("sq", "obstacle", ((0, 0), (2, 0), (2, 2), (0, 2)), 1.0),
        Terrain("tri", "obstacle", ((4, 0), (6, 0), (5, 1)), 2.0),
        Terrain("plat", "platform", ((1, 3), (7, 3), (7, 7), (1, 7)), 1.5),
        Terrain("wall", "obstacle", ((3, 4), (5, 4), (5, 4.5), (3, 4.5)), 1.0),  # on plat
    ))
    monkeypatch.setattr(jit, "ENABLED", False)  # numpy's paths (an earlier test may load numba's)
    assert segments._all_padded(ts)
    rng = np.random.default_rng(11)
    n = 3000
    tid = rng.integers(0, len(ts), n).astype(np.intp)
    p = np.column_stack([rng.uniform(-1, 8, (n, 2)), rng.uniform(-0.5, 3.5, n)])
    q = np.column_stack([rng.uniform(-1, 8, (n, 2)), rng.uniform(-0.5, 3.5, n)])
    v = ts.vertices
    k = rng.integers(0, 3, n)
    snap = rng.random(n) < 0.4
    p[snap, :2] = v[tid[snap], k[snap]]
    q[snap, :2] = v[tid[snap], (k[snap] + 1) % 3]
    level = rng.random(n) < 0.3  # level lines at the base, the top, or between
    z = np.where(rng.random(n) < 0.5, ts.base[tid], ts.top[tid])
    z = np.where(rng.random(n) < 0.3, 0.5 * (ts.base[tid] + ts.top[tid]), z)
    p[level, 2] = q[level, 2] = z[level]
    same = rng.random(n) < 0.03
    q[same] = p[same]
    fast = segments.blocked(p, q, tid, ts)
    limit = segments._PADDED_LINES
    try:
        segments._PADDED_LINES = -1
        slow = segments.blocked(p, q, tid, ts)
    finally:
        segments._PADDED_LINES = limit
    np.testing.assert_array_equal(fast, slow)
    assert fast.any() and (~fast).any() and (fast & snap).any() and (fast & level).any()
    # grazing: along an edge and through a corner only, at any height, never blocked
    edge = segments.blocked(np.array([[0.0, 0.0, 0.5], [-1.0, 1.0, 0.5]]),
                            np.array([[2.0, 0.0, 0.5], [1.0, -1.0, 0.5]]),
                            np.array([0, 0], dtype=np.intp), ts)
    assert not edge.any()


def test_height_interval_without_level_lines_equals_the_general_one() -> None:
    """``_z_interval`` of a batch without level lines (its short way) gives each line the
    values it gets in a batch that also holds a level line (the general way), bit for
    bit: lines touching the base or the top, and nearly level ones."""
    rng = np.random.default_rng(4)
    n = 500
    z0 = rng.uniform(-1, 4, n)
    dz = rng.uniform(-3, 3, n)
    dz[:20] = rng.choice([1e-11, -1e-11, 2e-12], 20)  # nearly level, not level
    base = rng.uniform(0, 1.5, n)
    top = base + rng.uniform(0.1, 2.0, n)
    z0[20:40] = base[20:40]
    z0[40:60] = top[40:60] - dz[40:60]  # the far end at the top
    short = segments._z_interval(z0, dz, base, top)
    general = segments._z_interval(np.append(z0, 0.5), np.append(dz, 0.0),
                                   np.append(base, 0.0), np.append(top, 1.0))
    assert np.isinf(general[0][-1])  # the level line took the general way
    for got, want in zip(short, general, strict=True):
        np.testing.assert_array_equal(got, want[:-1])


def _plan_samples_by_columns(ba, i, j):  # type: ignore[no-untyped-def]
    """The sample points of ``sight.plan_samples`` in the (m, 3) layout it had before (the
    obvious transcription of the module's text; the direction between the bodies and the
    ellipse support points are ``sight.towards``'s and ``sight.support``'s), for
    comparison."""
    from tabletop_gui.geometry import outline, sight

    m = len(i)
    cx, cy, ux, uy = sight.towards(ba, i, j)
    dirs = np.stack([np.stack([-uy, ux], 1), np.stack([uy, -ux], 1), np.stack([ux, uy], 1)],
                    axis=1)
    out = np.empty((m, 4, 2))
    out[:, 0, 0] = cx
    out[:, 0, 1] = cy
    fwd = ba.forward[i]
    right = np.stack([fwd[:, 1], -fwd[:, 0]], axis=1)
    hl = ba.half_length[i][:, None]
    hw = ba.half_width[i][:, None]
    du = dirs[:, :, 0] * right[:, None, 0] + dirs[:, :, 1] * right[:, None, 1]
    dv = dirs[:, :, 0] * fwd[:, None, 0] + dirs[:, :, 1] * fwd[:, None, 1]
    u, v = sight.support(hw, hl, du, dv)
    rect = np.flatnonzero(ba.shape[i] == outline.RECT)
    if len(rect):
        tu = (ux * right[:, 0] + uy * right[:, 1])[rect, None]
        tv = (ux * fwd[:, 0] + uy * fwd[:, 1])[rect, None]
        su = np.where(np.abs(du[rect]) > 1e-12, du[rect], tu)
        sv = np.where(np.abs(dv[rect]) > 1e-12, dv[rect], tv)
        u[rect] = np.where(su >= 0, 1.0, -1.0) * hw[rect]
        v[rect] = np.where(sv >= 0, 1.0, -1.0) * hl[rect]
    out[:, 1:, 0] = cx[:, None] + u * right[:, None, 0] + v * fwd[:, None, 0]
    out[:, 1:, 1] = cy[:, None] + u * right[:, None, 1] + v * fwd[:, None, 1]
    return out


def test_plan_samples_in_rows_equal_the_column_layout() -> None:
    """``plan_samples`` (directions as contiguous rows) gives, bit for bit, the points of
    the (m, 3) layout: circles, ovals, rectangles at any facing, rectangles square to the
    line of centres (the tie rule), bodies on the same centre."""
    from tabletop_gui.geometry.board import Body, Footprint
    from tabletop_gui.geometry.board_geometry import BoardGeometry

    rng = np.random.default_rng(8)
    bodies = []
    for k in range(60):
        shape = ("circle", "ellipse", "rect")[k % 3]
        x, y = (5.0, 5.0) if k < 4 else tuple(rng.uniform(0, 20, 2))
        facing = float(rng.choice([0.0, 90.0, 45.0, 180.0])) if k % 2 else float(
            rng.uniform(0, 360))
        length, width = (1.0, 1.0) if shape == "circle" else (2.0, 1.0)
        bodies.append(Body(f"b{k}", "ab"[k % 2], Footprint(shape, float(x), float(y), length,
                                                           width, facing)))
    bodies.append(Body("sq", "a", Footprint("rect", 10.0, 0.0, 2.0, 1.0, 90.0)))
    bodies.append(Body("sq2", "b", Footprint("rect", 10.0, 8.0, 2.0, 1.0, 0.0)))
    ba = BoardGeometry(Board(30, 30, tuple(bodies))).bodies
    i = rng.integers(0, len(bodies), 400).astype(np.intp)
    j = rng.integers(0, len(bodies), 400).astype(np.intp)
    i[:3], j[:3] = [0, len(bodies) - 2, len(bodies) - 1], [1, len(bodies) - 1, len(bodies) - 2]
    from tabletop_gui.geometry import sight

    got = sight.plan_samples(ba, i, j)
    want = _plan_samples_by_columns(ba, i, j)
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))
