"""The largest battlefields of issue 12, written as scenario files for the GUI tests."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.scenario.save import save_scenario

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"


COLUMNS = 50


def warcry_crowd(path: Path, fighters: int = 2000) -> Path:
    """``fighters`` Warcry fighters (32 mm bases, sword and bow), half a side each, in
    ranks of ``COLUMNS`` facing each other across a 6" gap, all on the table (97" x 98"
    for 2,000), with the benchmark crowd's wall and tower between the armies."""
    crowd = crowd_scenario(2)
    rows = -(-fighters // COLUMNS)
    half = rows // 2
    width, depth = COLUMNS * 1.9 + 2.0, rows * 2.3 + 6.0
    template = crowd.fighters[0]
    models = tuple(
        replace(template, id=f"m{i}", name=f"Model {i}",
                side="red" if i // COLUMNS < half else "blue",
                x=2.0 + (i % COLUMNS) * 1.9,
                y=2.0 + (i // COLUMNS) * 2.3 + (6.0 if i // COLUMNS >= half else 0.0),
                facing=90.0 if i // COLUMNS < half else 270.0)
        for i in range(fighters))
    middle = 2.0 + half * 2.3 + 1.6
    wall = replace(crowd.obstacles[0], polygon=((10, middle), (20, middle),
                                                (20, middle + 0.5), (10, middle + 0.5)))
    tower = replace(crowd.platforms[0], polygon=((40, middle - 2), (46, middle - 2),
                                                 (46, middle + 4), (40, middle + 4)))
    save_scenario(replace(crowd, name=f"{fighters} fighters",
                          battlefield=replace(crowd.battlefield, width=width, depth=depth),
                          fighters=models, obstacles=(wall,), platforms=(tower,)), path)
    return path


def ninth_age_host(path: Path, copies: int = 26, across: int = 6) -> Path:
    """The Ninth Age demo (6 units, its forest, wall, tower and hill) ``copies`` times,
    ``across`` tables side by side: 156 units on 288" x 180" by default."""
    demo = json.loads((DEMOS / "ninth-age.battle.json").read_text(encoding="utf-8"))
    width, depth = demo["battlefield"]["width"], demo["battlefield"]["depth"]
    out: dict[str, list[dict[str, Any]]] = {"units": [], "obstacles": [], "platforms": []}
    for k in range(copies):
        dx, dy = (k % across) * width, (k // across) * depth
        for unit in demo["units"]:
            u = copy.deepcopy(unit)
            u.update(id=f"{u['id']}_{k}", name=f"{u['name']} {k}", x=u["x"] + dx,
                     y=u["y"] + dy)
            out["units"].append(u)
        for kind in ("obstacles", "platforms"):
            for piece in demo[kind]:
                p = copy.deepcopy(piece)
                p.update(id=f"{p['id']}_{k}",
                         polygon=[[x + dx, y + dy] for x, y in p["polygon"]])
                out[kind].append(p)
    demo.update(out)
    demo["name"] = f"{len(out['units'])} units"
    demo["battlefield"].update(width=width * across, depth=depth * -(-copies // across))
    path.write_text(json.dumps(demo), encoding="utf-8")
    return path
