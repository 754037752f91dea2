"""Whole-battlefield facts: every opposing pair at once, and a cheap update after a drag.

A ``PairTable`` holds, for the active bodies of a board, N x N matrices over the pairs on
different sides (other entries are NaN / False):

- ``horizontal``, ``vertical``, ``distance`` (3D) -- symmetric;
- ``visible`` (line of sight, ``sight``) -- symmetric;
- ``cover[a, t]`` -- Warcry-family cover of target t against attacker a (``cover``), for
  the ``CoverRule`` the table was built with (None: no cover computed, all False);
- ``flanked[a, t]`` -- a friend of a (not a) is within 1" (3D) of t and has no enemy
  other than t within 1" (``docs/rulesets/fight-vs-defense.md``);
- the terrain behind each blocked sight line and each cover, as (a, t, terrain) rows
  (``triples.Triples``).

Everything is computed in numpy over arrays of pairs, in blocks of ``PAIR_CHUNK``
(``bodies.gaps``, ``corridor``, ``sight.sight_pairs``, ``cover.cover_both_ways``).
``PairTable.moved`` recomputes only the row and column of one body (and flanking from the
few pairs within 1"), which is what a drag needs; ``with_rule`` adds cover under another
rule to the same distances and sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry.bodies import BodyArrays, gaps
from tabletop_gui.geometry.corridor import corridor_candidates
from tabletop_gui.geometry.cover import CoverRule, cover_both_ways
from tabletop_gui.geometry.sight import sight_pairs
from tabletop_gui.geometry.terrain import TerrainSet
from tabletop_gui.geometry.triples import Triples

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

ENGAGE = 1.0
PAIR_CHUNK = 40_000  # pairs computed together (bounds the memory of huge battlefields)


@dataclass(frozen=True, eq=False)
class PairTable:
    rule: CoverRule | None
    horizontal: FloatArray
    vertical: FloatArray
    distance: FloatArray
    visible: BoolArray
    cover: BoolArray
    flanked: BoolArray
    blocked_by: Triples  # rows (a < t, terrain): blocks the top-centre sight line
    cover_by: Triples  # rows (attacker, target, terrain): gives cover
    # the ordered pairs within 1" (rows, columns of ``distance <= 1``), which flanking is
    # computed from; None: not known (found from ``distance`` when needed)
    engaged_pairs: tuple[IntArray, IntArray] | None = field(default=None, repr=False)

    # -- building ---------------------------------------------------------------------
    @staticmethod
    def build(ba: BodyArrays, ts: TerrainSet, rule: CoverRule | None) -> PairTable:
        n = len(ba)
        i, j = opposing_pairs(ba)
        h = np.full((n, n), np.nan)
        v = np.full((n, n), np.nan)
        vis = np.zeros((n, n), dtype=bool)
        cov = np.zeros((n, n), dtype=bool)
        parts = [_pair_facts(ba, ts, rule, i[s:s + PAIR_CHUNK], j[s:s + PAIR_CHUNK], h, v, vis,
                             cov) for s in range(0, len(i), PAIR_CHUNK)]
        empty = np.zeros((0, 3), dtype=np.intp)
        blocked = np.concatenate([b for b, _ in parts] or [empty])
        covers = np.concatenate([c for _, c in parts] or [empty])
        d = np.hypot(h, v)
        near = _engaged_pairs(d)
        return PairTable(rule, h, v, d, vis, cov, _flanked(ba, *near), Triples.build(blocked),
                         Triples.build(covers), near)

    def with_rule(self, ba: BodyArrays, ts: TerrainSet, rule: CoverRule) -> PairTable:
        """The same facts with cover under another rule (distances and sight shared, not
        recomputed; the new table's other matrices are this table's, never written)."""
        i, j = opposing_pairs(ba)
        cov = np.zeros_like(self.cover)
        parts = []
        for s in range(0, len(i), PAIR_CHUNK):
            ii, jj = i[s:s + PAIR_CHUNK], j[s:s + PAIR_CHUNK]
            _, pa, pb = gaps(ba, ii, jj)
            parts.append(_cover_facts(ba, ts, rule, ii, jj, pa, pb, self.distance[ii, jj],
                                      corridor_candidates(ba, ts, ii, jj), cov))
        covers = np.concatenate(parts or [np.zeros((0, 3), dtype=np.intp)])
        return PairTable(rule, self.horizontal, self.vertical, self.distance, self.visible, cov,
                         self.flanked, self.blocked_by, Triples.build(covers),
                         self.engaged_pairs)

    def moved(self, ba: BodyArrays, ts: TerrainSet, k: int, in_place: bool = False
              ) -> PairTable:
        """This table after body ``k`` moved (``ba`` are the new arrays, same bodies order).

        Only k's row and column are computed again (and flanking, from the pairs within 1":
        those of the other bodies kept, k's found again). With
        ``in_place`` the matrices of this table are reused and it must not be read again
        (a drag hands each step's table to the next).
        """
        others = np.flatnonzero(ba.active & (ba.side != ba.side[k]))
        if not ba.active[k]:
            others = others[:0]
        cp = (lambda x: x) if in_place else np.copy
        h, v, d = cp(self.horizontal), cp(self.vertical), cp(self.distance)
        vis, cov = cp(self.visible), cp(self.cover)
        for a in (h, v, d):
            a[k, :] = np.nan
            a[:, k] = np.nan
        for b in (vis, cov):
            b[k, :] = False
            b[:, k] = False
        # pairs in board order, as in ``build``: the same arithmetic gives the same answers
        others = others.astype(np.intp)
        i = np.minimum(others, k).astype(np.intp)
        j = np.maximum(others, k).astype(np.intp)
        blocked, covers = _pair_facts(ba, ts, self.rule, i, j, h, v, vis, cov)
        d[k, others] = np.hypot(h[k, others], v[k, others])
        d[others, k] = d[k, others]
        f, t = self.engaged_pairs if self.engaged_pairs is not None else _engaged_pairs(d)
        rest = (f != k) & (t != k)
        with np.errstate(invalid="ignore"):
            mine = others[d[k, others] <= ENGAGE + 1e-9]
        k_col = np.full(len(mine), k, dtype=np.intp)
        near = (np.concatenate([f[rest], k_col, mine]), np.concatenate([t[rest], mine, k_col]))
        return PairTable(
            self.rule, h, v, d, vis, cov, _flanked(ba, *near),
            self.blocked_by.replace_body(k, blocked, in_place),
            self.cover_by.replace_body(k, covers, in_place),
            near,
        )

    # -- reading ----------------------------------------------------------------------
    def blockers(self, a: int, t: int) -> list[int]:
        """Terrain blocking the top-centre sight line between a and t (sorted)."""
        return sorted(set(self.blocked_by.terrain_of(min(a, t), max(a, t))))

    def cover_terrain(self, a: int, t: int) -> list[int]:
        """Terrain giving t cover against a."""
        return self.cover_by.terrain_of(a, t)

    def within(self, limit: float) -> BoolArray:
        """Opposing pairs whose 3D distance is at most ``limit``."""
        with np.errstate(invalid="ignore"):
            return np.asarray(self.distance <= limit + 1e-9, dtype=bool)


def opposing_pairs(ba: BodyArrays) -> tuple[IntArray, IntArray]:
    """Unordered pairs (i < j) of active bodies on different sides."""
    act = ba.active
    opp = (ba.side[:, None] != ba.side[None, :]) & act[:, None] & act[None, :]
    i, j = np.nonzero(np.triu(opp, 1))
    return i.astype(np.intp), j.astype(np.intp)


def _pair_facts(ba: BodyArrays, ts: TerrainSet, rule: CoverRule | None, i: IntArray,
                j: IntArray, h: FloatArray, v: FloatArray, vis: BoolArray, cov: BoolArray
                ) -> tuple[IntArray, IntArray]:
    """Fill the matrices for pairs (i, j) both ways; return blocker and cover triples."""
    gap, pa, pb = gaps(ba, i, j)
    vert = np.abs(ba.elevation[i] - ba.elevation[j])
    h[i, j] = h[j, i] = gap
    v[i, j] = v[j, i] = vert
    ck, ct = corridor_candidates(ba, ts, i, j)
    sres = sight_pairs(ba, ts, i, j, candidates=(ck, ct))
    vis[i, j] = vis[j, i] = sres.visible
    bi, bj = i[sres.blocker_pair], j[sres.blocker_pair]
    blocked = np.column_stack([np.minimum(bi, bj), np.maximum(bi, bj),
                               sres.blocker_terrain]).astype(np.intp).reshape(-1, 3)
    covers = np.zeros((0, 3), dtype=np.intp)
    if rule is not None and len(i):
        covers = _cover_facts(ba, ts, rule, i, j, pa, pb, np.hypot(gap, vert), (ck, ct), cov)
    return blocked, covers


def _cover_facts(ba: BodyArrays, ts: TerrainSet, rule: CoverRule, i: IntArray, j: IntArray,
                 pa: FloatArray, pb: FloatArray, dist: FloatArray,
                 corridor: tuple[IntArray, IntArray], cov: BoolArray) -> IntArray:
    """Fill ``cov`` for pairs (i, j) both ways; return the (attacker, target, terrain) triples."""
    fwd, back = cover_both_ways(ba, ts, i, j, pa, pb, dist, rule, candidates=corridor)
    rows = []
    for res, att, tgt in ((fwd, i, j), (back, j, i)):
        cov[att, tgt] = res.in_cover
        rows.append(np.column_stack([att[res.obstacle_pair], tgt[res.obstacle_pair],
                                     res.obstacle]))
        plat = np.flatnonzero(res.platform >= 0)
        rows.append(np.column_stack([att[plat], tgt[plat], res.platform[plat]]))
    return np.concatenate(rows).astype(np.intp).reshape(-1, 3)


def _engaged_pairs(d: FloatArray) -> tuple[IntArray, IntArray]:
    """The ordered pairs whose 3D distance is within 1" (NaN: not an opposing pair)."""
    with np.errstate(invalid="ignore"):
        f, t = np.nonzero(d <= ENGAGE + 1e-9)
    return f.astype(np.intp), t.astype(np.intp)


def _flanked(ba: BodyArrays, f: IntArray, t: IntArray) -> BoolArray:
    """flanked[a, t] from the ordered opposing pairs (f, t) within 1" (any order).

    Works from the few pairs within 1": f is *lone* at t when t is the only enemy within
    1" of f; a is flanking-supported at t when a lone friend of a (not a) stands at t.
    """
    n = len(ba)
    count = np.bincount(f, minlength=n)
    lone = count[f] == 1
    lf, lt = f[lone], t[lone]  # lone friend lf next to target lt
    if len(lf) == 0:
        return np.zeros((n, n), dtype=bool)
    per_side = np.zeros((len(ba.sides), n), dtype=np.int64)
    np.add.at(per_side, (ba.side[lf], lt), 1)
    # a side's bodies are supported at t when it has a lone friend there (t an enemy);
    # a lone friend does not support its own attack: not where it is the only one
    by_side = (per_side > 0) & (ba.side[None, :] != np.arange(len(ba.sides))[:, None])
    fl = by_side[ba.side]
    fl &= ba.active[:, None]
    alone = per_side[ba.side[lf], lt] == 1
    fl[lf[alone], lt[alone]] = False
    return np.asarray(fl, dtype=bool)
