"""``Layered``: an N x N matrix of a pair table as a value that a drag step derives in O(N).

A drag step changes one body's row and column of every pair matrix. Copying the whole
matrix for that (32 MB of float64 at N = 2000) costs more than computing the row, so a
``Layered`` matrix is a *base* matrix, never written, plus *layers*: for a body k, its
whole row and column (``row[t]`` = m[k, t], ``col[a]`` = m[a, k]), oldest first. An entry
(a, t) is the newest layer's of a or t, else the base's. ``with_line`` gives a new value
with one more layer (replacing the body's older layer, if any): the older value is never
written and keeps answering as before, and the two share the base and every layer.

Reading: ``row`` and ``col`` cost O(N + layers); ``full`` folds the layers into one
matrix (O(N^2), once per value: it is kept, read-only, and becomes the base of the values
derived from this one). When the layers grow past ``MAX_LAYERS`` (that many different
bodies moved with nobody reading a whole matrix), ``with_line`` folds them into a new base.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numpy.typing import NDArray

MAX_LAYERS = 32

Line = tuple[int, NDArray[Any], NDArray[Any]]  # (body k, row of k, column of k)


class Layered:
    """An N x N matrix as a read-only base and layers of replaced rows and columns."""

    __slots__ = ("_base", "_layers", "_full", "_lock")

    def __init__(self, base: NDArray[Any], layers: tuple[Line, ...] = ()) -> None:
        """``base`` becomes read-only (it is shared with every value derived from this one);
        so do the rows and columns of ``layers`` (``with_line`` freezes each as it adds it:
        the older ones are already)."""
        _freeze(base)
        if layers:
            _, row, col = layers[-1]
            _freeze(row)
            _freeze(col)
        self._base = base
        self._layers = layers
        self._full: NDArray[Any] | None = base if not layers else None
        self._lock = threading.Lock()

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._base.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._base.dtype

    @property
    def layers(self) -> int:
        """The number of layers (0 once the value has been folded)."""
        return 0 if self._full is not None else len(self._layers)

    def with_line(self, k: int, row: NDArray[Any], col: NDArray[Any] | None = None
                  ) -> Layered:
        """This matrix with row k replaced by ``row`` and column k by ``col`` (by ``row``
        when None: a symmetric matrix), as a new value (this one is left as it was).
        ``row[k]`` and ``col[k]`` are the one entry m[k, k]: they must be equal."""
        col = row if col is None else col
        full = self._full
        if full is not None:
            return Layered(full, ((k, row, col),))
        layers = tuple(x for x in self._layers if x[0] != k) + ((k, row, col),)
        if len(layers) > MAX_LAYERS:
            return Layered(_fold(self._base, layers))
        return Layered(self._base, layers)

    def full(self) -> NDArray[Any]:
        """The whole matrix (read-only; folded once, then the same array)."""
        full = self._full
        if full is None:
            with self._lock:
                full = self._full
                if full is None:
                    full = _fold(self._base, self._layers)
                    self._full = full
        return full

    def row(self, a: int) -> NDArray[Any]:
        """Row a, m[a, :], as a new array."""
        return self._line(a, across=False)

    def col(self, t: int) -> NDArray[Any]:
        """Column t, m[:, t], as a new array."""
        return self._line(t, across=True)

    def _line(self, a: int, across: bool) -> NDArray[Any]:
        """Row a (column a when ``across``): the base's, then each layer's, oldest first."""
        full = self._full
        if full is not None:
            return np.array(full[:, a] if across else full[a])
        out = np.array(self._base[:, a] if across else self._base[a])
        for k, row, col in self._layers:
            mine, other = (col, row) if across else (row, col)
            if k == a:
                out[:] = mine
            else:
                out[k] = other[a]
        return out

    def item(self, a: int, t: int) -> Any:
        """m[a, t] (the newest layer of a or t, else the base)."""
        full = self._full
        if full is not None:
            return full[a, t]
        for k, row, col in reversed(self._layers):
            if k == a:
                return row[t]
            if k == t:
                return col[a]
        return self._base[a, t]


def _fold(base: NDArray[Any], layers: tuple[Line, ...]) -> NDArray[Any]:
    """The base with the layers written in, oldest first (a new, read-only array)."""
    out = base.copy()
    for k, row, col in layers:
        out[k, :] = row
        out[:, k] = col
    out.flags.writeable = False
    return out


def _freeze(a: NDArray[Any]) -> None:
    if a.flags.writeable:
        a.flags.writeable = False
