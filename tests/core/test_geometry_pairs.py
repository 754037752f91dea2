"""Whole-battlefield pair facts: equal to the pair-by-pair answers, and after a drag equal to
a fresh computation."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import moved_board, synthetic_board
from tabletop_gui.geometry import board_geometry
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.pairs import opposing_pairs
from tests.core.geometry_helpers import assert_same_tables, board, box, disc, oval, rect

WARCRY = CoverRule(True, 3.0)
VARIANT = CoverRule(False, 2.0, False)


def check_against_single_pairs(b: Board, rule: CoverRule) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(board_geometry, "TABLE_AFTER", 10**9)  # answer each pair on its own
        _check_against_single_pairs(b, rule)


def _check_against_single_pairs(b: Board, rule: CoverRule) -> None:
    tab = BoardGeometry(b).pair_table(rule)
    g = BoardGeometry(b)
    ids = [x.id for x in b.bodies]
    for a, ida in enumerate(ids):
        for t, idt in enumerate(ids):
            if b.bodies[a].side == b.bodies[t].side:
                assert np.isnan(tab.distance[a, t]) and not tab.visible[a, t]
                continue
            m = g.measure(ida, idt)
            assert tab.horizontal[a, t] == pytest.approx(m.horizontal, abs=1e-9)
            assert tab.distance[a, t] == pytest.approx(m.distance, abs=1e-9)
            s = g.sight(ida, idt)
            assert tab.visible[a, t] == s.visible
            if not s.visible:
                assert [b.terrains[k].id for k in tab.blockers(a, t)] == list(s.blocked_by)
            c = g.cover(ida, idt, rule)
            assert tab.cover[a, t] == c.in_cover
            assert sorted(b.terrains[k].id for k in tab.cover_terrain(a, t)) == sorted(c.by)
            assert tab.flanked[a, t] == g.flanked(ida, idt).flanked


@pytest.mark.parametrize("rule", [WARCRY, VARIANT])
def test_table_equals_pair_by_pair_on_a_synthetic_board(rule: CoverRule) -> None:
    check_against_single_pairs(synthetic_board(24, seed=5), rule)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_table_equals_pair_by_pair_property(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bodies = []
    for k in range(8):
        x, y = rng.uniform(0, 8, 2)
        kind = k % 3
        if kind == 0:
            bodies.append(disc(f"m{k}", "rb"[k % 2], x, y))
        elif kind == 1:
            bodies.append(oval(f"m{k}", "rb"[k % 2], x, y, 1.6, 0.9, float(rng.uniform(0, 360))))
        else:
            bodies.append(rect(f"m{k}", "rb"[k % 2], x, y, 1.0, 2.0, float(rng.uniform(0, 360))))
    walls = tuple(box(f"w{k}", x, y, x + rng.uniform(0.2, 2), y + rng.uniform(0.2, 2),
                      float(rng.uniform(0.3, 3)))
                  for k, (x, y) in enumerate(rng.uniform(0, 8, (4, 2))))
    plat = (box("p", 2, 2, 5, 5, 2.5, kind="platform"),)
    check_against_single_pairs(board(*bodies, terrain=walls + plat), WARCRY)



def test_drag_update_equals_a_fresh_table() -> None:
    b = synthetic_board(60, seed=2)
    g = BoardGeometry(b)
    g.pair_table(WARCRY)
    for k, (dx, dy) in enumerate([(0.3, 0.0), (5.0, -2.0), (-8.0, 3.0)]):
        body = (k * 17) % len(b.bodies)
        fp = b.bodies[body].footprint
        b2 = moved_board(b, body, fp.x + dx, fp.y + dy)
        g2 = g.moved(b2, b.bodies[body].id)
        assert g2.board is b2
        assert_same_tables(g2._tables[WARCRY], BoardGeometry(b2).pair_table(WARCRY))
        b, g = b2, g2


def test_moving_onto_a_platform_updates_elevation() -> None:
    p = box("p1", 10, 10, 14, 14, 3.0, kind="platform")
    b = board(disc("a", "r", 0, 0), disc("b", "b", 5, 0), terrain=(p,))
    g = BoardGeometry(b)
    g.pair_table(WARCRY)
    b2 = moved_board(b, 1, 12, 12)
    g2 = g.moved(b2, "b")
    assert g2.elevation("b") == 3.0
    assert_same_tables(g2.pair_table(WARCRY), BoardGeometry(b2).pair_table(WARCRY))


def test_moved_with_other_changes_rebuilds() -> None:
    b = board(disc("a", "r", 0, 0), disc("b", "b", 5, 0))
    g = BoardGeometry(b)
    b2 = board(disc("a", "r", 0, 0), disc("b", "b", 6, 0), disc("c", "b", 9, 0))
    assert len(g.moved(b2, "b").bodies) == 3


def test_taken_down_bodies_have_no_facts() -> None:
    b = board(disc("a", "r", 0, 0), disc("b", "b", 1.5, 0), disc("c", "b", 3, 0, active=False))
    tab = BoardGeometry(b).pair_table(WARCRY)
    assert np.isnan(tab.distance[0, 2]) and not tab.visible[0, 2]
    assert tab.within(1.0)[0, 1] and not tab.within(1.0)[0, 2]


def test_single_pair_questions_switch_to_the_table_with_equal_answers() -> None:
    b = synthetic_board(30, seed=9)
    ids = [x.id for x in b.bodies]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(board_geometry, "TABLE_AFTER", 10**9)
        g = BoardGeometry(b)
        alone = [(g.sight(a, t), g.cover(a, t, CoverRule(True, 3.0)),
                  g.flanked(a, t)) for a in ids for t in ids]
        assert not g._tables
    g = BoardGeometry(b)
    served = [(g.sight(a, t), g.cover(a, t, CoverRule(True, 3.0)),
               g.flanked(a, t)) for a in ids for t in ids]
    assert g._tables  # the scan switched to the table
    assert served == alone


def test_a_drag_derives_new_tables_and_leaves_the_old_ones() -> None:
    # one fighter dragged in steps, each step deriving its table from the previous step's
    b = synthetic_board(40, seed=4)
    g = BoardGeometry(b)
    g.pair_table(WARCRY)
    k = 3
    for step in range(6):
        fp = g.board.bodies[k].footprint
        b2 = moved_board(g.board, k, fp.x + 0.7, fp.y - 0.4 * step)
        before = g.pair_table(WARCRY)
        kept = (before.distance.copy(), before.visible.copy(), before.cover.copy(),
                sorted(map(tuple, before.cover_by.rows())))
        g2 = g.moved(b2, b2.bodies[k].id)
        assert g.pair_table(WARCRY) is before  # the old geometry keeps its table, unchanged
        assert np.array_equal(before.distance, kept[0], equal_nan=True)
        assert np.array_equal(before.visible, kept[1]) and np.array_equal(before.cover, kept[2])
        assert sorted(map(tuple, before.cover_by.rows())) == kept[3]
        assert_same_tables(g2.pair_table(WARCRY), BoardGeometry(b2).pair_table(WARCRY))
        g = g2


def test_a_second_rule_reuses_distances_and_sight() -> None:
    b = synthetic_board(40, seed=6)
    g = BoardGeometry(b)
    plain = g.pair_table(None)
    assert not plain.cover.any()
    warcry = g.pair_table(WARCRY)
    assert warcry.visible is plain.visible  # shared, not recomputed
    assert_same_tables(warcry, BoardGeometry(b).pair_table(WARCRY))
    # a drag with two tables sharing matrices: each still equals a fresh one
    fp = b.bodies[2].footprint
    b2 = moved_board(b, 2, fp.x + 1.0, fp.y)
    g2 = g.moved(b2, b.bodies[2].id)
    assert_same_tables(g2.pair_table(WARCRY), BoardGeometry(b2).pair_table(WARCRY))
    assert_same_tables(g2.pair_table(VARIANT), BoardGeometry(b2).pair_table(VARIANT))
    assert_same_tables(g2.pair_table(None), BoardGeometry(b2).pair_table(None))


def test_opposing_pairs_are_the_active_pairs_on_different_sides_in_order() -> None:
    """Three sides, some bodies taken down (none, some, all): every pair (i < j) of active
    bodies on different sides, by i then j, as the obvious double loop lists them."""
    rng = np.random.default_rng(11)
    bodies = tuple(disc(f"b{k}", ("red", "blue", "green")[int(rng.integers(3))],
                        float(rng.uniform(0, 30)), float(rng.uniform(0, 30)))
                   for k in range(40))
    ba = BoardGeometry(Board(30.0, 30.0, bodies)).bodies
    for active in (np.ones(40, bool), rng.random(40) < 0.6, np.zeros(40, bool)):
        arrays = dataclasses.replace(ba, active=active)
        i, j = opposing_pairs(arrays)
        expected = [(a, b) for a in range(40) for b in range(a + 1, 40)
                    if active[a] and active[b] and ba.side[a] != ba.side[b]]
        assert list(zip(i.tolist(), j.tolist(), strict=True)) == expected
        assert i.dtype == j.dtype == np.intp
