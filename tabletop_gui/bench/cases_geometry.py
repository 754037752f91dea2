"""Benchmark cases of the geometry: ``pairs_N`` (N = 50, 200, 800, 2000) and ``drag_N``
(200, 800, 2000).

pairs_N: every opposing pair of a synthetic battlefield (``battlefields.synthetic_board``):
distance, engaged (within 1"), line of sight, Warcry cover and flanking, from a fresh
``BoardGeometry`` (arrays built inside the timing). Reference: the same facts pair by
pair with shapely polygons of the bases (64 segments), no index (``reference``). The
reference is run on every ordered pair for N = 50, and for N = 200 unless ``--quick``;
otherwise on a fixed sample of ``SAMPLE`` ordered pairs (``QUICK_SAMPLE`` with
``--quick``), its time scaled by
(all pairs / sampled pairs) -- an estimate, stated here. Answers must agree on every
pair the reference computed, except pairs it marks as sensitive to its 64-gon
approximation (lines within 0.05" of an obstacle outline, distances within 0.05" of 1").

drag_N: one step of a drag on a battlefield whose pair facts are known: the dragged fighter
moves 0.25" (a different fighter every 10 steps), the new geometry derives its tables from
the previous step's (``BoardGeometry.moved``: that fighter's row and column recomputed into
new matrices, the previous step's left as they were), then the valid targets
of the dragged fighter as attacker are listed (visible enemies within 12", restricted to
the enemies within 1" when there are any). No reference.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from tabletop_gui.bench.battlefields import moved_board, synthetic_board
from tabletop_gui.bench.reference import ReferenceFacts, reference_facts
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.pairs import PairTable

RULE = CoverRule(gate_1in=True, platform_threshold=3.0)
SAMPLE = 2000
QUICK_SAMPLE = 500  # --quick: a smaller sample, so every case runs in under a minute
RANGE = 12.0
PAIRS_N = (50, 200, 800, 2000)
DRAG_N = (200, 800, 2000)
_quick = False  # set by ``set_quick`` (the runner's --quick) to sample the N = 200 reference


@functools.cache
def board(n: int) -> Board:
    return synthetic_board(n, seed=1)


def all_pairs(b: Board) -> list[tuple[int, int]]:
    bodies = b.bodies
    return [(a, t) for a in range(len(bodies)) for t in range(len(bodies))
            if bodies[a].side != bodies[t].side and bodies[a].active and bodies[t].active]


def pairs_compute(n: int) -> Callable[[], PairTable]:
    def compute() -> PairTable:
        table = BoardGeometry(board(n)).pair_table(RULE)
        table.within(1.0)  # engaged
        return table
    return compute


def sampled(n: int) -> bool:
    return n > 200 or (n == 200 and _quick)


def reference_pairs(n: int) -> list[tuple[int, int]]:
    pairs = all_pairs(board(n))
    size = QUICK_SAMPLE if _quick else SAMPLE
    if not sampled(n) or len(pairs) <= size:
        return pairs
    rng = np.random.default_rng(n)
    pick = np.sort(rng.choice(len(pairs), size, replace=False))
    return [pairs[k] for k in pick]


def reference_scale(n: int) -> float:
    return len(all_pairs(board(n))) / len(reference_pairs(n))


def pairs_reference(n: int) -> Callable[[], ReferenceFacts]:
    def reference() -> ReferenceFacts:
        return reference_facts(board(n), RULE, reference_pairs(n))
    return reference


def same(answer: Any, ref: Any) -> bool:
    """Does a pair table agree with the reference on every pair the reference computed?"""
    if not isinstance(answer, PairTable) or not isinstance(ref, ReferenceFacts):
        return False
    return not disagreements(answer, ref)


def disagreements(table: PairTable, ref: ReferenceFacts) -> list[str]:
    out = []
    for (a, t), d in ref.distance.items():
        if abs(float(table.distance[a, t]) - d) > 0.01:
            out.append(f"distance {ref.ids[a]}-{ref.ids[t]}: {table.distance[a, t]} vs {d}")
        if bool(table.visible[a, t]) != ref.visible[(a, t)]:
            out.append(f"visible {ref.ids[a]}-{ref.ids[t]}")
        if (a, t) in ref.sensitive:
            continue
        if bool(table.within(1.0)[a, t]) != (d <= 1.0 + 1e-9):
            out.append(f"engaged {ref.ids[a]}-{ref.ids[t]}")
        if bool(table.cover[a, t]) != ref.cover[(a, t)]:
            out.append(f"cover {ref.ids[a]}-{ref.ids[t]}")
        if bool(table.flanked[a, t]) != ref.flanked[(a, t)]:
            out.append(f"flanked {ref.ids[a]}-{ref.ids[t]}")
    return out


_drag_state: dict[int, BoardGeometry] = {}


def drag_geometry(n: int) -> BoardGeometry:
    """The current geometry of the drag on the N-fighter battlefield."""
    if n not in _drag_state:
        g = BoardGeometry(board(n))
        g.pair_table(RULE)
        _drag_state[n] = g
    return _drag_state[n]


def valid_targets(g: BoardGeometry, table: PairTable, a: int) -> list[str]:
    """Visible active enemies within RANGE; only those within 1" when there are any (read
    from the attacker's rows: no whole matrix)."""
    d = table.distance_layers.row(a)
    with np.errstate(invalid="ignore"):
        near = d <= 1.0 + 1e-9
        ok = table.visible_layers.row(a) & (d <= RANGE + 1e-9)
    if near.any():
        ok &= near
    return [g.bodies.bodies[k].id for k in np.flatnonzero(ok)]


def drag_compute(n: int) -> Callable[[], tuple[PairTable, list[str]]]:
    step = itertools.count()

    def compute() -> tuple[PairTable, list[str]]:
        g0 = drag_geometry(n)
        s = next(step)
        k = ((s // 10) * 37) % n
        fp = g0.board.bodies[k].footprint
        offset = 0.25 if (s // 20) % 2 == 0 else -0.25  # back and forth: stays on the table
        b2 = moved_board(g0.board, k, fp.x + offset, fp.y)
        g2 = g0.moved(b2, b2.bodies[k].id)  # a new geometry: g0 is left as it was
        _drag_state[n] = g2
        table = g2.pair_table(RULE)
        return table, valid_targets(g2, table, k)
    return compute


def set_quick(quick: bool) -> None:
    global _quick
    _quick = quick


CASES: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {
    **{f"pairs_{n}": (pairs_compute(n), pairs_reference(n)) for n in PAIRS_N},
    **{f"drag_{n}": (drag_compute(n), None) for n in DRAG_N},
}
RUNS = {"pairs_50": 20, "pairs_200": 20, "pairs_800": 5, "pairs_2000": 3, "drag_200": 100,
        "drag_800": 50, "drag_2000": 30}
QUICK_RUNS = {"pairs_50": 5, "pairs_200": 3, "pairs_800": 1, "pairs_2000": 1, "drag_200": 20,
              "drag_800": 10, "drag_2000": 5}
REFERENCE_RUNS = {f"pairs_{n}": 3 if n == 50 else 1 for n in PAIRS_N}
QUICK_REFERENCE_RUNS = {f"pairs_{n}": 1 for n in PAIRS_N}
REFERENCE_SCALE = {f"pairs_{n}": functools.partial(reference_scale, n) for n in PAIRS_N}
