"""Edits the canvas and panels make, as pure functions Scenario -> Scenario, with the names
shown in the Edit menu. The document pushes their results on the undo stack."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

from tabletop_gui.scenario.entities import (
    Entity,
    Fighter,
    Model,
    Obstacle,
    Platform,
    Scenario,
    Unit,
)

# merge ids: repeated steps of one kind on the same selection merge into one undo step
MERGE_NUDGE = 1001
MERGE_ROTATE = 1002


def describe(scenario: Scenario, ids: Iterable[str], noun: str = "models") -> str:
    """``Iron Sentinel`` for one entity, ``3 models`` for several."""
    ids = list(ids)
    if len(ids) == 1:
        e = scenario.entity(ids[0])
        if e is not None:
            return e.name or e.id
    return f"{len(ids)} {noun}"


def half_extent(model: Model) -> float:
    """Half the largest extent of a base or unit boundary (inches)."""
    if isinstance(model, Fighter):
        return 0.5 * max(model.base.length_in, model.base.width_in)
    return 0.5 * max(model.width_in, model.depth_in)


def clamp_model(scenario: Scenario, model: Model, x: float, y: float) -> tuple[float, float]:
    """Keep a model's centre on the battlefield, its base inside when it fits."""
    bf = scenario.battlefield
    r = half_extent(model)
    rx, ry = min(r, bf.width / 2), min(r, bf.depth / 2)
    return min(max(x, rx), bf.width - rx), min(max(y, ry), bf.depth - ry)


def moved(entity: Entity, dx: float, dy: float) -> Entity:
    """An entity shifted by (dx, dy) inches."""
    if isinstance(entity, Fighter | Unit):
        return replace(entity, x=round(entity.x + dx, 6), y=round(entity.y + dy, 6))
    poly = tuple((round(x + dx, 6), round(y + dy, 6)) for x, y in entity.polygon)
    return replace(entity, polygon=poly)


def move(scenario: Scenario, ids: Iterable[str], dx: float, dy: float) -> Scenario:
    """Shift entities; models stay on the battlefield."""
    out = scenario
    for i in ids:
        e = scenario.entity(i)
        if e is None:
            continue
        m = moved(e, dx, dy)
        if isinstance(m, Fighter | Unit):
            x, y = clamp_model(scenario, m, m.x, m.y)
            m = replace(m, x=round(x, 6), y=round(y, 6))
        out = out.with_entity(m)
    return out


def place(scenario: Scenario, positions: Mapping[str, tuple[float, float]]) -> Scenario:
    """Put models at given centres (clamped to the battlefield)."""
    out = scenario
    for i, (x, y) in positions.items():
        m = scenario.model(i)
        if m is not None:
            cx, cy = clamp_model(scenario, m, x, y)
            out = out.with_entity(replace(m, x=round(cx, 6), y=round(cy, 6)))
    return out


def normal_angle(deg: float) -> float:
    a = round(deg % 360.0, 6)
    return 0.0 if a >= 360.0 else a


def rotate(scenario: Scenario, ids: Iterable[str], by: float) -> Scenario:
    """Turn models by ``by`` degrees (counter-clockwise); terrain is not turned."""
    out = scenario
    for i in ids:
        m = scenario.model(i)
        if m is not None:
            out = out.with_entity(replace(m, facing=normal_angle(m.facing + by)))
    return out


def face(scenario: Scenario, model_id: str, facing: float) -> Scenario:
    m = scenario.model(model_id)
    if m is None:
        return scenario
    return scenario.with_entity(replace(m, facing=normal_angle(facing)))


def delete(scenario: Scenario, ids: Iterable[str]) -> Scenario:
    out = scenario
    for i in ids:
        out = out.without_entity(i)
    return out


def add_terrain(scenario: Scenario, kind: str, polygon: list[tuple[float, float]],
                height: float) -> tuple[Scenario, str]:
    """A new obstacle or platform; returns the scenario and the new id."""
    poly = tuple((round(x, 6), round(y, 6)) for x, y in polygon)
    if kind == "platform":
        pid = scenario.new_id("p")
        return scenario.with_entity(Platform(pid, poly, height, f"Platform {pid}")), pid
    oid = scenario.new_id("o")
    return scenario.with_entity(Obstacle(oid, poly, height, f"Obstacle {oid}")), oid


def facing_towards(x0: float, y0: float, x1: float, y1: float) -> float:
    return normal_angle(math.degrees(math.atan2(y1 - y0, x1 - x0)))


def duplicate(scenario: Scenario, ids: Iterable[str], offset: float = 1.0
              ) -> tuple[Scenario, list[str]]:
    """Copies of entities with new ids, shifted by ``offset`` inches to the right."""
    out, new_ids = scenario, []
    for i in ids:
        e = scenario.entity(i)
        if e is None:
            continue
        prefix = {"fighter": "f", "unit": "u", "obstacle": "o", "platform": "p"}[e.kind]
        new_id = out.new_id(prefix)
        copy = replace(moved(e, offset, 0.0), id=new_id)
        if isinstance(copy, Fighter | Unit):
            x, y = clamp_model(out, copy, copy.x, copy.y)
            copy = replace(copy, x=x, y=y)
        out = out.with_entity(copy)
        new_ids.append(new_id)
    return out, new_ids
