"""``pairs._Flat`` writes a matrix as two-index writes would, for a block's own keys
(found once) and for any other pairs."""

from __future__ import annotations

import numpy as np

from tabletop_gui.geometry.pairs import _Flat


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
