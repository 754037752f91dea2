"""A few non-round pairs measured one at a time in plain floats (``oval_gap_small``) give
the batch path's gaps and closest points (within 1e-12", the tolerance between batches),
and leave to it what it alone can answer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import gaps, oval_gap_small
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.pairs import opposing_pairs
from tabletop_gui.geometry.terrain import TerrainSet
from tests.core.geometry_helpers import oval, rect
from tests.core.test_geometry_fast_paths import crowded_board


def non_round_pairs(b: Board) -> tuple[BodyArrays, np.ndarray, np.ndarray]:
    ba = BodyArrays.build(b.bodies, TerrainSet.build(b.terrains))
    i, j = opposing_pairs(ba)
    k = np.flatnonzero(~ba.circle[i] & ~ba.circle[j])
    return ba, i[k], j[k]


def batch(ba: BodyArrays, i: np.ndarray, j: np.ndarray,
          monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, ...]:
    with monkeypatch.context() as mp:
        mp.setattr(gaps, "SMALL_PAIRS", -1)
        return gaps._shape_gaps(ba, i, j)


def assert_same(ba: BodyArrays, i: np.ndarray, j: np.ndarray,
                monkeypatch: pytest.MonkeyPatch) -> int:
    """Plain floats (every pair, however many) against the batch path; returns how many
    pairs the plain floats answered themselves."""
    slow = batch(ba, i, j, monkeypatch)
    with monkeypatch.context() as mp:
        mp.setattr(gaps, "SMALL_PAIRS", 10**9)
        fast = gaps._shape_gaps(ba, i, j)
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=0, atol=1e-12)
    small = oval_gap_small.shape_gaps_small(ba, i, j)
    assert small is not None
    return int((~small[3]).sum())


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 30), st.sampled_from([3.0, 8.0, 30.0]))
def test_plain_floats_equal_the_batch_on_crowded_boards(seed: int, n: int, spread: float
                                                         ) -> None:
    with pytest.MonkeyPatch.context() as mp:
        assert_same(*non_round_pairs(crowded_board(seed, n, 0, spread)), monkeypatch=mp)


def test_plain_floats_equal_the_batch_on_the_benchmark_boards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    answered = 0
    for n, seed in ((50, 1), (50, 2), (200, 3)):
        answered += assert_same(*non_round_pairs(synthetic_board(n, seed=seed)), monkeypatch)
    assert answered > 100  # most pairs are parted: not left to the polygons


def test_touching_overlapping_and_parted_outlines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ovals and rectangles touching, overlapping, side by side along an edge (the
    closest point on an edge's interior), corner to corner, and far apart."""
    bodies = [oval("o1", "a", 10.0, 10.0, 2.4, 1.4, facing=30.0),
              rect("r1", "a", 20.0, 10.0, 2.0, 1.0, facing=0.0),
              oval("o2", "a", 30.0, 30.0, 2.4, 1.4, facing=90.0)]
    others = [oval("p1", "b", 11.2, 10.5, 2.4, 1.4, facing=120.0),  # overlaps o1
              rect("q1", "b", 20.0, 11.0, 2.0, 1.0, facing=0.0),  # touches r1 along an edge
              rect("q2", "b", 22.0, 12.0, 2.0, 1.0, facing=45.0),
              oval("p2", "b", 20.0, 12.5, 2.4, 1.4, facing=0.0),  # above r1's long edge
              oval("p3", "b", 32.0, 30.0, 2.4, 1.4, facing=90.0),  # side by side with o2
              rect("q3", "b", 45.0, 45.0, 1.0, 1.0, facing=10.0)]
    ba, i, j = non_round_pairs(Board(60.0, 60.0, tuple(bodies + others)))
    assert assert_same(ba, i, j, monkeypatch) > 0


def test_numbers_beyond_plain_floats_go_to_the_batch() -> None:
    """A flat oval (no width) and a body at an infinite place: the batch path answers."""
    for bad in (oval("f", "b", 12.0, 10.0, 2.4, 0.0), rect("n", "b", float("inf"), 1.0, 1, 1)):
        ba, i, j = non_round_pairs(Board(40.0, 40.0, (oval("o", "a", 10.0, 10.0, 2.4, 1.4),
                                                      bad)))
        assert len(i) == 1
        assert oval_gap_small.shape_gaps_small(ba, i, j) is None
