"""Rows (a, t, terrain) of a pair table -- which terrain blocks or covers which pair --
kept so that a drag step replaces one body's rows in a time that grows with that body's
rows, never with all of them (a table of 2,000 fighters holds millions).

A value is a *base* (rows sorted by ``a`` through an argsort view, never written; by
``t`` when first asked) and *batches*, oldest first: for a body k, every row of the
pairs of k (as a or t) as computed when k last moved. The rows of a pair (a, t) are
those of the newest batch of a or t, else the base's: ``replace_body`` adds a batch
(dropping the body's older one) and writes nothing, so the older value keeps its rows.
When the batches hold more than a quarter of the base (or more than ``MAX_BATCHES``
bodies), they are compacted into a new base.
Looking up a pair is a binary search in the base or a scan of one batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

_EMPTY = np.zeros((0, 3), dtype=np.intp)


def _order(col: IntArray) -> tuple[IntArray, IntArray]:
    """``np.argsort(col, kind="stable")`` and the column in that order. No sort when the
    column ascends already (the blocker rows of a table come by pair, first body
    ascending); else by counting in a compiled loop when the kernels are loaded
    (``jit_kernels.counting_order``, which checks both in one pass over the column), or
    through 16-bit keys (numpy's radix sort, several times faster than a merge sort of the
    full integers) when every body index fits in them: the same order every way."""
    if len(col) < 2:
        return np.arange(len(col), dtype=np.intp), col.copy()
    kernels = jit.loaded()
    if kernels is not None:
        order: IntArray
        ordered: IntArray
        order, ordered, done = kernels.counting_order(np.ascontiguousarray(col, dtype=np.intp))
        if done:
            return order, ordered
    elif bool((col[1:] >= col[:-1]).all()):
        return np.arange(len(col), dtype=np.intp), col.copy()
    if int(col.min()) >= 0 and int(col.max()) < 1 << 16:
        order = np.argsort(col.astype(np.uint16), kind="stable").astype(np.intp)
    else:
        order = np.argsort(col, kind="stable").astype(np.intp)
    return order, col[order]


MAX_BATCHES = 64


@dataclass(frozen=True, eq=False)
class Triples:
    base: IntArray  # (n, 3)
    by_a: IntArray  # argsort of base[:, 0]
    a_sorted: IntArray
    batches: tuple[tuple[int, IntArray], ...] = ()  # (body, its pairs' rows), oldest first
    # the base's order by t (``by_t``, ``t_sorted``): made when first asked (no lookup
    # reads it; a 2,000-fighter table's 4 million cover rows took 0.2 s to order), once
    # for every value sharing the base
    _t_order: list[tuple[IntArray, IntArray]] = field(default_factory=list, repr=False)
    _where: dict[int, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._where.update({k: p for p, (k, _) in enumerate(self.batches)})

    @staticmethod
    def build(rows: IntArray) -> Triples:
        rows = np.asarray(rows, dtype=np.intp).reshape(-1, 3)
        by_a, a_sorted = _order(rows[:, 0])
        return Triples(rows, by_a, a_sorted)

    @property
    def by_t(self) -> IntArray:
        """argsort of base[:, 1] (stable)."""
        return self._by_t()[0]

    @property
    def t_sorted(self) -> IntArray:
        return self._by_t()[1]

    def _by_t(self) -> tuple[IntArray, IntArray]:
        if not self._t_order:
            self._t_order.append(_order(self.base[:, 1]))
        return self._t_order[0]

    def rows(self) -> IntArray:
        """Every row in force, as one (n, 3) array (base rows first)."""
        if not self.batches:
            return self.base
        n = int(max(self.base[:, :2].max(initial=-1),
                    max(int(r[:, :2].max(initial=-1)) for _, r in self.batches), *self._where))
        newest = np.full(n + 1, -1, dtype=np.intp)  # each body's batch position (-1: none)
        for k, p in self._where.items():
            newest[k] = p
        b = self.base
        parts = [b[(newest[b[:, 0]] < 0) & (newest[b[:, 1]] < 0)]]
        for p, (k, r) in enumerate(self.batches):
            other = np.where(r[:, 0] == k, r[:, 1], r[:, 0])
            parts.append(r[newest[other] <= p])  # not a pair of a newer batch
        return np.concatenate(parts)

    def __len__(self) -> int:
        return len(self.rows())

    def replace_body(self, k: int, new_rows: IntArray) -> Triples:
        """These rows without any row of body k (as a or t), plus ``new_rows`` (every row
        of the pairs of k, and only those), as a new value: this one is never written."""
        new_rows = np.asarray(new_rows, dtype=np.intp).reshape(-1, 3)
        batches = tuple(x for x in self.batches if x[0] != k) + ((k, new_rows),)
        out = Triples(self.base, self.by_a, self.a_sorted, batches, self._t_order)
        if (len(batches) > MAX_BATCHES
                or sum(len(r) for _, r in batches) > max(1024, len(self.base) // 4)):
            return Triples.build(out.rows())
        return out

    def terrain_of(self, a: int, t: int) -> list[int]:
        """Terrain of the rows (a, t), in the order they were added."""
        p = max(self._where.get(a, -1), self._where.get(t, -1))
        if p >= 0:
            r = self.batches[p][1]
            return [int(x) for x in r[(r[:, 0] == a) & (r[:, 1] == t), 2]]
        lo, hi = np.searchsorted(self.a_sorted, [a, a + 1])
        idx = self.by_a[lo:hi]
        idx = np.sort(idx[self.base[idx, 1] == t])
        return [int(x) for x in self.base[idx, 2]]


EMPTY = Triples.build(_EMPTY)
