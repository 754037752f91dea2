"""``BoardGeometry``: the one object through which rules and GUI ask geometric questions.

``BoardGeometry(board)`` builds the arrays of a board (bodies, terrain prisms); whoever
holds one document revision holds its geometry (``scenario.snapshot.Snapshot``, built
lazily once through ``lazy_geometry.LazyGeometry``), so every question asked about the
revision shares the work. ``moved`` derives the geometry of a drag step from the previous
one as a new value. Answers are the frozen values of ``geometry.facts``.

Measuring: the horizontal gap between base outlines (0 when they overlap), the vertical
difference of elevations, and the 3D distance ``sqrt(gap^2 + vertical^2)``. "Within X"
is ``distance <= X`` (with a 1e-9 tolerance), its margin ``X - distance``. After
``TABLE_AFTER`` measures of one geometry (a whole-battlefield scan) a measure from a body
computes its gaps to every active body of another side in one call, and later measures
from it read them: the same arithmetic element by element (ovals, whose refinement
iterates until the whole batch converges, and pairs of round bases, measured in plain
floats, are still measured one by one).

Questions about one attacker's targets (``attacker_rows``: a target scan's verdicts) on a
big battlefield without a pair table are answered from that attacker's row
(``pair_row.PairRow``: its thousand pairs, not the table's million), and so are the
single-pair questions of its pairs (sight, cover, flanking); the whole table is built
when it pays: a whole-battlefield scan (``TABLE_AFTER`` questions the rows do not
answer), or rows for so many attackers that they hold ``TABLE_SHARE`` of its pairs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, cast

import numpy as np
from numpy.typing import NDArray

from tabletop_gui.geometry import outline, unit_arcs
from tabletop_gui.geometry.board import Board, Body, Point
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.cover import CoverRule, cover_both_ways
from tabletop_gui.geometry.facts import Arc, Cover, FacingCover, Flank, Measure, Sight, Threshold
from tabletop_gui.geometry.gaps import gaps
from tabletop_gui.geometry.grid import GridGeometry
from tabletop_gui.geometry.pair_row import (
    AttackerRows,
    NearPairs,
    PairRow,
    RowStore,
    opposing_count,
)
from tabletop_gui.geometry.pairs import PairTable
from tabletop_gui.geometry.sight import sight_pairs
from tabletop_gui.geometry.terrain import TerrainSet

if TYPE_CHECKING:
    from tabletop_gui.geometry.facing_cover import Obstructions

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

ENGAGE = 1.0
TABLE_AFTER = 64  # single-pair questions before the whole table is built
ROWS_ABOVE = 40_000  # opposing pairs above which one attacker's targets get a row
TABLE_SHARE = 0.25  # the rows' pairs, as a share of the table's, before the table is built


class BoardGeometry:
    """Geometry of one Board value (bodies and terrain as arrays, answers as facts)."""

    def __init__(self, board: Board, terrain: TerrainSet | None = None, *,
                 bodies: BodyArrays | None = None,
                 tables: Mapping[CoverRule | None, PairTable] | None = None) -> None:
        """``terrain``, ``bodies`` and ``tables``: parts already built for this very board
        (``moved`` passes the previous geometry's terrain and the updated ones)."""
        self.board = board
        self.terrain = terrain if terrain is not None else TerrainSet.build(board.terrains)
        self.bodies = bodies if bodies is not None else BodyArrays.build(board.bodies,
                                                                         self.terrain)
        self.grid: GridGeometry | None = (
            GridGeometry(board.grid.kind, board.grid.size) if board.grid else None
        )
        self._tables: dict[CoverRule | None, PairTable] = dict(tables or {})
        self._queries = 0
        self._measures = 0
        # gaps and closest points from a body to each body (``_gap_row``), as Python values
        self._gap_rows: dict[int, tuple[list[float], list[Point], list[Point]]] = {}
        self._measured: dict[tuple[int, int], Measure] = {}  # measures from the rows
        self._gap_matrix: tuple[FloatArray, FloatArray, FloatArray] | None = None
        # terrain and body outlines as one TerrainSet (``facing_cover.obstructions``)
        self.facing_obstructions: Obstructions | None = None
        self._rows = RowStore()  # attackers' rows (``attacker_rows``)

    # -- look-ups ---------------------------------------------------------------------
    def index(self, body_id: str) -> int:
        try:
            return self.bodies.index[body_id]
        except KeyError:
            raise KeyError(f"no fighter or unit with id {body_id!r}") from None

    def body(self, body_id: str) -> Body:
        return self.bodies.bodies[self.index(body_id)]

    def terrain_label(self, k: int) -> str:
        return self.terrain.terrains[k].label

    # -- measuring --------------------------------------------------------------------
    def elevation(self, body_id: str) -> float:
        """Own elevation, else the highest platform holding the base centre, else 0."""
        return float(self.bodies.elevation[self.index(body_id)])

    def measure(self, a_id: str, b_id: str) -> Measure:
        return self._measure(self.index(a_id), self.index(b_id))

    def horizontal_gaps(self) -> list[list[float]]:
        """``measure(a, b).horizontal`` of every ordered pair of active bodies on different
        sides, [a][b] by index (NaN elsewhere): the gaps of all pairs in one call (a scan of
        the whole battlefield; later measures read them too)."""
        ba = self.bodies
        ok = ((ba.side[:, None] != ba.side[None, :]) & ba.active[:, None] & ba.active[None, :])
        if self._gap_matrix is None:
            plain = ba.shape != outline.ELLIPSE
            i, j = np.nonzero(ok & plain[:, None] & plain[None, :]
                              & ~(ba.circle[:, None] & ba.circle[None, :]))
            n = len(ba)
            gap = np.full((n, n), np.nan)
            pa = np.zeros((n, n, 2))
            pb = np.zeros((n, n, 2))
            gap[i, j], pa[i, j], pb[i, j] = gaps(ba, i.astype(np.intp), j.astype(np.intp))
            self._gap_matrix = (gap, pa, pb)
        out: list[list[float]] = self._gap_matrix[0].tolist()
        for i, j in zip(*np.nonzero(ok & np.isnan(self._gap_matrix[0])), strict=True):
            out[i][j] = self._measure(int(i), int(j)).horizontal
        return out

    def _measure(self, i: int, j: int) -> Measure:
        ba = self.bodies
        if ba.circle[i] and ba.circle[j]:
            return _circle_measure(ba, i, j)
        known = self._measured.get((i, j))
        if known is not None:
            return known
        vertical = abs(float(self.bodies.elevation[i] - self.bodies.elevation[j]))
        if self._gap_matrix is not None and i not in self._gap_rows:
            # one entry of ``horizontal_gaps``' matrix (the row ``_gap_row`` would make of
            # it, without making the row: a scan asks a few pairs in contact again)
            gm, pam, pbm = self._gap_matrix
            h = float(gm[i, j])
            if not math.isnan(h):
                m = Measure(h, vertical, math.hypot(h, vertical),
                            cast(Point, tuple(pam[i, j].tolist())),
                            cast(Point, tuple(pbm[i, j].tolist())))
                self._measured[(i, j)] = m
                return m
        row = self._gap_row(i)
        if row is not None and not math.isnan(row[0][j]):
            h = row[0][j]
            m = Measure(h, vertical, math.hypot(h, vertical), row[1][j], row[2][j])
            self._measured[(i, j)] = m
            return m
        gap, pa, pb = gaps(self.bodies, np.array([i]), np.array([j]))
        h = float(gap[0])
        return Measure(h, vertical, math.hypot(h, vertical),
                       (float(pa[0, 0]), float(pa[0, 1])), (float(pb[0, 0]), float(pb[0, 1])))

    def _gap_row(self, i: int) -> tuple[list[float], list[Point], list[Point]] | None:
        """Gaps and closest points from body i to every active body of another side, for
        pairs neither an oval nor both round (NaN elsewhere), once ``TABLE_AFTER``
        measures have been asked (or read from ``horizontal_gaps``' computation)."""
        row = self._gap_rows.get(i)
        if row is not None:
            return row
        if self._gap_matrix is not None:
            gm, pam, pbm = self._gap_matrix
            row = (gm[i].tolist(), cast(list[Point], list(map(tuple, pam[i].tolist()))),
                   cast(list[Point], list(map(tuple, pbm[i].tolist()))))
            self._gap_rows[i] = row
            return row
        self._measures += 1
        ba = self.bodies
        if self._measures <= TABLE_AFTER or not ba.active[i] or ba.shape[i] == outline.ELLIPSE:
            return None
        n = len(ba)
        j = np.flatnonzero(ba.active & (ba.side != ba.side[i]) & (ba.shape != outline.ELLIPSE)
                           & ~(ba.circle & ba.circle[i]))
        gap = np.full(n, np.nan)
        pa = np.zeros((n, 2))
        pb = np.zeros((n, 2))
        gap[j], pa[j], pb[j] = gaps(ba, np.full(len(j), i, dtype=np.intp), j)
        row = (gap.tolist(), cast(list[Point], list(map(tuple, pa.tolist()))),
               cast(list[Point], list(map(tuple, pb.tolist()))))
        self._gap_rows[i] = row
        return row

    def within(self, a_id: str, b_id: str, limit: float) -> Threshold:
        return Threshold.within(self.measure(a_id, b_id).distance, limit)

    def distances_from(self, body_id: str) -> tuple[FloatArray, FloatArray, FloatArray]:
        """(horizontal, vertical, 3D) distance from one body to every body, in board order."""
        i = self.index(body_id)
        n = len(self.bodies)
        gap, _, _ = gaps(self.bodies, np.full(n, i, dtype=np.intp), np.arange(n, dtype=np.intp))
        vertical = np.abs(self.bodies.elevation - self.bodies.elevation[i])
        return gap, vertical, np.hypot(gap, vertical)

    def enemies_by_distance(self, body_id: str) -> list[tuple[str, float]]:
        """Active enemies (other sides) by 3D distance, nearest first (ties by board order)."""
        i = self.index(body_id)
        _, _, dist = self.distances_from(body_id)
        ba = self.bodies
        idx = np.flatnonzero(ba.active & (ba.side != ba.side[i]))
        order = idx[np.argsort(dist[idx], kind="stable")]
        return [(ba.bodies[k].id, float(dist[k])) for k in order]

    def enemies_within(self, body_id: str, limit: float) -> list[tuple[str, float]]:
        """The active enemies within ``limit`` (3D distance), nearest first (ties by board
        order): the start of ``enemies_by_distance``, with the same distances, but measured
        only to the bodies whose circumscribed circles come within ``limit`` (a fighter
        among two thousand: a few neighbours, not every body)."""
        i = self.index(body_id)
        ba = self.bodies
        centre = np.hypot(ba.x - ba.x[i], ba.y - ba.y[i])
        near = centre - ba.circumradius - ba.circumradius[i] <= limit + 1e-9
        j = np.flatnonzero(near & ba.active & (ba.side != ba.side[i]))
        gap, _, _ = gaps(ba, np.full(len(j), i, dtype=np.intp), j)
        dist = np.hypot(gap, np.abs(ba.elevation[j] - ba.elevation[i]))
        keep = np.flatnonzero(dist <= limit)
        order = keep[np.argsort(dist[keep], kind="stable")]
        return [(ba.bodies[j[k]].id, float(dist[k])) for k in order]

    def within_1_enemies(self, body_id: str) -> list[str]:
        """Active enemies within 1" (3D), nearest first."""
        return [e for e, _ in self.enemies_within(body_id, ENGAGE + 1e-9)]

    # -- sight and cover --------------------------------------------------------------
    def sight(self, a_id: str, b_id: str) -> Sight:
        i, j = self.index(a_id), self.index(b_id)
        row = self._known_row(None, i, j)
        if row is not None:
            if row.visible[row.other(i, j)]:
                return Sight(True)
            return Sight(False, tuple(self.terrain.terrains[k].id for k in row.blockers(i, j)))
        table = self._busy_table(None, i, j)
        if table is not None:
            if table.visible_layers.item(i, j):
                return Sight(True)
            return Sight(False, tuple(self.terrain.terrains[k].id
                                      for k in table.blockers(i, j)))
        lo, hi = min(i, j), max(i, j)  # board order, as the pair table (same arithmetic)
        res = sight_pairs(self.bodies, self.terrain, np.array([lo]), np.array([hi]))
        if bool(res.visible[0]):
            return Sight(True)
        ids = tuple(self.terrain.terrains[k].id for k in res.blockers_of(0))
        return Sight(False, ids)

    def cover(self, attacker: str, target: str, rule: CoverRule) -> Cover:
        """Cover of ``target`` against ``attacker`` under ``rule`` (``cover.CoverRule``: the
        parameters a ruleset gives)."""
        i, j = self.index(attacker), self.index(target)
        row = self._known_row(rule, i, j)
        known = row if row is not None else self._busy_table(rule, i, j)
        if known is not None:
            return self.cover_fact(sorted(known.cover_terrain(i, j),
                                          key=lambda k: (not self.terrain.is_obstacle[k], k)),
                                   i, j)
        # the same arithmetic as the pair table: the pair taken in board order, both ways
        lo, hi = min(i, j), max(i, j)
        gap, pa, pb = gaps(self.bodies, np.array([lo]), np.array([hi]))
        vertical = abs(float(self.bodies.elevation[i] - self.bodies.elevation[j]))
        dist = np.array([math.hypot(float(gap[0]), vertical)])
        fwd, back = cover_both_ways(self.bodies, self.terrain, np.array([lo]), np.array([hi]),
                                    pa, pb, dist, rule)
        return self.cover_fact((fwd if i == lo else back).by_of(0), i, j)

    def cover_fact(self, by: list[int], i: int, j: int) -> Cover:
        """A ``Cover`` value naming the terrain (indices) that gives it and why."""
        if not by:
            return Cover(False)
        reasons = []
        ts = self.terrain
        crossed = [k for k in by if ts.is_obstacle[k]]
        if crossed:
            reasons.append("line crosses " + ", ".join(self.terrain_label(k) for k in crossed))
        for k in by:
            if not ts.is_obstacle[k]:
                up = float(self.bodies.elevation[j] - self.bodies.elevation[i])
                reasons.append(f'target {up:.1f}" above on {self.terrain_label(k)}')
        return Cover(True, tuple(ts.terrains[k].id for k in by), "; ".join(reasons))

    # -- fighting ---------------------------------------------------------------------
    def flanked(self, attacker: str, target: str) -> Flank:
        """Friends of the attacker within 1" of the target, one of them free of other enemies.

        A friend is an active body of the attacker's side other than the attacker; it is
        free when no active enemy (other side) except the target is within 1" of it.
        Distances are 3D. ``by`` lists the free friends.
        """
        a, t = self.index(attacker), self.index(target)
        ba = self.bodies
        near: tuple[IntArray, IntArray] | None = None
        if self._known_row(None, a, t) is not None:  # rows, no table: the geometry's list
            near = self._near_pairs().pairs
        else:
            table = self._busy_table(None, a, t)
            near = table.near if table is not None else None
        if near is not None:  # from the pairs within 1" (no whole matrix read)
            f, g = near
            count = np.bincount(f, minlength=len(ba))
            lone = np.zeros(len(ba), dtype=bool)
            lone[f[g == t]] = True
            lone &= (count == 1) & (ba.side == ba.side[a])
            lone[a] = False
            free_ids = tuple(ba.bodies[k].id for k in np.flatnonzero(lone))
            return Flank(bool(free_ids), free_ids)
        _, _, to_target = self.distances_from(target)
        friends = [k for k in np.flatnonzero(ba.active & (ba.side == ba.side[a]))
                   if k != a and k != t and to_target[k] <= ENGAGE + 1e-9]
        free = []
        for k in friends:
            _, _, dk = self.distances_from(ba.bodies[k].id)
            enemies = ba.active & (ba.side != ba.side[k])
            enemies[t] = False
            enemies[k] = False
            if not np.any(enemies & (dk <= ENGAGE + 1e-9)):
                free.append(ba.bodies[k].id)
        return Flank(bool(free), tuple(free))

    # -- arcs, facings and base contact of formations ---------------------------------
    def arc_of(self, target_id: str, observer_id: str) -> Arc:
        """The arc of ``target`` holding ``observer``'s reference point (read from the
        facing-cover table when the pair is in it: the same arithmetic)."""
        obs = self.facing_obstructions
        if obs is not None and obs.known:
            row = obs.known.get((self.index(observer_id), self.index(target_id)))
            if row is not None:
                return obs.scanned[0].arcs[row]
        return unit_arcs.arc_of_point(self.body(target_id),
                                      unit_arcs.reference_point(self.body(observer_id)))

    def arc_of_point(self, target_id: str, point: Point) -> Arc:
        return unit_arcs.arc_of_point(self.body(target_id), point)

    def in_contact(self, a_id: str, b_id: str) -> bool:
        """Boundaries within 0.01" of each other (touching or overlapping)."""
        return self.touching(self.measure(a_id, b_id).horizontal)

    @staticmethod
    def touching(horizontal: float) -> bool:
        """``in_contact`` from the pair's horizontal gap."""
        return horizontal <= unit_arcs.CONTACT + 1e-12

    def engaged_facing(self, target_id: str, attacker_id: str) -> Arc | None:
        """The facing of ``target`` that ``attacker`` touches (None when not in contact)."""
        if not self.in_contact(target_id, attacker_id):
            return None
        m = self.measure(attacker_id, target_id)
        return unit_arcs.engaged_facing(self.body(target_id), self.body(attacker_id), m.point_b)

    def contact_models(self, attacker_id: str, target_id: str) -> int:
        """Front-rank models of the attacker whose bases are in contact with the target."""
        return unit_arcs.contact_models(self.body(attacker_id), self.body(target_id))

    def contact_models_of(self, pairs: list[tuple[str, str]]) -> list[int]:
        """``contact_models`` of each (attacker, target) pair, measured in one call."""
        return unit_arcs.contact_models_many([(self.body(a), self.body(t)) for a, t in pairs])

    def facing_cover(self, shooter_id: str, target_id: str, *,
                     threshold: Literal["more_than_half", "half_or_more"] = "more_than_half"
                     ) -> FacingCover:
        """Soft/hard cover of the target's facing against the shooter (``facing_cover``)."""
        from tabletop_gui.geometry import facing_cover  # lazy: fan.py and the facing tables

        return facing_cover.facing_cover(self.obstructions(), self.index(shooter_id),
                                         self.index(target_id), threshold)

    def facing_covers(self, threshold: Literal["more_than_half", "half_or_more"]
                      = "more_than_half") -> dict[tuple[int, int], FacingCover]:
        """``facing_cover`` of every ordered pair of active bodies on different sides, by
        (shooter index, target index), computed at once."""
        from tabletop_gui.geometry import facing_cover  # lazy: fan.py and the facing tables

        return facing_cover.facing_covers(self.obstructions(), threshold)

    def facing_choices(self, threshold: Literal["more_than_half", "half_or_more"]
                       = "more_than_half"
                       ) -> tuple[list[tuple[int, int]], list[Literal["none", "soft", "hard"]],
                                  list[float], list[float], list[tuple[str, ...]]]:
        """``facing_covers`` as lists of their fields (pairs, kinds, hard and total
        fractions, by): no objects made per pair."""
        from tabletop_gui.geometry import facing_cover  # lazy: fan.py and the facing tables

        return facing_cover.facing_choices(self.obstructions(), threshold)

    def facing_arcs(self) -> list[Arc]:
        """The arc of the target holding the shooter's reference point (``arc_of``) of each
        pair of ``facing_choices``, in its order (read from the same table)."""
        from tabletop_gui.geometry import facing_cover  # lazy: fan.py and the facing tables

        return facing_cover.facing_arcs(self.obstructions())

    def obstructions(self) -> Obstructions:
        """What can hide the samples of a facing (``facing_cover.obstructions``), prepared
        on the first facing-cover question and kept."""
        from tabletop_gui.geometry import facing_cover  # lazy: fan.py and the facing tables

        if self.facing_obstructions is None:
            self.facing_obstructions = facing_cover.obstructions(self.bodies, self.terrain)
        return self.facing_obstructions

    def sight_matrix(self) -> NDArray[np.bool_]:
        """visible[a, t] of every pair of active bodies on different sides (the pair table:
        ``sight(a, t).visible`` for those pairs)."""
        if self._tables:
            return next(iter(self._tables.values())).visible
        return self.pair_table(None).visible

    # -- grid -------------------------------------------------------------------------
    def space_of(self, body_id: str) -> tuple[int, int]:
        if self.grid is None:
            raise ValueError("this battlefield has no grid")
        b = self.body(body_id).footprint
        return self.grid.space_at(b.x, b.y)

    def spaces_between(self, a_id: str, b_id: str) -> int:
        if self.grid is None:
            raise ValueError("this battlefield has no grid")
        return self.grid.distance(self.space_of(a_id), self.space_of(b_id))

    # -- whole battlefield --------------------------------------------------------------
    def pair_table(self, rule: CoverRule | None = None) -> PairTable:
        """Facts of every opposing pair (``pairs.PairTable``), built once per cover rule."""
        table = self._tables.get(rule)
        if table is None:
            other = next(iter(self._tables.values()), None)
            if other is not None and rule is not None:
                table = other.with_rule(self.bodies, self.terrain, rule)
            else:
                table = PairTable.build(self.bodies, self.terrain, rule)
            self._tables[rule] = table
        return table

    def moved(self, board: Board, body_id: str) -> BoardGeometry:
        """The geometry of ``board``, which differs from this one only in body ``body_id``.

        A new value: reuses the terrain and the other bodies' arrays, and derives every
        pair table already built by recomputing one row and column (a drag step) into new
        matrices (without a table, the attackers' rows and the pairs within 1" are
        carried, to be updated in that body's pairs when asked: ``RowStore.moved``);
        this geometry and its answers stay as they were. When the boards differ
        in more than that body, a geometry built afresh (terrain reused when equal).
        """
        k = self.index(body_id)
        old = self.board.bodies
        same_terrain = (board.terrains is self.board.terrains
                        or board.terrains == self.board.terrains)
        same_rest = (len(board.bodies) == len(old)
                     and board.bodies[k].id == body_id
                     and board.bodies[k].side == old[k].side
                     and same_terrain
                     # tuples compare items by identity first: x is y or x == y
                     and board.bodies[:k] == old[:k] and board.bodies[k + 1:] == old[k + 1:])
        if not same_rest:
            return BoardGeometry(board, self.terrain if same_terrain else None)
        bodies = self.bodies.with_body(k, board.bodies[k], self.terrain)
        tables: dict[CoverRule | None, PairTable] = {}
        for rule, t in self._tables.items():  # distances and sight once for tables sharing them
            like = next((tables[r] for r, o in self._tables.items()
                         if r in tables and o.shares_sight(t)), None)
            tables[rule] = t.moved(bodies, self.terrain, k, like)
        out = BoardGeometry(board, self.terrain, bodies=bodies, tables=tables)
        if not tables:
            out._rows = self._rows.moved(k)
        return out

    # -- one attacker's targets ---------------------------------------------------------
    def attacker_rows(self, rule: CoverRule | None, a: int) -> AttackerRows:
        """What the questions about attacker ``a``'s targets read (its sight and distance
        rows, the pairs within 1"), under ``rule``: from the pair table when the geometry
        has one, or on a board of up to ``ROWS_ABOVE`` opposing pairs (a table that is
        quick to build), or once the rows computed so far hold ``TABLE_SHARE`` of the
        table's pairs (many attackers: the table pays); else from a's row
        (``pair_row.PairRow``: a's pairs only, computed once per rule; the single-pair
        questions of those pairs read it too). The answers are the same either way."""
        if not self._tables and self._rows_pay(rule, a):
            return AttackerRows.of_row(self.attacker_row(rule, a), self._near_pairs())
        return AttackerRows.of_table(self.pair_table(rule), a)

    def attacker_row(self, rule: CoverRule | None, a: int) -> PairRow:
        """The row of attacker ``a`` under ``rule`` (computed once per geometry)."""
        row = self._rows.rows.get((rule, a))
        if row is None:
            earlier = self._rows.earlier.pop((rule, a), None)
            row = self._rows.add(
                PairRow.build(self.bodies, self.terrain, rule, a) if earlier is None
                else earlier[0].moved(self.bodies, self.terrain, earlier[1]))
        return row

    def _rows_pay(self, rule: CoverRule | None, a: int) -> bool:
        if (rule, a) in self._rows.rows:
            return True
        total = opposing_count(self.bodies)
        return total > ROWS_ABOVE and self._rows.pairs < TABLE_SHARE * total

    def _near_pairs(self) -> NearPairs:
        """The opposing pairs within 1" of the whole battlefield (``pair_row``), once."""
        store = self._rows
        if store.near is None:
            earlier, store.earlier_near = store.earlier_near, None
            store.near = (NearPairs.build(self.bodies) if earlier is None
                          else earlier[0].moved(self.bodies, earlier[1]))
        return store.near

    def _known_row(self, rule: CoverRule | None, i: int, j: int) -> PairRow | None:
        """A row computed for i or j that answers a single-pair question about the
        opposing pair (i, j), when no table does (``rule`` None: sight and flanking, which
        a row under any rule answers)."""
        ba = self.bodies
        if not self._rows.rows or (self._tables if rule is None else rule in self._tables):
            return None
        if ba.side[i] == ba.side[j] or not (ba.active[i] and ba.active[j]):
            return None
        return self._rows.of(rule, i, j, any_rule=rule is None)

    def _busy_table(self, rule: CoverRule | None, i: int, j: int) -> PairTable | None:
        """The pair table to answer a single-pair question from, if it pays to use one.

        Tables answer only active pairs on different sides. Once a geometry has answered
        ``TABLE_AFTER`` single-pair questions (a whole-battlefield scan such as `inspect`
        or a target list), it builds the table and answers every later one from it; the
        answers are the same (``tests/core/test_geometry_pairs.py``).
        """
        ba = self.bodies
        if ba.side[i] == ba.side[j] or not (ba.active[i] and ba.active[j]):
            return None
        if rule is None and self._tables:
            return next(iter(self._tables.values()))
        if rule in self._tables:
            return self._tables[rule]
        self._queries += 1
        if self._queries > TABLE_AFTER:
            return self.pair_table(rule)
        return None


def _circle_measure(ba: BodyArrays, i: int, j: int) -> Measure:
    """Exact measure of two round bases, in plain floats."""
    xi, yi, xj, yj = float(ba.x[i]), float(ba.y[i]), float(ba.x[j]), float(ba.y[j])
    ri, rj = float(ba.radius[i]), float(ba.radius[j])
    dist = math.hypot(xj - xi, yj - yi)
    ux, uy = ((xj - xi) / dist, (yj - yi) / dist) if dist > 0 else (1.0, 0.0)
    raw = dist - ri - rj
    ta = ri if raw >= 0 else 0.5 * (ri + dist - rj)
    tb = dist - rj if raw >= 0 else ta
    h = max(raw, 0.0)
    v = abs(float(ba.elevation[i]) - float(ba.elevation[j]))
    return Measure(h, v, math.hypot(h, v), (xi + ta * ux, yi + ta * uy),
                   (xi + tb * ux, yi + tb * uy))
