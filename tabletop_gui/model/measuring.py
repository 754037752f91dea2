"""What the Measure tool shows: the ruleset's distance between two bases (3D, with its
horizontal and vertical parts; spaces on a grid), or the plain distance between points."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop_gui.geometry.board import Board

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry

End = str | tuple[float, float]  # a body id, or a point on the table (inches)


@dataclass(frozen=True)
class Measurement:
    start: tuple[float, float]  # where the line is drawn from and to (inches)
    end: tuple[float, float]
    distance: float
    horizontal: float
    vertical: float
    spaces: int | None = None

    def text(self) -> str:
        out = f'{self.distance:.2f}\u2033'
        if self.vertical > 1e-9:
            out += f'  (horizontal {self.horizontal:.2f}\u2033, vertical {self.vertical:.2f}\u2033)'
        if self.spaces is not None:
            out = f"{self.spaces} spaces  " + out
        return out


def measure(g: BoardGeometry, a: End, b: End) -> Measurement:
    """Closest points between bodies (via the geometry of the revision shown), else
    straight lines."""
    board = g.board
    if isinstance(a, str) and isinstance(b, str) and a != b:
        m = g.measure(a, b)
        spaces = g.spaces_between(a, b) if board.grid is not None else None
        return Measurement(m.point_a, m.point_b, m.distance, m.horizontal, m.vertical, spaces)
    pa, pb = _point(board, a), _point(board, b)
    d = math.dist(pa, pb)
    return Measurement(pa, pb, d, d, 0.0)


def _point(board: Board, end: End) -> tuple[float, float]:
    if isinstance(end, str):
        fp = board.body(end).footprint
        return fp.x, fp.y
    return end
