"""The geometric view of a battlefield: bodies (bases with heights), terrain, grid.

Plain immutable values, built from a scenario by ``tabletop_gui.scenario.board``; the
geometry functions never see characteristics or rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Point = tuple[float, float]


@dataclass(frozen=True)
class Footprint:
    """A base outline on the table (inches).

    ``length`` lies along the facing, ``width`` across it. A circle has length == width.
    For a rank-and-file unit, the footprint is its boundary rectangle.
    """

    shape: Literal["circle", "ellipse", "rect"]
    x: float
    y: float
    length: float
    width: float
    facing: float = 90.0


@dataclass(frozen=True)
class Formation:
    """A rank-and-file unit's layout: models, files (front rank width), one base (inches)."""

    models: int
    files: int
    base_width: float
    base_depth: float
    round_base: bool = False

    @property
    def ranks(self) -> int:
        return max(1, -(-self.models // self.files))


@dataclass(frozen=True)
class Body:
    """A fighter or unit as geometry sees it."""

    id: str
    side: str
    footprint: Footprint
    elevation: float | None = None  # None: resolved from the platforms under the centre
    height: float = 1.25
    formation: Formation | None = None
    height_class: Literal["standard", "large", "gigantic"] = "standard"
    active: bool = True  # False when taken down / destroyed


@dataclass(frozen=True)
class Terrain:
    id: str
    kind: Literal["obstacle", "platform"]
    polygon: tuple[Point, ...]
    height: float
    name: str = ""
    blocks_sight: bool = True
    cover: Literal["hard", "soft"] = "hard"

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})" if self.name else self.id


@dataclass(frozen=True)
class GridSpec:
    kind: Literal["square", "hex"]
    size: float


@dataclass(frozen=True)
class Board:
    width: float
    depth: float
    bodies: tuple[Body, ...] = ()
    terrains: tuple[Terrain, ...] = ()
    grid: GridSpec | None = None

    def body(self, body_id: str) -> Body:
        for b in self.bodies:
            if b.id == body_id:
                return b
        raise KeyError(body_id)
