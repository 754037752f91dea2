"""The compiled loops (``geometry.jit_kernels``, numba) give the numpy paths' answers.

Each fast path is compared with the numpy computation it replaces on random boards with
obstacles and platforms (bodies standing on them), pieces that are not convex or have many
vertices (the pairs meeting them go through numpy), and edge cases: sight lines grazing a
corner or running along an edge, bases exactly 1" apart, bodies on top of each other.
Without numba these tests are skipped; the numpy paths are the ones every other test runs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import jit, outline, segments
from tabletop_gui.geometry.board import Board, Terrain
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import (
    corridor_and_sight,
    corridor_candidates,
    sight_blockers,
)
from tabletop_gui.geometry.cover import CoverRule, cover_both_ways, cover_rows
from tabletop_gui.geometry.gaps import gaps
from tabletop_gui.geometry.pairs import PairTable, opposing_pairs
from tabletop_gui.geometry.sight import sight_pairs
from tabletop_gui.geometry.terrain import TerrainSet
from tabletop_gui.geometry.triples import Triples
from tests.core.geometry_helpers import assert_same_tables, box, disc, oval, rect
from tests.core.test_geometry_fast_paths import crowded_board

pytest.importorskip("numba")

RULE = CoverRule(True, 3.0)


@pytest.fixture(autouse=True)
def _jit_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit, "ENABLED", True)
    monkeypatch.setattr(jit, "JIT_FROM", 0)  # the kernels for the small boards here too
    assert jit.kernels(1) is not None


def arrays(b: Board) -> tuple[BodyArrays, TerrainSet, np.ndarray, np.ndarray]:
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    i, j = opposing_pairs(ba)
    return ba, ts, i, j


def numpy_only(fn, *args, **kw):  # type: ignore[no-untyped-def]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jit, "ENABLED", False)
        return fn(*args, **kw)


def with_odd_pieces(b: Board) -> Board:
    """The board with an L-shaped wall (not convex) and a round pillar of 80 vertices
    (more than ``terrain.LARGE``) in its middle."""
    cx, cy = b.width / 2, b.depth / 2
    ell = Terrain("ell", "obstacle", ((cx - 3, cy - 3), (cx + 1, cy - 3), (cx + 1, cy - 2),
                                      (cx - 2, cy - 2), (cx - 2, cy + 1), (cx - 3, cy + 1)),
                  2.5, "L wall")
    pillar = Terrain("pillar", "obstacle", tuple(
        (cx + 4 + 1.5 * math.cos(a), cy + 2 + 1.5 * math.sin(a))
        for a in np.linspace(0, 2 * math.pi, 80, endpoint=False)), 3.0, "Pillar")
    return Board(b.width, b.depth, b.bodies, (*b.terrains, ell, pillar))


def assert_same_candidates(b: Board) -> None:
    """On every opposing pair, and on one body's row as a drag step takes it (pairs in
    board order: the body first in some, second in others; shuffled too); the candidates
    that may block sight too (``corridor_and_sight``, found by the same loop)."""
    ba, ts, i, j = arrays(b)
    k = len(ba) // 2
    others = np.flatnonzero(ba.side != ba.side[k]).astype(np.intp)
    shuffled = np.random.default_rng(k).permutation(len(i))
    for ii, jj in ((i, j), (np.minimum(others, k), np.maximum(others, k)),
                   (i[shuffled], j[shuffled])):
        fast = corridor_candidates(ba, ts, ii, jj)
        slow = corridor_candidates(ba, ts, ii, jj, angular=False)
        assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
        both, sight = corridor_and_sight(ba, ts, ii, jj)
        slow_sight = sight_blockers(ba, ts, ii, jj, *slow)
        assert np.array_equal(both[0], slow[0]) and np.array_equal(both[1], slow[1])
        assert np.array_equal(sight[0], slow_sight[0])
        assert np.array_equal(sight[1], slow_sight[1])


def assert_same_sight(b: Board) -> int:
    """Returns how many pairs are hidden (so that a test can show it is not empty)."""
    ba, ts, i, j = arrays(b)
    fast = sight_pairs(ba, ts, i, j)
    slow = numpy_only(sight_pairs, ba, ts, i, j)
    assert np.array_equal(fast.visible, slow.visible)
    order = np.lexsort((slow.blocker_terrain, slow.blocker_pair))
    assert np.array_equal(fast.blocker_pair, slow.blocker_pair[order])
    assert np.array_equal(fast.blocker_terrain, slow.blocker_terrain[order])
    return int((~slow.visible).sum())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 60), st.integers(1, 40),
       st.sampled_from([3.0, 12.0, 60.0]))
def test_compiled_corridor_equals_all_against_all(seed: int, n: int, pieces: int,
                                                  spread: float) -> None:
    assert_same_candidates(crowded_board(seed, n, pieces, spread))


@pytest.mark.parametrize("n", [40, 200])
def test_compiled_corridor_on_the_benchmark_boards(n: int) -> None:
    assert_same_candidates(synthetic_board(n, seed=3))


def test_compiled_corridor_at_huge_and_tiny_scales() -> None:
    b = crowded_board(7, 30, 20, 20.0)
    for scale in (1e-3, 1e4):
        grown = Board(b.width * scale, b.depth * scale, tuple(
            disc(x.id, x.side, x.footprint.x * scale, x.footprint.y * scale,
                 x.footprint.length * scale) for x in b.bodies),
            tuple(Terrain(t.id, t.kind, tuple((px * scale, py * scale) for px, py in t.polygon),
                          t.height, t.label) for t in b.terrains))
        assert_same_candidates(grown)
        assert_same_sight(grown)


def test_compiled_corridor_of_one_piece_and_of_pieces_in_a_line() -> None:
    """Degenerate grids: one piece (a cell of its own size), pieces along one line."""
    bodies = (disc("a", "x", 0.0, 0.0), disc("b", "y", 10.0, 0.0), disc("c", "y", 5.0, 4.0))
    assert_same_candidates(Board(20.0, 20.0, bodies, (box("w", 4, -1, 5, 1, 2.0),)))
    line = tuple(box(f"w{k}", 2.0 * k, 3.0, 2.0 * k + 1, 3.0, 2.0) for k in range(6))
    assert_same_candidates(Board(20.0, 20.0, bodies, line))


def test_compiled_corridor_of_a_fan_of_lines_past_a_piece() -> None:
    """One fighter and 1,440 enemies around it, one every quarter degree, the walls a
    few inches off: the lines pass each wall's angle (the compiled loop's angular test)
    at every offset, grazing it at its edges; same candidates as all against all."""
    bodies = [disc("a", "x", 0.0, 0.0)]
    for k in range(1440):
        ang = math.radians(k / 4.0)
        bodies.append(disc(f"e{k}", "y", 14.0 * math.cos(ang), 14.0 * math.sin(ang)))
    walls = (box("w0", 4.0, -0.2, 6.0, 0.3, 2.0), box("w1", -3.0, 5.0, -2.0, 8.0, 1.0),
             box("w2", 9.0, 9.0, 9.5, 9.5, 3.0))
    b = Board(40.0, 40.0, tuple(bodies), walls)
    assert_same_candidates(b)
    assert_same_sight(b)


def test_compiled_corridor_of_pieces_just_beyond_the_farthest_enemy() -> None:
    """One fighter and 180 enemies 14" around it; small pieces just beyond that ring (and
    some farther): those within the corridors' reach of the enemies' ends are candidates,
    although beyond the farthest enemy (the compiled loop bins no piece beyond the longest
    pair grown by that reach); same candidates as all against all."""
    bodies = [disc("a", "x", 0.0, 0.0)]
    for k in range(180):
        ang = math.radians(2.0 * k)
        bodies.append(disc(f"e{k}", "y", 14.0 * math.cos(ang), 14.0 * math.sin(ang)))
    steps = (0.3, 0.45, 0.55, 0.62, 0.68, 0.72, 0.8, 1.5, 4.0)
    walls = []
    for k in range(90):
        ang = math.radians(4.0 * k + 1.0)
        rr = 14.0 + steps[k % len(steps)]
        px, py = rr * math.cos(ang), rr * math.sin(ang)
        walls.append(box(f"w{k}", px - 0.15, py - 0.15, px + 0.15, py + 0.15, 2.0))
    b = Board(40.0, 40.0, tuple(bodies), tuple(walls))
    assert_same_candidates(b)
    ba, ts, i, j = arrays(b)
    _, tk = corridor_candidates(ba, ts, i, j)
    bd = ts.bounds[tk]
    beyond = np.hypot(bd[:, 0] + bd[:, 2], bd[:, 1] + bd[:, 3]) / 2 > 14.5  # centres
    assert beyond.any()


def edge_of_bins_board(seed: int, size: float) -> Board:
    """One fighter at (30, 22) and 24 enemies around it, along the axes and the diagonals
    (where the pseudo-angles change quadrant, and their bins wrap at the x axis) and at
    random angles; square pieces of half side about ``size``: each a hair (1e-9 to 1e-6
    of the distance, or 5%) inside or outside the edge of a pair's corridor (its box or
    the circle around its box at the corridor's radius from the line), before its first
    end or beyond its last; centred on the axes from the fighter; and with their grown
    circle just holding the fighter or just not. Some are platforms, low, or do not block
    sight; some enemies are ovals or rectangles."""
    rng = np.random.default_rng(seed)
    ax, ay = 30.0, 22.0
    bodies = [disc("a", "x", ax, ay, 1.6)]
    angles = [0.0, 90.0, 180.0, 270.0, 45.0, 135.0, 225.0, 315.0,
              *rng.uniform(0.0, 360.0, 16).tolist()]
    ends = []
    for k, deg in enumerate(angles):
        dist = float(rng.uniform(3.0, 20.0))
        ex = ax + dist * math.cos(math.radians(deg))
        ey = ay + dist * math.sin(math.radians(deg))
        kind = k % 4
        body = (oval(f"e{k}", "y", ex, ey, 2.4, 1.4, float(rng.uniform(0, 360))) if kind == 1
                else rect(f"e{k}", "y", ex, ey, 2.0, 1.2, float(rng.uniform(0, 360)))
                if kind == 2 else disc(f"e{k}", "y", ex, ey, (1.0, 2.36)[k % 2]))
        bodies.append(body)
        ends.append((ex, ey))
    ba = BodyArrays.build(tuple(bodies), TerrainSet.build(()))
    rmax = float(ba.circumradius.max())
    hairs = (-1e-6, -1e-9, 0.0, 1e-9, 1e-6, 0.05, -0.05)
    pieces = []
    for k in range(30):
        w = size * float(rng.uniform(0.2, 1.5))
        hair = 1.0 + hairs[int(rng.integers(len(hairs)))]
        what = k % 3
        if what == 0:  # at the edge of the corridor of the fighter and enemy e
            e = int(rng.integers(len(ends)))
            ex, ey = ends[e]
            r = max(float(ba.circumradius[0]), float(ba.circumradius[e + 1]))
            length = math.hypot(ex - ax, ey - ay)
            nx, ny = -(ey - ay) / length, (ex - ax) / length
            along = float(rng.choice([-0.1, 0.0, 0.3, 0.7, 1.0, 1.1]))
            off = (r + w * float(rng.choice([1.0, math.sqrt(2.0)]))) * hair
            side = float(rng.choice([-1.0, 1.0]))
            px = ax + along * (ex - ax) + side * off * nx
            py = ay + along * (ey - ay) + side * off * ny
        elif what == 1:  # on an axis from the fighter
            deg = 90.0 * int(rng.integers(4))
            dist = float(rng.uniform(2.0, 22.0))
            px = ax + dist * math.cos(math.radians(deg))
            py = ay + dist * math.sin(math.radians(deg))
        else:  # its circle grown by the largest circumradius about to hold the fighter
            deg = float(rng.uniform(0.0, 360.0))
            dist = (w * math.sqrt(2.0) + rmax) * hair
            px = ax + dist * math.cos(math.radians(deg))
            py = ay + dist * math.sin(math.radians(deg))
        kind = "platform" if rng.random() < 0.15 else "obstacle"
        height = float(rng.choice([0.2, 1.0, 2.5, 6.0]))
        pieces.append(box(f"w{k}", px - w, py - w, px + w, py + w, height, kind=kind,
                          blocks_sight=bool(rng.random() < 0.85)))
    return Board(60.0, 44.0, tuple(bodies), tuple(pieces))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.05, 0.4, 1.5]))
def test_compiled_corridor_at_the_edges_of_its_bins(seed: int, size: float) -> None:
    """The compiled loop's pre-filters (pseudo-angle bins, the distance of a piece's
    centre from a pair's line) drop no piece the full tests keep, and its list of the
    pieces that may block sight is ``sight_blockers``': pieces at the very edge of the
    corridors, on the axes, about to hold the fighter (``edge_of_bins_board``)."""
    b = edge_of_bins_board(seed, size)
    assert_same_candidates(b)
    ba, ts, i, j = arrays(b)
    pk, _ = corridor_candidates(ba, ts, i, j, angular=False)
    assert 0 < len(pk) < len(i) * len(ts)  # some pieces in, some out


@pytest.mark.parametrize("ex, ey", [(3.0, 4.0), (1e-3, 2e-3), (7.25, 0.0), (0.0, 0.0),
                                    (1e150, 1e150), (1e-155, 3e-155), (2.0, math.inf),
                                    (math.nan, 1.0)])
def test_the_corridors_distance_test_from_squares_equals_hypot(ex: float, ey: float) -> None:
    """``jit_kernels._within_hypot`` gives ``math.hypot(ex, ey) <= limit`` for limits a
    few units in the last place either side of the distance, far from it, zero,
    negative, infinite, not a number, subnormal and huge."""
    from tabletop_gui.geometry import jit_kernels

    h = math.hypot(ex, ey)
    limits = [0.0, -1.0, math.inf, math.nan, 5e-324, 1e300, 2.0]
    if math.isfinite(h):
        for scale in (1.0, 1.0 + 1e-13, 1.0 - 1e-13, 1.0 + 1e-11, 1.0 - 1e-11, 2.0, 0.5):
            limits.append(h * scale)
        limits.append(h)
        x = h
        for _ in range(4):
            x = math.nextafter(x, math.inf)
            limits.append(x)
        x = h
        for _ in range(4):
            x = math.nextafter(x, -math.inf)
            limits.append(x)
    for limit in limits:
        assert jit_kernels._within_hypot(ex, ey, limit) == (h <= limit), limit


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 50), st.integers(1, 30),
       st.sampled_from([3.0, 12.0, 40.0]), st.booleans())
def test_compiled_sight_equals_numpy(seed: int, n: int, pieces: int, spread: float,
                                     odd: bool) -> None:
    b = crowded_board(seed, n, pieces, spread)
    assert_same_sight(with_odd_pieces(b) if odd else b)


@pytest.mark.parametrize("n", [40, 200])
def test_compiled_sight_on_the_benchmark_boards(n: int) -> None:
    assert assert_same_sight(synthetic_board(n, seed=3)) > 0
    assert assert_same_sight(with_odd_pieces(synthetic_board(n, seed=4))) > 0


def test_compiled_sight_at_the_edges() -> None:
    """Lines grazing a corner, running along an edge, skimming a top; bases exactly 1"
    apart across a wall's end; a body on a platform seeing over a low wall; bodies with the
    same centre; ovals and rectangles (their outline samples)."""
    walls = (box("sq", 4.0, 4.0, 6.0, 6.0, 1.25),  # top at the bodies' tops
             box("low", 10.0, 0.0, 10.5, 3.0, 0.5),
             box("tall", 14.0, 8.0, 14.5, 12.0, 6.0),
             box("plat", 16.0, 0.0, 22.0, 6.0, 2.0, kind="platform"))
    bodies = (disc("a", "x", 0.0, 8.0), disc("b", "y", 8.0, 0.0),  # centre line grazes (4, 4)
              disc("c", "x", 2.0, 4.0), disc("d", "y", 9.0, 4.0),  # along the square's edge
              disc("e", "x", 9.25, 1.5, d=1.0), disc("f", "y", 11.25, 1.5, d=1.0),  # 1" apart
              disc("g", "x", 18.0, 3.0, elevation=2.0), disc("h", "y", 8.0, 2.0),
              disc("i", "x", 12.0, 10.0), disc("j", "y", 16.0, 10.0),
              disc("k", "y", 12.0, 10.0),  # the same centre as "i"
              oval("o", "x", 3.0, 12.0, 2.4, 1.4, facing=30.0),
              rect("r", "y", 20.0, 12.0, 2.0, 1.0, facing=0.0))
    b = Board(24.0, 16.0, bodies, walls)
    assert assert_same_sight(b) > 0
    assert_same_candidates(b)
    ba, ts, _, _ = arrays(b)
    fast = PairTable.build(ba, ts, RULE)
    assert_same_tables(fast, numpy_only(PairTable.build, ba, ts, RULE))
    e, f = ba.index["e"], ba.index["f"]
    assert fast.distance[e, f] == pytest.approx(1.0, abs=1e-9) and fast.within(1.0)[e, f]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_pair_tables_with_and_without_the_kernels_are_equal(seed: int, odd: bool) -> None:
    b = crowded_board(seed, 40, 25, 30.0)
    b = with_odd_pieces(b) if odd else b
    ba, ts, _, _ = arrays(b)
    fast = PairTable.build(ba, ts, RULE)
    slow = numpy_only(PairTable.build, ba, ts, RULE)
    assert_same_tables(fast, slow)
    assert np.array_equal(fast.cover_by.base, slow.cover_by.base)  # in the same order too
    assert not slow.visible.all()


def assert_same_cover(b: Board, rule: CoverRule) -> int:
    """``cover_both_ways`` with the compiled loop (``jit_kernels.cover_hits``) and in numpy:
    the same covers, obstacles (in the same order) and platforms both ways. Returns how
    many covers an oval or rectangle attacker's exempt half inch decided (the loop
    measures those ends from the outline itself)."""
    ba, ts, i, j = arrays(b)
    gap, pa, pb = gaps(ba, i, j)
    dist = np.hypot(gap, np.abs(ba.elevation[i] - ba.elevation[j]))
    cands = corridor_candidates(ba, ts, i, j)
    fast = cover_both_ways(ba, ts, i, j, pa, pb, dist, rule, candidates=cands)
    slow = numpy_only(cover_both_ways, ba, ts, i, j, pa, pb, dist, rule, candidates=cands)
    # as a pair table keeps them (``jit_kernels.cover_rows``): the same flags and rows,
    # in the same order
    fast_rows = cover_rows(ba, ts, i, j, pa, pb, dist, rule, candidates=cands)
    slow_rows = numpy_only(cover_rows, ba, ts, i, j, pa, pb, dist, rule, candidates=cands)
    for f_, s_ in zip(fast_rows, slow_rows, strict=True):
        assert np.array_equal(f_, s_)
    assert np.array_equal(fast_rows[0], slow[0].in_cover)
    assert np.array_equal(fast_rows[1], slow[1].in_cover)
    asked = 0
    for f, s_, att in zip(fast, slow, (i, j), strict=True):
        assert np.array_equal(f.in_cover, s_.in_cover)
        assert np.array_equal(f.obstacle_pair, s_.obstacle_pair)
        assert np.array_equal(f.obstacle, s_.obstacle)
        assert np.array_equal(f.platform, s_.platform)
        asked += int((~ba.circle[att[s_.obstacle_pair]]
                      & (dist[s_.obstacle_pair] > 1.0 + 1e-9)).sum())
    return asked


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 50), st.integers(1, 30),
       st.sampled_from([3.0, 12.0, 40.0]), st.booleans(), st.booleans())
def test_compiled_cover_equals_numpy(seed: int, n: int, pieces: int, spread: float,
                                     odd: bool, gate: bool) -> None:
    b = crowded_board(seed, n, pieces, spread)
    assert_same_cover(with_odd_pieces(b) if odd else b, CoverRule(gate, 3.0))


@pytest.mark.parametrize("n", [40, 200])
def test_compiled_cover_on_the_benchmark_boards(n: int) -> None:
    assert assert_same_cover(synthetic_board(n, seed=3), RULE) > 0
    assert assert_same_cover(with_odd_pieces(synthetic_board(n, seed=4)), RULE) > 0


def assert_same_gaps(b: Board) -> None:
    """``gaps`` with the compiled loop for the pairs holding a round base
    (``jit_kernels.round_gaps``) and in numpy: the same gaps and closest points, to the
    bit where no oval is involved (an oval's nearest point is found point by point there,
    over the whole batch in numpy: the last bits may differ)."""
    ba, _, i, j = arrays(b)
    fast = gaps(ba, i, j)
    slow = numpy_only(gaps, ba, i, j)
    plain = (ba.shape[i] != outline.ELLIPSE) & (ba.shape[j] != outline.ELLIPSE)
    for f, s_ in zip(fast, slow, strict=True):
        assert np.array_equal(f[plain], s_[plain])
        np.testing.assert_allclose(f, s_, rtol=0, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 50), st.sampled_from([3.0, 12.0, 40.0]))
def test_compiled_gaps_equal_numpy(seed: int, n: int, spread: float) -> None:
    assert_same_gaps(crowded_board(seed, n, 1, spread))


def test_compiled_gaps_on_the_benchmark_board_and_at_the_edges() -> None:
    """Bases overlapping, touching, on the same centre; a round base inside an oval and
    inside a rectangle, on their outlines and beyond their corners and ends."""
    assert_same_gaps(synthetic_board(200, seed=3))
    bodies = [oval("o", "x", 10.0, 10.0, 2.4, 1.4, facing=30.0),
              rect("r", "x", 20.0, 10.0, 2.0, 1.0, facing=0.0),
              disc("c0", "x", 10.0, 14.0)]
    for k, (px, py) in enumerate(((10.0, 10.0), (10.3, 10.2), (10.0, 11.2), (10.0, 12.2),
                                  (20.0, 10.0), (20.5, 11.0), (21.5, 10.0), (21.0, 11.5),
                                  (10.0, 14.0), (11.0, 14.0), (30.0, 30.0))):
        bodies.append(disc(f"d{k}", "y", px, py))
    assert_same_gaps(Board(40.0, 40.0, tuple(bodies)))


def test_compiled_counting_sort_orders_triples_as_numpy() -> None:
    """``Triples.build`` by the compiled counting sort (``jit_kernels.counting_order``)
    gives numpy's stable order of each column, and the sorted columns; small and large
    body indices, ties, one row, rows already in order."""
    rng = np.random.default_rng(5)
    for high, n, low in ((1, 3_000, 0), (50, 3_000, 0), (2_000, 3_000, 0), (70_000, 3_000, 0),
                         (70_000, 20_000, 0), (1 << 40, 3_000, 0), (50, 3_000, -3)):
        # (values beyond 2^16 are counted when there are more than a quarter as many rows;
        # values below 0 are not: numpy sorts those)
        rows = rng.integers(low, high, (n, 3)).astype(np.intp)
        laid = np.ascontiguousarray(rows.T).T  # column by column, as a table's rows come
        for r in (rows, rows[np.argsort(rows[:, 1], kind="stable")], rows[:1], rows[:0],
                  laid):
            fast = Triples.build(r)
            slow = numpy_only(Triples.build, r)
            assert np.array_equal(fast.by_a, np.argsort(r[:, 0], kind="stable"))
            assert np.array_equal(fast.by_t, np.argsort(r[:, 1], kind="stable"))
            for name in ("by_a", "a_sorted", "by_t", "t_sorted"):
                assert np.array_equal(getattr(fast, name), getattr(slow, name))


def test_in_a_process_that_lives_on_the_kernels_load_in_the_background(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once ``load_early`` was called, the first computation of ``EARLY_FROM`` pairs starts
    the load and goes on in numpy (``kernels`` answers at once, None while the import
    runs); ``wait`` waits for it, and the kernels answer from then on. Before it, and for a
    smaller computation, nothing is loaded."""
    monkeypatch.setattr(jit, "JIT_FROM", 10**9)
    monkeypatch.setattr(jit, "EARLY_FROM", 1000)
    monkeypatch.setattr(jit, "_loaded", [])
    monkeypatch.setattr(jit, "_loading", [])
    monkeypatch.setattr(jit, "_early", [])
    assert jit.kernels(10**6) is None and not jit._loading  # a one-shot process
    jit.load_early()
    assert jit.kernels(999) is None and not jit._loading
    jit.kernels(1000)
    assert len(jit._loading) == 1
    assert jit.wait(60.0) is not None
    assert jit.kernels(1) is jit.loaded() is not None
    jit.kernels(10**6)
    assert len(jit._loading) == 1  # loaded once


def test_without_numba_the_numpy_paths_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed import of the kernels (numba missing) leaves ``kernels()`` None, and the
    pair table is built by numpy."""
    import builtins

    real_import = builtins.__import__

    def no_numba(name: str, *args, **kw):  # type: ignore[no-untyped-def]
        if name == "numba" or name.endswith("jit_kernels") or (
                args and args[2] and "jit_kernels" in args[2]):
            raise ImportError("no numba here")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(jit, "_loaded", [])
    monkeypatch.setattr(builtins, "__import__", no_numba)
    assert jit.kernels(10**6) is None
    ba, ts, _, _ = arrays(synthetic_board(40, seed=5))
    table = PairTable.build(ba, ts, RULE)
    monkeypatch.setattr(builtins, "__import__", real_import)
    monkeypatch.setattr(jit, "_loaded", [])
    assert_same_tables(table, PairTable.build(ba, ts, RULE))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_compiled_clip_equals_numpy(seed: int) -> None:
    """``segments.convex_interior``: the same (lo, hi) for random segments, segments along
    an edge (outside and inside the line), through a corner, and of no length."""
    b = crowded_board(seed, 4, 20, 12.0)
    ts = TerrainSet.build(b.terrains)
    rng = np.random.default_rng(seed)
    convex = np.flatnonzero(ts.convex & ~ts.large)
    tid = rng.choice(convex, 400).astype(np.intp)
    p = rng.uniform(-3, 15, (400, 2))
    d = rng.uniform(-10, 10, (400, 2))
    verts = ts.vertices[tid]
    p[:100] = verts[:100, 0]  # from a vertex along its edge, and beyond
    d[:100] = (verts[:100, 1] - verts[:100, 0]) * rng.uniform(0.5, 2.0, (100, 1))
    p[100:150] = verts[100:150, 0] - d[100:150] * 0.5  # through a corner
    d[150:170] = 0.0
    fast = segments.convex_interior(p, d, tid, ts)
    slow = numpy_only(segments.convex_interior, p, d, tid, ts)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
    assert np.isinf(slow[0][:100]).sum() > 0  # some lines do run along an edge


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_compiled_line_test_equals_numpy_on_level_vertical_and_edge_lines(seed: int) -> None:
    """``jit_kernels._blocked`` (every step computed, then chosen: a division by a zero
    height difference or by a zero across an edge is made and never chosen) answers as
    ``segments.blocked`` for random 3D segments, level ones (heights exactly equal: at a
    prism's base, inside it, at its top), ones of no length in plan, ones along an edge
    and through a corner."""
    from tabletop_gui.geometry import jit_kernels

    b = crowded_board(seed, 4, 20, 12.0)
    ts = TerrainSet.build(b.terrains)
    rng = np.random.default_rng(seed)
    convex = np.flatnonzero(ts.convex & ~ts.large)
    n = 600
    tid = rng.choice(convex, n).astype(np.intp)
    p = np.column_stack([rng.uniform(-3, 15, (n, 2)), rng.uniform(-1, 5, n)])
    q = np.column_stack([rng.uniform(-3, 15, (n, 2)), rng.uniform(-1, 5, n)])
    verts = ts.vertices[tid]
    p[:100, :2] = verts[:100, 0]  # from a vertex along its edge, and beyond
    q[:100, :2] = verts[:100, 0] + (verts[:100, 1] - verts[:100, 0]) * rng.uniform(
        0.5, 2.0, (100, 1))
    p[100:150, :2] = verts[100:150, 0] - (q[100:150, :2] - verts[100:150, 0])  # a corner
    q[150:200, :2] = p[150:200, :2]  # no length in plan
    level = np.arange(200, 450)
    z = np.concatenate([ts.base[tid[200:250]], ts.top[tid[250:300]],
                        0.5 * (ts.base[tid[300:350]] + ts.top[tid[300:350]]),
                        ts.top[tid[350:400]] - 1e-9, rng.uniform(-1, 5, 50)])
    p[level, 2] = q[level, 2] = z
    fast = np.array([
        jit_kernels._blocked(p[k, 0], p[k, 1], p[k, 2], q[k, 0], q[k, 1], q[k, 0] - p[k, 0],
                             q[k, 1] - p[k, 1], q[k, 2] - p[k, 2],
                             math.sqrt(float(np.sum((q[k] - p[k]) ** 2))),
                             1e-12 * math.hypot(q[k, 0] - p[k, 0], q[k, 1] - p[k, 1]),
                             tid[k], ts.base, ts.top, ts.bounds, ts.edge_nx_t, ts.edge_ny_t,
                             ts.edge_c_t, ts.edge_count)
        for k in range(n)])
    slow = numpy_only(segments.blocked, p, q, tid, ts)
    assert np.array_equal(fast, slow)
    assert slow[level].any() and not slow[level].all()


def test_small_computations_do_not_load_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba is imported by the first computation of ``JIT_FROM`` pairs or more, not by the
    pairs of a small board nor by a step inside a computation (``loaded``); once loaded,
    the kernels answer every size."""
    monkeypatch.setattr(jit, "_loaded", [])
    monkeypatch.setattr(jit, "JIT_FROM", 100_000)
    assert jit.kernels(99_999) is None and jit.loaded() is None and not jit._loaded
    assert jit.kernels(100_000) is not None
    assert jit.kernels(1) is not None and jit.loaded() is not None


def test_a_big_table_loads_the_kernels_for_its_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PairTable.build`` computes in blocks smaller than ``JIT_FROM``: the whole table's
    size decides, so a big battlefield is computed by the kernels."""
    from tabletop_gui.geometry import pairs

    b = synthetic_board(40, seed=2)
    ba, ts, i, _ = arrays(b)
    monkeypatch.setattr(jit, "_loaded", [])
    monkeypatch.setattr(jit, "JIT_FROM", len(i))
    monkeypatch.setattr(pairs, "PAIR_CHUNK", len(i) // 4)
    PairTable.build(ba, ts, RULE)
    assert jit.loaded() is not None


def block_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that compute the blocks of the next tables, one per block.
    The blocks are taken by whichever thread is free (``pairs._both``): this thread's
    first block waits (up to 60 s) until the helper has taken one, so both take some."""
    import threading

    from tabletop_gui.geometry import pairs

    calls: list[str] = []
    facts = pairs._pair_facts
    helper_started = threading.Event()
    here = threading.current_thread().name

    def spy(*args, **kw):  # type: ignore[no-untyped-def]
        name = threading.current_thread().name
        calls.append(name)
        if name != here:
            helper_started.set()
        elif calls.count(here) == 1:
            helper_started.wait(60)
        return facts(*args, **kw)

    monkeypatch.setattr(pairs, "_pair_facts", spy)
    return calls


def assert_same_rows(x: Triples, y: Triples) -> None:
    """The very same rows, in the same order, and ordered the same ways."""
    for name in ("base", "by_a", "a_sorted", "by_t", "t_sorted"):
        assert np.array_equal(getattr(x, name), getattr(y, name)), name


@pytest.mark.parametrize(("seed", "blocks"), [(0, 5), (7, 5), (3, 7), (11, 2)])
def test_a_table_shared_between_two_threads_equals_one_threads(
        monkeypatch: pytest.MonkeyPatch, seed: int, blocks: int) -> None:
    """With several blocks and the kernels loaded, ``PairTable.build`` shares the blocks
    with a helper thread (each takes the next block not yet taken) and orders the cover
    rows on both threads from per-block counts (``pairs._ordered_rows``): every matrix,
    the near pairs, and the blocker and cover rows in their order and their orders by
    attacker and by target, are those of the table computed in one thread (blocks of the
    same size)."""
    from tabletop_gui.geometry import pairs

    b = synthetic_board(120, seed=seed)
    ba, ts, i, _ = arrays(b)
    monkeypatch.setattr(pairs, "PAIR_CHUNK", len(i) // blocks + 1)
    monkeypatch.setattr(pairs, "THREADS", 1)
    one = PairTable.build(ba, ts, RULE)
    monkeypatch.setattr(pairs, "THREADS", 2)
    monkeypatch.setattr(pairs, "spare_core", lambda: True)
    calls = block_threads(monkeypatch)
    ordered = []
    rows = pairs._ordered_rows
    monkeypatch.setattr(pairs, "_ordered_rows", lambda *a: ordered.append(1) or rows(*a))
    two = PairTable.build(ba, ts, RULE)
    assert len(calls) == blocks and len(set(calls)) == 2 and ordered == [1]
    assert_same_tables(one, two)
    for name in ("horizontal", "distance", "visible", "cover"):
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=name in (
            "horizontal", "distance"))
    assert np.array_equal(one.near[0], two.near[0]) and np.array_equal(one.near[1], two.near[1])
    assert len(one.cover_by.base) > 100
    assert_same_rows(one.blocked_by, two.blocked_by)
    assert_same_rows(one.cover_by, two.cover_by)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 29), max_size=60), min_size=1, max_size=6),
       st.booleans())
def test_rows_ordered_on_two_threads_are_those_of_one(parts: list[list[int]],
                                                       reverse: bool) -> None:
    """``pairs._ordered_rows`` (blocks copied and placed in the order by attacker from
    per-block counts, ``jit_kernels.counted_scatter``, on two threads, blocks taken in
    any order) gives ``pairs._rows``'s rows and stable order, for any blocks (empty ones,
    one value, values repeated across blocks)."""
    from tabletop_gui.geometry import pairs

    n = 30
    rng = np.random.default_rng(len(parts))
    blocks = []
    for p in parts:
        cols = [np.array(p, dtype=np.intp), rng.integers(0, n, len(p)), np.arange(len(p))]
        blocks.append(pairs._by_columns(cols))
    counts = [np.bincount(b[:, 0], minlength=n) for b in blocks]
    got = pairs._ordered_rows(blocks, counts, n, lambda: None)
    want = pairs._rows(blocks)
    assert_same_rows(got, want)
    col = np.concatenate([np.array(p, dtype=np.intp) for p in parts])
    assert np.array_equal(got.by_a, np.argsort(col, kind="stable"))


def test_both_threads_give_every_task_in_order() -> None:
    """``pairs._both``: each task's result at its place, whichever thread computed it,
    with ``first`` run here before this thread takes tasks."""
    import threading

    from tabletop_gui.geometry import pairs

    seen: list[str] = []
    first_done = threading.Event()

    def task(k: int) -> int:
        seen.append(threading.current_thread().name)
        return k * k

    assert pairs._both(9, task, first_done.set) == [k * k for k in range(9)]
    assert first_done.is_set() and len(seen) == 9


def test_the_second_thread_waits_for_a_core_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pairs.spare_core``: a machine of 2 cores with less than 1.5 tasks ready to run
    over the last minute has one; busier, or with one core, or where the load cannot be
    read, none: then a table of several blocks is computed by the caller alone."""
    import os

    from tabletop_gui.geometry import pairs

    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1}, raising=False)
    for load, spare in ((0.3, True), (1.4, True), (1.6, False), (4.8, False)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert pairs.spare_core() is spare
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert pairs.spare_core() is False

    def unreadable() -> tuple[float, float, float]:
        raise OSError("no load average here")

    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", unreadable)
    assert pairs.spare_core() is False
    ba, ts, i, _ = arrays(synthetic_board(60, seed=1))
    monkeypatch.setattr(pairs, "PAIR_CHUNK", len(i) // 3 + 1)
    calls = block_threads(monkeypatch)
    PairTable.build(ba, ts, RULE)
    assert len(calls) == 3 and len(set(calls)) == 1
