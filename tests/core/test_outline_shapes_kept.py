"""Outline polygons are kept by footprint (``bodies._OUTLINES``): a later board's arrays
reuse those of the footprints that did not change, the same polygons as made afresh, and
the kept ones stay bounded."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from tabletop_gui.bench.battlefields import moved_board, synthetic_board
from tabletop_gui.geometry import bodies
from tabletop_gui.geometry.bodies import BodyArrays, outline_shapes
from tabletop_gui.geometry.terrain import TerrainSet


def outlines(b, k):  # type: ignore[no-untyped-def]
    ba = BodyArrays.build(b.bodies, TerrainSet.build(b.terrains))
    return outline_shapes(ba, k)


def test_a_later_boards_outlines_are_those_made_afresh(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    b = synthetic_board(50, seed=2)
    k = np.arange(len(b.bodies))
    monkeypatch.setattr(bodies, "_OUTLINES", {})
    first = outlines(b, k)
    moved = moved_board(b, 3, b.bodies[3].footprint.x + 0.5, b.bodies[3].footprint.y)
    later = outlines(moved, k)
    monkeypatch.setattr(bodies, "_OUTLINES", {})
    fresh = outlines(moved, k)
    assert all(later[m] is first[m] for m in k if m != 3)  # kept, not made again
    assert later[3] is not first[3]
    assert all(shapely.equals_exact(x, y, tolerance=0.0) for x, y in zip(later, fresh,
                                                                          strict=True))
    assert not shapely.equals_exact(later[3], first[3], tolerance=0.0)


def test_the_kept_outlines_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bodies, "_OUTLINES", {})
    monkeypatch.setattr(bodies, "OUTLINES_KEPT", 30)
    b = synthetic_board(200, seed=1)
    for step in range(5):
        moved = moved_board(b, step, b.bodies[step].footprint.x + 0.1, 1.0)
        outlines(moved, np.arange(len(b.bodies)))
        assert len(bodies._OUTLINES) <= max(30, len(b.bodies))
    assert len(bodies._OUTLINES) > 0
