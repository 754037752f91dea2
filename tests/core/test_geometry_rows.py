"""One attacker's row (``geometry.pair_row``): the same answers as the whole pair table and
as the pair-by-pair questions, and a fresh big battlefield's first attacker computes its
row, never the whole table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry import board_geometry
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.gaps import gaps
from tabletop_gui.geometry.pair_row import NearPairs, PairRow, close_pairs, opposing_count
from tabletop_gui.geometry.pairs import PairTable, opposing_pairs
from tabletop_gui.rules import registry
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.geometry_helpers import board, box, disc, oval, rect
from tests.core.test_target_validity import _random_crowd, one_by_one

WARCRY = CoverRule(True, 3.0)
VARIANT = CoverRule(False, 2.0, False)


@contextmanager
def answered(by: str) -> Iterator[None]:
    """Questions answered from rows always (``rows``), from the whole table as soon as
    asked (``table``), or pair by pair (``pairs``: no table, no row)."""
    with pytest.MonkeyPatch.context() as mp:
        if by == "rows":
            mp.setattr(board_geometry, "ROWS_ABOVE", -1)
            mp.setattr(board_geometry, "TABLE_SHARE", float("inf"))
        else:
            mp.setattr(board_geometry, "ROWS_ABOVE", 10**12)
        if by == "pairs":
            mp.setattr(board_geometry, "TABLE_AFTER", 10**9)
        yield


def crowded_board(seed: int, n: int = 14) -> Board:
    """Bodies of three kinds on a small table (many within 1" of each other, some on a
    platform), walls between them; a few taken down."""
    rng = np.random.default_rng(seed)
    bodies = []
    for k in range(n):
        x, y = rng.uniform(0, 7, 2)
        side = "rbg"[k % 3] if seed % 2 else "rb"[k % 2]
        kind = k % 3
        if kind == 0:
            bodies.append(disc(f"m{k}", side, x, y, active=k != 6))
        elif kind == 1:
            bodies.append(oval(f"m{k}", side, x, y, 1.6, 0.9, float(rng.uniform(0, 360))))
        else:
            bodies.append(rect(f"m{k}", side, x, y, 1.0, 2.0, float(rng.uniform(0, 360))))
    walls = tuple(box(f"w{k}", x, y, x + rng.uniform(0.2, 2), y + rng.uniform(0.2, 2),
                      float(rng.uniform(0.3, 3)))
                  for k, (x, y) in enumerate(rng.uniform(0, 7, (3, 2))))
    plat = (box("p", 2, 2, 5, 5, 2.5, kind="platform"),)
    return board(*bodies, terrain=walls + plat)


def assert_row_of_table(row: PairRow, tab: PairTable) -> None:
    """The row holds the table's facts of its attacker's pairs (distances within 1e-12\",
    the rest identical)."""
    a = row.attacker
    np.testing.assert_allclose(row.horizontal, tab.horizontal[a], atol=1e-12)
    np.testing.assert_allclose(row.distance, tab.distance[a], atol=1e-12)
    assert (row.visible == tab.visible[a]).all()
    assert (row.cover == tab.cover[a]).all()
    for t in range(len(row.visible)):
        assert row.blockers(a, t) == tab.blockers(a, t)
        assert sorted(row.cover_terrain(a, t)) == sorted(tab.cover_terrain(a, t))
        assert sorted(row.cover_terrain(t, a)) == sorted(tab.cover_terrain(t, a))


def check_rows_against_table(b: Board, rule: CoverRule | None) -> None:
    g = BoardGeometry(b)
    tab = BoardGeometry(b).pair_table(rule)
    for a in range(len(b.bodies)):
        assert_row_of_table(PairRow.build(g.bodies, g.terrain, rule, a), tab)
    near = NearPairs.build(g.bodies)
    assert sorted(zip(near.f.tolist(), near.t.tolist(), strict=True)) \
        == sorted(zip(*map(list, tab.near), strict=True))
    for f, t in zip(near.f.tolist(), near.t.tolist(), strict=True):
        assert near.distance_of(f, t) == pytest.approx(float(tab.distance[f, t]), abs=1e-12)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_rows_equal_the_table_on_random_boards(seed: int) -> None:
    b = crowded_board(seed)
    check_rows_against_table(b, WARCRY if seed % 3 else VARIANT)


def test_rows_equal_the_table_on_a_synthetic_board_and_without_a_rule() -> None:
    b = synthetic_board(40, seed=3)
    check_rows_against_table(b, WARCRY)
    check_rows_against_table(b, None)


def single_answers(b: Board, rule: CoverRule, by: str) -> list[object]:
    """Every single-pair question of every ordered pair, answered ``by`` (``answered``);
    with rows, each attacker's row computed first (as a target scan does)."""
    ids = [x.id for x in b.bodies]
    with answered(by):
        g = BoardGeometry(b)
        out: list[object] = []
        for a, ida in enumerate(ids):
            if by == "rows":
                g.attacker_rows(rule, a)
            out += [(g.sight(ida, idt), g.cover(ida, idt, rule), g.flanked(ida, idt))
                    for idt in ids]
        if by == "rows":
            assert not g._tables and g._rows.rows
        if by == "pairs":
            assert not g._tables and not g._rows.rows
    return out


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000))
def test_single_pair_answers_from_rows_equal_the_others(seed: int) -> None:
    b = crowded_board(seed, 8)
    rule = WARCRY if seed % 2 else VARIANT
    rows = single_answers(b, rule, "rows")
    assert rows == single_answers(b, rule, "pairs")
    assert rows == single_answers(b, rule, "table")


@pytest.mark.parametrize("seed", range(2))
def test_target_validity_from_rows_equals_the_table_and_each_attack(seed: int) -> None:
    """On random crowds (targets at the range and 1" limits, friends near the targets)."""
    scenario = _random_crowd(seed)
    ruleset = registry.get("warcry")
    ids = [m.id for m in scenario.models]
    for a in scenario.models[:3]:
        for weapon in [None, a.weapons[-1].name]:
            answers = []
            for by in ("rows", "table"):
                with answered(by):
                    battle = Snapshot.of(scenario).battle
                    answers.append(ruleset.target_validity(battle, a.id, ids, weapon))
                    assert bool(battle.geometry._tables) == (by == "table")
            with answered("pairs"):
                battle = Snapshot.of(scenario).battle
                answers.append(one_by_one(ruleset, battle, a.id, ids, weapon))
            assert answers[0] == answers[1] == answers[2], (a.id, weapon)


def test_close_pairs_hold_every_pair_within_the_limit() -> None:
    for seed in range(6):
        b = crowded_board(seed, 24)
        ba = BoardGeometry(b).bodies
        i, j = opposing_pairs(ba)
        gap, _, _ = gaps(ba, i, j)
        for limit in (0.0, 1.0, 2.5):
            found = set(zip(*map(list, close_pairs(ba, limit)), strict=True))
            within = {(int(x), int(y)) for x, y, h in zip(i, j, gap, strict=True)
                      if h <= limit + 1e-9}
            assert within <= found
            assert found <= set(zip(i.tolist(), j.tolist(), strict=True))


def test_close_pairs_on_huge_and_tiny_coordinates() -> None:
    far = board(disc("a", "r", 0, 0), disc("b", "b", 1.5, 0), disc("c", "b", 1e9, 1e9),
                disc("d", "r", 1e9 + 1.2, 1e9), disc("e", "r", -1e9, 3.0))
    ba = BoardGeometry(far).bodies
    i, j = close_pairs(ba, 1.0)
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == [(0, 1), (2, 3)]
    assert close_pairs(BoardGeometry(board(disc("a", "r", 0, 0))).bodies, 1.0)[0].size == 0


def test_opposing_count_is_the_tables_pairs() -> None:
    b = crowded_board(1, 20)
    ba = BoardGeometry(b).bodies
    assert opposing_count(ba) == len(opposing_pairs(ba)[0])


def test_a_fresh_big_board_scans_one_attacker_without_the_whole_table() -> None:
    """The first attacker chosen on a freshly opened 2,000-fighter board: its verdicts and
    the reports of its valid targets come from its row; no pair table is built."""
    from tabletop_gui.bench.cases_window import warcry_crowd_scenario
    from tabletop_gui.model.target_scan import status_of
    from tabletop_gui.rules.base import AttackRequest

    scenario = warcry_crowd_scenario(2000)
    ruleset = registry.get(scenario.ruleset)
    battle = Snapshot.of(scenario).battle
    g = battle.geometry
    enemies = [m.id for m in scenario.models if m.side == "blue"]
    verdicts = ruleset.target_validity(battle, "m975", enemies, explain=False)
    valid = [t for t, (ok, _) in verdicts.items() if ok]
    assert valid
    for t in valid + enemies[:80]:
        status_of(ruleset, battle, AttackRequest("m975", t))
    assert not g._tables
    assert list(g._rows.rows) == [(ruleset.table_rule(), g.index("m975"))]
    assert g._rows.pairs == len(enemies)


def test_many_attackers_build_the_table_once_it_pays() -> None:
    """Rows until they hold ``TABLE_SHARE`` of the table's pairs; then the table, which
    answers every later attacker."""
    b = synthetic_board(40, seed=4)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(board_geometry, "ROWS_ABOVE", -1)
        g = BoardGeometry(b)
        total = opposing_count(g.bodies)
        for a in range(len(b.bodies)):
            g.attacker_rows(WARCRY, a)
            if g._tables:
                break
        assert g._tables
        assert board_geometry.TABLE_SHARE * total <= g._rows.pairs < total
        rows = dict(g._rows.rows)
        g.attacker_rows(WARCRY, len(b.bodies) - 1)
        assert g._rows.rows == rows  # answered from the table


def test_a_drag_carries_the_rows_and_the_pairs_within_1_inch() -> None:
    """Drag steps of other bodies and of the attacker itself on a geometry with rows and
    no table: each step's rows and list of the pairs within 1" (updated in the moved
    bodies' pairs) equal a fresh table's."""
    from tabletop_gui.bench.battlefields import moved_board

    b = crowded_board(7, 16)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(board_geometry, "ROWS_ABOVE", -1)
        mp.setattr(board_geometry, "TABLE_SHARE", float("inf"))
        g = BoardGeometry(b)
        g.attacker_rows(WARCRY, 0)
        g.attacker_rows(WARCRY, 5)
        steps = [(3, 0.4, 0.2), (7, -1.5, 0.9), (3, 2.0, -1.0), (0, 0.7, 0.3), (12, 3.0, 3.0)]
        for n, (k, dx, dy) in enumerate(steps):
            fp = b.bodies[k].footprint
            b = moved_board(b, k, fp.x + dx, fp.y + dy)
            g = g.moved(b, b.bodies[k].id)
            assert not g._tables and not g._rows.rows
            assert (WARCRY, 5) in g._rows.earlier and g._rows.earlier_near is not None
            tab = BoardGeometry(b).pair_table(WARCRY)
            for a in (0, 5) if n % 2 else (5, 0):
                rows = g.attacker_rows(WARCRY, a)
                assert_row_of_table(g._rows.rows[(WARCRY, a)], tab)
                assert sorted(zip(*map(list, rows.near), strict=True)) \
                    == sorted(zip(*map(list, tab.near), strict=True))
            assert not g._tables
