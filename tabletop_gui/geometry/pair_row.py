"""One attacker's facts against every active enemy, without the whole pair table.

Choosing an attacker among 2,000 fighters asks about one body's thousand opposing pairs,
not the million of a ``pairs.PairTable``. A ``PairRow`` holds, for attacker ``a`` and a
cover rule, what the table holds in a's row: the horizontal and 3D distances, sight,
cover of each target against a (and of a against each target), and the terrain behind
each blocked sight line and each cover. It is computed as one block of a's pairs, in
board order, by the very functions ``PairTable.build`` and ``PairTable.moved`` use
(``pairs._pair_facts``), so its answers are the table's.

Flanking and friendly fire read the opposing pairs within 1" of the whole battlefield
(``NearPairs``): found through a uniform grid of cells (``close_pairs``: only bodies whose
circumscribed circles come within 1" are measured), then measured as the table measures
them, once per geometry.

``AttackerRows`` is what a question about one attacker's targets reads, from a table when
the geometry has one, else from a row (``BoardGeometry.attacker_rows``). A geometry's
rows and list are kept in a ``RowStore``; a drag step's geometry carries them, and they
are brought up to date in the moved body's pairs only when asked (``PairRow.moved``,
``NearPairs.moved``): a step costs its few pairs, not the attacker's thousand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.gaps import gaps
from tabletop_gui.geometry.pairs import (
    PairTable,
    _Line,
    _pair_facts,
    body_pairs,
    opposing_pairs,
)
from tabletop_gui.geometry.terrain import TerrainSet
from tabletop_gui.geometry.triples import Triples

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

ENGAGE = 1.0
MAX_MOVED = 16  # bodies moved since a row was computed, past which it is computed afresh
_NONE = np.zeros(0, dtype=np.intp)


@dataclass(frozen=True, eq=False)
class PairRow:
    """Attacker ``attacker``'s row of the pair table of ``rule``: entries for every active
    body of another side (NaN / False elsewhere, and everywhere for an inactive attacker)."""

    attacker: int
    rule: CoverRule | None
    horizontal: FloatArray  # (n,) horizontal gap to each body
    distance: FloatArray  # (n,) 3D distance
    visible: BoolArray  # (n,) line of sight
    cover: BoolArray  # (n,) cover[t]: t in cover against the attacker (rule; None: none)
    blocked_by: Triples  # rows (min, max, terrain): blocks the top-centre sight line
    cover_by: Triples  # rows (attacker, target, terrain), both ways: gives cover

    @property
    def pairs(self) -> int:
        """How many pairs the row computed."""
        return int(np.count_nonzero(~np.isnan(self.horizontal)))

    @staticmethod
    def build(ba: BodyArrays, ts: TerrainSet, rule: CoverRule | None, a: int) -> PairRow:
        """The row of ``a``: its pairs taken in board order (min, max) as one block, as
        ``PairTable.moved`` computes a moved body's row and column."""
        n = len(ba)
        others, i, j, place = body_pairs(ba, a)
        h = _Line(n, a, np.nan, place)
        vis = _Line(n, a, False, place)
        cov = _Line(n, a, False, place)
        blocked, covers = _pair_facts(ba, ts, rule, i, j, h, vis, cov)
        d = np.full(n, np.nan)
        d[others] = np.hypot(h.row[others], np.abs(ba.elevation[a] - ba.elevation[others]))
        return PairRow(a, rule, h.row, d, vis.row, cov.row, Triples.build(blocked),
                       Triples.build(covers))

    def moved(self, ba: BodyArrays, ts: TerrainSet, moved: frozenset[int]) -> PairRow:
        """This row after the bodies ``moved`` (not the attacker) changed (``ba``: the new
        arrays, same bodies order), as a new row: only their pairs are computed again,
        as ``build`` computes them."""
        a = self.attacker
        ks = np.array(sorted(moved), dtype=np.intp)
        h, d = self.horizontal.copy(), self.distance.copy()
        vis, cov = self.visible.copy(), self.cover.copy()
        h[ks], d[ks], vis[ks], cov[ks] = np.nan, np.nan, False, False
        others, i, j, place = body_pairs(ba, a, ks)
        hl, vl, cl = (_Line(len(ba), a, np.nan, place), _Line(len(ba), a, False, place),
                      _Line(len(ba), a, False, place))
        blocked, covers = _pair_facts(ba, ts, self.rule, i, j, hl, vl, cl)
        h[others], vis[others], cov[others] = hl.row[others], vl.row[others], cl.row[others]
        d[others] = np.hypot(h[others], np.abs(ba.elevation[a] - ba.elevation[others]))
        return PairRow(a, self.rule, h, d, vis, cov, _without(self.blocked_by, ks, blocked),
                       _without(self.cover_by, ks, covers))

    def involves(self, i: int, j: int) -> bool:
        """Is (i, j) a pair of this row (either way)?"""
        return self.attacker in (i, j)

    def other(self, i: int, j: int) -> int:
        """The body of the pair (i, j) that is not the row's attacker."""
        return j if i == self.attacker else i

    def blockers(self, i: int, j: int) -> list[int]:
        """Terrain blocking the top-centre sight line between i and j (sorted), as
        ``PairTable.blockers``."""
        return sorted(set(self.blocked_by.terrain_of(min(i, j), max(i, j))))

    def cover_terrain(self, a: int, t: int) -> list[int]:
        """Terrain giving t cover against a, as ``PairTable.cover_terrain``."""
        return self.cover_by.terrain_of(a, t)


def _without(rows: Triples, ks: IntArray, new: IntArray) -> Triples:
    """``rows`` without those of the bodies ``ks`` (as either body), plus ``new``."""
    old = rows.rows()
    keep = ~(np.isin(old[:, 0], ks) | np.isin(old[:, 1], ks))
    return Triples.build(np.concatenate([old[keep], new.reshape(-1, 3)]))


@dataclass(frozen=True, eq=False)
class NearPairs:
    """The ordered opposing pairs (f, t) within 1" (3D), both ways, by f then t, with
    their distances: the table's ``near`` of the whole battlefield."""

    f: IntArray
    t: IntArray
    distance: FloatArray
    _by_pair: dict[tuple[int, int], float] = field(default_factory=dict, repr=False)

    @staticmethod
    def build(ba: BodyArrays) -> NearPairs:
        return NearPairs._of(ba, *close_pairs(ba, ENGAGE + 1e-9))

    def moved(self, ba: BodyArrays, moved: frozenset[int]) -> NearPairs:
        """The list after the bodies ``moved`` changed (``ba``: the new arrays, same bodies
        order): their pairs found and measured again, the others' kept."""
        ks = np.array(sorted(moved), dtype=np.intp)
        keep = ~(np.isin(self.f, ks) | np.isin(self.t, ks))
        fresh = NearPairs._of(ba, *close_pairs_of(ba, ks, ENGAGE + 1e-9))
        f = np.concatenate([self.f[keep], fresh.f])
        t = np.concatenate([self.t[keep], fresh.t])
        dist = np.concatenate([self.distance[keep], fresh.distance])
        order = np.lexsort((t, f))
        return NearPairs(f[order], t[order], dist[order])

    @staticmethod
    def _of(ba: BodyArrays, i: IntArray, j: IntArray) -> NearPairs:
        """The pairs (i, j) (i < j) within 1", both ways, by f then t."""
        gap, _, _ = gaps(ba, i, j)
        d = np.hypot(gap, np.abs(ba.elevation[i] - ba.elevation[j]))
        with np.errstate(invalid="ignore"):
            keep = d <= ENGAGE + 1e-9
        f = np.concatenate([i[keep], j[keep]])
        t = np.concatenate([j[keep], i[keep]])
        dist = np.concatenate([d[keep], d[keep]])
        order = np.lexsort((t, f))
        return NearPairs(f[order].astype(np.intp), t[order].astype(np.intp), dist[order])

    @property
    def pairs(self) -> tuple[IntArray, IntArray]:
        return self.f, self.t

    def distance_of(self, f: int, t: int) -> float:
        """The 3D distance of a pair of the list."""
        if not self._by_pair:
            self._by_pair.update(zip(zip(self.f.tolist(), self.t.tolist(), strict=True),
                                     self.distance.tolist(), strict=True))
        return self._by_pair[(f, t)]


@dataclass(frozen=True, eq=False)
class AttackerRows:
    """What the questions about one attacker's targets read: its sight and distance rows
    (every body, NaN / False outside its opposing pairs), the opposing pairs within 1" of
    the whole battlefield (both ways), and the distance of such a pair."""

    attacker: int
    visible: BoolArray
    distance: FloatArray
    near: tuple[IntArray, IntArray]
    near_distance: Callable[[int, int], float]

    @staticmethod
    def of_table(table: PairTable, a: int) -> AttackerRows:
        """Read from a pair table's rows (no whole matrix made)."""
        return AttackerRows(a, table.visible_layers.row(a), table.distance_layers.row(a),
                            table.near, lambda f, t: float(table.distance_layers.item(f, t)))

    @staticmethod
    def of_row(row: PairRow, near: NearPairs) -> AttackerRows:
        return AttackerRows(row.attacker, row.visible, row.distance, near.pairs,
                            near.distance_of)


class RowStore:
    """The rows a geometry has computed, by (rule, attacker) and by body, how many pairs
    they hold, and the pairs within 1" (computed with the first row)."""

    def __init__(self) -> None:
        self.rows: dict[tuple[CoverRule | None, int], PairRow] = {}
        self.by_body: dict[int, PairRow] = {}
        self.pairs = 0
        self.near: NearPairs | None = None
        # of an earlier geometry (a drag's previous step), with the bodies moved since:
        # brought up to date when first asked (``PairRow.moved``, ``NearPairs.moved``)
        self.earlier: dict[tuple[CoverRule | None, int], tuple[PairRow, frozenset[int]]] = {}
        self.earlier_near: tuple[NearPairs, frozenset[int]] | None = None

    def moved(self, k: int) -> RowStore:
        """The store of the geometry in which body k moved: this one's rows and list, to
        be updated when asked (none of body k's own rows, nor any that more than
        ``MAX_MOVED`` bodies moved since it was computed)."""
        out = RowStore()
        none: frozenset[int] = frozenset()
        rows = {key: (row, none) for key, row in self.rows.items()}
        for key, (row, ks) in (self.earlier | rows).items():
            if key[1] != k and len(ks) < MAX_MOVED:
                out.earlier[key] = (row, ks | {k})
        near = (self.near, none) if self.near is not None else self.earlier_near
        if near is not None and len(near[1]) < MAX_MOVED:
            out.earlier_near = (near[0], near[1] | {k})
        return out

    def add(self, row: PairRow) -> PairRow:
        self.rows[(row.rule, row.attacker)] = row
        self.by_body.setdefault(row.attacker, row)
        self.pairs += row.pairs
        return row

    def of(self, rule: CoverRule | None, i: int, j: int, any_rule: bool = False
           ) -> PairRow | None:
        """A row holding the pair (i, j): of i, else of j; under ``rule`` (``any_rule``:
        under any rule, for what every rule's row holds alike: distances and sight)."""
        if not self.rows:
            return None
        if any_rule:
            return self.by_body.get(i) or self.by_body.get(j)
        return self.rows.get((rule, i)) or self.rows.get((rule, j))


def opposing_count(ba: BodyArrays) -> int:
    """How many unordered opposing pairs of active bodies a pair table holds."""
    counts = np.bincount(ba.side[ba.active], minlength=len(ba.sides)).astype(np.int64)
    total = int(counts.sum())
    return (total * total - int((counts * counts).sum())) // 2


def close_pairs_of(ba: BodyArrays, ks: IntArray, limit: float) -> tuple[IntArray, IntArray]:
    """``close_pairs`` that hold a body of ``ks``, by i then j."""
    act = ba.active & np.isin(np.arange(len(ba)), ks, invert=True)
    ps, qs = [], []
    for n, k in enumerate(ks.tolist()):
        if not ba.active[k]:
            continue
        # the other bodies: every active one not in ks, and those of ks after k
        other = act.copy()
        other[ks[n + 1:]] = ba.active[ks[n + 1:]]
        q = np.flatnonzero(other & (ba.side != ba.side[k]))
        reach = np.hypot(ba.x[q] - ba.x[k], ba.y[q] - ba.y[k]) - ba.circumradius[q] \
            - ba.circumradius[k]
        q = q[(reach <= limit + 1e-9) | ~np.isfinite(reach)]
        ps.append(np.minimum(q, k))
        qs.append(np.maximum(q, k))
    if not ps:
        return _NONE, _NONE
    i, j = np.concatenate(ps), np.concatenate(qs)
    order = np.lexsort((j, i))
    return i[order].astype(np.intp), j[order].astype(np.intp)


def close_pairs(ba: BodyArrays, limit: float) -> tuple[IntArray, IntArray]:
    """Pairs (i < j) of active bodies on different sides whose circumscribed circles come
    within ``limit`` of each other (every pair whose gap can be within ``limit``), by i
    then j.

    The bodies are put in square cells as wide as the largest reach (two circumradii
    plus ``limit``): two bodies that close are in the same or neighbouring cells, so
    only those are compared."""
    act = np.flatnonzero(ba.active).astype(np.intp)
    if len(act) < 2:
        return _NONE, _NONE
    x, y, r, side = ba.x[act], ba.y[act], ba.circumradius[act], ba.side[act]
    if not (np.isfinite(x).all() and np.isfinite(y).all() and np.isfinite(r).all()):
        return opposing_pairs(ba)  # no cells to put them in: every pair is measured
    span = max(float(np.ptp(x)), float(np.ptp(y)))
    # a little wider than the reach (rounding), never so narrow that the keys overflow
    cell = max((2.0 * float(r.max()) + limit) * (1.0 + 1e-9) + 1e-9, span / 2.0**20)
    gx = np.floor((x - x.min()) / cell).astype(np.int64)
    gy = np.floor((y - y.min()) / cell).astype(np.int64)
    width = int(gy.max()) + 2  # a column of empty cells between columns: dy = -1 is safe
    key = gx * width + gy
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    ps, qs = [], []
    m = np.arange(len(act))
    for dx, dy in ((0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):  # each neighbour once
        want = key + dx * width + dy
        lo = np.searchsorted(ordered, want, "left")
        count = np.searchsorted(ordered, want, "right") - lo
        p = np.repeat(m, count)
        start = np.repeat(lo - (np.cumsum(count) - count), count)
        q = order[start + np.arange(len(p))]
        if dx == 0 and dy == 0:
            keep = p < q
            p, q = p[keep], q[keep]
        ps.append(p)
        qs.append(q)
    p, q = np.concatenate(ps), np.concatenate(qs)
    keep = side[p] != side[q]
    p, q = p[keep], q[keep]
    reach = np.hypot(x[p] - x[q], y[p] - y[q]) - r[p] - r[q]
    keep = reach <= limit + 1e-9
    i, j = act[p[keep]], act[q[keep]]
    lo_, hi_ = np.minimum(i, j), np.maximum(i, j)
    order = np.lexsort((hi_, lo_))
    return lo_[order].astype(np.intp), hi_[order].astype(np.intp)
