"""Rows of a pair table: dropping one body's rows, adding new ones, compaction, look-ups."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry import triples
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


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 30), st.integers(1, 4))
def test_random_replacements_read_as_sets_of_rows(seed: int, steps: int,
                                                  max_batches: int) -> None:
    """Random bodies replaced (their rows as a or t, as a drag step gives them): every
    pair looks up the rows a set of rows would hold, and every earlier value still looks
    up its own, batches compacted on the way or not."""

    rng = np.random.default_rng(seed)
    n = 8

    def rows_of(k: int | None, m: int) -> np.ndarray:
        a, t = rng.integers(0, n, m), rng.integers(0, n, m)
        if k is not None:
            t = np.where(rng.random(m) < 0.5, a, t)
            a = np.where(t == a, k, a)  # half the rows with k as a, half as t
            t = np.where(a == k, t, k)
        return np.column_stack([a, t, rng.integers(0, 9, m)])

    def lookups(x: Triples) -> dict[tuple[int, int], list[int]]:
        return {(a, t): sorted(x.terrain_of(a, t)) for a in range(n) for t in range(n)}

    start = rows_of(None, 60)
    values = [Triples.build(start)]
    lists = [sorted(map(tuple, start.tolist()))]  # rows may repeat: kept as sorted lists
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(triples, "MAX_BATCHES", max_batches)
        for _ in range(steps):
            k = int(rng.integers(n))
            new = rows_of(k, int(rng.integers(0, 6)))
            values.append(values[-1].replace_body(k, new))
            lists.append(sorted([r for r in lists[-1] if k not in r[:2]]
                                + list(map(tuple, new.tolist()))))
    for x, expected in zip(values, lists, strict=True):
        assert sorted(map(tuple, x.rows().tolist())) == expected
        want: dict[tuple[int, int], list[int]] = {(a, t): [] for a in range(n) for t in range(n)}
        for a, t, terrain in expected:
            want[(a, t)].append(terrain)
        assert lookups(x) == {key: sorted(v) for key, v in want.items()}


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
        ascending = rows[np.argsort(rows[:, 0], kind="stable")]  # as a table's blockers come
        for r in (rows, ascending, ascending[:1], ascending[:0]):
            t = Triples.build(r)
            assert np.array_equal(t.by_a, np.argsort(r[:, 0], kind="stable"))
            assert np.array_equal(t.by_t, np.argsort(r[:, 1], kind="stable"))
        t = Triples.build(rows)
        assert np.array_equal(t.by_a, np.argsort(rows[:, 0], kind="stable"))
        assert np.array_equal(t.by_t, np.argsort(rows[:, 1], kind="stable"))
        assert np.array_equal(t.a_sorted, np.sort(rows[:, 0]))


def test_the_order_by_target_is_made_when_asked_and_shared_by_derived_values() -> None:
    """``by_t`` and ``t_sorted`` (read by no lookup) are not made by ``build``; once asked
    of a value, or of one derived from it by ``replace_body`` (same base), they are the
    base's stable order by t, made once for both."""
    rng = np.random.default_rng(4)
    rows = rng.integers(0, 300, (4_000, 3)).astype(np.intp)
    t = Triples.build(rows)
    assert t._t_order == []
    derived = t.replace_body(7, np.array([[7, 9, 1]], dtype=np.intp))
    assert np.array_equal(derived.by_t, np.argsort(rows[:, 1], kind="stable"))
    assert np.array_equal(derived.t_sorted, np.sort(rows[:, 1]))
    assert t.by_t is derived.by_t
