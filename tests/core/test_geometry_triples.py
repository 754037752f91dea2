"""Rows of a pair table: dropping one body's rows, adding new ones, compaction, look-ups."""

from __future__ import annotations

import numpy as np

from tabletop_gui.geometry.triples import Triples


def test_replace_body_drops_both_columns_and_keeps_the_old_value() -> None:
    t = Triples.build(np.array([[0, 1, 7], [1, 2, 8], [2, 0, 9], [0, 2, 5], [3, 4, 6]]))
    u = t.replace_body(0, np.array([[0, 4, 1]]))
    assert sorted(map(tuple, u.rows())) == [(0, 4, 1), (1, 2, 8), (3, 4, 6)]
    assert sorted(map(tuple, t.rows())) == [(0, 1, 7), (0, 2, 5), (1, 2, 8), (2, 0, 9),
                                            (3, 4, 6)]  # untouched
    assert u.terrain_of(0, 4) == [1] and u.terrain_of(0, 1) == [] and u.terrain_of(1, 2) == [8]
    assert len(u) == 3


def test_successive_replacements_and_compaction_give_the_same_rows() -> None:
    rng = np.random.default_rng(0)
    rows = np.column_stack([rng.integers(0, 30, 400), rng.integers(0, 30, 400),
                            rng.integers(0, 9, 400)])
    a = Triples.build(rows)
    expected = {tuple(r) for r in rows}
    for step in range(60):  # enough new rows to force compactions
        k = step % 30
        new = np.column_stack([np.full(25, k), rng.integers(0, 30, 25), rng.integers(0, 9, 25)])
        before = {tuple(r) for r in a.rows()}
        b = a.replace_body(k, new)
        assert {tuple(r) for r in a.rows()} == before  # a new value: the old one unchanged
        a = b
        expected = {r for r in expected if r[0] != k and r[1] != k} | {tuple(r) for r in new}
        assert {tuple(r) for r in a.rows()} == expected
    a0, t0 = next(iter(expected))[:2]
    assert sorted(a.terrain_of(a0, t0)) == sorted(r[2] for r in expected if r[:2] == (a0, t0))


def test_empty() -> None:
    e = Triples.build(np.zeros((0, 3), dtype=int))
    assert len(e) == 0 and e.terrain_of(1, 2) == []
    assert len(e.replace_body(1, np.zeros((0, 3), dtype=int))) == 0


def test_build_orders_rows_as_a_stable_sort_of_the_full_integers() -> None:
    """The 16-bit keys (body indices under 65,536) and the full integers (larger indices)
    give the order of ``np.argsort(kind="stable")`` on each column, ties in row order."""
    rng = np.random.default_rng(3)
    for high in (50, 2_000, 70_000):
        rows = rng.integers(0, high, (5_000, 3)).astype(np.intp)
        t = Triples.build(rows)
        assert np.array_equal(t.by_a, np.argsort(rows[:, 0], kind="stable"))
        assert np.array_equal(t.by_t, np.argsort(rows[:, 1], kind="stable"))
        assert np.array_equal(t.a_sorted, np.sort(rows[:, 0]))
