"""The Ninth Age's facing cover, computed at once for all samples with terrain and body
outlines prepared once per geometry, gives exactly the answers of the straightforward
computation (one line per sample point and obstruction, everything rebuilt per pair)."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import pytest

from tabletop_gui.geometry import outline, unit_arcs
from tabletop_gui.geometry.board import Board, Body, Footprint, Formation, Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.facing_cover import (
    SHOOTER_SAMPLES,
    TARGET_SAMPLES,
    facing_edge,
)
from tabletop_gui.geometry.facts import FacingCover
from tabletop_gui.geometry.segments import blocked
from tabletop_gui.geometry.terrain import TerrainSet

_ORDER = {"none": 0, "soft": 1, "hard": 2}


def straightforward(g: BoardGeometry, shooter: int, target: int, threshold: str
                    ) -> FacingCover:
    """Every obstruction rebuilt for the pair, each shooter point on its own (the
    computation before obstructions were prepared per geometry)."""
    ba = g.bodies
    sb, tb = ba.bodies[shooter], ba.bodies[target]
    arc = unit_arcs.arc_of_point(tb, unit_arcs.reference_point(sb))
    t0, t1 = facing_edge(tb, arc, (sb.footprint.x, sb.footprint.y))
    s0, s1 = facing_edge(sb, "front", (tb.footprint.x, tb.footprint.y))
    fs = np.linspace(0.0, 1.0, SHOOTER_SAMPLES)
    ft = (np.arange(TARGET_SAMPLES) + 0.5) / TARGET_SAMPLES
    sp = np.array(s0)[None, :] + fs[:, None] * (np.array(s1) - np.array(s0))[None, :]
    tp = np.array(t0)[None, :] + ft[:, None] * (np.array(t1) - np.array(t0))[None, :]
    others = [b for k, b in enumerate(ba.bodies) if k not in (shooter, target) and b.active]
    import shapely

    def under_either(t: Terrain) -> bool:  # a platform under the shooter's or target's centre
        poly = shapely.Polygon(t.polygon)
        return t.kind == "platform" and any(
            poly.intersects(shapely.Point(b.footprint.x, b.footprint.y)) for b in (sb, tb))

    obs = tuple(t for t in g.terrain.terrains if not under_either(t)) + tuple(
        Terrain(b.id, "obstacle", tuple(map(tuple, outline.outline_points(b.footprint, 32))),
                1.0, b.id, True, "soft") for b in others)
    ts = TerrainSet.build(obs)
    n = len(ts)
    best: tuple[tuple[int, float, float], FacingCover] | None = None
    for s in sp:
        pi = np.repeat(np.arange(TARGET_SAMPLES), n)
        oi = np.tile(np.arange(n), TARGET_SAMPLES).astype(np.intp)
        p = np.column_stack([np.repeat(s[None, :], len(pi), axis=0), np.zeros(len(pi))])
        q = np.column_stack([tp[pi], np.zeros(len(pi))])
        hidden = blocked(p, q, oi, ts, use_z=False).reshape(TARGET_SAMPLES, n)
        hard = float(hidden[:, ts.hard].any(axis=1).mean()) if n else 0.0
        total = float(hidden.any(axis=1).mean()) if n else 0.0

        def over(f: float) -> bool:
            return f >= 0.5 if threshold == "half_or_more" else f > 0.5

        kind: Literal["none", "soft", "hard"] = (
            "hard" if over(hard) else "soft" if over(total) else "none")
        by = tuple(obs[k].id for k in np.flatnonzero(hidden.any(axis=0)))
        key = (_ORDER[kind], total, hard)
        if best is None or key < best[0]:
            best = (key, FacingCover(kind, hard, total, by))
    assert best is not None
    return best[1]


def army_board(units: int, seed: int) -> Board:
    """Rank-and-file units (some round-based, one inactive), walls, hedges, an L-shaped
    ruin (not convex) and a hill, on a 48" x 36" table."""
    rng = np.random.default_rng(seed)
    bodies = []
    for k in range(units):
        x, y = rng.uniform(4, 44), rng.uniform(4, 32)
        facing = float(rng.choice([90.0, 270.0, rng.uniform(0, 360)]))
        if k % 9 == 8:
            fp = Footprint("circle", x, y, 2.0, 2.0, facing)
            form = Formation(1, 1, 2.0, 2.0, True)
        else:
            files = int(rng.integers(3, 7))
            models = int(rng.integers(files, 4 * files))
            bw, bd = float(rng.choice([0.79, 0.98, 1.57])), float(rng.choice([0.79, 0.98]))
            ranks = -(-models // files)
            fp = Footprint("rect", x, y, ranks * bd, files * bw, facing)
            form = Formation(models, files, bw, bd)
        bodies.append(Body(f"u{k}", "red" if k % 2 else "blue", fp, 0.0, 1.25, form,
                           active=k != 5))
    terrain = []
    for k in range(8):
        cx, cy, ang = rng.uniform(0, 48), rng.uniform(0, 36), rng.uniform(0, math.pi)
        length, thick = rng.uniform(3, 8), rng.uniform(0.2, 1.0)
        c, s = math.cos(ang), math.sin(ang)
        pts = tuple((cx + u * c - v * s, cy + u * s + v * c)
                    for u, v in ((-length / 2, -thick / 2), (length / 2, -thick / 2),
                                 (length / 2, thick / 2), (-length / 2, thick / 2)))
        terrain.append(Terrain(f"w{k}", "obstacle", pts, 1.0, f"Wall {k}", True,
                               "hard" if k % 3 else "soft"))
    terrain.append(Terrain("ruin", "obstacle", ((20, 10), (26, 10), (26, 12), (22, 12),
                                                 (22, 16), (20, 16)), 2.0, "Ruin"))
    terrain.append(Terrain("hill", "platform", ((30, 20), (36, 20), (36, 26), (30, 26)), 2.0,
                           "Hill"))
    return Board(48.0, 36.0, tuple(bodies), tuple(terrain))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_facing_cover_equals_the_straightforward_computation(seed: int) -> None:
    b = army_board(14, seed)
    g = BoardGeometry(b)
    n = len(b.bodies)
    kinds = set()
    for s in range(n):
        for t in range(n):
            if s == t or b.bodies[s].side == b.bodies[t].side:
                continue
            threshold = "half_or_more" if (s + t) % 2 else "more_than_half"
            got = g.facing_cover(b.bodies[s].id, b.bodies[t].id,
                                 threshold=threshold)  # type: ignore[arg-type]
            assert got == straightforward(g, s, t, threshold), (s, t, threshold)
            kinds.add(got.kind)
    assert kinds == {"none", "soft", "hard"}


def test_facing_cover_after_a_move_sees_the_new_position() -> None:
    b = army_board(10, 4)
    g = BoardGeometry(b)
    before = {(s.id, t.id): g.facing_cover(s.id, t.id) for s in b.bodies for t in b.bodies
              if s.side != t.side}
    k = 3
    old = b.bodies[k]
    fp = old.footprint
    nb = Body(old.id, old.side, Footprint(fp.shape, 24.0, 18.0, fp.length, fp.width,
                                          fp.facing), old.elevation, old.height,
              old.formation)
    b2 = Board(b.width, b.depth, b.bodies[:k] + (nb,) + b.bodies[k + 1:], b.terrains)
    g2 = g.moved(b2, old.id)
    fresh = BoardGeometry(b2)
    changed = 0
    for s in b2.bodies:
        for t in b2.bodies:
            if s.side == t.side:
                continue
            got = g2.facing_cover(s.id, t.id)
            assert got == fresh.facing_cover(s.id, t.id)
            changed += got != before[(s.id, t.id)]
    assert changed > 0


def test_terrain_arrays_equal_the_per_polygon_construction() -> None:
    """Terrain polygons and edge arrays are built for all pieces at once; each equals what
    the piece gives on its own (odd polygons included: self-crossing, too few points,
    collinear, clockwise, repeated vertices, not convex, huge and tiny)."""
    from tabletop_gui.geometry.terrain import _valid_polygon

    odd = (Terrain("bow", "obstacle", ((0, 0), (2, 2), (2, 0), (0, 2)), 1.0),
           Terrain("two", "obstacle", ((0, 0), (1, 1)), 1.0),
           Terrain("line", "obstacle", ((0, 0), (1, 1), (2, 2)), 1.0),
           Terrain("cw", "obstacle", ((0, 0), (0, 2), (2, 2), (2, 0)), 1.0),
           Terrain("L", "obstacle", ((20, 10), (26, 10), (26, 12), (22, 12), (22, 16),
                                     (20, 16)), 2.0),
           Terrain("dup", "obstacle", ((0, 0), (1, 0), (1, 0), (1, 1), (0, 1)), 1.0),
           Terrain("hill", "platform", ((-1, -1), (5, -1), (5, 5), (-1, 5)), 2.0),
           Terrain("huge", "obstacle", ((1e9, 1e9), (1e9 + 1, 1e9), (1e9 + 1, 1e9 + 1)), 1.0),
           Terrain("tiny", "obstacle", ((0, 0), (1e-9, 0), (1e-9, 1e-9)), 1.0))
    for terrains in (odd, army_board(3, 1).terrains, ()):
        ts = TerrainSet.build(terrains)
        for n, t in enumerate(terrains):
            own = _valid_polygon(t.polygon)
            assert ts.polygons[n].equals_exact(own, 0.0)
            if own.is_empty:
                assert not ts.convex[n] and not ts.vertex_valid[n].any()
                continue
            ring = np.asarray(own.exterior.coords)[:-1]
            assert np.array_equal(ts.vertices[n, :len(ring)], ring)
            assert ts.vertex_valid[n].sum() == len(ring)
            if not ts.convex[n]:
                assert not ts.edge_valid[n].any()
                continue
            d = np.roll(ring, -1, axis=0) - ring
            length = np.hypot(d[:, 0], d[:, 1])
            ok = length > 0
            assert np.array_equal(ts.edge_start[n, :len(ring)], ring)
            assert np.array_equal(ts.edge_valid[n, :len(ring)], ok)
            assert np.array_equal(ts.edge_normal[n, :len(ring), 0][ok], -d[ok, 1] / length[ok])
            assert np.array_equal(ts.edge_normal[n, :len(ring), 1][ok], d[ok, 0] / length[ok])
            assert ts.edge_count[n] == np.flatnonzero(ok).max() + 1
    ts = TerrainSet.build(odd)
    ids = [t.id for t in odd]
    # obstacles on the hill start at its top; the others on the table
    assert ts.base[ids.index("dup")] == pytest.approx(2.0, abs=1e-9)
    assert ts.base[ids.index("cw")] == pytest.approx(2.0, abs=1e-9)
    assert ts.base[ids.index("L")] == pytest.approx(0.0, abs=1e-9)
    assert ts.top[ids.index("L")] == pytest.approx(2.0, abs=1e-9)
