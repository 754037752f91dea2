"""``BoardGeometry.enemies_within`` measures only the bodies that may be near, and must
answer what filtering ``enemies_by_distance`` (every body measured) answers: the same
enemies in the same order, the same distances (numpy's vectorised hypot may round the
last bit differently in a shorter array: within 1e-12"). The Warcry family's 1" rules
read it for every target of a scan."""

from __future__ import annotations

import pytest

from tabletop_gui.bench.battlefields import synthetic_board
from tabletop_gui.geometry.board import Board
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tests.core.geometry_helpers import disc, oval, rect


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_enemies_within_is_the_start_of_every_enemy_ranked(seed):
    g = BoardGeometry(synthetic_board(150, seed))
    near_any = 0
    for body in g.board.bodies:
        ranked = g.enemies_by_distance(body.id)
        for limit in (0.0, 1.0 + 1e-9, 3.0, 7.5):
            expected = [(e, d) for e, d in ranked if d <= limit]
            got = g.enemies_within(body.id, limit)
            assert [e for e, _ in got] == [e for e, _ in expected], (body.id, limit)
            assert [d for _, d in got] == pytest.approx([d for _, d in expected], abs=1e-12)
            near_any += len(expected)
        assert g.within_1_enemies(body.id) == [e for e, d in ranked if d <= 1.0 + 1e-9]
    assert near_any > 0  # the boards have fighters close to enemies


def test_only_active_enemies_count_and_the_nearest_comes_first():
    board = Board(20, 20, (disc("a", "red", 5, 5), disc("f", "red", 5, 6.2),
                           disc("far", "blue", 5, 6.9), disc("down", "blue", 5.9, 5,
                                                             active=False),
                           oval("o", "blue", 6.6, 5, 1.4, 0.8, facing=0.0),
                           rect("r", "blue", 9, 9, 1, 1)))
    g = BoardGeometry(board)
    got = g.enemies_within("a", 1.0 + 1e-9)
    assert [e for e, _ in got] == ["o", "far"]  # no friend, no fighter taken down
    assert got[0][1] == pytest.approx(0.4, abs=1e-6)  # 6.6 - 0.7 - (5 + 0.5), exact oval end
    assert got[1][1] == pytest.approx(0.9, abs=1e-12)  # 1.9 between centres, minus radii
