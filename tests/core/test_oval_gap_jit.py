"""The compiled refinement of the gaps between ovals and rectangles
(``jit_kernels.oval_gaps``) gives the numpy path's gaps and closest points
(``oval_gap.refine_gaps`` with ``TABLETOP_GUI_NO_JIT``): within 1e-12" (the tolerance
between batch paths) on boards of a few inches, 1e-12 of the board's scale on huge ones.
The two take the same steps; only the last bits of sin, cos and an oval's nearest point
(found point by point in the kernel, over the whole batch in numpy) may differ.
Without numba these tests are skipped."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import gaps, jit, outline, oval_gap
from tabletop_gui.geometry.board import Board, Body, Footprint
from tabletop_gui.geometry.bodies import BodyArrays, outline_shapes
from tabletop_gui.geometry.pairs import opposing_pairs
from tabletop_gui.geometry.terrain import TerrainSet
from tests.core.geometry_helpers import oval, rect

pytest.importorskip("numba")


@pytest.fixture(autouse=True)
def _jit_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit, "ENABLED", True)
    monkeypatch.setattr(jit, "JIT_FROM", 0)
    assert jit.kernels(1) is not None


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pairs each call of the kernel was given (the compiled path was taken)."""
    kernels = jit.loaded()
    assert kernels is not None
    real = kernels.oval_gaps
    seen: list[int] = []

    def spy(*args):  # type: ignore[no-untyped-def]
        seen.append(len(args[0]))
        return real(*args)

    monkeypatch.setattr(kernels, "oval_gaps", spy)
    return seen


def numpy_only(fn, *args):  # type: ignore[no-untyped-def]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jit, "ENABLED", False)
        return fn(*args)


def oval_pairs(b: Board) -> tuple[BodyArrays, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The opposing pairs that ``refine_gaps`` is given: an oval against a rectangle
    (every one, as ``gaps._shape_gaps`` asks), two ovals apart (from the polygons' closest
    points, as ``gaps._polygon_gaps`` asks), with those closest points as guesses."""
    ba = BodyArrays.build(b.bodies, TerrainSet.build(b.terrains))
    i, j = opposing_pairs(ba)
    oi, oj = ba.shape[i] == outline.ELLIPSE, ba.shape[j] == outline.ELLIPSE
    keep = (oi | oj) & ~ba.circle[i] & ~ba.circle[j]
    i, j = i[keep], j[keep]
    lines = shapely.shortest_line(outline_shapes(ba, i), outline_shapes(ba, j))
    coords = shapely.get_coordinates(lines).reshape(len(i), 2, 2)
    pa, pb = coords[:, 0].copy(), coords[:, 1].copy()
    apart = np.hypot(*(pb - pa).T) > 0
    keep = apart | (ba.shape[i] != ba.shape[j])
    return ba, i[keep], j[keep], pa[keep], pb[keep]


def assert_same_refinement(b: Board, atol: float = 1e-12) -> int:
    """``refine_gaps`` compiled and in numpy, and ``gaps._shape_gaps`` (the batch path)
    with and without the kernels; returns how many pairs were refined."""
    ba, i, j, pa, pb = oval_pairs(b)
    fast = oval_gap.refine_gaps(ba, i, j, pa, pb)
    slow = numpy_only(oval_gap.refine_gaps, ba, i, j, pa, pb)
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=0, atol=atol)
    ii, jj = opposing_pairs(ba)
    k = np.flatnonzero(~ba.circle[ii] & ~ba.circle[jj])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gaps, "SMALL_PAIRS", -1)
        fast = gaps._shape_gaps(ba, ii[k], jj[k])
        slow = numpy_only(gaps._shape_gaps, ba, ii[k], jj[k])
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=0, atol=atol)
    # the whole of ``_shape_gaps`` compiled (``jit_kernels.shape_gaps``, then the polygons)
    kernels = jit.loaded()
    assert kernels is not None
    compiled = gaps._compiled_shape_gaps(kernels, ba, ii[k], jj[k])
    for f, s in zip(compiled, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=0, atol=atol)
    return len(i)


def oval_board(seed: int, n: int, spread: float, scale: float = 1.0,
               flat: bool = False) -> Board:
    """n ovals and rectangles in ``spread`` inches, any size and facing (some flat: 100 or
    10,000 times longer than wide), every length times ``scale``."""
    rng = np.random.default_rng(seed)
    bodies = []
    for k in range(n):
        x, y = rng.uniform(0, spread, 2)
        shape = "ellipse" if rng.random() < 0.6 else "rect"
        length = float(rng.uniform(0.3, 4.0))
        width = float(rng.uniform(0.2, 1.0)) * length
        if flat and rng.random() < 0.3:
            width = length / (1e4 if rng.random() < 0.3 else 100)
        bodies.append(Body(f"b{k}", "ab"[k % 2], Footprint(
            shape, float(x) * scale, float(y) * scale, length * scale, width * scale,
            float(rng.uniform(0, 360)))))
    return Board(spread * scale, spread * scale, tuple(bodies))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.sampled_from([4.0, 10.0, 30.0]),
       st.booleans())
def test_compiled_refinement_equals_numpy_on_random_boards(seed: int, n: int, spread: float,
                                                            flat: bool) -> None:
    assert_same_refinement(oval_board(seed, n, spread, flat=flat))


@pytest.mark.parametrize("scale", [1e-4, 1e3])
def test_compiled_refinement_equals_numpy_at_huge_and_tiny_scales(scale: float) -> None:
    for seed in range(3):
        assert assert_same_refinement(oval_board(seed, 12, 10.0, scale),
                                      atol=1e-12 * max(1.0, scale)) > 0


def test_compiled_refinement_on_the_benchmark_board(calls: list[int]) -> None:
    assert assert_same_refinement(synthetic_board(200, seed=3)) > 100
    assert sum(calls) > 100  # the kernel measured them


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning",
                            "ignore:invalid value:RuntimeWarning")
def test_touching_overlapping_and_flat_outlines(calls: list[int]) -> None:
    """An oval touching a rectangle's end, 1" off its side, overlapping one, touching
    another oval and just apart from one, an oval with no width (the kernel leaves its
    rectangle to numpy, whose divisions by its zero width warn) and one 100 times longer
    than wide."""
    bodies = [oval("o1", "a", 10.0, 10.0, 2.4, 1.4, facing=90.0),
              oval("o2", "a", 30.0, 30.0, 2.4, 1.4, facing=90.0),
              oval("f0", "a", 10.0, 30.0, 3.0, 0.0, facing=0.0),
              oval("f1", "a", 30.0, 10.0, 3.0, 0.03, facing=45.0)]
    others = [rect("q1", "b", 12.2, 10.0, 1.0, 1.0, facing=90.0),  # touches o1's end
              rect("q2", "b", 10.0, 11.7, 1.0, 2.0, facing=90.0),  # 1" off o1's side
              rect("q3", "b", 9.0, 10.0, 1.0, 1.0, facing=30.0),  # overlaps o1
              oval("p1", "b", 32.4, 30.0, 2.4, 1.4, facing=90.0),  # touches o2's end
              oval("p2", "b", 30.0, 31.4 + 1e-9, 2.4, 1.4, facing=90.0),  # just apart
              rect("q4", "b", 10.0, 32.0, 1.0, 1.0, facing=0.0),  # beyond flat f0
              oval("p3", "b", 31.5, 11.0, 1.0, 0.2, facing=-45.0)]  # beside flat f1
    assert assert_same_refinement(Board(60.0, 60.0, tuple(bodies + others))) > 5
    assert sum(calls) > 5


@pytest.fixture
def shape_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pairs each call of ``jit_kernels.shape_gaps`` answered itself."""
    kernels = jit.loaded()
    assert kernels is not None
    real = kernels.shape_gaps
    answered: list[int] = []

    def spy(*args):  # type: ignore[no-untyped-def]
        out = real(*args)
        answered.append(int(out[3].sum()))
        return out

    monkeypatch.setattr(kernels, "shape_gaps", spy)
    return answered


def test_compiled_shape_gaps_answer_most_of_the_benchmark_boards_pairs(
        shape_calls: list[int]) -> None:
    """The ovals against rectangles and the parted ovals of a 200-fighter board are
    measured by the kernel (the two rectangles and the rest by the polygons), with the
    numpy batch's gaps and closest points (``assert_same_refinement``), and so are a
    couple of pairs (a drag step's, once the kernels are loaded: no plain floats)."""
    assert assert_same_refinement(synthetic_board(200, seed=3)) > 100
    assert sum(shape_calls) > 100
    b = Board(20.0, 20.0, (oval("o1", "a", 5.0, 5.0, 2.4, 1.4, facing=30.0),
                           rect("q1", "b", 9.0, 6.0, 1.0, 2.0, facing=10.0),
                           oval("o2", "b", 5.0, 10.0, 3.0, 1.0, facing=80.0)))
    ba = BodyArrays.build(b.bodies, TerrainSet.build(b.terrains))
    i, j = np.array([0, 0], dtype=np.intp), np.array([1, 2], dtype=np.intp)
    fast = gaps.gaps(ba, i, j)
    slow = numpy_only(gaps.gaps, ba, i, j)
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=0, atol=1e-12)
    assert shape_calls[-1] == 2

