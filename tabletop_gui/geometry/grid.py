"""Grids of spaces: square and hex.

``size`` is the distance between the centres of neighbouring spaces (inches).

Square: space (col, row) covers [col*size, (col+1)*size) x [row*size, (row+1)*size),
its centre in the middle; 8 neighbours; distance in spaces is the Chebyshev distance.

Hex (documented choice): pointy-top hexes in rows, odd rows shifted right by half a
space ("odd-r"). The centre of (col, row) is ``x = (col + 0.5 + 0.5 * (row odd)) * size``,
``y = (row * sqrt(3)/2 + 0.5) * size``. A point belongs to the space with the nearest
centre (ties: the lowest row, then the lowest column); 6 neighbours; hex distance through
cube coordinates.

Zones of Control: a fighter's zone is the set of spaces neighbouring its space. A path
(a sequence of spaces) *leaves* a space whenever it moves from it to a different space;
``zones_left`` lists, in path order, every (enemy, space) where the space left lies in that
enemy's zone. Entering a zone alone leaves nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

Space = tuple[int, int]

_SQUARE_STEPS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
_CUBE_STEPS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]  # (dq, dr) axial
_ROW = math.sqrt(3.0) / 2.0


class GridGeometry:
    def __init__(self, kind: Literal["square", "hex"], size: float) -> None:
        if size <= 0 or not math.isfinite(size):
            raise ValueError(f"grid size must be a positive number (got {size})")
        self.kind = kind
        self.size = float(size)

    # -- spaces and points --------------------------------------------------------------
    def space_at(self, x: float, y: float) -> Space:
        """The space under a point."""
        s = self.size
        if self.kind == "square":
            return math.floor(x / s), math.floor(y / s)
        r0 = math.floor((y / s - 0.5) / _ROW)
        best: tuple[float, int, int] | None = None
        for row in (r0 - 1, r0, r0 + 1, r0 + 2):
            c0 = round(x / s - 0.5 - 0.5 * (row & 1))
            for col in (c0 - 1, c0, c0 + 1):
                cx, cy = self.centre((col, row))
                key = ((cx - x) ** 2 + (cy - y) ** 2, row, col)
                if best is None or key < best:
                    best = key
        assert best is not None
        return best[2], best[1]

    def centre(self, space: Space) -> tuple[float, float]:
        col, row = space
        s = self.size
        if self.kind == "square":
            return (col + 0.5) * s, (row + 0.5) * s
        return (col + 0.5 + 0.5 * (row & 1)) * s, (row * _ROW + 0.5) * s

    # -- neighbours and distance ------------------------------------------------------
    def neighbours(self, space: Space) -> list[Space]:
        col, row = space
        if self.kind == "square":
            return [(col + dc, row + dr) for dc, dr in _SQUARE_STEPS]
        q, r = _to_axial(space)
        return [_from_axial(q + dq, r + dr) for dq, dr in _CUBE_STEPS]

    def distance(self, a: Space, b: Space) -> int:
        """Spaces between two spaces (0 for the same space, 1 for neighbours)."""
        if self.kind == "square":
            return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        qa, ra = _to_axial(a)
        qb, rb = _to_axial(b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    # -- zones of control -------------------------------------------------------------
    def zone_of_control(self, space: Space) -> set[Space]:
        return set(self.neighbours(space))

    def zones_left(self, path: Sequence[Space], enemies: Mapping[str, Space]
                   ) -> list[tuple[str, Space]]:
        """Every (enemy id, space left) along the path, in path order then enemy order."""
        zones = {e: self.zone_of_control(s) for e, s in enemies.items()}
        out: list[tuple[str, Space]] = []
        for here, there in zip(path, path[1:], strict=False):
            if here == there:
                continue
            for e, zone in zones.items():
                if here in zone:
                    out.append((e, here))
        return out


def _to_axial(space: Space) -> tuple[int, int]:
    col, row = space
    return col - (row - (row & 1)) // 2, row


def _from_axial(q: int, r: int) -> Space:
    return q + (r - (r & 1)) // 2, r
