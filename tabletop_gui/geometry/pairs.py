"""Whole-battlefield facts: every opposing pair at once, and a cheap update after a drag.

A ``PairTable`` holds, for the active bodies of a board, N x N matrices over the pairs on
different sides (other entries are NaN / False), each a ``layered.Layered`` value (read
whole as read-only arrays: ``table.distance``; or a row at a time: ``table.distance_layers
.row(a)``, which a drag step's questions use: no whole matrix is made):

- ``horizontal``, ``vertical``, ``distance`` (3D) -- symmetric;
- ``visible`` (line of sight, ``sight``) -- symmetric;
- ``cover[a, t]`` -- cover of target t against attacker a (``cover``), for
  the ``CoverRule`` the table was built with (None: no cover computed, all False);
- ``flanked[a, t]`` -- a friend of a (not a) is within 1" (3D) of t and has no enemy
  other than t within 1" (``docs/rulesets/fight-vs-defense.md``);
- the terrain behind each blocked sight line and each cover, as (a, t, terrain) rows
  (``triples.Triples``).

Everything is computed in numpy over arrays of pairs, in blocks of ``PAIR_CHUNK``
(``gaps.gaps``, ``corridor``, ``sight.sight_pairs``, ``cover.cover_rows``); with
the compiled loops loaded and a core to spare (``spare_core``), a table of several blocks
shares them with a second thread (``THREADS``, ``_in_blocks``: the loops release the
interpreter, and so does most of numpy's work on the blocks' arrays), with the same
answers.
``PairTable.moved`` recomputes only the row and column of one body (and flanking from the
few pairs within 1"), which is what a drag needs, as new layers over the previous table's
matrices (O(N) per step, nothing copied; the previous table is never written);
``with_rule`` adds cover under another rule to the same distances and sight.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import jit
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.corridor import corridor_and_sight, corridor_candidates
from tabletop_gui.geometry.cover import CoverRule, cover_rows
from tabletop_gui.geometry.gaps import gaps
from tabletop_gui.geometry.layered import Layered
from tabletop_gui.geometry.sight import sight_pairs
from tabletop_gui.geometry.terrain import TerrainSet
from tabletop_gui.geometry.triples import Triples

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

ENGAGE = 1.0
PAIR_CHUNK = 40_000  # pairs computed together (bounds the memory of huge battlefields)
THREADS = 2  # threads computing a table's blocks (1: the caller's alone)
_T = TypeVar("_T")
_NO_ROWS = np.zeros((0, 3), dtype=np.intp)


@dataclass(frozen=True, eq=False)
class PairTable:
    rule: CoverRule | None
    horizontal_layers: Layered  # the matrices, as values a drag step derives in O(N)
    elevation: FloatArray  # of each body (``vertical`` is read from it)
    distance_layers: Layered
    visible_layers: Layered
    cover_layers: Layered
    blocked_by: Triples  # rows (a < t, terrain): blocks the top-centre sight line
    cover_by: Triples  # rows (attacker, target, terrain): gives cover
    near: tuple[IntArray, IntArray]  # the ordered pairs (f, t) within 1" (3D), both ways
    side: IntArray  # of each body (side codes) and whether active: what flanking reads
    active: BoolArray
    n_sides: int
    _flank: list[BoolArray] = field(default_factory=list, repr=False)  # ``flanked``, once

    # -- the whole matrices (folded once per table, read-only) --------------------------
    @property
    def horizontal(self) -> FloatArray:
        return self.horizontal_layers.full()

    @property
    def distance(self) -> FloatArray:
        return self.distance_layers.full()

    @property
    def visible(self) -> BoolArray:
        return self.visible_layers.full()

    @property
    def cover(self) -> BoolArray:
        return self.cover_layers.full()

    @property
    def flanked(self) -> BoolArray:
        if not self._flank:
            by_side, lf, lt = _flank_parts(self.side, self.n_sides, self.near)
            fl = by_side[self.side]
            fl &= self.active[:, None]
            fl[lf, lt] = False
            fl.flags.writeable = False
            self._flank.append(fl)
        return self._flank[0]

    def flanked_row(self, a: int) -> BoolArray:
        """flanked[a, :], computed from the pairs within 1" (no whole matrix)."""
        by_side, lf, lt = _flank_parts(self.side, self.n_sides, self.near)
        row = by_side[self.side[a]] & self.active[a]
        row[lt[lf == a]] = False
        return np.asarray(row, dtype=bool)

    @property
    def vertical(self) -> FloatArray:
        """The vertical distances (NaN where ``horizontal`` is): computed when asked, with
        the arithmetic of the table (a drag step copies no matrix of them)."""
        e = self.elevation
        return np.where(np.isnan(self.horizontal), np.nan, np.abs(e[:, None] - e[None, :]))

    # -- building ---------------------------------------------------------------------
    @staticmethod
    def build(ba: BodyArrays, ts: TerrainSet, rule: CoverRule | None) -> PairTable:
        n = len(ba)
        i, j = opposing_pairs(ba)
        jit.kernels(len(i))  # a big table loads the compiled loops for its blocks (``jit``)
        h = np.full((n, n), np.nan)
        d = np.full((n, n), np.nan)
        vis = np.zeros((n, n), dtype=bool)
        cov = np.zeros((n, n), dtype=bool)

        shared = _shared(len(i))

        def block(s: int, e: int) -> tuple[IntArray, IntArray, IntArray | None]:
            ii, jj = i[s:e], j[s:e]
            at = _Flat.places(ii, jj, n)  # where the block's entries land, found once
            blocked, covers = _pair_facts(ba, ts, rule, ii, jj, _Flat(h, at), _Flat(vis, at),
                                          _Flat(cov, at), _Flat(d, at))
            # shared: the cover rows' attackers counted here, for ``_ordered_rows``
            return blocked, covers, np.bincount(covers[:, 0], minlength=n) if shared else None

        parts = _in_blocks(len(i), block)
        blocked = [b for b, _, _ in parts]
        covers = [c for _, c, _ in parts]
        if shared:  # the tail on both threads: the cover rows placed block by block
            found: list[Any] = []
            cover_by = _ordered_rows(covers, [k for _, _, k in parts], n,
                                     lambda: found.extend([_rows(blocked), _near(d)]))
            blocked_by, near = found
        else:
            blocked_by, near, cover_by = _rows(blocked), _near(d), _rows(covers)
        return PairTable(rule, Layered(h), ba.elevation, Layered(d), Layered(vis), Layered(cov),
                         blocked_by, cover_by, near, ba.side, ba.active, len(ba.sides))

    def with_rule(self, ba: BodyArrays, ts: TerrainSet, rule: CoverRule) -> PairTable:
        """The same facts with cover under another rule (distances and sight shared, not
        recomputed; the new table's other matrices are this table's, never written)."""
        i, j = opposing_pairs(ba)
        cov = np.zeros(self.cover_layers.shape, dtype=bool)
        parts = []
        for s in range(0, len(i), PAIR_CHUNK):
            ii, jj = i[s:s + PAIR_CHUNK], j[s:s + PAIR_CHUNK]
            _, pa, pb = gaps(ba, ii, jj)
            parts.append(_cover_facts(ba, ts, rule, ii, jj, pa, pb, self.distance[ii, jj],
                                      corridor_candidates(ba, ts, ii, jj), cov))
        covers = np.concatenate(parts or [np.zeros((0, 3), dtype=np.intp)])
        return replace(self, rule=rule, cover_layers=Layered(cov), cover_by=Triples.build(covers),
                       _flank=self._flank)

    def shares_sight(self, other: PairTable) -> bool:
        """Do the two tables hold the very same distances and sight (``with_rule``)?"""
        return (self.visible_layers is other.visible_layers
                and self.distance_layers is other.distance_layers)

    def moved(self, ba: BodyArrays, ts: TerrainSet, k: int,
              like: PairTable | None = None) -> PairTable:
        """This table after body ``k`` moved (``ba`` are the new arrays, same bodies order),
        as a new table: only k's row and column are computed again (and flanking, from the
        pairs within 1"), as new layers of the matrices (``layered``); this table is never
        written. ``like``: a table of this same step derived from a table sharing this
        one's distances and sight (another rule's): those are taken from it, and only
        cover is computed.
        """
        n = len(ba)
        others, i, j, place = body_pairs(ba, k)
        cov = _Line(n, k, False, place)
        if like is not None:  # cover only (none without a rule), the rest as ``like``'s
            covers = _NO_ROWS
            if self.rule is not None and len(i):
                _, pa, pb = gaps(ba, i, j)
                dist = like.distance_layers.row(k)[others]
                covers = _cover_facts(ba, ts, self.rule, i, j, pa, pb, dist,
                                      corridor_candidates(ba, ts, i, j), cov)
            return replace(like, rule=self.rule,
                           cover_layers=self.cover_layers.with_line(k, cov.row, cov.col),
                           cover_by=self.cover_by.replace_body(k, covers))
        h, vis = _Line(n, k, np.nan, place), _Line(n, k, False, place)
        blocked, covers = _pair_facts(ba, ts, self.rule, i, j, h, vis, cov)
        d = np.full(n, np.nan)
        d[others] = _distance_3d(h.row[others], np.abs(ba.elevation[k] - ba.elevation[others]))
        # the pairs within 1": the others' as they were, k's from its new row
        f0, t0 = self.near
        keep = (f0 != k) & (t0 != k)
        with np.errstate(invalid="ignore"):
            close = others[d[others] <= ENGAGE + 1e-9]
        kk = np.full(len(close), k, dtype=np.intp)
        near = (np.concatenate([f0[keep], kk, close]), np.concatenate([t0[keep], close, kk]))
        return PairTable(
            self.rule, self.horizontal_layers.with_line(k, h.row), ba.elevation,
            self.distance_layers.with_line(k, d), self.visible_layers.with_line(k, vis.row),
            self.cover_layers.with_line(k, cov.row, cov.col),
            self.blocked_by.replace_body(k, blocked), self.cover_by.replace_body(k, covers),
            near, ba.side, ba.active, len(ba.sides),
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


class _Sink(Protocol):
    """Where ``_pair_facts`` writes the facts of pairs (a, t): a matrix, or a ``_Line``."""

    def __setitem__(self, key: tuple[IntArray, IntArray], value: Any, /) -> None: ...


class _Line:
    """Row and column k of a matrix, written as the matrix would be (``m[a, t] = v`` for
    pairs that all hold k): what ``PairTable.moved`` computes of each matrix.

    ``pairs``: the (i, j) arrays the writes are keyed by, as (i, j) or (j, i) (recognised
    by identity), and where their entries land (``_placed``): found once, not per write."""

    def __init__(self, n: int, k: int, fill: float | bool,
                 pairs: _Placed | None = None) -> None:
        dtype = bool if isinstance(fill, bool) else float
        self.k = k
        self.row = np.full(n, fill, dtype=dtype)
        self.col = np.full(n, fill, dtype=dtype)
        self._pairs = pairs

    def __setitem__(self, key: tuple[IntArray, IntArray], value: Any, /) -> None:
        a, t = key
        at = self._where(a, t)
        if at is None:
            v = np.broadcast_to(np.asarray(value), a.shape)
            of_row, of_col = a == self.k, t == self.k
            self.row[t[of_row]] = v[of_row]
            self.col[a[of_col]] = v[of_col]
            return
        on_row, row_at, on_col, col_at = at
        v = np.asarray(value)
        self.row[row_at] = v if v.ndim == 0 else v[on_row]
        self.col[col_at] = v if v.ndim == 0 else v[on_col]

    def _where(self, a: IntArray, t: IntArray
               ) -> tuple[IntArray, IntArray, IntArray, IntArray] | None:
        """For keys (i, j) of ``pairs``: the pairs whose entry is on the row and where on
        it, then those on the column and where; (j, i): the other way round; else None."""
        if self._pairs is None:
            return None
        i, j, at = self._pairs
        if a is i and t is j:
            return at
        if a is j and t is i:
            on_row, row_at, on_col, col_at = at
            return on_col, col_at, on_row, row_at
        return None


_Placed = tuple[IntArray, IntArray, tuple[IntArray, IntArray, IntArray, IntArray]]


class _Flat:
    """An N x N matrix written through its flat positions (``m[a, t] = v``): for the keys
    (i, j) and (j, i) of a block's pairs (recognised by identity) the positions are found
    once (``places``), not at every write (numpy's two-index writes cost about three times
    as much)."""

    def __init__(self, matrix: NDArray[Any], places: _FlatPlaces) -> None:
        self._n = matrix.shape[1]
        self._flat = matrix.reshape(-1)  # a view: the matrix is contiguous
        self._places = places

    @staticmethod
    def places(i: IntArray, j: IntArray, n: int) -> _FlatPlaces:
        return i, j, i * n + j, j * n + i

    def __setitem__(self, key: tuple[IntArray, IntArray], value: Any, /) -> None:
        a, t = key
        i, j, ij, ji = self._places
        if a is i and t is j:
            self._flat[ij] = value
        elif a is j and t is i:
            self._flat[ji] = value
        else:
            self._flat[a * self._n + t] = value


_FlatPlaces = tuple[IntArray, IntArray, IntArray, IntArray]


def _placed(i: IntArray, j: IntArray, k: int) -> _Placed:
    """Pairs (i, j) that all hold k, with where their entries land in row and column k
    (``_Line``): the pairs with i == k and their j, the pairs with j == k and their i."""
    on_row, on_col = np.flatnonzero(i == k), np.flatnonzero(j == k)
    return i, j, (on_row, j[on_row], on_col, i[on_col])


def body_pairs(ba: BodyArrays, k: int, among: IntArray | None = None
               ) -> tuple[IntArray, IntArray, IntArray, _Placed]:
    """The opposing pairs of body k (with the bodies ``among`` only, when given): the
    other bodies, and the pairs (i, j) in board order as ``build`` takes them (the same
    arithmetic gives the same answers) with where their entries land (``_placed``);
    none when k is inactive."""
    if among is None:
        others = np.flatnonzero(ba.active & (ba.side != ba.side[k])).astype(np.intp)
    else:
        others = among[ba.active[among] & (ba.side[among] != ba.side[k])].astype(np.intp)
    if not ba.active[k]:
        others = others[:0]
    i = np.minimum(others, k).astype(np.intp)
    j = np.maximum(others, k).astype(np.intp)
    return others, i, j, _placed(i, j, k)


def _in_blocks(m: int, facts: Callable[[int, int], _T]) -> list[_T]:
    """``facts(start, end)`` of consecutive blocks of ``PAIR_CHUNK`` of the m pairs, in
    order. A table of several blocks, with the compiled loops loaded (which release the
    interpreter), shares them with a second thread (``_both``: each thread takes the next
    block not yet taken, so neither waits long for the other at the end). The blocks are
    those of one thread (an oval's gap is refined by the batch it is in: the last bits
    could depend on it), and each writes only its own pairs' entries, so the answers are
    those of one thread."""
    starts = list(range(0, m, PAIR_CHUNK))

    def one(k: int) -> _T:
        return facts(starts[k], min(starts[k] + PAIR_CHUNK, m))

    if not _shared(m):
        return [one(k) for k in range(len(starts))]
    return _both(len(starts), one)


def _both(count: int, task: Callable[[int], _T],
          first: Callable[[], object] | None = None) -> list[_T]:
    """``[task(0), .., task(count - 1)]``, computed by this thread and the second one
    (``_helper``), each taking the next task not yet taken (this one after ``first()``,
    when given). The tasks must write nothing another reads."""
    done: list[Any] = [None] * count
    taken = [0]
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                k = taken[0]
                taken[0] += 1
            if k >= count:
                return
            done[k] = task(k)

    there = _helper().submit(work)
    try:
        if first is not None:
            first()
        work()
    finally:
        there.result()
    return done


def _ordered_rows(parts: list[IntArray], counts: list[IntArray | None], n: int,
                  first: Callable[[], object]) -> Triples:
    """``_rows(parts)`` computed on both threads (``_both``, after ``first()`` here): the
    blocks' rows whose first columns hold ``counts`` (``np.bincount``, n bodies) of each
    body. Where each block's rows of each body go in the order by that column is known
    from the counts (a prefix sum), so every block is copied into the whole and placed
    in the order (``jit_kernels.counted_scatter``) on its own, in any order: the order is
    ``np.argsort(kind="stable")``'s, as ``Triples.build`` makes it."""
    kernels = jit.loaded()
    assert kernels is not None  # shared blocks only run with the compiled loops
    per_block = np.array(counts, dtype=np.intp).reshape(len(parts), n)
    total = per_block.sum(axis=0)
    begin = np.cumsum(total) - total  # where each body's rows begin in the order
    starts = begin[None, :] + (np.cumsum(per_block, axis=0) - per_block)
    sizes = np.array([len(p) for p in parts], dtype=np.intp)
    firsts = np.cumsum(sizes) - sizes
    columns = np.empty((3, int(sizes.sum())), dtype=np.intp)  # laid out as ``_rows``'s
    order = np.empty(columns.shape[1], dtype=np.intp)

    def place(b: int) -> None:
        part, at = parts[b], int(firsts[b])
        columns[:, at:at + len(part)] = part.T
        kernels.counted_scatter(np.ascontiguousarray(part[:, 0]), starts[b], order, at)

    _both(len(parts), place, first)
    return Triples(columns.T, order, np.repeat(np.arange(n, dtype=np.intp), total))


def _rows(parts: list[IntArray]) -> Triples:
    """The rows of the blocks, in order, as one ``Triples``: joined column by column (the
    blocks' rows are laid out so, ``_by_columns``: each column copied in one contiguous
    pass, and read so by ``Triples.build``)."""
    if not parts:
        return Triples.build(_NO_ROWS)
    return Triples.build(np.concatenate([p.T for p in parts], axis=1).T)


def _shared(m: int) -> bool:
    """Are the blocks of m pairs shared with the second thread (``_in_blocks``)?"""
    return THREADS >= 2 and m > PAIR_CHUNK and jit.loaded() is not None and spare_core()


def spare_core() -> bool:
    """Has this machine a core to spare: fewer tasks ready to run over the last minute
    than its cores, less one half (this process's own computation is one of them)?

    Measured on a shared 2-core machine whose other tenants kept both cores busy, the
    second thread gained nothing and could lose (each thread waits for the interpreter
    while the other is off the processor), so it is used only with a core idle."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return cores >= 2 and load < cores - 0.5


def _helper() -> ThreadPoolExecutor:
    """The second thread of ``_in_blocks`` (made once, when first needed)."""
    with _HELPER_LOCK:
        if not _HELPER:
            _HELPER.append(ThreadPoolExecutor(1, thread_name_prefix="tabletop-gui-pairs"))
        return _HELPER[0]


_HELPER: list[ThreadPoolExecutor] = []
_HELPER_LOCK = threading.Lock()


def opposing_pairs(ba: BodyArrays) -> tuple[IntArray, IntArray]:
    """Unordered pairs (i < j) of active bodies on different sides (by i, then j).

    Read from the flat positions of the matrix's true entries (a matrix's ``nonzero``
    costs several times as much), above its diagonal by a mask kept for the last size."""
    act = np.flatnonzero(ba.active).astype(np.intp)
    side = ba.side[act]
    k = len(act)
    opposed = side[:, None] != side[None, :]
    opposed &= _above_diagonal(k)
    i, j = _rows_and_columns(np.flatnonzero(opposed), k)
    if k == len(ba):  # every body active: act is 0 .. k - 1
        return i, j
    return act[i], act[j]


def _above_diagonal(k: int) -> BoolArray:
    """The k x k mask of the entries above the diagonal (kept for the last k asked)."""
    with _ABOVE_LOCK:
        if _ABOVE and _ABOVE[0].shape[0] == k:
            return _ABOVE[0]
        mask = np.triu(np.ones((k, k), dtype=bool), 1)
        mask.flags.writeable = False
        _ABOVE[:] = [mask]
        return mask


_ABOVE: list[BoolArray] = []
_ABOVE_LOCK = threading.Lock()


def _rows_and_columns(flat: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """Row and column of flat positions in an n-column matrix (as ``np.nonzero``'s)."""
    row, col = np.divmod(flat, max(n, 1))
    return row.astype(np.intp, copy=False), col.astype(np.intp, copy=False)


def _pair_facts(ba: BodyArrays, ts: TerrainSet, rule: CoverRule | None, i: IntArray,
                j: IntArray, h: _Sink, vis: _Sink, cov: _Sink,
                d: _Sink | None = None) -> tuple[IntArray, IntArray]:
    """Fill the matrices for pairs (i, j) both ways (the 3D distances ``d`` when given;
    the vertical ones are read from the elevations: ``PairTable.vertical``); return
    blocker and cover triples."""
    gap, pa, pb = gaps(ba, i, j)
    dist = _distance_3d(gap, np.abs(ba.elevation[i] - ba.elevation[j]))
    h[i, j] = h[j, i] = gap
    if d is not None:
        d[i, j] = d[j, i] = dist
    (ck, ct), blockers = corridor_and_sight(ba, ts, i, j)
    sres = sight_pairs(ba, ts, i, j, blockers=blockers)
    vis[i, j] = vis[j, i] = sres.visible
    bi, bj = i[sres.blocker_pair], j[sres.blocker_pair]
    blocked = _by_columns([np.minimum(bi, bj), np.maximum(bi, bj), sres.blocker_terrain])
    covers = np.zeros((0, 3), dtype=np.intp)
    if rule is not None and len(i):
        covers = _cover_facts(ba, ts, rule, i, j, pa, pb, dist, (ck, ct), cov)
    return blocked, covers


def _distance_3d(gap: FloatArray, vertical: FloatArray) -> FloatArray:
    """``np.hypot(gap, vertical)``, computed only where ``vertical`` is not 0: elsewhere
    it is ``|gap|`` exactly (IEEE 754's hypot(x, 0)), and most pairs of a board stand at
    the same height."""
    dist = np.abs(gap)
    up = np.flatnonzero(vertical)
    if len(up):
        dist[up] = np.hypot(gap[up], vertical[up])
    return dist


def _cover_facts(ba: BodyArrays, ts: TerrainSet, rule: CoverRule, i: IntArray, j: IntArray,
                 pa: FloatArray, pb: FloatArray, dist: FloatArray,
                 corridor: tuple[IntArray, IntArray], cov: _Sink) -> IntArray:
    """Fill ``cov`` for pairs (i, j) both ways; return the (attacker, target, terrain) triples
    (``cover.cover_rows``)."""
    in_ij, in_ji, rows = cover_rows(ba, ts, i, j, pa, pb, dist, rule, candidates=corridor)
    cov[i, j] = in_ij
    cov[j, i] = in_ji
    return rows


def _by_columns(columns: list[IntArray]) -> IntArray:
    """``np.column_stack(columns)`` as integers, laid out column by column (each column
    written and read in one contiguous pass: a big table's rows cost several times as
    much written row by row; ``Triples`` reads them either way)."""
    rows = np.empty((len(columns), len(columns[0])), dtype=np.intp)
    for c, values in enumerate(columns):
        rows[c] = values
    return rows.T


def _near(d: FloatArray) -> tuple[IntArray, IntArray]:
    """The ordered pairs whose 3D distance is within 1" (NaN elsewhere: none)."""
    with np.errstate(invalid="ignore"):
        return _rows_and_columns(np.flatnonzero(d <= ENGAGE + 1e-9), d.shape[1])


def _flank_parts(side: IntArray, n_sides: int, near: tuple[IntArray, IntArray]
                 ) -> tuple[BoolArray, IntArray, IntArray]:
    """Flanking from the opposing pairs within 1" (``near``, in any order): (by_side, f, t)
    such that flanked[a, t] is ``by_side[side[a], t]`` for an active a, except at the
    pairs (f, t) (False there).

    f is *lone* at t when t is the only enemy within 1" of f; a is flanking-supported at t
    when a lone friend of a (not a) stands at t. The matrix is read row by row from the
    sides' rows (``PairTable.flanked``; writing the columns of every target with a lone
    friend cost a drag step of 2,000 fighters several milliseconds), or one row at a time.
    """
    n = len(side)
    f, t = near
    count = np.bincount(f, minlength=n)
    lone = count[f] == 1
    lf, lt = f[lone], t[lone]  # lone friend lf next to target lt
    per_side = np.zeros((n_sides, n), dtype=np.int64)
    np.add.at(per_side, (side[lf], lt), 1)
    by_side = (per_side > 0) & (side[None, :] != np.arange(n_sides)[:, None])
    # a lone friend does not support its own attack: not where it is the only one
    alone = per_side[side[lf], lt] == 1
    return by_side, lf[alone], lt[alone]
