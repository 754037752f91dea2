"""Placing imported models in their side's deployment area, without overlaps.

Deployment areas: the sides of the battlefield, in their order, take turns at the two
long edges: even places (the first side, the third...) the bottom half, odd ones the top
half; sides sharing an edge split its width equally. Models are set in rows from the
edge inward, ``GAP`` apart (units ``UNIT_GAP``), facing the other edge, each clear of
terrain and of the models already on the battlefield. A side that does not fit in its
area is refused with the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import shapely
from shapely.geometry import Polygon, box

from tabletop_gui.geometry.outline import outline_points
from tabletop_gui.importers.sources import ImportRefused
from tabletop_gui.scenario.battle import body_of
from tabletop_gui.scenario.entities import Battlefield, Fighter, Model, Obstacle, Platform

GAP = 0.5  # inches between fighters
UNIT_GAP = 1.0  # inches between units
STEP = 0.25  # inches a model slides along its row to get clear of something
EDGE = 0.1  # inches kept free along the edges of a deployment area


def area_of(index: int, sides: int, field: Battlefield) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1) of side ``index``'s deployment area among ``sides`` sides."""
    bottom = index % 2 == 0
    sharing = [i for i in range(sides) if (i % 2 == 0) == bottom]
    slot = sharing.index(index)
    w = field.width / len(sharing)
    half = field.depth / 2
    y0, y1 = (0.0, half) if bottom else (half, field.depth)
    return slot * w, (slot + 1) * w, y0, y1


def extent(model: Model) -> tuple[float, float]:
    """Width (x) and depth (y) of a model facing straight up or down the table."""
    if isinstance(model, Fighter):
        return model.base.width_in, model.base.length_in
    return model.width_in, model.depth_in


def _shape(model: Model) -> Polygon:
    return Polygon(outline_points(body_of(model).footprint))


def place_side(models: Sequence[Model], index: int, sides: int, field: Battlefield,
               taken: list[Polygon], terrain: Sequence[Obstacle | Platform], label: str,
               source: str) -> list[Model]:
    """The models placed in rows in side ``index``'s area; ``taken`` grows with them."""
    x0, x1, y0, y1 = area_of(index, sides, field)
    x0, x1, y0, y1 = x0 + EDGE, x1 - EDGE, y0 + EDGE, y1 - EDGE
    bottom = index % 2 == 0
    facing = 90.0 if bottom else 270.0
    blockers = [Polygon(t.polygon) for t in terrain] + taken
    tree = shapely.STRtree(blockers) if blockers else None
    start = len(taken)  # models of this side are checked one by one
    placed: list[Model] = []
    row = 0.0  # distance of the current row from the edge
    row_depth = 0.0
    cursor = x0
    for model in models:
        gap = GAP if isinstance(model, Fighter) else UNIT_GAP
        w, d = extent(model)
        if w > x1 - x0 or d > y1 - y0:
            raise ImportRefused([f"{source}: {label}: {model.name} ({w:.1f}\" × {d:.1f}\") "
                                 f"is larger than its deployment area"])
        while True:
            if cursor + w > x1 + 1e-9:  # next row
                row += row_depth + gap
                row_depth, cursor = 0.0, x0
            if row + d > (y1 - y0) + 1e-9:
                raise ImportRefused([
                    f"{source}: {label}: {len(models)} "
                    f"{'fighters' if isinstance(model, Fighter) else 'units'} do not fit in "
                    f"its deployment area ({x1 - x0:g}\" × {y1 - y0:g}\" of a "
                    f"{field.width:g}\" × {field.depth:g}\" battlefield); import a larger "
                    "map or start from a larger battlefield (--into)"])
            cy = y0 + row + d / 2 if bottom else y1 - row - d / 2
            cx = cursor + w / 2
            footprint = box(cx - w / 2 - gap / 2, cy - d / 2 - gap / 2,
                            cx + w / 2 + gap / 2, cy + d / 2 + gap / 2)
            hits = [] if tree is None else tree.query(footprint, predicate="intersects")
            if len(hits) == 0 and not any(footprint.intersects(p) for p in taken[start:]):
                break
            cursor += STEP
        new = replace(model, x=round(cx, 6), y=round(cy, 6), facing=facing)
        placed.append(new)
        taken.append(_shape(new).buffer(0.01))
        row_depth = max(row_depth, d)
        cursor += w + gap
    return placed


def occupied(models: Sequence[Model]) -> list[Polygon]:
    """The outlines of models already on the battlefield."""
    return [_shape(m).buffer(0.01) for m in models]
