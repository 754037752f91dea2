"""Result values of the geometry library (frozen, and each says why).

The functions that produce them live in the other modules of this package and are
gathered on ``BoardGeometry`` (``geometry/board_geometry.py``), the one object the rules
and the GUI use (one per document revision, no cache behind it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tabletop_gui.geometry.board import Point

Arc = Literal["front", "left_flank", "right_flank", "rear"]


@dataclass(frozen=True)
class Measure:
    """Closest points of two bases: horizontal gap, vertical difference, 3D distance."""

    horizontal: float  # gap between outlines on the table, 0 when they overlap
    vertical: float  # |elevation a - elevation b|
    distance: float  # sqrt(horizontal^2 + vertical^2)
    point_a: Point  # closest point on a's outline (a's centre side when overlapping)
    point_b: Point


@dataclass(frozen=True)
class Threshold:
    """Whether ``value <= limit`` (or ``>``), and by how much."""

    met: bool
    value: float
    limit: float
    margin: float  # limit - value for "within": > 0 met with room, < 0 missed by that much

    @staticmethod
    def within(value: float, limit: float, eps: float = 1e-9) -> Threshold:
        return Threshold(value <= limit + eps, value, limit, limit - value)


@dataclass(frozen=True)
class Sight:
    visible: bool
    blocked_by: tuple[str, ...] = ()  # terrain ids that block when not visible


@dataclass(frozen=True)
class Cover:
    in_cover: bool
    by: tuple[str, ...] = ()  # ids of obstacles / platforms giving it
    why: str = ""  # "line crosses Ruined wall (w1)" / "target 3.0\" above on Watchtower (p1)"


@dataclass(frozen=True)
class Flank:
    flanked: bool
    by: tuple[str, ...] = ()  # friendly fighters that flank


@dataclass(frozen=True)
class FacingCover:
    """Cover of a facing: fractions of the Target Facing hidden."""

    kind: Literal["none", "soft", "hard"]
    hard_fraction: float
    total_fraction: float
    by: tuple[str, ...] = ()
