"""A drag step's pair tables as layered values (``geometry.layered``): every way of reading
them gives the matrix a plain copy-and-write would hold, the previous step's values keep
their answers after a new one is derived (read or not before), and random drags give the
tables of a fresh geometry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.bench.battlefields import moved_board, synthetic_board
from tabletop_gui.geometry import layered
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.layered import Layered
from tabletop_gui.geometry.pairs import PairTable
from tests.core.geometry_helpers import assert_same_tables

WARCRY = CoverRule(True, 3.0)
VARIANT = CoverRule(False, 2.0, False)
N = 7


def _reads(m: Layered) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The matrix read four ways: rows, columns, items (before any fold), then whole."""
    rows = np.array([m.row(a) for a in range(N)])
    cols = np.array([m.col(t) for t in range(N)]).T
    items = np.array([[m.item(a, t) for t in range(N)] for a in range(N)])
    return rows, cols, items, np.array(m.full())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, N - 1), st.booleans(), st.booleans()), min_size=1,
                max_size=12),
       st.integers(1, 4), st.integers(0, 2**31 - 1))
def test_layers_read_as_the_written_matrix(steps: list[tuple[int, bool, bool]],
                                           max_layers: int, seed: int) -> None:
    """Random row-and-column replacements (symmetric or not; some values read whole on
    the way, which folds them) read as a matrix written in place would; every earlier
    value still reads as it did when made."""
    rng = np.random.default_rng(seed)
    plain = rng.normal(size=(N, N))
    values = [(Layered(plain.copy()), plain.copy())]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(layered, "MAX_LAYERS", max_layers)  # folds on the way, too
        for k, symmetric, read_whole in steps:
            row = rng.normal(size=N)
            col = row if symmetric else rng.normal(size=N)
            col[k] = row[k]  # one entry, m[k, k]
            m, expect = values[-1]
            if read_whole:
                m.full()
            new = m.with_line(k, row, None if symmetric else col)
            expect = expect.copy()
            expect[k, :] = row
            expect[:, k] = col
            values.append((new, expect))
            assert new.layers <= max_layers
    for m, expect in values:
        for read in _reads(m):
            np.testing.assert_array_equal(read, expect)


def test_a_layered_matrix_is_read_only_and_shares_its_base() -> None:
    base = np.zeros((3, 3))
    m = Layered(base)
    m2 = m.with_line(1, np.ones(3))
    assert m2.layers == 1 and m.full() is base  # the base, not a copy
    with pytest.raises(ValueError):
        m2.full()[0, 0] = 5.0
    with pytest.raises(ValueError):
        base[0, 0] = 5.0
    row = m2.row(1)
    row[0] = 7.0  # a row read is the reader's own array
    assert m2.item(1, 0) == 1.0


def _drag(b: Board, g: BoardGeometry, rng: np.random.Generator
          ) -> tuple[int, Board, BoardGeometry]:
    k = int(rng.integers(len(b.bodies)))
    fp = b.bodies[k].footprint
    dx, dy = rng.uniform(-3, 3, 2)
    b2 = moved_board(b, k, float(np.clip(fp.x + dx, 0, b.width)),
                     float(np.clip(fp.y + dy, 0, b.depth)))
    return k, b2, g.moved(b2, b2.bodies[k].id)


Answers = tuple[list[list[np.ndarray]], list[tuple[int, ...]], list[tuple[int, ...]]]


def _answers(t: PairTable) -> Answers:
    """What a table answers, read by rows (no matrix folded): per body its rows of
    horizontal, distance, visible, cover (as attacker), its column of cover (as target)
    and its row of flanked; and the blocker and cover triples."""
    rows = [[t.horizontal_layers.row(a), t.distance_layers.row(a), t.visible_layers.row(a),
             t.cover_layers.row(a), t.cover_layers.col(a), t.flanked_row(a)]
            for a in range(len(t.elevation))]
    return (rows, sorted(map(tuple, t.blocked_by.rows())), sorted(map(tuple, t.cover_by.rows())))


def _assert_same(x: Answers, y: Answers, atol: float = 0.0) -> None:
    """Equal answers; distances within ``atol`` (a drag step and a fresh table compute a
    pair with the same arithmetic in differently shaped batches: 1e-12\")."""
    assert x[1] == y[1] and x[2] == y[2]
    for rx, ry in zip(x[0], y[0], strict=True):
        for a, b in zip(rx, ry, strict=True):
            if a.dtype == bool:
                np.testing.assert_array_equal(a, b)
            else:
                np.testing.assert_allclose(a, b, rtol=0.0, atol=atol)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_random_drags_equal_fresh_geometry_and_leave_the_old(seed: int, steps: int) -> None:
    """Drag steps of random fighters (two rules' tables, sharing distances and sight):
    each step's tables, read by rows, equal a fresh geometry's; the previous step's
    tables, never read whole, answer after the new ones are derived exactly as before;
    in the end every step's tables read whole give what their rows gave."""
    rng = np.random.default_rng(seed)
    b = synthetic_board(30, seed=seed % 50)
    g = BoardGeometry(b)
    g.pair_table(None)
    g.pair_table(WARCRY)
    kept = [(g, {r: _answers(g.pair_table(r)) for r in (None, WARCRY)})]
    for _ in range(steps):
        old = {r: g.pair_table(r) for r in (None, WARCRY)}
        _, b, g = _drag(b, g, rng)
        fresh = BoardGeometry(b)
        kept.append((g, {r: _answers(g.pair_table(r)) for r in (None, WARCRY)}))
        for r in (None, WARCRY):
            assert kept[-2][0].pair_table(r) is old[r]
            _assert_same(_answers(old[r]), kept[-2][1][r])  # unchanged, by rows
            _assert_same(kept[-1][1][r], _answers(fresh.pair_table(r)), atol=1e-12)
        assert g.pair_table(None).shares_sight(g.pair_table(WARCRY))
    assert_same_tables(g.pair_table(WARCRY), fresh.pair_table(WARCRY))
    for g, answers in kept:
        for r in (None, WARCRY):
            t = g.pair_table(r)
            assert r is not None or not t.cover.any()
            whole = [t.horizontal, t.distance, t.visible, t.cover, t.cover.T, t.flanked]
            for a, rows in enumerate(answers[r][0]):
                for m, row in zip(whole, rows, strict=True):
                    np.testing.assert_array_equal(m[a], row)


def test_a_long_drag_of_many_fighters_stays_within_the_layers() -> None:
    """More fighters moved than ``MAX_LAYERS``, nobody reading a whole matrix: the layers
    are folded on the way, and the answers stay those of a fresh geometry."""
    rng = np.random.default_rng(3)
    b = synthetic_board(60, seed=5)
    g = BoardGeometry(b)
    g.pair_table(VARIANT)
    for _ in range(layered.MAX_LAYERS + 5):
        _, b, g = _drag(b, g, rng)
        t = g.pair_table(VARIANT)
        assert t.distance_layers.layers <= layered.MAX_LAYERS
    assert_same_tables(g.pair_table(VARIANT), BoardGeometry(b).pair_table(VARIANT))
