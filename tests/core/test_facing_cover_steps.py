"""Steps of the facing-cover scan checked against their obvious forms: the candidate
boxes compared with the obstructions' boxes in numpy find what the spatial index finds
(boxes touching at an edge or a corner included), and the range masks hold exactly the
lines whose parameter lies in the range (ends on a sample line included or not)."""

from __future__ import annotations

import json

import numpy as np
import shapely

from tabletop_gui.bench.battlefields import ninth_age_scenario
from tabletop_gui.geometry import facing_cover, fan
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.load import loads_scenario


def test_boxes_meeting_in_numpy_equal_the_tree_query() -> None:
    board = battle_of(loads_scenario(json.dumps(ninth_age_scenario(30, seed=4)))).board
    obs = BoardGeometry(board).obstructions()
    rng = np.random.default_rng(8)
    lo = rng.uniform(-5, 60, (400, 2))
    boxes = np.column_stack([lo, lo + rng.uniform(0, 12, (400, 2))])
    bd = obs.ts.bounds
    # boxes ending exactly on an obstruction's box: an edge and a corner touching
    k = rng.integers(0, len(bd), 40)
    boxes[:20] = np.column_stack([bd[k[:20], 2], bd[k[:20], 1] - 1, bd[k[:20], 2] + 3,
                                  bd[k[:20], 3] + 1])
    boxes[20:40] = np.column_stack([bd[k[20:], 2], bd[k[20:], 3], bd[k[20:], 2] + 2,
                                    bd[k[20:], 3] + 2])
    at, oe = facing_cover._boxes_meeting(obs, boxes)
    want_at, want_oe = obs.tree.query(shapely.box(*boxes.T))
    assert len(boxes) * len(bd) <= facing_cover._OVERLAP_AT_ONCE  # numpy, not the tree
    assert sorted(zip(at.tolist(), oe.tolist(), strict=True)) == sorted(
        zip(want_at.tolist(), want_oe.tolist(), strict=True))
    assert {int(o) for a, o in zip(at, oe, strict=True) if a < 40} >= set(k.tolist())


def test_range_masks_hold_the_lines_in_the_range() -> None:
    rng = np.random.default_rng(5)
    u = fan.U
    lo = np.concatenate([rng.uniform(-0.3, 1.3, 3000), u[rng.integers(0, fan.N, 500)],
                         [-np.inf, -5.0, 2.0, 0.0, 1.0]])
    hi = np.concatenate([lo[:3000] + rng.uniform(-0.1, 0.8, 3000),
                         u[rng.integers(0, fan.N, 500)], [np.inf, 5.0, 3.0, 0.0, 1.0]])
    for closed in (True, False):
        got = fan._range_mask(lo, hi, closed)
        bits = np.unpackbits(got.view(np.uint8).reshape(-1, 8), axis=1,
                             bitorder="little").astype(bool)
        if closed:
            want = (u[None, :] >= lo[:, None]) & (u[None, :] <= hi[:, None])
        else:
            want = (u[None, :] > lo[:, None]) & (u[None, :] < hi[:, None])
        assert np.array_equal(bits, want), closed
        assert want.any() and (~want).any()
