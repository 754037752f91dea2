"""The fast paths of issue 17 give the answers of the obvious computations, on random boards.

- ``corridor``: the angular bins find exactly the candidates of the all-against-all test
  (the same pairs and pieces, in the same order), so every answer built on them is the
  same; the whole pair table built through either path is equal, bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import corridor, jit
from tabletop_gui.geometry.board import Board, Body, Footprint, Terrain
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import corridor_candidates
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.pairs import PairTable, opposing_pairs
from tabletop_gui.geometry.terrain import TerrainSet

RULE = CoverRule(True, 3.0)


def crowded_board(seed: int, n: int, pieces: int, spread: float) -> Board:
    """Bodies and pieces packed into ``spread`` inches: bodies inside pieces, on top of
    each other (same centre), pieces around a body, thin and long pieces at any angle."""
    rng = np.random.default_rng(seed)
    bodies = []
    for k in range(n):
        x, y = rng.uniform(0, spread, 2)
        if k and rng.random() < 0.15:  # the same centre as another body
            prev = bodies[int(rng.integers(len(bodies)))].footprint
            x, y = prev.x, prev.y
        shape = ("circle", "ellipse", "rect")[int(rng.integers(3))]
        length, width = (1.0, 1.0) if shape == "circle" else (2.4, 1.4)
        bodies.append(Body(f"b{k}", "ab"[k % 2], Footprint(shape, float(x), float(y), length,
                                                           width, float(rng.uniform(0, 360))),
                           None, float(rng.uniform(0.5, 3.0))))
    terrains = []
    for k in range(pieces):
        cx, cy = rng.uniform(-2, spread + 2, 2)
        length, thick = rng.uniform(0.05, 12.0), rng.uniform(0.01, 3.0)
        a = rng.uniform(0, math.pi)
        c, s = math.cos(a), math.sin(a)
        pts = tuple((float(cx + u * c - v * s), float(cy + u * s + v * c))
                    for u, v in ((-length / 2, -thick / 2), (length / 2, -thick / 2),
                                 (length / 2, thick / 2), (-length / 2, thick / 2)))
        kind = "platform" if rng.random() < 0.1 else "obstacle"
        terrains.append(Terrain(f"t{k}", kind, pts, float(rng.uniform(0.2, 4.0)), f"T{k}"))
    return Board(spread, spread, tuple(bodies), tuple(terrains))


def both_ways(b: Board) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    i, j = opposing_pairs(ba)
    return (corridor_candidates(ba, ts, i, j, angular=True),
            corridor_candidates(ba, ts, i, j, angular=False))


def assert_same_candidates(b: Board) -> int:
    (pa, ta), (pb, tb) = both_ways(b)
    assert np.array_equal(pa, pb) and np.array_equal(ta, tb)
    return len(pa)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 60), st.integers(1, 40),
       st.sampled_from([3.0, 12.0, 60.0]))
def test_angular_candidates_equal_all_against_all(seed: int, n: int, pieces: int,
                                                  spread: float) -> None:
    assert_same_candidates(crowded_board(seed, n, pieces, spread))


@pytest.mark.parametrize("n", [40, 200])
def test_angular_candidates_on_the_benchmark_boards(n: int) -> None:
    assert assert_same_candidates(synthetic_board(n, seed=3)) > 0


def test_angular_candidates_at_huge_and_tiny_scales() -> None:
    for scale in (1e-3, 1e4):
        b = crowded_board(7, 30, 20, 20.0)
        grown = Board(b.width * scale, b.depth * scale, tuple(
            Body(x.id, x.side, Footprint(x.footprint.shape, x.footprint.x * scale,
                                         x.footprint.y * scale, x.footprint.length * scale,
                                         x.footprint.width * scale, x.footprint.facing),
                 None, x.height) for x in b.bodies),
            tuple(Terrain(t.id, t.kind, tuple((px * scale, py * scale) for px, py in t.polygon),
                          t.height, t.label) for t in b.terrains))
        assert_same_candidates(grown)


def test_the_default_switches_to_the_bins_on_large_problems(monkeypatch) -> None:
    b = crowded_board(11, 40, 30, 30.0)
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    i, j = opposing_pairs(ba)
    calls = []
    real = corridor._angular
    monkeypatch.setattr(jit, "ENABLED", False)  # the numpy paths (not the compiled walk)
    monkeypatch.setattr(corridor, "_angular", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(corridor, "ANGULAR_AFTER", len(i) * len(ts) + 1)
    corridor_candidates(ba, ts, i, j)
    assert not calls
    monkeypatch.setattr(corridor, "ANGULAR_AFTER", len(i) * len(ts))
    corridor_candidates(ba, ts, i, j)
    assert calls


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_pair_tables_through_either_path_are_equal(seed: int) -> None:
    b = crowded_board(seed, 40, 25, 30.0)
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    tables = []
    for after in (10**12, 0):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(jit, "ENABLED", False)  # the two numpy paths
            mp.setattr(corridor, "ANGULAR_AFTER", after)
            tables.append(PairTable.build(ba, ts, RULE))
    slow, fast = tables
    for name in ("horizontal", "vertical", "distance"):
        assert np.array_equal(getattr(slow, name), getattr(fast, name), equal_nan=True)
    for name in ("visible", "cover", "flanked"):
        assert np.array_equal(getattr(slow, name), getattr(fast, name))
    assert not slow.visible.all()  # something stands in the way somewhere
    n = len(b.bodies)
    for a in range(n):
        for t in range(n):
            assert slow.blockers(a, t) == fast.blockers(a, t)
            assert slow.cover_terrain(a, t) == fast.cover_terrain(a, t)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 39), st.floats(-2, 2),
                                                  st.floats(-2, 2)), min_size=1, max_size=6))
def test_flanking_after_drags_equals_a_fresh_table(seed: int,
                                                   steps: list[tuple[int, float, float]]
                                                   ) -> None:
    """``PairTable.moved`` keeps the pairs within 1" of the other bodies and finds the
    dragged one's again: flanking equals the whole computation's after every step."""
    b = crowded_board(seed, 40, 6, 8.0)  # packed: many pairs within 1", lone friends
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    table = PairTable.build(ba, ts, RULE)
    assert table.near is not None
    for k, dx, dy in steps:
        body = b.bodies[k]
        fp = body.footprint
        moved = Body(body.id, body.side, Footprint(fp.shape, fp.x + dx, fp.y + dy, fp.length,
                                                    fp.width, fp.facing), None, body.height)
        b = Board(b.width, b.depth, b.bodies[:k] + (moved,) + b.bodies[k + 1:], b.terrains)
        ba = ba.with_body(k, moved, ts)
        table = table.moved(ba, ts, k)
        fresh = PairTable.build(ba, ts, RULE)
        assert np.array_equal(table.flanked, fresh.flanked)
        assert table.near is not None and fresh.near is not None
        assert (sorted(zip(*(x.tolist() for x in table.near), strict=True))
                == sorted(zip(*(x.tolist() for x in fresh.near), strict=True)))


def test_packed_boards_have_flanking() -> None:
    """The boards of the drag test above do hold flanked pairs (the test is not empty)."""
    flanked = []
    for seed in range(5):
        b = crowded_board(seed, 40, 6, 8.0)
        ts = TerrainSet.build(b.terrains)
        flanked.append(PairTable.build(BodyArrays.build(b.bodies, ts), ts, RULE).flanked.sum())
    assert sum(1 for f in flanked if f > 0) >= 3, flanked


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.integers(1, 30),
       st.sampled_from([3.0, 12.0, 60.0]))
def test_separating_axes_at_once_equal_vertex_by_vertex(seed: int, n: int, pieces: int,
                                                        spread: float) -> None:
    """The corridor's separating axes over every vertex in one array (small batches: a
    drag's row) keep exactly the candidates of the vertex-by-vertex loop; pieces with
    other vertex counts (a triangle, a hexagon: padded) among them."""
    b = crowded_board(seed, n, pieces, spread)
    hexagon = tuple((float(spread / 2 + 2 * math.cos(a)), float(spread / 2 + 2 * math.sin(a)))
                    for a in np.linspace(0, 2 * math.pi, 6, endpoint=False))
    b = Board(b.width, b.depth, b.bodies, b.terrains + (
        Terrain("hex", "obstacle", hexagon, 2.0),
        Terrain("tri", "obstacle", ((0.0, 0.0), (spread, 1.0), (1.0, spread)), 1.0)))
    ts = TerrainSet.build(b.terrains)
    ba = BodyArrays.build(b.bodies, ts)
    i, j = opposing_pairs(ba)
    found = []
    saved = corridor._AT_ONCE
    try:
        for limit in (0, 1 << 40):
            corridor._AT_ONCE = limit
            found.append(corridor_candidates(ba, ts, i, j, angular=False))
    finally:
        corridor._AT_ONCE = saved
    assert np.array_equal(found[0][0], found[1][0]) and np.array_equal(found[0][1], found[1][1])
