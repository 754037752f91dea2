"""Tabletop Simulator saves give positions and facings.

``ObjectStates[]`` objects whose ``Nickname`` matches a fighter's or unit's name (any
case) move it: one table unit is one inch, the table's centre is the battlefield's
centre, so x = posX + width/2, y = posZ + depth/2, and facing = 90° − rotY. Several
models of one name (``Iron Legionary``, ``Iron Legionary (2)``...) take the objects of
that name in order. Objects left over are warnings, one line each (unnamed objects, the
table and dice, are counted in one line).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tabletop_gui.importers.sources import ImportRefused, located
from tabletop_gui.scenario.entities import Model
from tabletop_gui.scenario.problems import shown

MAX_SHOWN = 20
_NUMBERED = re.compile(r"^(.*) \((\d+)\)$")


@dataclass(frozen=True)
class TableObject:
    name: str
    x: float
    z: float
    rot_y: float
    place: str


def is_tts_save(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("ObjectStates"), list)


def objects_from_json(document: Any, source: str) -> tuple[list[TableObject], int]:
    """The named objects on the table and how many had no name."""
    errors: list[str] = []
    out: list[TableObject] = []
    unnamed = 0
    for i, obj in enumerate(document["ObjectStates"]):
        place = f"ObjectStates[{i}]"
        if not isinstance(obj, dict):
            errors.append(located(source, place, f"must be an object, not {shown(obj)}"))
            continue
        name = obj.get("Nickname", "")
        if not isinstance(name, str) or not name.strip():
            unnamed += 1
            continue
        t = obj.get("Transform")
        if not isinstance(t, dict):
            errors.append(located(source, f"{place}.Transform", "missing: no position"))
            continue
        values = []
        for key in ("posX", "posZ", "rotY"):
            v = t.get(key, 0.0)
            if isinstance(v, bool) or not isinstance(v, int | float) \
                    or not math.isfinite(float(v)) or abs(v) > 1e6:
                errors.append(located(source, f"{place}.Transform.{key}",
                                      f"must be a number, not {shown(v)}"))
                break
            values.append(float(v))
        if len(values) == 3:
            out.append(TableObject(" ".join(name.split()), values[0], values[1], values[2],
                                   place=f"{place} {shown(name)}"))
    if errors:
        raise ImportRefused(errors)
    return out, unnamed


def _base_name(name: str) -> str:
    m = _NUMBERED.match(name)
    return m.group(1) if m else name


def apply_positions(models: Sequence[Model], objects: Sequence[TableObject], unnamed: int,
                    width: float, depth: float, source: str) -> tuple[list[Model], list[str],
                                                                      int]:
    """The models moved where their objects stand, the warnings, how many were moved."""
    out = list(models)
    warnings: list[str] = []
    free = {i for i in range(len(out))}
    moved = 0
    for obj in objects:
        key = obj.name.casefold()
        exact = [i for i in sorted(free) if out[i].name.casefold() == key]
        same = exact or [i for i in sorted(free) if _base_name(out[i].name).casefold() == key]
        if not same:
            if len(warnings) < MAX_SHOWN:
                warnings.append(located(source, obj.place, "no fighter or unit of that name: "
                                                           "not used"))
            continue
        i = same[0]
        free.discard(i)
        x, y = round(obj.x + width / 2, 6), round(obj.z + depth / 2, 6)
        facing = round((90.0 - obj.rot_y) % 360.0, 6)
        out[i] = replace(out[i], x=x, y=y, facing=facing)
        moved += 1
        if not (0 <= x <= width and 0 <= y <= depth):
            warnings.append(located(source, obj.place, f"{out[i].name} stands off the "
                                                       f"battlefield at ({x:g}, {y:g})"))
    unmatched = sum(1 for o in objects) - moved
    if unmatched > MAX_SHOWN:
        warnings.append(located(source, "", f"{unmatched} named objects matched no fighter "
                                            f"or unit (the first {MAX_SHOWN} are listed)"))
    if unnamed:
        warnings.append(located(source, "", f"{unnamed} objects without a name (the table, "
                                            "dice, scenery) not used"))
    return out, warnings, moved
