"""Rows (a, t, terrain) of a pair table -- which terrain blocks or covers which pair --
indexed so that one body's rows can be dropped and replaced cheaply during a drag.

The base rows stay sorted by ``a`` and by ``t`` (two argsort views); dropping a body only
clears its rows in an ``alive`` mask (found by binary search), and new rows go to an
appended batch (one array, in the order added). When the batch grows past a quarter of the
base, everything is compacted into a new base. Looking up a pair is a binary search plus a
scan of the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

_EMPTY = np.zeros((0, 3), dtype=np.intp)


def _stable_order(col: IntArray) -> IntArray:
    """``np.argsort(col, kind="stable")``: the same order, through 16-bit keys (numpy's
    radix sort, several times faster than a merge sort of the full integers) when every
    body index fits in them."""
    if len(col) and 0 <= int(col.min()) and int(col.max()) < 1 << 16:
        return np.argsort(col.astype(np.uint16), kind="stable").astype(np.intp)
    return np.argsort(col, kind="stable").astype(np.intp)


@dataclass(frozen=True, eq=False)
class Triples:
    base: IntArray  # (n, 3)
    alive: BoolArray  # (n,)
    by_a: IntArray  # argsort of base[:, 0]
    a_sorted: IntArray
    by_t: IntArray
    t_sorted: IntArray
    extra: tuple[IntArray, ...] = ()

    @staticmethod
    def build(rows: IntArray) -> Triples:
        rows = np.asarray(rows, dtype=np.intp).reshape(-1, 3)
        by_a = _stable_order(rows[:, 0])
        by_t = _stable_order(rows[:, 1])
        return Triples(rows, np.ones(len(rows), dtype=bool), by_a, rows[by_a, 0], by_t,
                       rows[by_t, 1])

    def rows(self) -> IntArray:
        """Every live row, as one (n, 3) array."""
        return np.concatenate([self.base[self.alive], *self.extra]) if self.extra else \
            self.base[self.alive]

    def __len__(self) -> int:
        return int(self.alive.sum()) + sum(len(e) for e in self.extra)

    def replace_body(self, k: int, new_rows: IntArray) -> Triples:
        """These rows without any row of body k (as a or t), plus ``new_rows`` (a new
        value: this one is never written)."""
        alive = self.alive.copy()
        for sorted_col, order in ((self.a_sorted, self.by_a), (self.t_sorted, self.by_t)):
            lo, hi = np.searchsorted(sorted_col, [k, k + 1])
            alive[order[lo:hi]] = False
        new_rows = np.asarray(new_rows, dtype=np.intp).reshape(-1, 3)
        # the batches are kept as one array (in the order added), so one filter drops k
        if self.extra:
            e = self.extra[0] if len(self.extra) == 1 else np.concatenate(self.extra)
            e = e[(e[:, 0] != k) & (e[:, 1] != k)]
            merged = np.concatenate([e, new_rows]) if len(new_rows) else e
        else:
            merged = new_rows
        extra = (merged,) if len(merged) else ()
        out = Triples(self.base, alive, self.by_a, self.a_sorted, self.by_t, self.t_sorted,
                      extra)
        if len(merged) > max(1024, len(self.base) // 4):
            return Triples.build(out.rows())
        return out

    def terrain_of(self, a: int, t: int) -> list[int]:
        """Terrain of the rows (a, t), in the order they were added."""
        lo, hi = np.searchsorted(self.a_sorted, [a, a + 1])
        idx = self.by_a[lo:hi]
        idx = np.sort(idx[(self.base[idx, 1] == t) & self.alive[idx]])
        out = [int(x) for x in self.base[idx, 2]]
        for e in self.extra:
            out += [int(x) for x in e[(e[:, 0] == a) & (e[:, 1] == t), 2]]
        return out


EMPTY = Triples.build(_EMPTY)
