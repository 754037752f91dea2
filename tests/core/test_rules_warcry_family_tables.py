"""Hit tables of the Warcry family: every row, every face, the row order with exact numbers."""

from __future__ import annotations

import pytest

from tabletop_gui.rules.fields import DamageSpec
from tabletop_gui.rules.warcry_family.tables import (
    EQUAL,
    GREATER,
    HALF,
    LESS,
    STRENGTH_EQUAL,
    STRENGTH_GREATER,
    STRENGTH_LOWER,
    TWICE,
    face_table,
    five_row,
    strength_row,
)

# (row, faces that miss, hit, crit) straight from the pages' tables
ROWS = [
    (STRENGTH_GREATER, {1, 2}, {3, 4, 5}, {6}),
    (STRENGTH_EQUAL, {1, 2, 3}, {4, 5}, {6}),
    (STRENGTH_LOWER, {1, 2, 3, 4}, {5}, {6}),
    (TWICE, {1, 2}, {3, 4}, {5, 6}),
    (GREATER, {1, 2}, {3, 4, 5}, {6}),
    (EQUAL, {1, 2, 3}, {4, 5}, {6}),
    (LESS, {1, 2, 3, 4}, {5}, {6}),
    (HALF, {1, 2, 3, 4}, {5, 6}, set()),
]


@pytest.mark.parametrize(("row", "miss", "hit", "crit"), ROWS, ids=lambda r: getattr(r, "name", ""))
def test_every_face_of_every_row(row, miss, hit, crit) -> None:
    table = face_table(row, DamageSpec(2, 5))
    for face in range(1, 7):
        outcome, dmg = table.face(face)
        if face in miss:
            assert (outcome, dmg) == ("miss", 0)
        elif face in hit:
            assert (outcome, dmg) == ("hit", 2)
        else:
            assert face in crit
            assert (outcome, dmg) == ("critical", 5)
    assert table.dist.mean == pytest.approx((2 * len(hit) + 5 * len(crit)) / 6)


def test_faces_text() -> None:
    assert STRENGTH_GREATER.faces_text() == "miss 1-2, hit 3-5, critical 6"
    assert HALF.faces_text() == "miss 1-4, hit 5-6"
    assert LESS.faces_text() == "miss 1-4, hit 5, critical 6"


@pytest.mark.parametrize(("s", "t", "row"), [
    (5, 4, STRENGTH_GREATER), (4, 4, STRENGTH_EQUAL), (3, 4, STRENGTH_LOWER),
    (1, 10, STRENGTH_LOWER), (10, 1, STRENGTH_GREATER),
])
def test_strength_rows(s: int, t: int, row) -> None:
    assert strength_row(s, t) is row


@pytest.mark.parametrize(("a", "d", "row"), [
    (4, 4, EQUAL),  # A = D first
    (0, 0, EQUAL),  # A = D even at 0
    (-1, -1, EQUAL),
    (1, 0, TWICE),  # D <= 0
    (0, -1, TWICE),
    (-2, -1, TWICE),  # D <= 0 wins over A < D
    (4, 2, TWICE),  # A >= 2D, exactly twice
    (5, 2, TWICE),
    (3, 2, GREATER),  # A > D
    (7, 4, GREATER),  # just under twice
    (3, 6, HALF),  # A <= D/2 exactly half
    (2, 4, HALF),
    (1, 5, HALF),
    (3, 5, LESS),  # 3 > 2.5: Less
    (2, 3, LESS),
    (3, 4, LESS),
    (0, 1, HALF),
    (-1, 3, HALF),
])
def test_five_row_order_and_exact_comparisons(a: int, d: int, row) -> None:
    assert five_row(a, d) is row


def test_face_tables_are_shared() -> None:
    assert face_table(EQUAL, DamageSpec(1, 3)) is face_table(EQUAL, DamageSpec(1, 3))
