"""``pairs._Flat`` writes a matrix as two-index writes would, for a block's own keys
(found once) and for any other pairs; the pairs within 1" and the 3D distances are
read as ``np.nonzero`` and ``np.hypot`` give them; rows of triples laid out by column
hold and answer what rows stacked row by row do."""

from __future__ import annotations

import numpy as np

from tabletop_gui.geometry.pairs import _by_columns, _distance_3d, _Flat, _near, _rows
from tabletop_gui.geometry.triples import Triples


def test_flat_writes_equal_two_index_writes() -> None:
    rng = np.random.default_rng(3)
    n = 9
    i = rng.integers(0, n, 20).astype(np.intp)
    j = rng.integers(0, n, 20).astype(np.intp)
    a, t = j[::2].copy(), i[::2].copy()  # other arrays: not the block's keys
    for dtype, fill in ((float, np.nan), (bool, False)):
        want = np.full((n, n), fill, dtype=dtype)
        got = np.full((n, n), fill, dtype=dtype)
        sink = _Flat(got, _Flat.places(i, j, n))
        for (x, y), value in (((i, j), rng.random(20) > 0.5),
                              ((j, i), rng.random(20) > 0.3),
                              ((a, t), rng.random(10) > 0.6)):
            want[x, y] = value
            sink[x, y] = value
        assert np.array_equal(got, want, equal_nan=dtype is float)


def test_pairs_within_an_inch_are_nonzeros_positions() -> None:
    """``_near`` (flat positions turned into rows and columns) lists the entries within
    1" (NaN never) in ``np.nonzero``'s order, of square and empty matrices."""
    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 30):
        d = rng.uniform(0.0, 3.0, (n, n))
        d[rng.random((n, n)) < 0.3] = np.nan
        d[rng.random((n, n)) < 0.1] = 1.0  # exactly at the limit: within
        f, t = _near(d)
        with np.errstate(invalid="ignore"):
            want_f, want_t = np.nonzero(d <= 1.0 + 1e-9)
        assert f.tolist() == want_f.tolist() and t.tolist() == want_t.tolist()
        assert f.dtype == t.dtype == np.intp


def test_3d_distances_are_hypots_bit_for_bit() -> None:
    """``_distance_3d`` skips ``np.hypot`` where the vertical distance is 0: the very same
    numbers (exact equality is the point: IEEE 754's hypot(x, 0) is |x|), NaN and
    infinities included."""
    rng = np.random.default_rng(8)
    gap = rng.uniform(0.0, 40.0, 500)
    vertical = np.where(rng.random(500) < 0.7, 0.0, rng.uniform(0.0, 6.0, 500))
    gap[:6] = [0.0, np.inf, np.nan, 1e-300, 3.0, np.nan]
    vertical[:6] = [0.0, 0.0, 0.0, 0.0, np.nan, 2.0]
    got = _distance_3d(gap, vertical)
    want = np.hypot(gap, vertical)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert (vertical == 0).sum() > 300  # most skipped hypot
    assert np.array_equal(_distance_3d(gap[:0], vertical[:0]), np.zeros(0))


def test_rows_laid_out_by_column_are_the_stacked_rows() -> None:
    """``_by_columns`` gives ``np.column_stack``'s rows (each column contiguous), and
    ``Triples`` built from them, alone or joined (``_rows``), answer every pair's terrain
    in the same order as from rows stacked row by row."""
    rng = np.random.default_rng(12)
    parts = []
    for size in (0, 1, 57, 300):
        cols = [rng.integers(0, 30, size).astype(np.intp) for _ in range(3)]
        rows = _by_columns(cols)
        assert np.array_equal(rows, np.column_stack(cols)) and rows.shape == (size, 3)
        assert rows[:, 0].flags["C_CONTIGUOUS"]
        parts.append(rows)
    joined, stacked = _rows(parts), Triples.build(np.concatenate([np.ascontiguousarray(p)
                                                                  for p in parts]))
    assert np.array_equal(joined.base, stacked.base)
    for a in range(30):
        for t in range(30):
            assert joined.terrain_of(a, t) == stacked.terrain_of(a, t)
    assert sum(len(joined.terrain_of(a, t)) for a in range(30) for t in range(30)) == 358
