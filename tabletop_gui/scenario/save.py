"""Writing scenario files: a canonical JSON document, saved atomically.

The same Scenario always gives the same bytes: fields in the order of the format page,
characteristics, weapon fields, state keys and options in their ruleset's declaration
order, indent 2, any object or list that fits in 100 columns on one line, UTF-8, a
trailing newline. Whole-number lengths are written without ``.0``; loading turns them back into
the same floats, so load -> save -> load gives an equal document.

Saving writes a temporary file in the target's folder, flushes and fsyncs it, then
renames it over the target (``os.replace``): a failure at any point leaves the old file
as it was and removes the temporary file.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tabletop_gui.rules.registry import INFOS
from tabletop_gui.scenario.entities import (
    Fighter,
    Obstacle,
    Platform,
    RectBase,
    RoundBase,
    Scenario,
    Unit,
    Weapon,
)
from tabletop_gui.scenario.load import FORMAT, SCHEMA_VERSION

LINE_WIDTH = 100


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The scenario as a JSON-ready document (plain dicts, lists, numbers, strings)."""
    info = INFOS.get(scenario.ruleset)
    decl = info.declaration if info else None
    order = _Order(
        options=[o.key for o in info.ruleset_options] if info else [],
        characteristics=[f.name for f in decl.characteristics] if decl else [],
        weapon=[f.name for f in decl.weapon_fields] if decl else [],
        state=[f.name for f in decl.state] if decl else [],
    )
    field = scenario.battlefield
    grid = field.grid
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "name": scenario.name,
        "ruleset": scenario.ruleset,
        "ruleset_options": _ordered(scenario.ruleset_options, order.options),
        "battlefield": {
            "width": _num(field.width),
            "depth": _num(field.depth),
            "grid": None if grid is None else {"kind": grid.kind, "size": _num(grid.size)},
            # written only when there is one: files without a picture stay as they were
            **({} if field.background is None else {
                "background": {"image": field.background.image}}),
        },
        "sides": [{"id": s.id, "name": s.name, "color": s.color} for s in scenario.sides],
        "fighters": [_fighter(f, order) for f in scenario.fighters],
        "units": [_unit(u, order) for u in scenario.units],
        "obstacles": [_obstacle(o) for o in scenario.obstacles],
        "platforms": [_platform(p) for p in scenario.platforms],
    }


def dumps_scenario(scenario: Scenario) -> str:
    """The scenario as canonical JSON text (what ``save_scenario`` writes)."""
    return _format(scenario_to_json(scenario), 0, 0) + "\n"


def save_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write the scenario to ``path`` atomically (temporary file, fsync, rename)."""
    data = dumps_scenario(scenario).encode("utf-8")
    target = Path(path)
    folder = target.absolute().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(folder)


# -- entities -----------------------------------------------------------------------------


class _Order:
    def __init__(self, options: list[str], characteristics: list[str], weapon: list[str],
                 state: list[str]) -> None:
        self.options = options
        self.characteristics = characteristics
        self.weapon = weapon
        self.state = state


def _fighter(f: Fighter, order: _Order) -> dict[str, Any]:
    base = f.base
    if isinstance(base, RoundBase):
        base_doc: dict[str, Any] = {"shape": "round", "diameter_mm": _num(base.diameter_mm)}
    elif isinstance(base, RectBase):
        base_doc = {"shape": "rect", "width_mm": _num(base.width_mm),
                    "depth_mm": _num(base.depth_mm)}
    else:
        base_doc = {"shape": "oval", "length_mm": _num(base.length_mm),
                    "width_mm": _num(base.width_mm)}
    return {
        "id": f.id, "name": f.name, "side": f.side,
        "x": _num(f.x), "y": _num(f.y), "facing": _num(f.facing),
        "base": base_doc,
        "elevation": None if f.elevation is None else _num(f.elevation),
        "height": _num(f.height),
        "characteristics": _ordered(f.characteristics, order.characteristics),
        "traits": _traits(f.traits),
        "weapons": [_weapon(w, order) for w in f.weapons],
        "state": _ordered(f.state, order.state),
    }


def _unit(u: Unit, order: _Order) -> dict[str, Any]:
    return {
        "id": u.id, "name": u.name, "side": u.side,
        "x": _num(u.x), "y": _num(u.y), "facing": _num(u.facing),
        "models": u.models, "files": u.files,
        "base_mm": [_num(u.base_mm[0]), _num(u.base_mm[1])],
        "round_base": u.round_base,
        "characteristics": _ordered(u.characteristics, order.characteristics),
        "height_class": u.height_class,
        "traits": _traits(u.traits),
        "weapons": [_weapon(w, order) for w in u.weapons],
        "state": _ordered(u.state, order.state),
    }


def _obstacle(o: Obstacle) -> dict[str, Any]:
    return {"id": o.id, "name": o.name, "polygon": _polygon(o.polygon),
            "height": _num(o.height), "blocks_sight": o.blocks_sight, "cover": o.cover}


def _platform(p: Platform) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "polygon": _polygon(p.polygon), "height": _num(p.height)}


def _weapon(w: Weapon, order: _Order) -> dict[str, Any]:
    return {"name": w.name, **_ordered(w.values, order.weapon)}


def _traits(traits: Iterable[Any]) -> list[Any]:
    return [dict(t) if isinstance(t, Mapping) else t for t in traits]


def _polygon(points: Iterable[tuple[float, float]]) -> list[list[float | int]]:
    return [[_num(x), _num(y)] for x, y in points]


def _ordered(values: Mapping[str, Any], order: list[str]) -> dict[str, Any]:
    """Declared keys in declaration order, then any others sorted; values copied."""
    keys = [k for k in order if k in values] + sorted(k for k in values if k not in order)
    return {k: copy.deepcopy(values[k]) for k in keys}


def _num(x: float) -> float | int:
    """Whole floats as ints (``6`` not ``6.0``); they load back as the same float."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


def _format(value: Any, indent: int, start: int = 0) -> str:
    """JSON with indent 2; a value stays on one line when it ends within LINE_WIDTH.

    ``indent`` is the indentation of the line the value starts on, ``start`` the column
    where it starts (after its key).
    """
    container = isinstance(value, dict | list)
    # n items need at least 3n - 2 characters on one line ("[1, 2]"): skip hopeless tries
    if not container or not value or 3 * len(value) - 2 + max(indent, start) <= LINE_WIDTH:
        flat = _ENCODER.encode(value)
        if not container or not value or max(indent, start) + len(flat) <= LINE_WIDTH:
            return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        lines = []
        for k, v in value.items():
            key = f"{pad}{_ENCODER.encode(k)}: "
            lines.append(key + _format(v, indent + 2, len(key)))
        return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"
    lines = [pad + _format(v, indent + 2, indent + 2) for v in value]
    return "[\n" + ",\n".join(lines) + "\n" + " " * indent + "]"


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable where the platform allows it (POSIX)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
