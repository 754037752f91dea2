"""Snapping table points: to the centre of the nearest space on a Circle of Realms grid,
else to a fixed step (0.1") - and keeping points on the battlefield."""

from __future__ import annotations

import math

from tabletop_gui.scenario.entities import Battlefield

SQRT3 = math.sqrt(3.0)


def snap_point(bf: Battlefield, x: float, y: float, step: float) -> tuple[float, float]:
    grid = bf.grid
    if grid is not None and grid.size > 0:
        return _space_centre(grid.kind, grid.size, x, y)
    return round(round(x / step) * step, 6), round(round(y / step) * step, 6)


def _space_centre(kind: str, s: float, x: float, y: float) -> tuple[float, float]:
    if kind == "square":
        return (math.floor(x / s) + 0.5) * s, (math.floor(y / s) + 0.5) * s
    best: tuple[float, float, float] | None = None
    row0 = round((y / s - 0.5) / (SQRT3 / 2))
    for row in (row0 - 1, row0, row0 + 1):
        if row < 0:
            continue
        shift = 0.5 * (row % 2)
        col = max(0, round(x / s - 0.5 - shift))
        for c in (col - 1, col, col + 1):
            if c < 0:
                continue
            cx, cy = (c + 0.5 + shift) * s, (row * SQRT3 / 2 + 0.5) * s
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, cx, cy)
    assert best is not None
    return best[1], best[2]


def inside_board(bf: Battlefield, x: float, y: float) -> bool:
    return 0.0 <= x <= bf.width and 0.0 <= y <= bf.depth
